import Foundation
import SeatJSON
import SeatMap

/// A hold as the API returns it.
public struct HoldResource: Sendable, Hashable {
    /// `paying`: live and being paid for (after a checkout): its seats are kept until the payment's
    /// window ends, nobody may change it, and it becomes `confirmed` when the provider says paid.
    public enum State: String, Sendable {
        case active, paying, released, expired, confirmed
        /// Whether the hold still keeps its seats for its holder (active, or being paid for).
        public var isLive: Bool { self == .active || self == .paying }
    }
    public var token: String
    public var holdID: String
    public var showID: String
    public var state: State
    public var seats: [String]
    /// Exact decimal text, e.g. "116.00".
    public var total: String
    public var currency: String
    /// RFC 3339 with milliseconds, UTC.
    public var expiresAt: String
    public var extended: Bool
    public var version: UInt64
    public var orderRef: String?
    /// A real-name show's attendees of its seats, masked.
    public var attendees: [ShownAttendee] = []

    public init(
        token: String, holdID: String, showID: String, state: State, seats: [String], total: String, currency: String,
        expiresAt: String, extended: Bool, version: UInt64, orderRef: String?
    ) {
        self.token = token; self.holdID = holdID; self.showID = showID; self.state = state; self.seats = seats; self.total = total
        self.currency = currency; self.expiresAt = expiresAt; self.extended = extended; self.version = version; self.orderRef = orderRef
    }

    public func jsonWriter() -> JSONWriter { var w = JSONWriter(); write(into: &w); return w }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("token", first: true); w.string(token)
        w.key("holdId"); w.string(holdID)
        w.key("showId"); w.string(showID)
        w.key("state"); w.string(state.rawValue)
        w.key("seats"); w.strings(seats)
        w.key("total"); w.string(total)
        w.key("currency"); w.string(currency)
        w.key("expiresAt"); w.string(expiresAt)
        w.key("extended"); w.raw(extended ? "true" : "false")
        w.key("version"); w.number(Int(version))
        if let orderRef { w.key("orderRef"); w.string(orderRef) }
        if !attendees.isEmpty {
            w.key("attendees"); w.raw("[")
            for (k, a) in attendees.enumerated() {
                if k > 0 { w.raw(",") }
                a.write(into: &w)
            }
            w.raw("]")
        }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        let token = o.string("token", at: "", into: &log), holdID = o.string("holdId", at: "", into: &log)
        let showID = o.string("showId", at: "", into: &log), stateText = o.string("state", at: "", into: &log)
        let seats = WireError.stringList(o, "seats", &log)
        let total = o.string("total", at: "", into: &log), currency = o.string("currency", at: "", into: &log)
        let expiresAt = o.string("expiresAt", at: "", into: &log)
        let extended = o["extended"]?.boolValue
        let version = o.integer("version", at: "", into: &log)
        let orderRef = o.string("orderRef", at: "", into: &log, required: false)
        let state = stateText.flatMap(State.init(rawValue:))
        if stateText != nil && state == nil { log.add("state", "unknown hold state \"\(stateText!)\"") }
        if extended == nil { log.add("extended", "missing (expected true or false)") }
        guard log.isEmpty, let token, let holdID, let showID, let state, let seats, let total, let currency, let expiresAt, let extended, let version else {
            throw .invalid(log.error)
        }
        self.init(
            token: token, holdID: holdID, showID: showID, state: state, seats: seats, total: total, currency: currency,
            expiresAt: expiresAt, extended: extended, version: UInt64(version), orderRef: orderRef)
        attendees = ShownAttendee.read(o["attendees"], at: "attendees", into: &log)
    }
}

extension HoldResource: WireBody, WireWritable {
    public static let schemaName = "Hold"
    public static let schema: JSONSchema = .object(
        [
            "token": .string(pattern: "^([a-z][a-z0-9]{0,11}\\.)?[0-9a-f]{44}$"),
            "holdId": .string(),
            "showId": .string(),
            "state": .oneOf(["active", "paying", "released", "expired", "confirmed"]).described(
                "paying: after a checkout, kept for its payment until expiresAt, unchangeable, sold when the provider says paid"),
            "seats": .array(.string()),
            "total": .string(pattern: #"^-?[0-9]+(\.[0-9]+)?$"#),
            "currency": .string(),
            "expiresAt": .string(format: "date-time"),
            "extended": .boolean,
            "version": .integer(),
            "orderRef": .string(),
            "attendees": .array(ShownAttendee.schema).described("a real-name show's attendees, masked (王*明, 110***********1234)"),
        ], required: ["token", "holdId", "showId", "state", "seats", "total", "currency", "expiresAt", "extended", "version"])
}
