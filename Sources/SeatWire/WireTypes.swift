import Foundation
import SeatJSON
import SeatMap

/// The v1 API's JSON shapes, defined once and used by both the server (to write and read them) and
/// the client (to read and write them). Foundation only, so it builds for iOS and macOS.

/// `POST /v1/shows/{id}/holds`.
public struct HoldRequest: Sendable, Hashable {
    public var seats: [String]
    public var wheelchair: Bool
    public init(seats: [String], wheelchair: Bool = false) { self.seats = seats; self.wheelchair = wheelchair }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("seats", first: true); w.raw("["); for (k, s) in seats.enumerated() { if k > 0 { w.raw(",") }; w.string(s) }; w.raw("]")
        if wheelchair { w.key("wheelchair"); w.raw("true") }
        w.raw("}")
        return w.bytes
    }

    /// Strict: unknown members, wrong types and too many seats are problems with their paths.
    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["seats", "wheelchair"], at: "", into: &log)
        let seats = WireError.stringList(o, "seats", &log) ?? []
        var wheelchair = false
        if let v = o["wheelchair"] {
            if let b = v.boolValue { wheelchair = b } else { log.add("wheelchair", "expected true or false, got \(v.shortDescription)") }
        }
        if !log.isEmpty { throw .invalid(log.error) }
        self.init(seats: seats, wheelchair: wheelchair)
    }
}

/// `POST /v1/holds/{token}/seats`.
public struct ModifyHoldRequest: Sendable, Hashable {
    public var add: [String]
    public var remove: [String]
    public init(add: [String] = [], remove: [String] = []) { self.add = add; self.remove = remove }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("add", first: true); w.raw("["); for (k, s) in add.enumerated() { if k > 0 { w.raw(",") }; w.string(s) }; w.raw("]")
        w.key("remove"); w.raw("["); for (k, s) in remove.enumerated() { if k > 0 { w.raw(",") }; w.string(s) }; w.raw("]}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["add", "remove"], at: "", into: &log)
        let add = o["add"] == nil ? [] : (WireError.stringList(o, "add", &log) ?? [])
        let remove = o["remove"] == nil ? [] : (WireError.stringList(o, "remove", &log) ?? [])
        if !log.isEmpty { throw .invalid(log.error) }
        self.init(add: add, remove: remove)
    }
}

/// `POST /v1/holds/{token}/confirm`.
public struct ConfirmRequest: Sendable, Hashable {
    public var orderRef: String
    public init(orderRef: String) { self.orderRef = orderRef }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("orderRef", first: true); w.string(orderRef); w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["orderRef"], at: "", into: &log)
        let ref = o.text("orderRef", into: &log)
        if let ref, let problem = WireOrderRef.problem(ref) { log.add("orderRef", problem) }
        if !log.isEmpty { throw .invalid(log.error) }
        self.init(orderRef: ref!)
    }
}

/// A hold as the API returns it.
public struct HoldResource: Sendable, Hashable {
    public enum State: String, Sendable { case active, released, expired, confirmed }
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

    public init(
        token: String, holdID: String, showID: String, state: State, seats: [String], total: String, currency: String,
        expiresAt: String, extended: Bool, version: UInt64, orderRef: String?
    ) {
        self.token = token; self.holdID = holdID; self.showID = showID; self.state = state; self.seats = seats; self.total = total
        self.currency = currency; self.expiresAt = expiresAt; self.extended = extended; self.version = version; self.orderRef = orderRef
    }

    public func jsonWriter() -> JSONWriter {
        var w = JSONWriter()
        w.raw("{"); w.key("token", first: true); w.string(token)
        w.key("holdId"); w.string(holdID)
        w.key("showId"); w.string(showID)
        w.key("state"); w.string(state.rawValue)
        w.key("seats"); w.raw("["); for (k, s) in seats.enumerated() { if k > 0 { w.raw(",") }; w.string(s) }; w.raw("]")
        w.key("total"); w.string(total)
        w.key("currency"); w.string(currency)
        w.key("expiresAt"); w.string(expiresAt)
        w.key("extended"); w.raw(extended ? "true" : "false")
        w.key("version"); w.number(Int(version))
        if let orderRef { w.key("orderRef"); w.string(orderRef) }
        w.raw("}")
        return w
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
    }
}

/// An RFC 9457 problem as the API sends it, with the members SeatKit adds.
public struct ProblemDocument: Sendable, Hashable, CustomStringConvertible {
    public struct Conflict: Sendable, Hashable {
        public var seat: String
        public var status: String
        public init(seat: String, status: String) { self.seat = seat; self.status = status }
    }
    public struct Violation: Sendable, Hashable {
        public var rule: String
        public var seats: [String]
        public var chinese: String
        public var english: String
    }
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    public var conflicts: [Conflict]
    public var violations: [Violation]

