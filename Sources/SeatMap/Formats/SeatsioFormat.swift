import SeatJSON

/// A seats.io chart's detailed report (`GET /reports/charts/{key}/byLabel`, `byObjectType`,
/// `byCategoryKey`, `byCategoryLabel` or `bySection`: every one a map of lists of objects, or such a
/// list saved bare; `docs/formats/seatsio.md`). Each object is a seat (of a row or of a table), a
/// table, a general-admission area or a booth, with its labels, category and (areas) capacity.
/// A report has no coordinates, so the plan is schematic: the stage at the top, the areas under it
/// side by side, then each section's rows in order (seats along a row by their neighbours, else by
/// number), then the tables in a line. Categories become zones; object types and their spellings are
/// read as the API and the renderer write them (`seat`/`Seat`, `generalAdmissionArea`/
/// `GeneralAdmissionArea`).
enum SeatsioFormat {
    /// Whether a document looks like a chart report: a list, or a map of lists, of objects with an
    /// `objectType` and a `label`.
    static func recognises(_ root: JSONValue) -> Bool {
        let lists = root.arrayValue.map { [$0] } ?? root.objectValue?.values.compactMap(\.arrayValue) ?? []
        guard let first = lists.first(where: { !$0.isEmpty })?.first?.objectValue else { return false }
        return first["objectType"] != nil && first["label"] != nil
    }

    struct Object {
        var path: String
        var kind: String
        var id: String
        var label: String
        var parent: (label: String, type: String)?
        var section: String?
        var category: String?
        var o: JSONObject
    }

