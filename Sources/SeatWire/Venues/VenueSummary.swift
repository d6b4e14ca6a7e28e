import SeatJSON

/// A venue in `GET /v1/venues`, and the answer to `POST /v1/venues`: its id, name, seat count and
/// layout fingerprint (the layout's strong ETag).
public struct VenueSummary: Sendable, Hashable {
    public var id: String
    public var name: String
    public var seats: Int
    public var fingerprint: String

    public init(id: String, name: String, seats: Int, fingerprint: String) {
        self.id = id; self.name = name; self.seats = seats; self.fingerprint = fingerprint
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("id", first: true); w.string(id); w.key("name"); w.string(name)
        w.key("seats"); w.number(seats); w.key("fingerprint"); w.string(fingerprint); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) { self.init(try Self.conformingObject(bytes)) }

    public init(_ o: JSONObject) { self.init(id: o.text("id"), name: o.text("name"), seats: o.whole("seats"), fingerprint: o.text("fingerprint")) }
}

extension VenueSummary: WireBody, WireWritable {
    public static let schemaName = "Venue"
    public static let schema: JSONSchema = .object(
        [
            "id": .string(pattern: "^[A-Za-z0-9._-]{1,64}$"),
            "name": .string(),
            "seats": .integer(minimum: 0),
            "fingerprint": .string(pattern: "^[0-9a-f]{16}$").described("the layout's fingerprint: its ETag"),
        ], required: ["id", "name", "seats", "fingerprint"])
}
