/// What an operator may do. Door staff scan tickets and nothing else; box-office staff also block,
/// hold, sell and refund; managers also change prices, edit or cancel shows and upload venues.
/// `checkout` is apart: the key of an operator's own checkout (a server, not a person), which may only
/// sell a buyer's hold against a payment it took itself (`confirm` with an external payment); a
/// manager may do that too.
public enum OperatorRole: String, Sendable, CaseIterable, Comparable {
    case door, boxoffice, manager, checkout

    /// Whether this role may act where `required` is asked for (a manager may do all a box office may,
    /// a box office all the door may; a checkout key only what a checkout asks).
    public func allows(_ required: OperatorRole) -> Bool {
        if required == .checkout { return self == .checkout || self == .manager }
        if self == .checkout { return false }
        return self >= required
    }

    public static func < (a: OperatorRole, b: OperatorRole) -> Bool { rank(a) < rank(b) }

    private static func rank(_ r: OperatorRole) -> Int { allCases.firstIndex(of: r)! }

    /// The roles as the operators file spells them, for messages.
    public static let spelled = "door, boxoffice, manager or checkout"
}

/// A person (or a script) acting for the venue, by name: what the audit log records.
public struct Operator: Sendable, Hashable {
    public let name: String
    public let role: OperatorRole
    /// The cinemas they act for (their ids); nil: every cinema (head office, the admin key).
    public let cinemas: [String]?

    public init(name: String, role: OperatorRole, cinemas: [String]? = nil) { self.name = name; self.role = role; self.cinemas = cinemas }

    /// Whether they may act for `cinema` (nil: a show of a venue in no cinema, which only head office runs).
    public func actsFor(cinema: String?) -> Bool {
        guard let cinemas else { return true }
        return cinema.map(cinemas.contains) ?? false
    }
}

/// A line of an operators file that cannot be read, with its place.
public struct OperatorFileError: Error, Sendable, CustomStringConvertible {
    public var source: String
    /// 0: the file as a whole (it cannot be read).
    public var line: Int
    public var message: String
    public init(source: String, line: Int, message: String) { self.source = source; self.line = line; self.message = message }
    public var description: String { line == 0 ? "\(source): \(message)" : "\(source) line \(line): \(message)" }
}

/// Who holds which key. Keys are never kept: only their SHA-256, as the operators file gives it
/// (`name role sha256:HEX`, one operator a line), and the `--admin-key`'s, as the manager `admin`.
/// Looking a key up hashes it once and finds the digest in a table (a digest reveals nothing of the key,
/// so the lookup needs no constant-time compare).
public struct OperatorDirectory: Sendable {
    let byDigest: [String: Operator]

    /// The operators in name order.
    public var operators: [Operator] { byDigest.values.sorted { $0.name < $1.name } }

    /// The file's operators with their keys' digests (what the store imports once), the admin key's not.
    public var fileOperators: [(Operator, digest: String)] {
        byDigest.filter { $0.value.name != "admin" }.map { ($0.value, $0.key) }.sorted { $0.0.name < $1.0.name }
    }

    /// `adminKey` (already checked by `AdminKey.problem`) as the manager `admin`, plus the file's operators.
    public init(adminKey: String, file: (text: String, source: String)? = nil) throws(OperatorFileError) {
        var table = [Self.digest(adminKey): Operator(name: "admin", role: .manager)]
        if let file {
            for (number, op, digest) in try Self.parse(file.text, source: file.source) {
                if table[digest] != nil {
                    throw OperatorFileError(
                        source: file.source, line: number, message: "\(op.name)'s key is also \(table[digest]!.name)'s: every operator needs a key of their own"
                    )
                }
                table[digest] = op
            }
        }
        byDigest = table
    }

    /// The operator whose key this is, or nil.
    /// - Complexity: one SHA-256 of the key and one table lookup.
    public func identify(key: String) -> Operator? { byDigest[Self.digest(key)] }

    /// The operator whose key has this digest (`digest(_:)`), or nil.
    public func identify(digest: String) -> Operator? { byDigest[digest] }

    /// How a key is kept in the operators file: `sha256:` and the hex of its SHA-256 (what
    /// `printf %s "$KEY" | sha256sum` prints).
    public static func digest(_ key: String) -> String { "sha256:" + SHA256.hex(SHA256.hash(key)) }

    /// The file's line for a new operator.
    public static func line(name: String, role: OperatorRole, key: String) -> String { "\(name) \(role.rawValue) \(digest(key))" }

    /// Names no operator may have: what the records call a buyer acting on their own order.
    public static let buyersNames: Set<String> = ["buyer", "online"]

    /// Why `name` cannot name an operator, or nil.
    public static func nameProblem(_ name: String) -> String? {
        let ok =
            !name.isEmpty && name.utf8.count <= 64
            && name.unicodeScalars.allSatisfy { s in
                (s.value >= 0x30 && s.value <= 0x39) || (s.value >= 0x41 && s.value <= 0x5A) || (s.value >= 0x61 && s.value <= 0x7A)
                    || "._@-".unicodeScalars.contains(s)
            }
        return ok ? nil : "operator name \"\(name)\": 1 to 64 letters, digits, '.', '_', '@' or '-'"
    }

    /// The file's operators with their line numbers. Blank lines and lines starting with `#` are skipped.
    static func parse(_ text: String, source: String) throws(OperatorFileError) -> [(Int, Operator, String)] {
        var out: [(Int, Operator, String)] = []
        var names: [String: Int] = [:]
        for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = k + 1
            let fields = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            func fail(_ message: String) -> OperatorFileError { OperatorFileError(source: source, line: number, message: message) }
            guard fields.count == 3 else { throw fail("expected NAME ROLE sha256:HEX (3 fields), got \(fields.count)") }
            if let problem = nameProblem(fields[0]) { throw fail(problem) }
            guard let role = OperatorRole(rawValue: fields[1]) else { throw fail("role must be \(OperatorRole.spelled), not \"\(fields[1])\"") }
            let hash = fields[2]
            let hex = hash.hasPrefix("sha256:") ? String(hash.dropFirst(7)) : ""
            guard hex.utf8.count == 64, hex.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
                throw fail("the key must be given as sha256: and 64 lowercase hex digits (printf %s \"$KEY\" | sha256sum), never the key itself")
            }
            if let earlier = names[fields[0]] { throw fail("\(fields[0]) is already named on line \(earlier)") }
            if fields[0] == "admin" { throw fail("the name admin is the --admin-key's") }
            // The takings and the shows' logs name buyers' own acts so: a clerk of that name would be
            // counted as online money, or online money as theirs.
            if Self.buyersNames.contains(fields[0]) { throw fail("the name \(fields[0]) is kept for buyers' own purchases, refunds and exchanges") }
            names[fields[0]] = number
            out.append((number, Operator(name: fields[0], role: role), "sha256:" + hex))
        }
        return out
    }
}
