import SeatJSON
/// The grid format common in Chinese cinema systems and the captures copied from their apps
/// (`docs/formats/cinema-grid.md`), in either spelling and with or without the `data` wrapper:
/// `{"data":{"seats":[{"row_id","row_num","columns":[{"column_id","seat_no","seat_status","st"}]}]}}` or
/// `{"seats":[{"rowId","rowNum","columns":[{"columnId","seatNo","st"}]}]}`.
/// Each column is one grid cell: `E` cells are aisles (they keep their width), `N` normal seats, `LK`
/// locked/sold, `L`/`R` the halves of a couple seat. `st` alone decides whether a cell is a seat and
/// whether it is sold. A numeric status means different things from vendor to vendor (one system's 1 is
/// "available", another's "sold"), so it is ignored unless the caller maps its codes
/// (`ImportOptions.statusMap`); the notes say which codes were seen and ignored.
enum CinemaGridFormat {
    /// Where the rows are: `data.seats` or a top-level `seats` of rows with `columns`.
    static func recognises(_ o: JSONObject) -> Bool {
        // A flat seat list in a `data` wrapper is the reseller shape.
        if let seats = o["data"]?.objectValue?["seats"] { return !(seats.arrayValue?.first?.objectValue.map(ResellerFormat.looksLikeSeat) ?? false) }
        guard o["groups"] == nil, let rows = o["seats"]?.arrayValue else { return false }
        return rows.first?.objectValue?["columns"] != nil || rows.isEmpty
    }

    static func convert(_ root: JSONValue, fallbackID: String, options: ImportOptions) throws(LayoutError) -> ImportedVenue {
        var log = ProblemLog()
        guard let doc = root.object(at: "", into: &log) else { throw log.error }
        let wrapped = doc["data"]?.objectValue != nil
        guard let hall = wrapped ? doc.object("data", at: "", into: &log) : doc else { throw log.error }
        let base = wrapped ? "data" : ""
        @Sendable func at(_ path: String) -> String { base.isEmpty ? path : "\(base).\(path)" }
        let id = hall.label(Self.key(hall, "hall_id", "hallId"), at: base, into: &log, required: false) ?? fallbackID
        let name = hall.string(Self.key(hall, "hall_name", "hallName"), at: base, into: &log, required: false) ?? id
        var rows: [RowSpec] = []
        var statuses: [String: SeatStatus] = [:]
        var sources: [String] = []
        var rowIDs = Set<String>()
        var ignoredCodes: [String: Int] = [:]
        var notes: [String] = []
        for (r, rv) in (hall.array("seats", at: base, into: &log) ?? []).enumerated() {
            let rowPath = at("seats[\(r)]")
            guard let row = rv.object(at: rowPath, into: &log) else { continue }
            let label = row.label(Self.key(row, "row_id", "rowId"), at: rowPath, into: &log, required: false) ?? ""
            let rowNumKey = Self.key(row, "row_num", "rowNum")
            var rowNum = row.integer(rowNumKey, at: rowPath, into: &log, required: false) ?? (r + 1)
            if !VenueLayout.checkCoordinate(Double(rowNum), rowNumKey, { rowPath }, &log) { rowNum = 1 }
            let y = Double(rowNum - 1)
            var specs: [SeatSpec] = []
            for (c, cv) in (row.array("columns", at: rowPath, into: &log) ?? []).enumerated() {
                let path = "\(rowPath).columns[\(c)]"
                guard let cell = cv.object(at: path, into: &log) else { continue }
                guard let st = cell.string("st", at: path, into: &log) else { continue }
                if st == "E" { continue }
                guard ["N", "LK", "L", "R"].contains(st) else {
                    log.add(path + ".st", "unknown cell code \"\(st)\" (expected E, N, LK, L or R)"); continue
                }
                guard let number = cell.label(Self.key(cell, "column_id", "columnId"), at: path, into: &log) else { continue }
                if label.isEmpty { log.add(rowPath + ".row_id", "a row with seats needs its printed label"); break }
                let seatNo = cell.label(Self.key(cell, "seat_no", "seatNo"), at: path, into: &log, required: false)
                let seatID = (seatNo?.isEmpty == false ? seatNo! : "\(label)-\(number)")
                var status: SeatStatus = st == "LK" ? .sold : .available
                let statusKey = Self.key(cell, "seat_status", "seatStatus")
                if let v = cell[statusKey], v != .null {
                    let code = v.intValue.map(String.init) ?? v.stringValue ?? v.shortDescription
                    if let mapped = options.statusMap[code] {
                        // st decides whether a seat is sold; a mapped code only says more of one for sale.
                        if (st == "LK") != (mapped == .sold) {
                            notes.append("\(path): st \(st) (\(status.name)) but \(statusKey) \(code) maps to \(mapped.name); kept \(status.name)")
                        } else {
                            status = mapped
                        }
                    } else {
                        ignoredCodes["\(statusKey) \(code)", default: 0] += 1
                    }
                }
                statuses[seatID] = status
                let type: SeatType = st == "L" ? .coupleLeft : st == "R" ? .coupleRight : .standard
                specs.append(SeatSpec(id: seatID, label: number, x: Double(c), y: y, type: type, zone: "standard", sourceIndex: sources.count))
                sources.append(path)
            }
            if specs.isEmpty { continue }  // an aisle row keeps its place through row_num
            let srcs = sources
            SeedFormat.pairNeighbours(&specs, log: &log) { srcs[$0] }
            var rowID = label
            if rowIDs.contains(rowID) { rowID = "\(label)@\(Int(y) + 1)" }
            rowIDs.insert(rowID)
            rows.append(RowSpec(id: rowID, label: label, seats: specs))
        }
        try log.check()
        if !ignoredCodes.isEmpty {
            let seen = ignoredCodes.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
            notes.insert(
                "numeric statuses ignored (their meaning differs by vendor; st decides): \(seen); map them with --status-map CODE=available|held|sold|blocked",
                at: 0)
        }
        let zones = [Zone(id: "standard", name: "普通区 Standard", category: "standard", color: zonePalette[0])]
        let paths = sources
        let layout = try VenueLayout(
            validating: VenueSpec(id: id, name: name, stage: defaultScreen(for: rows), zones: zones, rows: rows),
            paths: SeatPathStyle(rowPath: { at("seats[\($0)]") }, seatPath: { _, _, s in paths[s] }))
        return ImportedVenue(layout: layout, availability: ImportedVenue.availability(layout, statuses: statuses), notes: notes)
    }

    /// The member's name as this document spells it (snake_case or camelCase); the snake_case name
    /// when it has neither, so a missing member is reported as the format documents it.
    static func key(_ o: JSONObject, _ snake: String, _ camel: String) -> String {
        o[snake] == nil && o[camel] != nil ? camel : snake
    }
}
