import SeatJSON

/// `GET /v1/shows/{id}/best`: the best free seats side by side under the show's rules (nothing held).
public struct BestSeats: Sendable, Hashable {
    public var version: UInt64
    public var seats: [String]
    /// Their total at today's prices (exact decimal text).
    public var total: String

    public init(version: UInt64, seats: [String], total: String) { self.version = version; self.seats = seats; self.total = total }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("version", first: true); w.number(Int(version))
        w.key("seats"); w.strings(seats)
        w.key("total"); w.string(total); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(version: UInt64(o.whole("version")), seats: o.texts("seats"), total: o.text("total"))
    }
}

extension BestSeats: WireBody, WireWritable {
    public static let schemaName = "BestSeats"
    public static let schema: JSONSchema = .object(
        ["version": .integer(minimum: 0), "seats": .array(.string(), minItems: 1), "total": WireMoney.schema], required: ["version", "seats", "total"])
}

/// `GET /v1/shows/{id}/free-seats`: the list mode, zone → row (with a spoken summary) → runs of free
/// seats side by side.
public struct FreeSeatList: Sendable, Hashable {
    public struct Run: Sendable, Hashable {
        public var text: String
        public var seats: [String]
        public init(text: String, seats: [String]) { self.text = text; self.seats = seats }
    }
    public struct Row: Sendable, Hashable {
        public var row: String
        public var summary: String
        public var runs: [Run]
        public init(row: String, summary: String, runs: [Run]) { self.row = row; self.summary = summary; self.runs = runs }
    }
    public struct Zone: Sendable, Hashable {
        public var id: String
        public var name: String
        public var rows: [Row]
        public init(id: String, name: String, rows: [Row]) { self.id = id; self.name = name; self.rows = rows }
    }

    public var version: UInt64
    public var zones: [Zone]

    public init(version: UInt64, zones: [Zone]) { self.version = version; self.zones = zones }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("version", first: true); w.number(Int(version))
        w.key("zones"); w.raw("[")
        for (zk, zone) in zones.enumerated() {
            if zk > 0 { w.raw(",") }
            w.raw("{"); w.key("id", first: true); w.string(zone.id); w.key("name"); w.string(zone.name)
            w.key("rows"); w.raw("[")
            for (rk, row) in zone.rows.enumerated() {
                if rk > 0 { w.raw(",") }
                w.raw("{"); w.key("row", first: true); w.string(row.row); w.key("summary"); w.string(row.summary)
                w.key("runs"); w.raw("[")
                for (k, run) in row.runs.enumerated() {
                    if k > 0 { w.raw(",") }
                    w.raw("{"); w.key("text", first: true); w.string(run.text); w.key("seats"); w.strings(run.seats)
                    w.raw("}")
                }
                w.raw("]}")
            }
            w.raw("]}")
        }
        w.raw("]}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        let zones = o.objects("zones").map { z in
            Zone(
                id: z.text("id"), name: z.text("name"),
                rows: z.objects("rows").map { r in
                    Row(row: r.text("row"), summary: r.text("summary"), runs: r.objects("runs").map { Run(text: $0.text("text"), seats: $0.texts("seats")) })
                })
        }
        self.init(version: UInt64(o.whole("version")), zones: zones)
    }
}

extension FreeSeatList: WireBody, WireWritable {
    public static let schemaName = "FreeSeats"
    public static let schema: JSONSchema = .object(
        [
            "version": .integer(minimum: 0),
            "zones": .array(
                .object(
                    [
                        "id": .string(),
                        "name": .string(),
                        "rows": .array(
                            .object(
                                [
                                    "row": .string(),
                                    "summary": .string().described("spoken: the row and how many seats are free"),
                                    "runs": .array(
                                        .object(["text": .string(), "seats": .array(.string(), minItems: 1)], required: ["text", "seats"]),
                                        minItems: 1),
                                ], required: ["row", "summary", "runs"])),
                    ], required: ["id", "name", "rows"])),
        ], required: ["version", "zones"])
}
