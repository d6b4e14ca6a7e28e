import Foundation
import SeatJSON
import SeatMap

/// `POST /v1/shows` (a manager): a show of a venue, its start, prices, rules, hold time and what buyers
/// are told. Strict: every wrong member is named, with its path.
public struct ShowRequest: Sendable {
    public var id: String
    public var venueID: String
    /// ISO 8601 with its offset, as buyers will be told.
    public var startsAt: String
    public var prices: PriceTable
    public var policy: SelectionPolicy
    /// 30 to 3600; 600 when not given.
    public var holdSeconds: Int
    /// What buyers are told, as canonical JSON (`ShowDetails.canonical`).
    public var detailsJSON: String
    /// The shard the show is kept on, in a deployment of several (nil: the server's placement rule).
    public var shard: String?

    public init(
        id: String, venueID: String, startsAt: String, prices: PriceTable, policy: SelectionPolicy = .standard, holdSeconds: Int = 600,
        detailsJSON: String = "{}", shard: String? = nil
    ) {
        self.id = id; self.venueID = venueID; self.startsAt = startsAt; self.prices = prices; self.policy = policy
        self.holdSeconds = holdSeconds; self.detailsJSON = detailsJSON; self.shard = shard
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("id", first: true); w.string(id); w.key("venueId"); w.string(venueID); w.key("startsAt"); w.string(startsAt)
        w.key("prices"); w.raw(String(decoding: prices.jsonBytes(), as: UTF8.self))
        w.key("policy"); w.raw(String(decoding: policy.jsonBytes(), as: UTF8.self))
        w.key("holdSeconds"); w.number(holdSeconds); w.key("details"); w.raw(detailsJSON)
        if let shard { w.key("shard"); w.string(shard) }
        w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["id", "venueId", "startsAt", "prices", "policy", "holdSeconds", "details", "shard"], at: "", into: &log)
        let shard = o.text("shard", into: &log, required: false)
        let details = o["details"].flatMap { ShowDetails.canonical($0, into: &log) } ?? "{}"
        let id = o.text("id", into: &log)
        let venue = o.text("venueId", into: &log)
        let startsAt = o.text("startsAt", into: &log)
        if let s = startsAt, Timestamp.milliseconds(s) == nil {
            log.add("startsAt", "expected an ISO 8601 time like 2026-12-01T19:30:00+08:00, got \"\(s)\"")
        }
        let hold = o.integer("holdSeconds", at: "", into: &log, required: false) ?? 600
        if hold < 30 || hold > 3600 { log.add("holdSeconds", "must be 30 to 3600, got \(hold)") }
        if let id, !WireIdentifier.isValid(id) { log.add("id", "letters, digits, '-', '_' and '.', 1 to 64 of them") }
        var prices: PriceTable?, policy = SelectionPolicy.standard
        if let p = o["prices"] {
            do { prices = try PriceTable(jsonValue: p) } catch { for e in error.problems { log.add("prices." + e.path, e.message) } }
        } else {
            log.add("prices", "missing (expected an object)")
        }
        if let p = o["policy"] {
            do { policy = try SelectionPolicy(jsonValue: p) } catch { for e in error.problems { log.add("policy." + e.path, e.message) } }
        }
        guard log.isEmpty, let id, let venue, let startsAt, let prices else { throw .invalid(log.error) }
        self.init(id: id, venueID: venue, startsAt: startsAt, prices: prices, policy: policy, holdSeconds: hold, detailsJSON: details, shard: shard)
    }
}

/// `PATCH /v1/shows/{id}` (a manager): any of the start, the hold time, what buyers are told and the
/// sales switch; at least one. A member given as null is refused (leave it out to keep it).
public struct ShowEdit: Sendable {
    public var startsAt: String?
    public var holdSeconds: Int?
    public var detailsJSON: String?
    public var onSale: Bool?

