import SeatJSON
/// `{"maxSeats":6,"couplesTogether":true,"noLoneSeat":true,"wheelchairOnRequest":true,"companionWithWheelchair":true}`;
/// members left out keep their defaults.
extension SelectionPolicy {
    public init(jsonValue root: JSONValue) throws(LayoutError) {
        var log = ProblemLog()
        guard let o = root.object(at: "", into: &log) else { throw log.error }
        let keys = ["maxSeats", "couplesTogether", "noLoneSeat", "wheelchairOnRequest", "companionWithWheelchair"]
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
        try log.check()
        self = p
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
        w.raw("}")
        return w.bytes
    }
}
