import Foundation
import SeatJSON
import SeatMap

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

extension WireSeatID: WireBody {
    public static let schemaName = "SeatId"
    public static let schema: JSONSchema = .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 64).described(
        "a seat id of the show's venue")
}

/// Money on the wire: exact decimal text in the currency's minor units (`"116.00"`, `"-5.00"`), never
/// a JSON number (a double would turn 0.1 + 0.2 into 0.30000000000000004).
public enum WireMoney {
    public static let pattern = #"^-?[0-9]+(\.[0-9]+)?$"#
    public static var schema: JSONSchema { .string(pattern: pattern) }
}

extension JSONObject {
    /// A member `{"KEY":"38.00",…}` of amounts, 0 or more, as exact decimals (nil when absent): each
    /// bad one named (`prices.7-1`), and more than `limit` keys said (`at most 1000 seats`).
    public func amounts(_ key: String, example: String, limit: Int, of what: String, into log: inout ProblemLog) -> [String: Decimal] {
        guard let p = object(key, at: "", into: &log, required: false) else { return [:] }
        var out: [String: Decimal] = [:]
        for k in p.keys {
            guard case .string(let text)? = p[k], let amount = PriceTable.parseDecimal(text), amount >= 0 else {
                log.add("\(key).\(k)", "expected an amount like \"\(example)\" (0 or more), got \(p[k]!.shortDescription)")
                continue
            }
            out[k] = amount
        }
        if p.keys.count > limit { log.add(key, "at most \(limit) \(what)") }
        return out
    }
}

/// An id of a venue or show: 1 to 64 letters, digits, `-`, `_` and `.` (it is a path segment).
public enum WireIdentifier {
    public static let pattern = "^[A-Za-z0-9._-]{1,64}$"

    public static func isValid(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64
            && s.utf8.allSatisfy { c in
                (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45 || c == 95 || c == 46
            }
    }
}

extension JSONObject {
    /// `reason`: 1 to 200 characters, not only spaces, no control characters; `saying` is the message
    /// when it is not.
    public func reason(into log: inout ProblemLog, saying: String) -> String? {
        guard let reason = text("reason", into: &log) else { return nil }
        if reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || reason.unicodeScalars.count > 200 {
            log.add("reason", saying)
            return nil
        }
        return reason
    }
}
