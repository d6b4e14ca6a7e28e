/// Typed member access that records a precise problem instead of throwing, so one pass over a document
/// finds every mistake in it. Paths are autoclosures: they are only built when something is wrong.
extension JSONObject {
    public func string(_ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
                       required: Bool = true) -> String? {
        guard let v = self[key], v != .null else {
            if required { log.add(joinPath(path(), key), "missing (expected a string)") }
            return nil
        }
        if case .string(let s) = v { return s }
        log.add(joinPath(path(), key), "expected string, got \(v.shortDescription)")
        return nil
    }

    /// A string, or an integer written as a number (printed labels are often numbers in the wild).
    public func label(_ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
                      required: Bool = true) -> String? {
        guard let v = self[key], v != .null else {
            if required { log.add(joinPath(path(), key), "missing (expected a string)") }
            return nil
        }
        if case .string(let s) = v { return s }
        if let i = v.intValue { return String(i) }
        log.add(joinPath(path(), key), "expected string, got \(v.shortDescription)")
        return nil
    }

    public func number(_ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
                       required: Bool = true) -> Double? {
        guard let v = self[key], v != .null else {
            if required { log.add(joinPath(path(), key), "missing (expected a number)") }
            return nil
        }
        if case .number(let n) = v { return n.double }
        log.add(joinPath(path(), key), "expected number, got \(v.shortDescription)")
        return nil
    }

    public func integer(_ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
                        required: Bool = true) -> Int? {
        guard let v = self[key], v != .null else {
            if required { log.add(joinPath(path(), key), "missing (expected an integer)") }
            return nil
        }
        if let i = v.intValue { return i }
        log.add(joinPath(path(), key), "expected integer, got \(v.shortDescription)")
        return nil
    }

    public func array(_ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
                      required: Bool = true) -> [JSONValue]? {
        guard let v = self[key], v != .null else {
            if required { log.add(joinPath(path(), key), "missing (expected an array)") }
            return nil
        }
        if case .array(let a) = v { return a }
        log.add(joinPath(path(), key), "expected array, got \(v.shortDescription)")
        return nil
    }

    public func object(_ key: String, at path: @autoclosure () -> String, into log: inout ProblemLog,
                       required: Bool = true) -> JSONObject? {
        guard let v = self[key], v != .null else {
            if required { log.add(joinPath(path(), key), "missing (expected an object)") }
            return nil
        }
        if case .object(let o) = v { return o }
        log.add(joinPath(path(), key), "expected object, got \(v.shortDescription)")
        return nil
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
