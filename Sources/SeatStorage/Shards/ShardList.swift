import Foundation

/// The shards a deployment names: `NAME postgres://…` a line in a file (`seatkit serve --shards FILE`),
/// or `--store` given several times (`NAME=postgres://…`, or a bare URL named `shard1`, `shard2`… by
/// its place). Checked whole before any database is opened: a mistake is a line and a reason, and
/// nothing is created or migrated.
public struct ShardList: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var url: String
        public init(name: String, url: String) { self.name = name; self.url = url }
    }

    public var entries: [Entry]

    /// Why a list of shards is refused: where, and what is wrong.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var place: String
        public var message: String
        public var description: String { "\(place): \(message)" }
        public init(place: String, message: String) { self.place = place; self.message = message }
    }

    /// A name says a shard in every identifier it keeps (`h_east.…`): short, lowercase, and a letter first.
    public static func nameProblem(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard (1...12).contains(bytes.count) else { return "a shard's name is 1 to 12 characters (\"\(name)\" has \(bytes.count))" }
        guard (97...122).contains(bytes[0]), bytes.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) }) else {
            return "a shard's name is a lowercase letter then lowercase letters and digits (\"\(name)\" is not)"
        }
        return nil
    }

    /// Whether `url` names a PostgreSQL database (the only store several instances and shards share).
    public static func isPostgres(_ url: String) -> Bool { url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") }

    public init(entries: [Entry]) throws(Problem) {
        self.entries = entries
        var names: [String: Int] = [:], urls: [String: Int] = [:]
        for (k, e) in entries.enumerated() {
            let place = "shard \(k + 1) (\(e.name))"
            if let p = Self.nameProblem(e.name) { throw Problem(place: place, message: p) }
            guard Self.isPostgres(e.url) else {
                throw Problem(place: place, message: "\(Self.redacted(e.url)) is not a PostgreSQL URL (postgres://…): shards are PostgreSQL databases")
            }
            if let first = names[e.name] { throw Problem(place: place, message: "the name \(e.name) is also shard \(first + 1)'s") }
            if let first = urls[e.url] { throw Problem(place: place, message: "the same database as shard \(first + 1) (\(entries[first].name))") }
            names[e.name] = k; urls[e.url] = k
        }
        guard !entries.isEmpty else { throw Problem(place: "shards", message: "no shard is named") }
    }

    /// From repeated `--store` values: `NAME=URL`, or a bare URL named by its place (`shard1`…).
    public init(stores: [String]) throws(Problem) {
        var out: [Entry] = []
        for (k, s) in stores.enumerated() {
            if let eq = s.firstIndex(of: "="), !s[..<eq].contains(":") {
                out.append(Entry(name: String(s[..<eq]), url: String(s[s.index(after: eq)...])))
            } else {
                out.append(Entry(name: "shard\(k + 1)", url: s))
            }
        }
        do { try self.init(entries: out) } catch {
            throw Problem(place: "--store \(error.place)", message: error.message)
        }
    }

    /// From a file: `NAME URL` a line; blank lines and `#` comments are skipped.
    public init(file text: String, path: String) throws(Problem) {
        var out: [Entry] = []
        for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if words.isEmpty { continue }
            guard words.count == 2 else {
                throw Problem(place: "\(path):\(k + 1)", message: "a line is a shard's name and its URL (NAME postgres://…), found \(words.count) words")
            }
            out.append(Entry(name: words[0], url: words[1]))
        }
        do { try self.init(entries: out) } catch {
            throw Problem(place: "\(path) \(error.place)", message: error.message)
        }
    }

    /// A URL without its password, for messages and logs.
    public static func redacted(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.password != nil else { return url }
        parts.password = "***"
        return parts.string ?? url
    }
}