    public init(startsAt: String? = nil, holdSeconds: Int? = nil, detailsJSON: String? = nil, onSale: Bool? = nil) {
        self.startsAt = startsAt; self.holdSeconds = holdSeconds; self.detailsJSON = detailsJSON; self.onSale = onSale
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        var first = true
        w.raw("{")
        if let startsAt { w.key("startsAt", first: first); w.string(startsAt); first = false }
        if let holdSeconds { w.key("holdSeconds", first: first); w.number(holdSeconds); first = false }
        if let detailsJSON { w.key("details", first: first); w.raw(detailsJSON); first = false }
        if let onSale { w.key("onSale", first: first); w.raw(onSale ? "true" : "false") }
        w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["startsAt", "holdSeconds", "details", "onSale"], at: "", into: &log)
        if o.keys.isEmpty { log.add("", "give at least one of startsAt, holdSeconds, details, onSale") }
        for key in ["startsAt", "holdSeconds", "details", "onSale"] where o[key] == .null {
            log.add(key, "expected a value, got null (leave \(key) out to keep it as it is)")
        }
        var edit = ShowEdit()
        if let s = o.text("startsAt", into: &log, required: false) {
            if Timestamp.milliseconds(s) != nil {
                edit.startsAt = s
            } else {
                log.add("startsAt", "expected an ISO 8601 time like 2026-12-01T19:30:00+08:00, got \"\(s)\"")
            }
        }
        if let h = o.integer("holdSeconds", at: "", into: &log, required: false) {
            if h < 30 || h > 3600 { log.add("holdSeconds", "must be 30 to 3600, got \(h)") } else { edit.holdSeconds = h }
        }
        if let d = o["details"] { edit.detailsJSON = ShowDetails.canonical(d, into: &log) }
        if let v = o["onSale"] {
            if case .bool(let b) = v { edit.onSale = b } else { log.add("onSale", "expected true or false, got \(v.shortDescription)") }
        }
        if !log.isEmpty { throw .invalid(log.error) }
        self = edit
    }
}

/// `POST /v1/shows/{id}/cancel` (a manager): why, 1 to 200 characters (it goes in the log).
public struct CancelRequest: Sendable, Hashable {
    public var reason: String
    public init(reason: String) { self.reason = reason }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("reason", first: true); w.string(reason); w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["reason"], at: "", into: &log)
        let reason = o.reason(into: &log, saying: "1 to 200 characters saying why")
        guard log.isEmpty, let reason else { throw .invalid(log.error) }
        self.init(reason: reason)
    }
}

/// `POST /v1/shows/{id}/move` (a manager): the shard to keep the show on from now on.
public struct MoveRequest: Sendable, Hashable {
    public var shard: String
    public init(shard: String) { self.shard = shard }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("shard", first: true); w.string(shard); w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["shard"], at: "", into: &log)
        let shard = o.text("shard", into: &log)
        guard log.isEmpty, let shard else { throw .invalid(log.error) }
        self.init(shard: shard)
    }
}

extension MoveRequest: WireBody {
    public static let schemaName = "MoveRequest"
    public static let schema: JSONSchema = .object(["shard": .string(pattern: "^[a-z][a-z0-9]{0,11}$")], required: ["shard"], closed: true)
        .example(#"{"shard":"west"}"#)
}

extension ShowEdit: WireBody {
    public static let schemaName = "ShowEdit"
    public static let schema: JSONSchema = .object(
        [
            "startsAt": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, format: "date-time"),
            "holdSeconds": .integer(minimum: 30, maximum: 3600),
            "details": .ref(ShowDetails.self),
            "onSale": .boolean,
        ], closed: true
    ).with { $0.minProperties = 1 }.example(#"{"onSale":false}"#)
}

extension CancelRequest: WireBody {
    public static let schemaName = "CancelRequest"
    public static let schema: JSONSchema = .object(
        [
            "reason": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 200)
        ], required: ["reason"], closed: true
    ).example(#"{"reason":"projector failure"}"#)
}

extension ShowRequest: WireBody {
    public static let schemaName = "ShowRequest"
    public static let schema: JSONSchema = .object(
        [
            "id": .string(pattern: "^[A-Za-z0-9._-]{1,64}$"),
            "venueId": .string(pattern: "^[A-Za-z0-9._-]{1,64}$"),
            "startsAt": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, format: "date-time"),
            "holdSeconds": .integer(minimum: 30, maximum: 3600),
            "prices": .ref(PriceTableBody.self),
            "policy": .object(),
            "details": .ref(ShowDetails.self),
            "shard": .string(pattern: "^[a-z][a-z0-9]{0,11}$"),
        ], required: ["id", "venueId", "startsAt", "prices"], closed: true)
}

/// A show's prices (docs/formats/prices-and-policy.md).
public enum PriceTableBody {}

extension PriceTableBody: WireBody {
    public static let schemaName = "PriceTable"
    public static let schema: JSONSchema = .object(
        [
            "currency": .string(pattern: "^[A-Z]{3}$"),
            "minorUnits": .integer(minimum: 0, maximum: 4),
            "categories": .map(.string(pattern: #"^[0-9]+(\.[0-9]+)?$"#), minProperties: 1).described("a price for every category the venue has"),
            "adjustments": .array(),
        ], required: ["categories"], closed: true
    ).described("see docs/formats/prices-and-policy.md")
}
