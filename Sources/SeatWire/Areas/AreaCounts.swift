import SeatJSON
import SeatMap

/// `GET /v1/shows/{id}/areas`: each general-admission area of the show with what is free, held and
/// sold of it, at the show's version (a picker's counts start here; the show's events move them).
public struct AreaCountsResource: WireWritable, Hashable {
    public struct Line: Sendable, Hashable {
        public var id: String, name: String, zone: String?, mode: String
        public var min: Int?, max: Int?
        public var capacity: Int, free: Int, held: Int, sold: Int, blocked: Int
        /// Whether a buyer may still ask for some (a whole area or a party's only while all of it is free).
        public var open: Bool
        public init(
            id: String, name: String, zone: String?, mode: String, min: Int? = nil, max: Int? = nil, capacity: Int, free: Int, held: Int, sold: Int,
            blocked: Int, open: Bool
        ) {
            self.id = id; self.name = name; self.zone = zone; self.mode = mode; self.min = min; self.max = max; self.capacity = capacity
            self.free = free; self.held = held; self.sold = sold; self.blocked = blocked; self.open = open
        }
    }
    public var version: UInt64
    public var areas: [Line]
    public init(version: UInt64, areas: [Line]) { self.version = version; self.areas = areas }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("version", first: true); w.number(Int(version)); w.key("areas"); w.raw("[")
        for (k, a) in areas.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("id", first: true); w.string(a.id); w.key("name"); w.string(a.name)
            if let zone = a.zone { w.key("zone"); w.string(zone) }
            w.key("mode"); w.string(a.mode)
            if let min = a.min { w.key("min"); w.number(min) }
            if let max = a.max { w.key("max"); w.number(max) }
            w.key("capacity"); w.number(a.capacity); w.key("free"); w.number(a.free); w.key("held"); w.number(a.held)
            w.key("sold"); w.number(a.sold); w.key("blocked"); w.number(a.blocked); w.key("open"); w.raw(a.open ? "true" : "false")
            w.raw("}")
        }
        w.raw("]}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        let lines = (o["areas"]?.arrayValue ?? []).compactMap(\.objectValue).map { a in
            Line(
                id: a.text("id"), name: a.text("name"), zone: a["zone"]?.stringValue, mode: a.text("mode"), min: a["min"]?.intValue,
                max: a["max"]?.intValue, capacity: a["capacity"]?.intValue ?? 0, free: a["free"]?.intValue ?? 0, held: a["held"]?.intValue ?? 0,
                sold: a["sold"]?.intValue ?? 0, blocked: a["blocked"]?.intValue ?? 0, open: a["open"]?.boolValue ?? false)
        }
        self.init(version: UInt64(o["version"]?.intValue ?? 0), areas: lines)
    }
}

extension AreaCountsResource: WireBody {
    public static let schemaName = "AreaCounts"
    public static let schema: JSONSchema = .object(
        [
            "version": .integer(minimum: 0),
            "areas": .array(
                .object(
                    [
                        "id": .string(minLength: 1), "name": .string(), "zone": .string(), "mode": .oneOf(["places", "whole", "party"]),
                        "min": .integer(minimum: 1), "max": .integer(minimum: 1), "capacity": .integer(minimum: 1), "free": .integer(minimum: 0),
                        "held": .integer(minimum: 0), "sold": .integer(minimum: 0), "blocked": .integer(minimum: 0), "open": .boolean,
                    ], required: ["id", "name", "mode", "capacity", "free", "held", "sold", "blocked", "open"], closed: true)),
        ], required: ["version", "areas"], closed: true
    ).example(
        #"{"version":12,"areas":[{"id":"floor","name":"Standing floor","zone":"ga","mode":"places","capacity":200,"free":188,"held":4,"sold":8,"blocked":0,"open":true}]}"#
    )
}
