import SeatJSON
/// `{"maxSeats":6,"couplesTogether":true,"noLoneSeat":true,"wheelchairOnRequest":true,"companionWithWheelchair":true}`;
/// members left out keep their defaults. `"tables":{"T1":"byTable","T2":{"mode":"minimum","min":4},"*":"bySeat"}`
/// sets how this show sells tables.
extension SelectionPolicy {
    public init(jsonValue root: JSONValue) throws(LayoutError) {
        var log = ProblemLog()
        guard let o = root.object(at: "", into: &log) else { throw log.error }
        let keys = ["maxSeats", "couplesTogether", "noLoneSeat", "wheelchairOnRequest", "companionWithWheelchair", "tables"]
        o.rejectUnknownKeys(keys, at: "", into: &log)
        var p = SelectionPolicy()
        if let n = o.integer("maxSeats", at: "", into: &log, required: false) {
            if n < 1 || n > 1000 { log.add("maxSeats", "must be 1 to 1000, got \(n)") } else { p.maxSeats = n }
        }
        func flag(_ key: String) -> Bool? {
            guard let v = o[key] else { return nil }
            if let b = v.boolValue { return b }
            log.add(key, "expected true or false, got \(v.shortDescription)")
            return nil
        }
        p.couplesTogether = flag("couplesTogether") ?? p.couplesTogether
        p.noLoneSeat = flag("noLoneSeat") ?? p.noLoneSeat
        p.wheelchairOnRequest = flag("wheelchairOnRequest") ?? p.wheelchairOnRequest
        p.companionWithWheelchair = flag("companionWithWheelchair") ?? p.companionWithWheelchair
        if let tables = o.object("tables", at: "", into: &log, required: false) {
            for (k, id) in tables.keys.enumerated() {
                if let mode = Self.tableMode(tables.values[k], path: "tables.\(id)", log: &log) { p.tableModes[id] = mode }
            }
        }
        try log.check()
        self = p
    }

    /// `"byTable"`, `"bySeat"`, or `{"mode":"minimum","min":4}` (either mode may be an object too).
    static func tableMode(_ v: JSONValue, path: String, log: inout ProblemLog) -> TableMode? {
        var name = v.stringValue, min: Int?
        if let o = v.objectValue {
            o.rejectUnknownKeys(["mode", "min"], at: path, into: &log)
            name = o.string("mode", at: path, into: &log)
            min = o.integer("min", at: path, into: &log, required: name == "minimum")
        } else if name == nil {
            log.add(path, "expected \"byTable\", \"bySeat\" or {\"mode\":\"minimum\",\"min\":N}, got \(v.shortDescription)")
            return nil
        }
        switch name {
        case "byTable", "bySeat":
            if min != nil { log.add(path + ".min", "only a table sold by minimum has min") }
            return name == "byTable" ? .byTable : .bySeat
        case "minimum":
            guard let min else {
                if v.objectValue == nil { log.add(path, "a minimum needs its number: {\"mode\":\"minimum\",\"min\":N}") }
                return nil
            }
            guard min >= 1 && min <= Table.seatLimit else {
                log.add(path + ".min", "\(min) is out of range (expected 1 to \(Table.seatLimit))")
                return nil
            }
            return .minimum(min)
        case let other?:
            log.add(path + ".mode", "unknown mode \"\(other)\" (expected byTable, bySeat or minimum)")
            return nil
        case nil: return nil
        }
    }

    public init(json bytes: [UInt8]) throws(LayoutError) {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw LayoutError(error) }
        try self.init(jsonValue: root)
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("maxSeats", first: true); w.number(maxSeats)
        w.key("couplesTogether"); w.raw(couplesTogether ? "true" : "false")
        w.key("noLoneSeat"); w.raw(noLoneSeat ? "true" : "false")
        w.key("wheelchairOnRequest"); w.raw(wheelchairOnRequest ? "true" : "false")
        w.key("companionWithWheelchair"); w.raw(companionWithWheelchair ? "true" : "false")
        // Only when set, so every policy without one reads as it did.
        if !tableModes.isEmpty {
            w.key("tables"); w.raw("{")
            for (k, id) in tableModes.keys.sorted().enumerated() {
                w.key(id, first: k == 0)
                switch tableModes[id]! {
                case .minimum(let n): w.raw("{"); w.key("mode", first: true); w.string("minimum"); w.key("min"); w.number(n); w.raw("}")
                case let mode: w.string(mode.name)
                }
            }
            w.raw("}")
        }
        w.raw("}")
        return w.bytes
    }
}
