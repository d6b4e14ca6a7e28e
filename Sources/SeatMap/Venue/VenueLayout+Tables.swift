import Foundation

extension VenueLayout {
    /// The tables, in document order.
    public var tables: [PlacedTable] { storage.tables }

    /// The table a seat is at; nil for any other seat or place.
    /// - Complexity: O(1).
    public func table(of i: SeatIndex) -> PlacedTable? {
        guard let first = storage.tables.first?.row else { return nil }
        let k = Int(storage.rowOf[i]) - first
        return k >= 0 && k < storage.tables.count ? storage.tables[k] : nil
    }

    /// How many rows are the document's (printed rows with labels): after them come the tables' rows
    /// and the areas'.
    public var documentRowCount: Int { storage.rows.count - storage.tables.count - storage.areas.count }

    /// The table with this id.
    /// - Complexity: O(tables).
    public func table(id: String) -> PlacedTable? { storage.tables.first { $0.table.id == id } }

    /// Checks `tables` and turns each into a row of its seats (after the document's rows), so the one
    /// builder makes every seat. Problems name `tables[k]` and its field.
    static func tableRows(_ tables: [Table], zones: [Zone], takenIDs: Set<String>, into log: inout ProblemLog) -> [RowSpec] {
        var seen = Set<String>()
        var rows: [RowSpec] = []
        for (k, table) in tables.enumerated() {
            let path = "tables[\(k)]"
            if table.id.isEmpty { log.add(path + ".id", "table id is empty") }
            if !seen.insert(table.id).inserted { log.add(path + ".id", "duplicate table id \"\(table.id)\"") }
            if takenIDs.contains(table.id) { log.add(path + ".id", "\"\(table.id)\" is also a row's or an area's id") }
            if table.name.isEmpty { log.add(path + ".name", "table name is empty") }
            if let zone = table.zone, !zones.contains(where: { $0.id == zone }) { log.add(path + ".zone", "unknown zone \"\(zone)\"") }
            _ = checkCoordinate(table.center.x, "x", { path }, &log)
            _ = checkCoordinate(table.center.y, "y", { path }, &log)
            for (field, size) in [("width", table.width), ("height", table.height)] where !(size > 0 && size <= Table.sizeLimit) {
                log.add("\(path).\(field)", "\(size) is out of range (expected more than 0, at most \(Int(Table.sizeLimit)))")
            }
            guard !table.seats.isEmpty && table.seats.count <= Table.seatLimit else {
                log.add(path + ".seats", "\(table.seats.count) seats (expected 1 to \(Table.seatLimit))")
                continue
            }
            if case .minimum(let n) = table.mode, !(1...table.seats.count).contains(n) {
                log.add(path + ".min", "\(n) is out of range (expected 1 to its \(table.seats.count) seats)")
            }
            // A seat far from its table is a mistake in the drawing: the picker would draw it across the room.
            for (s, seat) in table.seats.enumerated() where seat.x.isFinite && seat.y.isFinite {
                let off = table.distanceFromTop(FloorPoint(x: seat.x, y: seat.y))
                if off > Table.reach {
                    log.add(
                        "\(path).seats[\(s)]",
                        "(\(seat.x), \(seat.y)) is \(Double(Int(off * 10)) / 10) from the table's edge (a table's seats sit within \(Table.reach) of it)")
                }
                if seat.type == .place { log.add("\(path).seats[\(s)].type", "\"place\" is an area's") }
            }
            rows.append(RowSpec(id: table.id, label: table.name, zone: table.zone, seats: table.seats))
        }
        return rows
    }

    /// What is printed for a seat at a table: "1号桌3座", "Table 1, seat 3" (a name in both languages,
    /// "1号桌 Table 1", gives each its own).
    func printedTableSeat(_ table: Table, label: String, language: Language) -> String {
        Self.printedTableSeatFormat(language).replacingOccurrences(of: "{table}", with: localizedName(table.name, language))
            .replacingOccurrences(of: "{number}", with: label)
    }

    /// The template of a seat at a table: `{table}` and `{number}` stand for the table's name and the
    /// seat's (a page fills it as it fills `printedNameFormat`).
    public static func printedTableSeatFormat(_ language: Language) -> String {
        language == .chinese ? "{table}{number}座" : "{table}, seat {number}"
    }
}

/// Names may carry both languages, Chinese first: "VIP区 VIP", "1号桌 Table 1". This picks one.
public func localizedName(_ name: String, _ language: Language) -> String {
    let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
    guard parts.count == 2, parts[0].unicodeScalars.contains(where: { $0.value >= 0x2E80 }),
        !parts[1].unicodeScalars.contains(where: { $0.value >= 0x2E80 })
    else { return name }
    return language == .chinese ? parts[0] : parts[1]
}
