import Foundation
import SeatJSON
import SeatMap

/// A partner's allocation as its manager sees it (`POST /v1/shows/{id}/channels`): the key only in the
/// answer that made it.
public struct ChannelResource: Sendable, Hashable {
    public var id: String
    public var showID: String
    public var name: String
    /// The seats and places it still has (not held or sold by its partner).
    public var seats: [String]
    /// Seats and places its partner holds now.
    public var held: Int
    /// RFC 3339 UTC with milliseconds; nil: kept until released.
    public var releaseAt: String?
    public var operatorName: String
    public var createdAt: String
    /// The partner's key (`Seat-Channel:`), in the answer that made the channel only.
    public var key: String?
    /// The channel's own price a category (exact decimal text), for its partner's holds; others at the show's.
    public var prices: [String: String]

    public init(
        id: String, showID: String, name: String, seats: [String], held: Int, releaseAt: String?, operatorName: String, createdAt: String,
        key: String? = nil, prices: [String: String] = [:]
    ) {
        self.id = id; self.showID = showID; self.name = name; self.seats = seats; self.held = held; self.releaseAt = releaseAt
        self.operatorName = operatorName; self.createdAt = createdAt; self.key = key; self.prices = prices
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("id", first: true); w.string(id); w.key("showId"); w.string(showID); w.key("name"); w.string(name)
        w.key("seats"); w.strings(seats); w.key("held"); w.number(held)
        w.key("releaseAt"); if let releaseAt { w.string(releaseAt) } else { w.raw("null") }
        w.key("operator"); w.string(operatorName); w.key("createdAt"); w.string(createdAt)
        w.key("prices"); w.raw("{")
        for (k, category) in prices.keys.sorted().enumerated() { w.key(category, first: k == 0); w.string(prices[category]!) }
        w.raw("}")
        if let key { w.key("key"); w.string(key) }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) { self.init(try Self.conformingObject(bytes)) }

    public init(_ o: JSONObject) {
        self.init(
            id: o.text("id"), showID: o.text("showId"), name: o.text("name"), seats: o.texts("seats"), held: o.whole("held"),
            releaseAt: o.optionalText("releaseAt"), operatorName: o.text("operator"), createdAt: o.text("createdAt"), key: o.optionalText("key"),
            prices: Dictionary(o.textMap("prices"), uniquingKeysWith: { a, _ in a }))
    }
}

extension ChannelResource: WireBody, WireWritable {
    public static let schemaName = "Channel"
    public static let schema: JSONSchema = .object(
        [
            "id": .string(pattern: "^c_"),
            "showId": .string(),
            "name": .string(),
            "seats": .array(.string()),
            "held": .integer(minimum: 0),
            "releaseAt": .string(format: "date-time").orNull,
            "operator": .string(),
            "createdAt": .string(format: "date-time"),
            "prices": .map(WireMoney.schema).described("the channel's own price a category, for its partner's holds"),
            "key": .string().described("the partner's key for `Seat-Channel:`; only in the answer that made the channel"),
        ], required: ["id", "showId", "name", "seats", "held", "releaseAt", "operator", "createdAt", "prices"])
}

/// `POST /v1/shows/{id}/channels` (managers): a partner's allocation of seats and standing places.
public struct ChannelRequest: Sendable, Hashable {
    public var name: String
    public var seats: [String]
    public var areas: [AreaCount]
    /// Unix milliseconds (given as an ISO 8601 time): what is unsold returns to the public sale then.
    public var releaseAt: Int64?
    /// The channel's own price a category (a partner's net rate); categories not named sell at the show's.
    public var prices: [String: Decimal]

    public init(name: String, seats: [String], areas: [AreaCount] = [], releaseAt: Int64? = nil, prices: [String: Decimal] = [:]) {
        self.name = name; self.seats = seats; self.areas = areas; self.releaseAt = releaseAt; self.prices = prices
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["name", "seats", "areas", "releaseAt", "prices"], at: "", into: &log)
        let name = o.text("name", into: &log)
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.unicodeScalars.count > 64 {
            log.add("name", "the partner's name, 1 to 64 characters")
        }
        let seats = o["seats"] == nil ? [] : o.seatIDs("seats", into: &log) ?? []
        if seats.count > 10_000 { log.add("seats", "at most 10000 seats in one request, got \(seats.count)") }
        let areas = AreaCount.read(o["areas"], at: "areas", into: &log)
        if o["seats"] == nil && o["areas"] == nil { log.add("seats", "give the channel's seats, or \"areas\": places by count, or both") }
        var releaseAt: Int64?
        if let text = o.text("releaseAt", into: &log, required: false) {
            if let ms = Timestamp.milliseconds(text) {
                releaseAt = ms
            } else {
                log.add("releaseAt", "an ISO 8601 time like 2026-12-01T19:00:00+08:00, got \"\(text)\"")
            }
        }
        let prices = o.amounts("prices", example: "250.00", limit: 100, of: "categories", into: &log)
        guard log.isEmpty, let name else { throw .invalid(log.error) }
        self.init(name: name, seats: seats, areas: areas, releaseAt: releaseAt, prices: prices)
    }
}

extension ChannelRequest: WireBody {
    public static let schemaName = "ChannelRequest"
    public static let schema: JSONSchema = .object(
        [
            "name": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 64),
            "seats": .array(.ref(WireSeatID.self), minItems: 1, maxItems: 10_000),
            "areas": AreaCount.schema,
            "releaseAt": .string(format: "date-time").described("what is unsold returns to the public sale then"),
            "prices": .map(.string(pattern: #"^[0-9]+(\.[0-9]+)?$"#), maxProperties: 100).described(
                "the channel's own price a category (a partner's net rate)"),
        ], required: ["name"], closed: true
    ).with {
        $0.anyOf = [.constraint(required: ["seats"]), .constraint(required: ["areas"])]
    }.example(#"{"name":"Damai","seats":["7-1","7-2"],"areas":{"floor":20},"releaseAt":"2099-12-01T12:00:00+08:00"}"#)
}
