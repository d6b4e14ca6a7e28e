/// The grid format common in Chinese cinema systems (`docs/formats/cinema-grid.md`):
/// `{"data":{"seats":[{"row_id","row_num","columns":[{"column_id","seat_no","seat_status","st"}]}]}}`.
/// Each column is one grid cell: `E` cells are aisles (they keep their width), `N` normal seats, `LK`
/// locked/sold, `L`/`R` the halves of a couple seat. `column_id` is the printed number, kept as printed.
enum CinemaGridFormat {
    static func convert(_ root: JSONValue, fallbackID: String) throws(LayoutError) -> ImportedVenue {
        var log = ProblemLog()
        guard let doc = root.object(at: "", into: &log), let data = doc.object("data", at: "", into: &log) else { throw log.error }
        let id = data.label("hall_id", at: "data", into: &log, required: false) ?? fallbackID
        let name = data.string("hall_name", at: "data", into: &log, required: false) ?? id
        var rows: [RowSpec] = []
        var statuses: [String: SeatStatus] = [:]
        var sources: [String] = []
        var rowIDs = Set<String>()
        for (r, rv) in (data.array("seats", at: "data", into: &log) ?? []).enumerated() {
            let rowPath = "data.seats[\(r)]"
            guard let row = rv.object(at: rowPath, into: &log) else { continue }
            let label = row.label("row_id", at: rowPath, into: &log, required: false) ?? ""
            let y = Double((row.integer("row_num", at: rowPath, into: &log, required: false) ?? (r + 1)) - 1)
            var specs: [SeatSpec] = []
            for (c, cv) in (row.array("columns", at: rowPath, into: &log) ?? []).enumerated() {
                let path = "\(rowPath).columns[\(c)]"
                guard let cell = cv.object(at: path, into: &log) else { continue }
                guard let st = cell.string("st", at: path, into: &log) else { continue }
                if st == "E" { continue }
                guard ["N", "LK", "L", "R"].contains(st) else {
                    log.add(path + ".st", "unknown cell code \"\(st)\" (expected E, N, LK, L or R)"); continue
                }
                guard let number = cell.label("column_id", at: path, into: &log) else { continue }
                if label.isEmpty { log.add(rowPath + ".row_id", "a row with seats needs its printed label"); break }
                let seatNo = cell.label("seat_no", at: path, into: &log, required: false)
                let seatID = (seatNo?.isEmpty == false ? seatNo! : "\(label)-\(number)")
                var status: SeatStatus = st == "LK" ? .sold : .available
                if let v = cell["seat_status"], v != .null {
                    switch v.intValue ?? v.stringValue.flatMap({ Int($0) }) {
                    case 0?: break
                    case 1?: status = .sold
                    case 2?: status = .held
                    case 3?: status = .blocked
                    default: log.add(path + ".seat_status", "expected 0 (available), 1 (sold), 2 (locked) or 3 (blocked), got \(v.shortDescription)")
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
        let zones = [Zone(id: "standard", name: "Standard", category: "standard", color: zonePalette[0])]
        let paths = sources
        let layout = try VenueLayout(
            validating: VenueSpec(id: id, name: name, stage: defaultScreen(for: rows), zones: zones, rows: rows),
            paths: SeatPathStyle(rowPath: { "data.seats[\($0)]" }, seatPath: { _, _, s in paths[s] }))
        return ImportedVenue(layout: layout, availability: ImportedVenue.availability(layout, statuses: statuses))
    }
}
