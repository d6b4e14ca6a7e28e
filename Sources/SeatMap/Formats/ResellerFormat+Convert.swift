import SeatJSON
extension ResellerFormat {
    /// One seat as the list gave it.
    struct Parsed {
        var id: String
        var row: String
        var label: String
        var x: Double
        var y: Double
        var kind: SeatKind
        var status: SeatStatus
        var piece: String?
        var pieceName: String?
        var path: String
    }

    static func convert(_ root: JSONValue, fallbackID: String, options: ImportOptions) throws(LayoutError) -> ImportedVenue {
        guard let (list, around, base) = seatList(root) else {
            throw LayoutError(problems: [LayoutProblem(path: "", message: "no seat list found (expected objects with seatNo and graphRow/graphCol)")])
        }
        var log = ProblemLog()
        var notes: [String] = []
        var ignored: [String: Int] = [:]
        var parsed: [Parsed] = []
        for (k, value) in list.enumerated() {
            let path = "\(base)[\(k)]"
            guard let o = value.object(at: path, into: &log) else { continue }
            guard let status = status(of: o, at: path, options: options, ignored: &ignored, log: &log) else { continue }  // deleted
            parsed.append(contentsOf: seat(o, at: path, status: status, log: &log).map { [$0] } ?? [])
        }
        try log.check()
        if !ignored.isEmpty {
            let seen = ignored.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
            notes.append("statuses ignored (not this format's codes): \(seen); map them with --status-map CODE=available|held|sold|blocked")
        }
        let (zones, zoneOf, grouped) = areas(parsed, notes: &notes)
        var rows: [RowSpec] = []
        var rowIDs = Set<String>()
        var statuses: [String: SeatStatus] = [:]
        let top = parsed.map(\.y).min() ?? 0, left = parsed.map(\.x).min() ?? 0
        for y in Set(parsed.map(\.y)).sorted() {
            var members = parsed.indices.filter { parsed[$0].y == y }.sorted { parsed[$0].x < parsed[$1].x }
            let label = parsed[members[0]].row
            let printed = Set(members.map { parsed[$0].row })
            if printed.count > 1 {
                notes.append(
                    "graphRow \(JSONWriter.format(y)): seats printed in rows \(printed.sorted().joined(separator: ", ")); the row is labelled \(label)")
            }
            var kept: [Int] = []
            for m in members {
                if let last = kept.last, parsed[last].x == parsed[m].x {
                    notes.append("\(parsed[m].path): seat \(parsed[m].id) is at the same grid cell as \(parsed[last].id); left out")
                } else {
                    kept.append(m)
                }
            }
            members = kept
            var specs = members.map { m in
                SeatSpec(
                    id: parsed[m].id, label: parsed[m].label, x: parsed[m].x - left, y: parsed[m].y - top, zone: zoneOf[m], sourceIndex: m)
            }
            pair(&specs, members.map { parsed[$0] }, grouped: grouped, notes: &notes, statuses: &statuses)
            var rowID = label
            if rowIDs.contains(rowID) { rowID = "\(label)@\(JSONWriter.format(y))" }
            rowIDs.insert(rowID)
            rows.append(RowSpec(id: rowID, label: label, seats: specs))
        }
        var id = fallbackID, name: String?
        for o in around.reversed() {
            if id == fallbackID, let k = field(o, "hallId") ?? field(o, "hallNo") ?? field(o, "hallCode") {
                id = o[k]?.stringValue ?? o[k]?.intValue.map(String.init) ?? id
            }
            if name == nil, let k = field(o, "hallName") { name = o[k]?.stringValue }
        }
        let paths = parsed.map(\.path)
        let layout = try VenueLayout(
            validating: VenueSpec(id: id, name: name ?? id, stage: defaultScreen(for: rows), zones: zones, rows: rows),
            paths: SeatPathStyle(rowPath: { "graphRow \($0)" }, seatPath: { _, _, s in paths[s] }))
        return ImportedVenue(layout: layout, availability: ImportedVenue.availability(layout, statuses: statuses), notes: notes)
    }
}
