import SeatJSON

/// `GET /v1/shards` (a manager): the deployment's shards as this instance sees them, in the order the
/// deployment lists them; empty for a server with one store. The console's move dialog offers these.
public struct ShardsResource: Sendable, Hashable {
    public struct Shard: Sendable, Hashable {
        public var name: String
        /// Whether the shard's database answers now.
        public var up: Bool
        /// Its shows, as this instance knows them.
        public var shows: Int
        /// While down: since when (Unix milliseconds) and why.
        public var downSince: Int64?
        public var cause: String?

        public init(name: String, up: Bool, shows: Int, downSince: Int64? = nil, cause: String? = nil) {
            self.name = name; self.up = up; self.shows = shows; self.downSince = downSince; self.cause = cause
        }
    }

    public var shards: [Shard]
    public init(shards: [Shard]) { self.shards = shards }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("shards", first: true); w.raw("[")
        for (k, s) in shards.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("name", first: true); w.string(s.name); w.key("up"); w.raw(s.up ? "true" : "false")
            w.key("shows"); w.number(s.shows)
            if let since = s.downSince { w.key("downSince"); w.number(Int(since)) }
            if let cause = s.cause { w.key("cause"); w.string(cause) }
            w.raw("}")
        }
        w.raw("]}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            shards: o.objects("shards").map { s in
                Shard(
                    name: s.text("name"), up: s.flag("up"), shows: s.whole("shows"), downSince: s["downSince"]?.intValue.map(Int64.init),
                    cause: s["cause"]?.stringValue)
            })
    }
}

extension ShardsResource: WireBody, WireWritable {
    public static let schemaName = "Shards"
    public static let schema: JSONSchema = .object(
        [
            "shards": .array(
                .object(
                    [
                        "name": .string(pattern: "^[a-z][a-z0-9]{0,11}$"),
                        "up": .boolean,
                        "shows": .integer(minimum: 0),
                        "downSince": .integer(minimum: 0),
                        "cause": .string(),
                    ], required: ["name", "up", "shows"]))
        ], required: ["shards"]
    ).example(
        #"{"shards":[{"name":"east","up":true,"shows":42},{"name":"west","up":false,"shows":40,"downSince":1796443200000,"cause":"connection refused"}]}"#)
}
