import SeatJSON
/// pretix's published seating-plan JSON (`docs/formats/pretix.md`): zones → rows → seats with
/// `seat_guid`, `seat_number`, `position` and `category`; positions are pixels relative to the row,
/// rows relative to the zone. Categories become SeatKit zones; pixel positions are divided by the
/// typical seat spacing to give grid units; an area labelled as a stage or screen becomes the stage.
enum PretixFormat {
    static func convert(_ root: JSONValue, fallbackID: String) throws(LayoutError) -> ImportedVenue {
        var log = ProblemLog()
        guard let doc = root.object(at: "", into: &log) else { throw log.error }
        doc.rejectUnknownKeys(["name", "zones", "categories", "size"], at: "", into: &log)
        let name = doc.string("name", at: "", into: &log) ?? fallbackID
        var zones: [Zone] = []
        for (k, v) in (doc.array("categories", at: "", into: &log) ?? []).enumerated() {
            guard let o = v.object(at: "categories[\(k)]", into: &log), let cname = o.string("name", at: "categories[\(k)]", into: &log) else { continue }
            var color = o.string("color", at: "categories[\(k)]", into: &log, required: false) ?? ""
            if color.utf8.count == 4, color.hasPrefix("#") { color = "#" + color.dropFirst().map { "\($0)\($0)" }.joined() }
            if !VenueLayout.isHexColor(color) { color = zonePalette[k % zonePalette.count] }
            zones.append(Zone(id: cname, name: cname, category: cname, color: color.uppercased()))
        }
        struct Raw { var guid: String; var number: String; var x: Double; var y: Double; var category: String; var path: String }
        var rawRows: [(id: String, label: String, seats: [Raw])] = []
        var stage: (label: String, x: Double, y: Double, width: Double, height: Double)?
        let zoneValues = doc.array("zones", at: "", into: &log) ?? []
        for (z, zv) in zoneValues.enumerated() {
            let zp = "zones[\(z)]"
            guard let zone = zv.object(at: zp, into: &log) else { continue }
            let zoneName = zone.string("name", at: zp, into: &log, required: false) ?? "zone \(z + 1)"
            let (zx, zy) = position(zone, zp, &log)
            for (a, av) in (zone.array("areas", at: zp, into: &log, required: false) ?? []).enumerated() {
                let ap = "\(zp).areas[\(a)]"
                guard let area = av.object(at: ap, into: &log), let found = Self.area(area, at: ap, log: &log) else { continue }
                let lower = found.text.lowercased()
                if stage == nil, ["stage", "screen", "bühne", "leinwand", "舞台", "银幕"].contains(where: { lower.contains($0) }) {
                    stage = (found.text, zx + found.x, zy + found.y, found.width, found.height)
                }
            }
            for (r, rv) in (zone.array("rows", at: zp, into: &log) ?? []).enumerated() {
                let rp = "\(zp).rows[\(r)]"
                guard let row = rv.object(at: rp, into: &log) else { continue }
                let number = row.label("row_number", at: rp, into: &log) ?? ""
                let (rx, ry) = position(row, rp, &log, required: false)
                var seats: [Raw] = []
                for (s, sv) in (row.array("seats", at: rp, into: &log) ?? []).enumerated() {
                    let sp = "\(rp).seats[\(s)]"
                    guard let seat = sv.object(at: sp, into: &log) else { continue }
                    let guid = seat.label("seat_guid", at: sp, into: &log)
                    let label = seat.label("seat_number", at: sp, into: &log)
                    let (sx, sy) = position(seat, sp, &log)
                    let category = seat.string("category", at: sp, into: &log)
                    if let category, !zones.contains(where: { $0.id == category }) {
                        log.add(sp + ".category", "unknown category \"\(category)\""); continue
                    }
                    if let guid, let label, let category {
                        seats.append(Raw(guid: guid, number: label, x: zx + rx + sx, y: zy + ry + sy, category: category, path: sp))
                    }
                }
                let rowID = zoneValues.count > 1 ? "\(zoneName)/\(number)" : number
                rawRows.append((rowID, number, seats))
            }
        }
        try log.check()
        // One grid unit is the median distance between neighbouring seats of a row.
        var gaps: [Double] = []
        for row in rawRows {
            for (a, b) in zip(row.seats, row.seats.dropFirst()) {
                let d = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                if d > 0 { gaps.append(d) }
            }
        }
        gaps.sort()
        let pitch = gaps.isEmpty ? 1 : gaps[gaps.count / 2]
        func grid(_ v: Double) -> Double { (v / pitch * 100).rounded() / 100 }
        var paths: [String] = []
        var rows: [RowSpec] = []
        for row in rawRows {
            let specs = row.seats.map { raw -> SeatSpec in
                paths.append(raw.path)
                return SeatSpec(id: raw.guid, label: raw.number, x: grid(raw.x), y: grid(raw.y), zone: raw.category, sourceIndex: paths.count - 1)
            }
            rows.append(RowSpec(id: row.id, label: row.label, seats: specs))
        }
        // The plan's stage at its own size; a stage area without one, or none, is a screen in front of the rows.
        let stageSpec =
            stage.flatMap { s in
                // As deep as the plan draws it (a stage 20 times wider than deep was drawn half as deep as wide).
                s.width > 0
                    ? Stage(
                        label: s.label, center: FloorPoint(x: grid(s.x), y: grid(s.y)), width: grid(s.width),
                        depth: s.height > 0 ? max(grid(s.height), 0.01) : nil) : nil
            }
            ?? defaultScreen(for: rows).map { screen in Stage(label: stage?.label ?? screen.label, center: screen.center, width: screen.width) }
        let frozen = paths
        let layout = try VenueLayout(
            validating: VenueSpec(id: fallbackID, name: name, stage: stageSpec, zones: zones, rows: rows),
            paths: SeatPathStyle(rowPath: { "row \($0 + 1)" }, seatPath: { _, _, s in frozen[s] }))
        return ImportedVenue(layout: layout, availability: nil)
    }

