import SeatJSON
/// SeatKit's own layout format (`docs/formats/layout.md`): `{"format":"seatkit-layout","version":1,…}`.
extension VenueLayout {
    public static let formatName = "seatkit-layout"
    public static let formatVersion = 1

    /// Decodes and validates SeatKit layout JSON.
    /// - Complexity: O(bytes).
    public init(json bytes: [UInt8]) throws(LayoutError) {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw LayoutError(error) }
        self = try VenueLayout(jsonValue: root)
    }

    public init(jsonValue root: JSONValue) throws(LayoutError) {
        var log = ProblemLog()
        guard let doc = root.object(at: "", into: &log) else { throw log.error }
        doc.rejectUnknownKeys(["format", "version", "id", "name", "stage", "zones", "rows", "tables", "areas"], at: "", into: &log)
        if let format = doc.string("format", at: "", into: &log), format != Self.formatName {
            log.add("format", "expected \"\(Self.formatName)\", got \"\(format)\"")
        }
        if let version = doc.integer("version", at: "", into: &log), version != Self.formatVersion {
            log.add("version", "unsupported version \(version) (this build reads \(Self.formatVersion))")
        }
        let id = doc.string("id", at: "", into: &log) ?? ""
        let name = doc.string("name", at: "", into: &log, required: false) ?? id
        var stage: Stage?
        if let s = doc.object("stage", at: "", into: &log, required: false) {
            s.rejectUnknownKeys(["label", "x", "y", "width", "depth"], at: "stage", into: &log)
            stage = Stage(
                label: s.string("label", at: "stage", into: &log) ?? "",
                center: FloorPoint(
                    x: s.number("x", at: "stage", into: &log) ?? 0,
                    y: s.number("y", at: "stage", into: &log) ?? 0),
                width: s.number("width", at: "stage", into: &log) ?? 0,
                depth: s.number("depth", at: "stage", into: &log, required: false))
        }
        var zones: [Zone] = []
        for (k, v) in (doc.array("zones", at: "", into: &log) ?? []).enumerated() {
            guard let z = v.object(at: "zones[\(k)]", into: &log) else { continue }
            z.rejectUnknownKeys(["id", "name", "category", "color"], at: "zones[\(k)]", into: &log)
            let zid = z.string("id", at: "zones[\(k)]", into: &log) ?? ""
            zones.append(
                Zone(
                    id: zid, name: z.string("name", at: "zones[\(k)]", into: &log, required: false) ?? zid,
                    category: z.string("category", at: "zones[\(k)]", into: &log, required: false) ?? zid,
                    color: z.string("color", at: "zones[\(k)]", into: &log) ?? "#888888"))
        }
        var rows: [RowSpec] = []
        let rowValues = doc.array("rows", at: "", into: &log) ?? []
        rows.reserveCapacity(rowValues.count)
        for (r, rv) in rowValues.enumerated() {
            guard let row = rv.object(at: "rows[\(r)]", into: &log) else { continue }
            row.rejectUnknownKeys(["id", "label", "zone", "y", "seats"], at: "rows[\(r)]", into: &log)
            let label = row.label("label", at: "rows[\(r)]", into: &log) ?? ""
            let rowID = row.string("id", at: "rows[\(r)]", into: &log, required: false) ?? label
            let rowZone = row.string("zone", at: "rows[\(r)]", into: &log, required: false)
            let rowY = row.number("y", at: "rows[\(r)]", into: &log, required: false)
            let seatValues = row.array("seats", at: "rows[\(r)]", into: &log) ?? []
            var seats: [SeatSpec] = []
            seats.reserveCapacity(seatValues.count)
            for (s, sv) in seatValues.enumerated() {
                guard case .object(let seat) = sv else {
                    log.add("rows[\(r)].seats[\(s)]", "expected object, got \(sv.shortDescription)")
                    continue
                }
                if let spec = Self.decodeSeat(seat, rowY: rowY, log: &log, path: "rows[\(r)].seats[\(s)]") {
                    seats.append(spec)
                }
            }
            rows.append(RowSpec(id: rowID, label: label, zone: rowZone, seats: seats))
        }
        var tables: [Table] = []
        for (k, v) in (doc.array("tables", at: "", into: &log, required: false) ?? []).enumerated() {
            if let table = Self.decodeTable(v, path: "tables[\(k)]", log: &log) { tables.append(table) }
        }
        var areas: [Area] = []
        for (k, v) in (doc.array("areas", at: "", into: &log, required: false) ?? []).enumerated() {
            if let area = Self.decodeArea(v, path: "areas[\(k)]", log: &log) { areas.append(area) }
        }
        try log.check()
        self = try VenueLayout(validating: VenueSpec(id: id, name: name, stage: stage, zones: zones, rows: rows, tables: tables, areas: areas))
    }

    static let areaKeys = ["id", "name", "zone", "capacity", "mode", "min", "max", "shape"]

    /// `{"id","name","zone","capacity","mode":"places"|"whole"|"party","min","max","shape":[[x,y],…]}`.
    static func decodeArea(_ value: JSONValue, path: String, log: inout ProblemLog) -> Area? {
        guard let a = value.object(at: path, into: &log) else { return nil }
        a.rejectUnknownKeys(areaKeys, at: path, into: &log)
        let id = a.string("id", at: path, into: &log) ?? ""
        let name = a.string("name", at: path, into: &log, required: false) ?? id
        let zone = a.string("zone", at: path, into: &log, required: false)
        let capacity = a.integer("capacity", at: path, into: &log)
        var mode = AreaMode.places
        switch a.string("mode", at: path, into: &log, required: false) ?? "places" {
        case "places": mode = .places
        case "whole": mode = .whole
        case "party":
            let low = a.integer("min", at: path, into: &log) ?? 1, high = a.integer("max", at: path, into: &log) ?? capacity ?? 1
            mode = .party(min: low, max: high)
        case let other: log.add(path + ".mode", "unknown mode \"\(other)\" (expected places, whole or party)")
        }
        if case .party = mode {
        } else {
            for key in ["min", "max"] where a[key] != nil { log.add(path + "." + key, "only a party area has \(key)") }
        }
        var shape: [FloorPoint] = []
        for (p, point) in (a.array("shape", at: path, into: &log) ?? []).enumerated() {
            guard let xy = point.arrayValue, xy.count == 2, let x = xy[0].doubleValue, let y = xy[1].doubleValue else {
                let got = point.arrayValue.map { "\($0.count) value\($0.count == 1 ? "" : "s")" } ?? point.shortDescription
                log.add("\(path).shape[\(p)]", "expected a point [x, y] of two numbers, got \(got)")
                continue
            }
            shape.append(FloorPoint(x: x, y: y))
        }
        guard let capacity else { return nil }
        return Area(id: id, name: name, zone: zone, capacity: capacity, mode: mode, shape: shape)
    }

    static let tableKeys = ["id", "name", "zone", "shape", "x", "y", "width", "height", "mode", "min", "seats"]

    /// `{"id","name","zone","shape":"round"|"long","x","y","width","height","mode":"bySeat"|"byTable"|"minimum",
    /// "min","seats": 8 | [{"id","label","x","y","flags"?,"zone"?},…]}`: a count of seats placed round the
    /// top (`Table.chairs`), or each seat where it stands.
    static func decodeTable(_ value: JSONValue, path: String, log: inout ProblemLog) -> Table? {
        guard let t = value.object(at: path, into: &log) else { return nil }
        t.rejectUnknownKeys(tableKeys, at: path, into: &log)
        let id = t.string("id", at: path, into: &log) ?? ""
        let name = t.string("name", at: path, into: &log, required: false) ?? id
        let zone = t.string("zone", at: path, into: &log, required: false)
        let shapeName = t.string("shape", at: path, into: &log, required: false) ?? "round"
        let shape = TableShape(rawValue: shapeName)
        if shape == nil { log.add(path + ".shape", "unknown shape \"\(shapeName)\" (expected round or long)") }
        let center = FloorPoint(x: t.number("x", at: path, into: &log) ?? 0, y: t.number("y", at: path, into: &log) ?? 0)
        let width = t.number("width", at: path, into: &log, required: false) ?? 2
        let height = t.number("height", at: path, into: &log, required: false) ?? (shape == .long ? 1 : width)
        var mode = TableMode.bySeat
        switch t.string("mode", at: path, into: &log, required: false) ?? "bySeat" {
        case "bySeat": mode = .bySeat
        case "byTable": mode = .byTable
        case "minimum": mode = .minimum(t.integer("min", at: path, into: &log) ?? 1)
        case let other: log.add(path + ".mode", "unknown mode \"\(other)\" (expected bySeat, byTable or minimum)")
        }
        if t["min"] != nil && mode.name != "minimum" { log.add(path + ".min", "only a table sold by minimum has min") }
        var seats: [SeatSpec] = []
        switch t["seats"] {
        case .some(let v) where v.intValue != nil:
            let count = v.intValue!
            if count < 1 || count > Table.seatLimit {
                log.add(path + ".seats", "\(count) is out of range (expected 1 to \(Table.seatLimit))")
            } else if let shape {
                seats = Table.chairs(count: count, shape: shape, center: center, width: width, height: height, tableID: id)
            }
        case .some(.array(let list)):
            for (s, sv) in list.enumerated() {
                let seatPath = "\(path).seats[\(s)]"
                guard case .object(let seat) = sv else { log.add(seatPath, "expected object, got \(sv.shortDescription)"); continue }
                // A table seat has no partner or special type: couples and wheelchair spaces are rows' seats.
                for key in ["type", "partner"] where seat[key] != nil { log.add(seatPath + "." + key, "a table's seat has no \(key)") }
                guard seat["type"] == nil && seat["partner"] == nil else { continue }
                if let spec = Self.decodeSeat(seat, rowY: nil, log: &log, path: seatPath) { seats.append(spec) }
            }
            if list.isEmpty { log.add(path + ".seats", "no seats (expected 1 to \(Table.seatLimit))") }
        case .some(let other): log.add(path + ".seats", "expected a number of seats or a list of seats, got \(other.shortDescription)")
        case .none: log.add(path + ".seats", "missing (expected a number of seats or a list of seats)")
        }
        guard let shape, !seats.isEmpty else { return nil }
        return Table(id: id, name: name, zone: zone, shape: shape, center: center, width: width, height: height, mode: mode, seats: seats)
    }

    static let seatKeys = ["id", "label", "x", "y", "type", "flags", "zone", "partner"]

    static func decodeSeat(
        _ seat: JSONObject, rowY: Double?, log: inout ProblemLog,
        path: @autoclosure () -> String
    ) -> SeatSpec? {
        var id: String?, label: String?, x: Double?, y = rowY
        var type = SeatType.standard, flags = SeatFlags(), zone: String?, partner: String?
        var sawY = false
        // One pass over the members, dispatching on length and first byte: this runs once a seat.
        for k in 0..<seat.keys.count {
            let key = seat.keys[k], value = seat.values[k]
            let utf8 = key.utf8
            switch (utf8.count, utf8.first ?? 0) {
            case (2, UInt8(ascii: "i")) where key == "id":
                if case .string(let s) = value { id = s } else { log.add(path() + ".id", "expected string, got \(value.shortDescription)") }
            case (5, UInt8(ascii: "l")) where key == "label":
                if case .string(let s) = value {
                    label = s
                } else if let i = value.intValue {
                    label = String(i)
                } else {
                    log.add(path() + ".label", "expected string, got \(value.shortDescription)")
                }
            case (1, UInt8(ascii: "x")):
                if case .number(let n) = value { x = n.double } else { log.add(path() + ".x", "expected number, got \(value.shortDescription)") }
            case (1, UInt8(ascii: "y")):
                sawY = true
                if case .number(let n) = value { y = n.double } else { y = nil; log.add(path() + ".y", "expected number, got \(value.shortDescription)") }
            case (4, UInt8(ascii: "t")) where key == "type":
                if let t = value.stringValue, let known = SeatType(name: t) {
                    type = known
                } else {
                    log.add(
                        path() + ".type",
                        "unknown seat type \(value.shortDescription) (expected one of: \(SeatType.allCases.filter { $0 != .place }.map(\.name).joined(separator: ", ")))"
                    )
                }
            case (5, UInt8(ascii: "f")) where key == "flags":
                guard let list = value.arrayValue else { log.add(path() + ".flags", "expected array, got \(value.shortDescription)"); continue }
                for (k, f) in list.enumerated() {
                    if let name = f.stringValue, let flag = SeatFlags.names.first(where: { $0.0 == name })?.1 {
                        flags.insert(flag)
                    } else {
                        log.add(path() + ".flags[\(k)]", "unknown flag \(f.shortDescription) (expected restrictedView or accessible)")
                    }
                }
            case (4, UInt8(ascii: "z")) where key == "zone":
                if case .string(let s) = value { zone = s } else { log.add(path() + ".zone", "expected string, got \(value.shortDescription)") }
            case (7, UInt8(ascii: "p")) where key == "partner":
                if case .string(let s) = value { partner = s } else { log.add(path() + ".partner", "expected string, got \(value.shortDescription)") }
            default:
                log.add(path() + "." + key, "unknown member (expected one of: \(seatKeys.joined(separator: ", ")))")
            }
        }
        if id == nil && seat["id"] == nil { log.add(path() + ".id", "missing (expected a string)") }
        if label == nil && seat["label"] == nil { log.add(path() + ".label", "missing (expected a string)") }
        if x == nil && seat["x"] == nil { log.add(path() + ".x", "missing (expected a number)") }
        if y == nil && !sawY { log.add(path() + ".y", "missing (expected a number)") }
        guard let id, let label, let x, let y else { return nil }
        return SeatSpec(id: id, label: label, x: x, y: y, type: type, flags: flags, zone: zone, partner: partner)
    }
}