    /// The slug of `type` (`seats-taken` for `/problems/seats-taken`).
    public var slug: String { String(type.split(separator: "/").last ?? "") }
    public var description: String { "\(status) \(slug): \(detail)" }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        type = o.string("type", at: "", into: &log) ?? "about:blank"
        title = o.string("title", at: "", into: &log, required: false) ?? ""
        status = o.integer("status", at: "", into: &log) ?? 0
        detail = o.string("detail", at: "", into: &log, required: false) ?? ""
        conflicts = (o["conflicts"]?.arrayValue ?? []).compactMap { v in
            guard let c = v.objectValue, let seat = c["seat"]?.stringValue, let status = c["status"]?.stringValue else { return nil }
            return Conflict(seat: seat, status: status)
        }
        violations = (o["violations"]?.arrayValue ?? []).compactMap { v in
            guard let c = v.objectValue, let rule = c["rule"]?.stringValue else { return nil }
            let message = c["message"]?.objectValue
            return Violation(
                rule: rule, seats: (c["seats"]?.arrayValue ?? []).compactMap(\.stringValue),
                chinese: message?["zh"]?.stringValue ?? "", english: message?["en"]?.stringValue ?? "")
        }
        if !log.isEmpty { throw .invalid(log.error) }
    }
}

/// A body that is not what the API says it is.
public enum WireError: Error, Sendable, CustomStringConvertible {
    case malformed(JSONSyntaxError)
    case notAnObject
    case invalid(LayoutError)

    public var description: String {
        switch self {
        case .malformed(let e): return "malformed JSON: \(e)"
        case .notAnObject: return "the body must be a JSON object"
        case .invalid(let e): return e.description
        }
    }

    static func object(_ bytes: [UInt8]) throws(WireError) -> JSONObject {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw .malformed(error) }
        guard case .object(let o) = value else { throw .notAnObject }
        return o
    }

    static func stringList(_ o: JSONObject, _ key: String, _ log: inout ProblemLog) -> [String]? {
        o.seatIDs(key, into: &log)
    }
}

/// Text a client sends that the server stores, echoes or compares: control characters (U+0000–U+001F,
/// U+007F–U+009F) are refused. A NUL in particular is cut off by C strings on the way to the store, so
/// the stored value would differ from the one acknowledged.
public enum WireText {
    /// A problem message naming the first control character in `s`, or nil.
    public static func controlCharacter(in s: String) -> String? {
        for (k, u) in s.unicodeScalars.enumerated() where u.value < 0x20 || (u.value >= 0x7F && u.value <= 0x9F) {
            return "control character U+\(String(format: "%04X", u.value)) at character \(k + 1) (not allowed in text)"
        }
        return nil
    }
}

/// An order reference: 1 to 128 characters, none of them a control character or one of `/ ? # % \`:
/// it is a segment of `/v1/orders/{orderRef}`, and a reference the URL cannot
/// carry as it is would be sold and then never found again (a `/` once made an order unrefundable).
/// Letters of any script, digits and other punctuation are fine: `WEB-2026-0001`, `影城-7号`.
public enum WireOrderRef {
    public static let maximumLength = 128
    static let refused: Set<Unicode.Scalar> = ["/", "?", "#", "%", "\\"]

    /// A problem message for `s`, or nil when it is a well-formed order reference.
    public static func problem(_ s: String) -> String? {
        let length = s.unicodeScalars.count
        if length == 0 || length > maximumLength { return "1 to \(maximumLength) characters, got \(length)" }
        if let bad = WireText.controlCharacter(in: s) { return bad }
        if let (k, c) = s.unicodeScalars.enumerated().first(where: { refused.contains($0.element) }) {
            return "\"\(c)\" at character \(k + 1): an order reference is part of a URL path, so / ? # % and \\ are not allowed"
        }
        return nil
    }
}

/// A seat id as a client sends it: 1 to 64 characters (the OpenAPI document's `SeatId`), no control
/// characters. Checked before anything else about the request, so a malformed id is the same 422
/// whatever state the hold or show is in.
public enum WireSeatID {
    public static let maximumLength = 64

    /// A problem message for `s`, or nil when it is a well-formed seat id.
    public static func problem(_ s: String) -> String? {
        if s.isEmpty { return "an empty seat id" }
        let length = s.unicodeScalars.count
        if length > maximumLength { return "a seat id is at most \(maximumLength) characters, this one has \(length)" }
        return WireText.controlCharacter(in: s)
    }
}

extension JSONObject {
    /// An array member of seat ids, each checked by `WireSeatID`; a problem names `key[k]`.
    public func seatIDs(_ key: String, into log: inout ProblemLog, required: Bool = true) -> [String]? {
        guard let list = array(key, at: "", into: &log, required: required) else { return nil }
        var out: [String] = []
        for (k, v) in list.enumerated() {
            guard let s = v.stringValue else { log.add("\(key)[\(k)]", "expected a seat id string, got \(v.shortDescription)"); continue }
            if let bad = WireSeatID.problem(s) { log.add("\(key)[\(k)]", bad) } else { out.append(s) }
        }
        return out
    }

    /// A string member free of control characters; a problem names the member otherwise.
    public func text(_ key: String, into log: inout ProblemLog, required: Bool = true) -> String? {
        guard let s = string(key, at: "", into: &log, required: required) else { return nil }
        if let bad = WireText.controlCharacter(in: s) { log.add(key, bad); return nil }
        return s
    }
}
