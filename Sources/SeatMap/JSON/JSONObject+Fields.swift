import SeatJSON
/// Typed member access that records a precise problem instead of throwing, so one pass over a document
/// finds every mistake in it. Paths are autoclosures: they are only built when something is wrong.
extension JSONObject {
    /// The member `key` converted by `extract`; a missing or mistyped member is recorded as a problem.
    /// `kind` names the expected type ("string"), `article` its indefinite article.
    func member<T>(
        _ key: String, _ kind: String, _ article: String, at path: () -> String, into log: inout ProblemLog,
        required: Bool, _ extract: (JSONValue) -> T?
    ) -> T? {
        guard let v = self[key], v != .null else {
            if required { log.add(joinPath(path(), key), "missing (expected \(article) \(kind))") }
            return nil
        }
        if let value = extract(v) { return value }
        if kind == "integer" && v.isOutOfRangeInteger {
            log.add(joinPath(path(), key), "\(v.shortDescription) is out of range (expected an integer within ±\(JSONValue.integerLimit))")
        } else {
            log.add(joinPath(path(), key), "expected \(kind), got \(v.shortDescription)")
        }
        return nil
    }

    public func string(
        _ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
        required: Bool = true
    ) -> String? {
        member(key, "string", "a", at: path, into: &log, required: required) { $0.stringValue }
    }

    /// A string, or an integer written as a number (printed labels are often numbers in the wild).
    public func label(
        _ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
        required: Bool = true
    ) -> String? {
        member(key, "string", "a", at: path, into: &log, required: required) { $0.stringValue ?? $0.intValue.map(String.init) }
    }

    public func number(
        _ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
        required: Bool = true
    ) -> Double? {
        member(key, "number", "a", at: path, into: &log, required: required) { $0.doubleValue }
    }

    public func integer(
        _ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
        required: Bool = true
    ) -> Int? {
        member(key, "integer", "an", at: path, into: &log, required: required) { $0.intValue }
    }

    public func array(
        _ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
        required: Bool = true
    ) -> [JSONValue]? {
        member(key, "array", "an", at: path, into: &log, required: required) { $0.arrayValue }
    }

    public func object(
        _ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
        required: Bool = true
    ) -> JSONObject? {
        member(key, "object", "an", at: path, into: &log, required: required) { $0.objectValue }
    }

    /// Reports members outside `allowed` (a misspelt `"colour"` is caught, not ignored).
    public func rejectUnknownKeys(_ allowed: [String], at path: @autoclosure () -> String, into log: inout ProblemLog) {
        for key in keys where !allowed.contains(key) {
            log.add(joinPath(path(), key), "unknown member (expected one of: \(allowed.joined(separator: ", ")))")
        }
    }
}

extension JSONValue {
    /// The value as an object, or a problem saying what it was instead.
    public func object(at path: @autoclosure () -> String, into log: inout ProblemLog) -> JSONObject? {
        if case .object(let o) = self { return o }
        log.add(path(), "expected object, got \(shortDescription)")
        return nil
    }
}

extension LayoutError {
    public init(_ syntax: JSONSyntaxError) {
        self.init(problems: [LayoutProblem(path: "line \(syntax.line), column \(syntax.column)", message: syntax.message)])
    }
}

/// `rows[3]` + `x` → `rows[3].x`; a root-level member is just its name.
@inline(__always) func joinPath(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }
