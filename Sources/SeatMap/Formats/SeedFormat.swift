import SeatJSON
/// The seed-style JSON (`docs/formats/seed.md`):
/// `{"screeningId", "seats": [{"id","row","col","status","type"}], "groups": [{"name","seatIds","boundary"}]}`.
/// Rows are `row` values (integer rows keep their gaps), columns are floor positions, so a gap in `col`
/// is an aisle; couples pair up left to right; groups become zones.
enum SeedFormat {
    static let statusNames: [String: SeatStatus] = [
        "available": .available, "free": .available, "held": .held, "locked": .held, "reserved": .held,
        "sold": .sold, "booked": .sold, "occupied": .sold, "blocked": .blocked, "unavailable": .blocked, "disabled": .blocked,
    ]
    static let typeNames: [String: SeatType] = [
        "standard": .standard, "normal": .standard, "regular": .standard, "wheelchair": .wheelchair,
        "companion": .companion, "couple": .coupleLeft, "coupleLeft": .coupleLeft, "coupleRight": .coupleRight,
        "exit": .emergencyExit, "emergencyExit": .emergencyExit,
    ]

    struct Parsed { var id: String; var row: String; var rowNumber: Int?; var col: Int; var status: SeatStatus; var type: SeatType; var source: Int }

    static func convert(_ root: JSONValue) throws(LayoutError) -> ImportedVenue {
        var log = ProblemLog()
        guard let doc = root.object(at: "", into: &log) else { throw log.error }
        let screening = doc.label("screeningId", at: "", into: &log) ?? "seed"
        let seatValues = doc.array("seats", at: "", into: &log) ?? []
        var parsed: [Parsed] = []
        parsed.reserveCapacity(seatValues.count)
        for (k, v) in seatValues.enumerated() {
            let path = "seats[\(k)]"
            guard let o = v.object(at: path, into: &log) else { continue }
            let id = o.label("id", at: path, into: &log)
            var rowNumber: Int? = nil
            var row: String? = nil
            if let r = o["row"] {
                if let i = r.intValue {
                    rowNumber = i; row = String(i)
                } else if let s = r.stringValue, !s.isEmpty {
                    row = s
                } else {
                    log.add(path + ".row", "expected string or integer, got \(r.shortDescription)")
                }
            } else {
                log.add(path + ".row", "missing (expected a string or integer)")
            }
            var col = o.integer("col", at: path, into: &log)
            if let c = col, !VenueLayout.checkCoordinate(Double(c), "col", { path }, &log) { col = nil }
            if let r = rowNumber, !VenueLayout.checkCoordinate(Double(r), "row", { path }, &log) { rowNumber = nil; row = nil }
            var status = SeatStatus.available
            if let s = o.string("status", at: path, into: &log, required: false) {
                if let known = statusNames[s] {
                    status = known
                } else {
                    log.add(path + ".status", "unknown status \"\(s)\" (expected available, held, sold or blocked)")
                }
            }
            var type = SeatType.standard
            if let t = o.string("type", at: path, into: &log, required: false) {
                if let known = typeNames[t] {
                    type = known
                } else {
                    log.add(path + ".type", "unknown type \"\(t)\" (expected standard, couple, wheelchair, companion or exit)")
                }
            }
            if let id, let row, let col { parsed.append(Parsed(id: id, row: row, rowNumber: rowNumber, col: col, status: status, type: type, source: k)) }
        }
        // Zones from groups; a seat in no group goes to "general".
        var zones: [Zone] = []
        var zoneOfSeat: [String: String] = [:]
        let known = Set(parsed.map(\.id))
        for (g, v) in (doc.array("groups", at: "", into: &log, required: false) ?? []).enumerated() {
            let path = "groups[\(g)]"
            guard let o = v.object(at: path, into: &log) else { continue }
            guard let name = o.label("name", at: path, into: &log) else { continue }
            if zones.contains(where: { $0.id == name }) { log.add(path + ".name", "duplicate group \"\(name)\""); continue }
            zones.append(Zone(id: name, name: name, category: name, color: zonePalette[zones.count % zonePalette.count]))
            for (k, s) in (o.array("seatIds", at: path, into: &log) ?? []).enumerated() {
                guard let sid = s.stringValue ?? s.intValue.map(String.init) else {
                    log.add("\(path).seatIds[\(k)]", "expected string, got \(s.shortDescription)"); continue
                }
                if !known.contains(sid) { log.add("\(path).seatIds[\(k)]", "unknown seat \"\(sid)\""); continue }
                if let other = zoneOfSeat[sid] { log.add("\(path).seatIds[\(k)]", "seat \"\(sid)\" is already in group \"\(other)\""); continue }
                zoneOfSeat[sid] = name
            }
        }
        if parsed.contains(where: { zoneOfSeat[$0.id] == nil }) {
            zones.append(Zone(id: "general", name: "普通区 General", category: "general", color: zonePalette[zones.count % zonePalette.count]))
        }
        // Rows: integer rows sit at their number, named rows in order of first appearance.
        var rowOrder: [String] = []
        var rowSeats: [String: [Parsed]] = [:]
        for p in parsed {
            if rowSeats[p.row] == nil { rowOrder.append(p.row) }
            rowSeats[p.row, default: []].append(p)
        }
        var rows: [RowSpec] = []
        for (r, label) in rowOrder.enumerated() {
            let seats = rowSeats[label]!.sorted { $0.col < $1.col }
            let y = Double(seats[0].rowNumber.map { $0 - 1 } ?? r)
            var specs = seats.map { p in
                SeatSpec(
                    id: p.id, label: String(p.col), x: Double(p.col - 1), y: y, type: p.type,
                    zone: zoneOfSeat[p.id] ?? "general", sourceIndex: p.source)
            }
            pairNeighbours(&specs, log: &log) { "seats[\($0)]" }
            rows.append(RowSpec(id: label, label: label, seats: specs))
        }
        try log.check()
        let layout = try VenueLayout(
            validating: VenueSpec(id: screening, name: screening, stage: defaultScreen(for: rows), zones: zones, rows: rows),
            paths: .flat("seats"))
        var statuses: [String: SeatStatus] = [:]
        for p in parsed { statuses[p.id] = p.status }
        return ImportedVenue(layout: layout, availability: ImportedVenue.availability(layout, statuses: statuses))
    }

