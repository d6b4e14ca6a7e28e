import Foundation
import LoopbackHTTP
import SeatJSON
@testable import SeatServer
import SeatServerTestSupport
import SeatWire
import Testing

/// Requests sent to a real server and what it answered: each answer checked against the operation
/// the route table documents for it (a status it does not list, or a body its schema does not allow,
/// is a test failure naming the path), and written as Markdown for docs/API.md. Tokens, ids and the
/// clock's times are replaced by stand-ins so the text is the same on every run.
struct ExampleBook {
    let server: TestServer
    private(set) var markdown = ""
    private(set) var checked = 0
    private var standIns: [String: String] = [:]
    private var counters: [String: Int] = [:]
    private let started = Date()

    init(_ server: TestServer) { self.server = server }

    /// Sends the request, checks the answer, writes both; returns the answer's JSON object (if any).
    @discardableResult
    mutating func exchange(
        _ title: String, _ method: String, _ path: String, body: String? = nil, operatorKey: Bool = false, headers: [(String, String)] = [],
        written: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSONObject? {
        var all = headers
        if operatorKey { all.append(("X-Admin-Key", TestServer.adminKey)) }
        let c = try server.connection()
        let r =
            try body.map { try c.request(method, path, json: $0, headers: all) } ?? c.request(method, path, headers: all)
        let value = (r.headers["content-type"] ?? "").contains("json") ? try JSONParser.parse(r.body) : nil
        check(method, path, r, value, sourceLocation)
        checked += 1
        guard written else { return value?.objectValue }
        markdown += "**\(title)**\n\n```http\n\(method) \(standIn(path))\n"
        for (name, v) in all { markdown += "\(name): \(name == "X-Admin-Key" ? "$KEY" : v)\n" }
        if let body { markdown += "\n\(standIn(body))\n" }
        markdown += "\n\(r.status) \(Self.reasons[r.status] ?? "")\n"
        if let value { markdown += standIn(Self.pretty(value, indent: "")) + "\n" }
        markdown += "```\n\n"
        return value?.objectValue
    }

    /// The documented answer for this status, and the body against its schema.
    private func check(_ method: String, _ path: String, _ r: HTTPConnection.Response, _ value: JSONValue?, _ at: SourceLocation) {
        let bare = String(path.split(separator: "?", maxSplits: 1)[0])
        guard case .found(let route, _, _, _) = SeatAPI.routes.resolve(method: method, path: bare),
            let op = route.operations.first(where: { $0.method == method })?.operation
        else {
            Issue.record("\(method) \(path) is not routed", sourceLocation: at)
            return
        }
        let schema: JSONSchema?
        if let answer = op.answers.first(where: { $0.status == r.status }) {
            schema = answer.content.first { $0.type == "application/json" }?.schema
            if answer.content.isEmpty { #expect(r.body.isEmpty, "\(method) \(route.pattern) \(r.status) has a body", sourceLocation: at) }
        } else if (op.problems + OpenAPIDocument.everyOperationProblems).contains(r.status) {
            #expect(r.headers["content-type"] == "application/problem+json", "\(method) \(path) \(r.status)", sourceLocation: at)
            schema = .ref(ProblemDocument.self)
        } else {
            Issue.record("\(method) \(route.pattern) answered \(r.status), which its operation \(op.id) does not list", sourceLocation: at)
            return
        }
        guard let schema else { return }
        guard let value else {
            Issue.record("\(method) \(path) \(r.status): no JSON body", sourceLocation: at)
            return
        }
        let problems = schema.validate(value, resolving: WireContract.component)
        #expect(problems.isEmpty, "\(method) \(route.pattern) \(r.status) breaks its schema: \(problems)", sourceLocation: at)
    }

    // MARK: - Stand-ins

    private static let token = try! NSRegularExpression(pattern: "\\b[0-9a-f]{44}\\b")
    private static let ids = try! NSRegularExpression(pattern: "\\b(h|r|s|x)_[0-9a-f]{20,40}\\b")
    private static let time = try! NSRegularExpression(pattern: "\\b20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z")
    /// A ticket's code and id: from its sale's id, which is this run's.
    private static let ticketCode = try! NSRegularExpression(pattern: "\\bSK1[A-Z2-7]{40,}\\b")
    /// A ticket id: a `ticketId` member, or an element of a list (the issuer's `revoked`).
    private static let ticketID = try! NSRegularExpression(pattern: "(?<=\"ticketId\": ?\"|\\[\"|\",\")[0-9a-f]{16}(?=\")")

    /// The text with every token, hold or reservation id and time of this run replaced, the same value
    /// by the same stand-in each time.
    private mutating func standIn(_ text: String) -> String {
        var out = text
        for (regex, kind) in [(Self.token, "token"), (Self.ids, "id"), (Self.time, "time"), (Self.ticketCode, "code"), (Self.ticketID, "ticket")] {
            let ns = out as NSString
            var replaced = ""
            var last = 0
            for m in regex.matches(in: out, range: NSRange(location: 0, length: ns.length)) {
                let found = ns.substring(with: m.range)
                replaced += ns.substring(with: NSRange(location: last, length: m.range.location - last)) + (standIn(for: found, kind: kind) ?? found)
                last = m.range.location + m.range.length
            }
            out = replaced + ns.substring(from: last)
        }
        return out
    }

    private mutating func standIn(for value: String, kind: String) -> String? {
        if let known = standIns[value] { return known }
        let made: String
        switch kind {
        case "token":
            let k = counters["token", default: 0] + 1
            counters["token"] = k
            made = String(String(repeating: "\(k)f3a9c0e7b5d2", count: 4).prefix(44))
        case "id":
            let prefix = String(value.prefix(2))
            let k = counters[prefix, default: 0] + 1
            counters[prefix] = k
            made = prefix + String(String(repeating: "\(k)0c4e8a2b6d", count: 4).prefix(value.count - 2))
        case "code":
            let k = counters["code", default: 0] + 1
            counters["code"] = k
            made = "SK1" + String(String(repeating: "\(k % 6 + 2)TICKETCODE", count: 40).prefix(value.count - 3))
        case "ticket":
            let k = counters["ticket", default: 0] + 1
            counters["ticket"] = k
            made = String(String(repeating: "\(k)7e1c", count: 8).prefix(16))
        default:
            // A time of this run (not one a request named): minutes after a fixed start, rounded, so
            // a run taking a few seconds longer writes the same text.
            guard let ms = Timestamp.milliseconds(value), abs(Double(ms) / 1000 - started.timeIntervalSince1970) < 86_400 else { return nil }
            let minutes = ((Double(ms) / 1000 - started.timeIntervalSince1970) / 60).rounded()
            made = Timestamp.text(1_796_124_600_000 + Int64(minutes) * 60_000)  // 2026-12-01T11:30:00Z
        }
        standIns[value] = made
        return made
    }

    static let reasons = [
        200: "OK", 201: "Created", 204: "No Content", 304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
        404: "Not Found", 409: "Conflict", 410: "Gone", 413: "Content Too Large", 422: "Unprocessable Content", 429: "Too Many Requests",
        503: "Service Unavailable",
    ]

    // MARK: - Layout

    /// JSON for reading: an object or array that fits in 100 characters on one line, else one member
    /// a line.
    static func pretty(_ v: JSONValue, indent: String) -> String {
        var w = JSONWriter()
        w.value(v)
        let flat = w.text
        if flat.count + indent.count <= 100 { return flat }
        let inner = indent + "  "
        switch v {
        case .object(let o):
            let members = zip(o.keys, o.values).map { inner + JSONWriter.quoted($0) + ": " + pretty($1, indent: inner) }
            return "{\n" + members.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let list):
            return "[\n" + list.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        default:
            return flat
        }
    }
}