    static func convert(_ root: JSONValue, fallbackID: String) throws(LayoutError) -> ImportedVenue {
        var log = ProblemLog()
        var objects: [Object] = [], seen = Set<String>()
        // Every list of the report (a map of lists, or one list), each object once (a by-category report
        // lists a table's seats under the table's category and their own).
        let lists: [(String, [JSONValue])] =
            root.arrayValue.map { [("", $0)] } ?? (root.objectValue.map { o in o.keys.compactMap { k in o[k]?.arrayValue.map { (k, $0) } } } ?? [])
        if lists.isEmpty { log.add("", "expected a seats.io chart report: a list of objects, or a map of such lists") }
        for (key, list) in lists {
            for (k, v) in list.enumerated() {
                let path = key.isEmpty ? "[\(k)]" : "\(key)[\(k)]"
                guard let o = v.object(at: path, into: &log) else { continue }
                guard let kindText = o.string("objectType", at: path, into: &log), let label = o.label("label", at: path, into: &log) else { continue }
                let kind = kindText.lowercased()
                guard ["seat", "table", "generaladmissionarea", "booth"].contains(kind) else {
                    log.add(path + ".objectType", "unknown object type \"\(kindText)\" (expected seat, table, generalAdmissionArea or booth)")
                    continue
                }
                let ids = o["ids"]?.objectValue, labels = o["labels"]?.objectValue
                let id = ids?["own"]?.stringValue ?? label
                guard seen.insert(kind + "\u{1F}" + id).inserted else { continue }
                let parentObject = labels?["parent"]?.objectValue
                let parent = (ids?["parent"]?.stringValue ?? parentObject?["label"]?.stringValue).map {
                    ($0, (parentObject?["type"]?.stringValue ?? "row").lowercased())
                }
                let own = labels?["own"]?.objectValue?["label"]?.stringValue ?? labels?["own"]?.stringValue ?? label
                let section = labels?["section"]?.stringValue ?? o["section"]?.stringValue
                let category = o["categoryLabel"]?.stringValue ?? o["categoryKey"].map { $0.stringValue ?? $0.shortDescription }
                objects.append(Object(path: path, kind: kind, id: id, label: own, parent: parent, section: section, category: category, o: o))
            }
        }
        try log.check()
        // A report is a map (its order is not the chart's): the objects in their ids' natural order
        // (A-2 before A-10), so the same chart gives the same plan whichever report it came as.
        objects.sort { naturalLess($0.id, $1.id) }

        // Zones: one a category, in that order; objects with none share one.
        var zones: [Zone] = []
        func zone(_ category: String?) -> String {
            let name = category ?? "General"
            if !zones.contains(where: { $0.id == name }) {
                zones.append(Zone(id: name, name: name, category: name, color: zonePalette[zones.count % zonePalette.count]))
            }
            return name
        }

        var paths: [String] = []
        func spec(_ s: Object, x: Double, y: Double) -> SeatSpec {
            paths.append(s.path)
            let accessible = s.o["isAccessible"]?.boolValue == true
            return SeatSpec(id: s.id, label: s.label, x: x, y: y, flags: accessible ? .accessible : [], zone: zone(s.category), sourceIndex: paths.count - 1)
        }

        // Rows: each section's rows in the order they first appear, seats along a row by their neighbours.
        let rowSeats = objects.filter { $0.kind == "seat" && $0.parent?.type != "table" }
        var rowKeys: [String] = [], byRow: [String: [Object]] = [:]
        for s in rowSeats {
            let key = (s.section ?? "") + "\u{1F}" + (s.parent?.label ?? "")
            if byRow[key] == nil { rowKeys.append(key) }
            byRow[key, default: []].append(s)
        }
        let sections = rowKeys.reduce(into: [String]()) { out, key in
            let section = String(key.split(separator: "\u{1F}", omittingEmptySubsequences: false)[0])
            if !out.contains(section) { out.append(section) }
        }
        let areaObjects = objects.filter { $0.kind == "generaladmissionarea" || $0.kind == "booth" }
        var y = areaObjects.isEmpty ? 2.0 : 7.0
        var rows: [RowSpec] = []
        let widest = Double(byRow.values.map(\.count).max() ?? 1)
        let middle = max(widest, Double(areaObjects.count) * 7) / 2 + 1
        for section in sections {
            for key in rowKeys where key.hasPrefix(section + "\u{1F}") {
                let seats = ordered(byRow[key]!)
                let rowLabel = seats[0].parent?.label ?? ""
                let start = middle - Double(seats.count - 1) / 2
                let specs = seats.enumerated().map { k, s in spec(s, x: start + Double(k), y: y) }
                rows.append(RowSpec(id: sections.count > 1 && !section.isEmpty ? "\(section)/\(rowLabel)" : rowLabel, label: rowLabel, seats: specs))
                y += 1
            }
            y += 1
        }

        // Areas under the stage, side by side; a booth is an area of one, sold whole.
        var areas: [Area] = []
        for (k, a) in areaObjects.enumerated() {
            // A booth is drawn a third of an area's width: it is one party's.
            let x0 = middle - Double(areaObjects.count) * 3.5 + Double(k) * 7, w = a.kind == "booth" ? 2.0 : 6.0
            let shape = [
                FloorPoint(x: x0 + 3 - w / 2, y: 2), FloorPoint(x: x0 + 3 + w / 2, y: 2), FloorPoint(x: x0 + 3 + w / 2, y: 5),
                FloorPoint(x: x0 + 3 - w / 2, y: 5),
            ]
            if a.kind == "booth" {
                areas.append(Area(id: a.id, name: a.label, zone: zone(a.category), capacity: 1, mode: .whole, shape: shape))
                continue
            }
            guard let capacity = a.o["capacity"]?.intValue else {
                log.add(a.path + ".capacity", "missing (a general-admission area needs its capacity)")
                continue
            }
            let mode: AreaMode
            switch a.o["areaType"]?.stringValue {
            case "fixedOccupancy"?: mode = .whole
            case "variableOccupancy"?:
                let low = a.o["minOccupancy"]?.intValue ?? 1, high = a.o["maxOccupancy"]?.intValue ?? capacity
                mode = .party(min: low, max: high)
            default: mode = a.o["bookAsAWhole"]?.boolValue == true ? .whole : .places
            }
            areas.append(Area(id: a.id, name: a.label, zone: zone(a.category), capacity: capacity, mode: mode, shape: shape))
        }

        // Tables in a line below the rows: each table's seats round its top, as seats.io numbers them.
        let tableSeats = objects.filter { $0.kind == "seat" && $0.parent?.type == "table" }
        var tableIDs: [String] = []
        for s in tableSeats where !tableIDs.contains(s.parent!.label) { tableIDs.append(s.parent!.label) }
        for t in objects where t.kind == "table" && !tableIDs.contains(t.id) { tableIDs.append(t.id) }
        var tables: [Table] = []
        let tableY = y + 2
        for (k, id) in tableIDs.enumerated() {
            let declared = objects.first { $0.kind == "table" && $0.id == id }
            let seats = ordered(tableSeats.filter { $0.parent?.label == id })
            guard !seats.isEmpty else {
                log.add(declared?.path ?? id, "table \(id) has no seats in the report (ask for it without bookWholeTables=true)")
                continue
            }
            let center = FloorPoint(x: middle - Double(tableIDs.count - 1) * 3 + Double(k) * 6, y: tableY)
            let chairs = Table.chairs(count: seats.count, shape: .round, center: center, width: 2, height: 2, tableID: id)
            let specs = zip(seats, chairs).map { s, chair in spec(s, x: chair.x, y: chair.y) }
            let whole = declared?.o["bookAsAWhole"]?.boolValue == true
            tables.append(
                Table(
                    id: id, name: declared?.label ?? id, zone: zone(declared?.category ?? seats[0].category), shape: .round, center: center, width: 2,
                    height: 2,
                    mode: whole ? .byTable : .bySeat, seats: specs))
        }
        try log.check()
        let stage = Stage(label: "舞台 Stage", center: FloorPoint(x: middle, y: 0), width: max(4, min(widest, 20)))
        let frozen = paths
        let layout = try VenueLayout(
            validating: VenueSpec(id: fallbackID, name: fallbackID, stage: stage, zones: zones, rows: rows, tables: tables, areas: areas),
            paths: SeatPathStyle(rowPath: { "row \($0 + 1)" }, seatPath: { _, _, s in s >= 0 && s < frozen.count ? frozen[s] : "seat" }))
        return ImportedVenue(
            layout: layout, availability: nil,
            notes: ["a seats.io chart report has no coordinates: rows, tables and areas are placed in order, not where the chart draws them"])
    }

