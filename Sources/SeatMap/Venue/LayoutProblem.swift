/// One thing wrong with an input, with where it is: `seats[132].col: expected integer, got "12a"`.
public struct LayoutProblem: Sendable, Hashable, CustomStringConvertible {
    /// A path into the input (`rows[3].seats[12].x`), or `line 4, column 9` for syntax errors.
    public var path: String
    public var message: String
    public init(path: String, message: String) { self.path = path; self.message = message }
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every problem found in an input (up to `ProblemLog.limit`); nothing was built.
public struct LayoutError: Error, Sendable, CustomStringConvertible {
    public var problems: [LayoutProblem]
    /// Problems found past the cap and not listed.
    public var omitted: Int

    public init(problems: [LayoutProblem], omitted: Int = 0) { self.problems = problems; self.omitted = omitted }

    public var description: String {
        var lines = problems.map(\.description)
        if omitted > 0 { lines.append("… and \(omitted) more problems") }
        return lines.joined(separator: "\n")
    }
}

/// Collects problems up to a cap, so a broken 100k-seat file reports the first hundred and a count.
public struct ProblemLog: Sendable {
    public static let limit = 100
    public private(set) var problems: [LayoutProblem] = []
    public private(set) var omitted = 0

    public init() {}

    public var isEmpty: Bool { problems.isEmpty }

    public mutating func add(_ path: String, _ message: String) {
        if problems.count < Self.limit { problems.append(LayoutProblem(path: path, message: message)) } else { omitted += 1 }
    }

    public func check() throws(LayoutError) {
        if !problems.isEmpty { throw LayoutError(problems: problems, omitted: omitted) }
    }

    public var error: LayoutError { LayoutError(problems: problems, omitted: omitted) }
}
