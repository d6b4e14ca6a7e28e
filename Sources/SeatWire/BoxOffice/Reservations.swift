import Foundation
import SeatMap
import SeatJSON

/// A block or house seats as the API returns them.
public struct ReservationResource: Sendable, Hashable {
    public enum Kind: String, Sendable { case blocked, house }
    public var id: String
    public var showID: String
    public var kind: Kind
    public var seats: [String]
    public var reason: String
    /// RFC 3339 UTC with milliseconds; nil: a block stays until removed.
    public var releaseAt: String?
    public var operatorName: String
    public var createdAt: String
    public var version: UInt64

    public init(
        id: String, showID: String, kind: Kind, seats: [String], reason: String, releaseAt: String?, operatorName: String, createdAt: String,
        version: UInt64
    ) {
        self.id = id; self.showID = showID; self.kind = kind; self.seats = seats; self.reason = reason; self.releaseAt = releaseAt
        self.operatorName = operatorName; self.createdAt = createdAt; self.version = version
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("id", first: true); w.string(id); w.key("showId"); w.string(showID); w.key("kind"); w.string(kind.rawValue)
        w.key("seats"); w.strings(seats)
        w.key("reason"); w.string(reason)
        w.key("releaseAt"); if let releaseAt { w.string(releaseAt) } else { w.raw("null") }
        w.key("operator"); w.string(operatorName); w.key("createdAt"); w.string(createdAt); w.key("version"); w.number(Int(version))
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) { self.init(try Self.conformingObject(bytes)) }

    /// From an object that conforms to the schema.
    public init(_ o: JSONObject) {
        self.init(
            id: o.text("id"), showID: o.text("showId"), kind: Kind(rawValue: o.text("kind")) ?? .blocked, seats: o.texts("seats"),
            reason: o.text("reason"), releaseAt: o.optionalText("releaseAt"), operatorName: o.text("operator"), createdAt: o.text("createdAt"),
            version: UInt64(o.whole("version")))
    }
}

extension ReservationResource: WireBody, WireWritable {
    public static let schemaName = "Reservation"
    public static let schema: JSONSchema = .object(
        [
            "id": .string(pattern: "^r_[0-9a-f]{28}$"),
            "showId": .string(),
            "kind": .oneOf(["blocked", "house"]),
            "seats": .array(.string()),
            "reason": .string(),
            "releaseAt": .string(format: "date-time").orNull,
            "operator": .string(),
            "createdAt": .string(format: "date-time"),
            "version": .integer(),
        ], required: ["id", "showId", "kind", "seats", "reason", "releaseAt", "operator", "createdAt", "version"])
}

/// `POST /v1/shows/{id}/reservations` (the box office): block seats, or keep them for guests until a
/// time. Strict: every wrong member is named.
public struct ReservationRequest: Sendable, Hashable {
    /// When a reservation's seats return to sale by themselves.
    public enum Release: Sendable, Hashable {
        /// Unix milliseconds (given as an ISO 8601 time).
        case at(Int64)
        /// So many minutes (0 to 10,080: a week) before the show starts: `"30 minutes before start"`.
        case minutesBeforeStart(Int)
    }

    public var kind: ReservationResource.Kind
    public var seats: [String]
    public var reason: String
    public var release: Release?

    public init(kind: ReservationResource.Kind, seats: [String], reason: String, release: Release? = nil) {
        self.kind = kind; self.seats = seats; self.reason = reason; self.release = release
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("kind", first: true); w.string(kind.rawValue)
        w.key("seats"); w.strings(seats)
        w.key("reason"); w.string(reason)
        switch release {
        case .at(let ms): w.key("releaseAt"); w.string(Timestamp.text(ms))
        case .minutesBeforeStart(let n): w.key("releaseAt"); w.string("\(n) minutes before start")
        case nil: break
        }
        w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["kind", "seats", "reason", "releaseAt"], at: "", into: &log)
        let kindName = o.text("kind", into: &log)
        let kind = kindName.flatMap(ReservationResource.Kind.init(rawValue:))
        if let kindName, kind == nil { log.add("kind", "blocked or house, not \"\(kindName)\"") }
        let seats = o.seatIDs("seats", into: &log) ?? []
        if seats.count > 1000 { log.add("seats", "at most 1000 seats in one request, got \(seats.count)") }
        let reason = o.reason(into: &log, saying: "1 to 200 characters saying why (it goes in the log, never to buyers)")
        var release: Release?
        if let text = o.text("releaseAt", into: &log, required: false) {
            if let ms = Timestamp.milliseconds(text) {
                release = .at(ms)
            } else if let minutes = Self.minutesBeforeStart(text) {
                release = .minutesBeforeStart(minutes)
            } else {
                log.add("releaseAt", "an ISO 8601 time like 2026-12-01T19:00:00+08:00, or \"30 minutes before start\"; got \"\(text)\"")
            }
        }
        guard log.isEmpty, let kind, let reason else { throw .invalid(log.error) }
        self.init(kind: kind, seats: seats, reason: reason, release: release)
    }

    /// `"30 minutes before start"` → 30 (0 to 10,080: a week).
    static func minutesBeforeStart(_ text: String) -> Int? {
        let words = text.split(separator: " ")
        guard words.count == 4, words[1] == "minutes" || words[1] == "minute", words[2] == "before", words[3] == "start",
            let n = Int(words[0]), (0...10_080).contains(n)
        else { return nil }
        return n
    }
}

extension ReservationRequest: WireBody {
    public static let schemaName = "ReservationRequest"
    public static let schema: JSONSchema = .object(
        [
            "kind": .oneOf(["blocked", "house"]),
            "seats": .array(.ref(WireSeatID.self), minItems: 1, maxItems: 1000),
            "reason": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 200),
            "releaseAt": .string().described(#"an ISO 8601 time, or "N minutes before start""#),
        ], required: ["kind", "seats", "reason"], closed: true
    ).example(#"{"kind":"blocked","seats":["7-1"],"reason":"broken seat"}"#)
}