    /// Pairs couple seats left to right (`couple`, or explicit halves) and gives each companion the
    /// wheelchair space beside it. Seats must already be in floor order.
    static func pairNeighbours(_ specs: inout [SeatSpec], log: inout ProblemLog, path: (Int) -> String) {
        var i = 0
        while i < specs.count {
            if specs[i].type == .coupleLeft {
                let adjacent = i + 1 < specs.count && specs[i + 1].type.isCouple && specs[i + 1].x - specs[i].x <= aisleGapThreshold
                if adjacent {
                    specs[i + 1].type = .coupleRight
                    specs[i].partner = specs[i + 1].id
                    specs[i + 1].partner = specs[i].id
                    i += 2
                    continue
                }
                log.add(path(specs[i].sourceIndex), "couple seat \"\(specs[i].id)\" has no partner beside it")
            } else if specs[i].type == .coupleRight {
                log.add(path(specs[i].sourceIndex), "couple seat \"\(specs[i].id)\" has no left half beside it")
            }
            i += 1
        }
        for k in specs.indices where specs[k].type == .companion {
            let near = [k - 1, k + 1].filter {
                $0 >= 0 && $0 < specs.count && specs[$0].type == .wheelchair && abs(specs[$0].x - specs[k].x) <= aisleGapThreshold
            }
            if let w = near.first {
                specs[k].partner = specs[w].id
            } else {
                log.add(path(specs[k].sourceIndex), "companion seat \"\(specs[k].id)\" has no wheelchair space beside it")
            }
        }
    }
}
