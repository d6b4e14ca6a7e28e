import Foundation

/// A parsed JSON document: the small tree every importer and the layout decoder read from.
///
/// Numbers keep both a `Double` and, when the literal was an integer that fits, an `Int64`, so that
/// `"col": 12.5` can be reported as "expected integer" instead of being silently truncated.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON number literal.
public struct JSONNumber: Sendable, Equatable {
    public var double: Double
    /// Set when the literal had no fraction or exponent and fits in 64 bits.
    public var integer: Int64?

    public init(double: Double, integer: Int64?) {
        self.double = double
        self.integer = integer
    }
}

/// A JSON object with its members in document order; lookups are linear, which beats hashing for the
/// handful of keys a seat or row has.
public struct JSONObject: Sendable, Equatable {
    public var keys: [String]
    public var values: [JSONValue]

    public init(keys: [String] = [], values: [JSONValue] = []) {
        self.keys = keys
        self.values = values
    }

    /// - Complexity: O(members).
    public subscript(key: String) -> JSONValue? {
        for i in keys.indices where keys[i] == key { return values[i] }
        return nil
    }

    public var count: Int { keys.count }
}

extension JSONValue {
    /// A short rendering of the value for error messages: `"12a"`, `12.5`, `an object`.
    public var shortDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.integer.map(String.init) ?? String(n.double)
        case .string(let s):
            let clipped = s.count > 40 ? String(s.prefix(40)) + "…" : s
            return "\"" + clipped + "\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var doubleValue: Double? { if case .number(let n) = self { return n.double } else { return nil } }

    /// The integer value, also for a float literal with no fractional part (`3.0`), within
    /// ±`JSONValue.integerLimit`: an input's integer is a count, a row or a column, and one past 2^53 is a
    /// mistake whose arithmetic (`col - 1`, `x * 100`) could trap.
    public var intValue: Int? {
        guard case .number(let n) = self else { return nil }
        if let i = n.integer { return abs(i) <= Self.integerLimit ? Int(i) : nil }
        if n.double.rounded() == n.double, abs(n.double) <= Double(Self.integerLimit) { return Int(n.double) }
        return nil
    }

    /// The largest integer an input may give: 2^53 − 1, the last one a Double (and JavaScript) holds exactly.
    public static let integerLimit: Int64 = 9_007_199_254_740_991

    /// An integral number beyond ±`integerLimit` (a mistake to name as such, not as "not an integer").
    package var isOutOfRangeInteger: Bool {
        guard case .number(let n) = self, intValue == nil else { return false }
        return n.integer != nil || (n.double.rounded() == n.double && n.double.isFinite)
    }
}
