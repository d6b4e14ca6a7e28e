import Foundation
import SeatJSON
import SeatMap

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

extension ProblemDocument: WireBody {
    public static let schemaName = "Problem"
    public static let schema: JSONSchema = .object(
        [
            "type": .string(pattern: "^/problems/[a-z-]+$"),
            "title": .string(),
            "status": .integer(minimum: 400, maximum: 599),
            "detail": .string(),
            "conflicts": .array(
                .object(["seat": .string(), "status": .oneOf(["held", "sold", "blocked"])], required: ["seat", "status"])
            ).described("the seats someone else has (409 seats-taken)"),
            "version": .integer(minimum: 0).described("the show's version the conflicts were seen at"),
            "violations": .array(
                .object(
                    [
                        "rule": .string(),
                        "seats": .array(.string()),
                        "message": .object(["zh": .string(), "en": .string()], required: ["zh", "en"]),
                    ], required: ["rule", "seats", "message"])
            ).described("the show's rules the seats break (422 rule-violation)"),
            "errors": .array(.object(["path": .string(), "message": .string()], required: ["path", "message"])).described(
                "every wrong member of the request, with its path (422)"),
            "seats": .array(.string()).described("seat ids the venue, the sale or the order does not have"),
        ], required: ["type", "title", "status", "detail"])
}