    /// A row's (or table's) seats in floor order: along the chain of `leftNeighbour`/`rightNeighbour`
    /// when the report has it, else by their labels' numbers.
    static func ordered(_ seats: [Object]) -> [Object] {
        let byID = Dictionary(seats.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let neighbour = { (s: Object, side: String) -> String? in
            let v = s.o[side]
            return v?.objectValue?["label"]?.stringValue ?? v?.stringValue
        }
        if let first = seats.first(where: { s in neighbour(s, "leftNeighbour").flatMap { byID[$0] } == nil }),
            seats.contains(where: { neighbour($0, "rightNeighbour") != nil })
        {
            var chain = [first], seen: Set<String> = [first.id]
            while let next = neighbour(chain.last!, "rightNeighbour").flatMap({ byID[$0] }), seen.insert(next.id).inserted { chain.append(next) }
            if chain.count == seats.count { return chain }
        }
        return seats.sorted { naturalLess($0.label, $1.label) }
    }

    /// `A-2` before `A-10`: runs of digits compared as numbers, the rest as text.
    static func naturalLess(_ a: String, _ b: String) -> Bool {
        func runs(_ s: String) -> [(digits: Bool, text: Substring)] {
            var out: [(Bool, Substring)] = [], start = s.startIndex
            while start < s.endIndex {
                let digits = s[start].isNumber
                let end = s[start...].firstIndex { $0.isNumber != digits } ?? s.endIndex
                out.append((digits, s[start..<end]))
                start = end
            }
            return out
        }
        for (x, y) in zip(runs(a), runs(b)) where x.text != y.text {
            if x.digits && y.digits, let m = Int(x.text), let n = Int(y.text), m != n { return m < n }
            return x.text < y.text
        }
        return a.count < b.count
    }
}