    /// An area's text, centre (relative to its zone) and width, in either shape pretix writes: the
    /// published schema's `{"text","width","height","position"}` (position the top-left corner), or the
    /// seating editor's `{"shape","text":{"text"},"rectangle":{"width","height"}}` /
    /// `"ellipse":{"radius":{"x","y"}}` (an ellipse's position is its centre).
    static func area(_ area: JSONObject, at path: String, log: inout ProblemLog) -> (text: String, x: Double, y: Double, width: Double, height: Double)? {
        let text: String
        switch area["text"] {
        case nil, .null?: text = ""
        case .string(let s)?: text = s
        case .object(let o)?: text = o["text"]?.stringValue ?? ""
        case let other?:
            log.add(path + ".text", "expected a string or an object with text, got \(other.shortDescription)")
            return nil
        }
        let (ax, ay) = position(area, path, &log)
        let rectangle = area["rectangle"]?.objectValue, radius = area["ellipse"]?.objectValue?["radius"]?.objectValue
        if let radius {
            return (text, ax, ay, 2 * (radius["x"]?.doubleValue ?? 0), 2 * (radius["y"]?.doubleValue ?? 0))
        }
        let w = area["width"]?.doubleValue ?? rectangle?["width"]?.doubleValue ?? 0
        let h = area["height"]?.doubleValue ?? rectangle?["height"]?.doubleValue ?? 0
        return (text, ax + w / 2, ay + h / 2, w, h)
    }

    static func position(_ o: JSONObject, _ path: String, _ log: inout ProblemLog, required: Bool = true) -> (Double, Double) {
        guard let p = o.object("position", at: path, into: &log, required: required) else { return (0, 0) }
        return (p.number("x", at: path + ".position", into: &log) ?? 0, p.number("y", at: path + ".position", into: &log) ?? 0)
    }
}
