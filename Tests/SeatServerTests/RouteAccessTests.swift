import Foundation
import LoopbackHTTP
import SeatJSON
import SeatSecrets
import SeatServerTestSupport
import Testing

/// Roles are declared in the route table (`APIOperation.Access.role`, `x-seatkit-role` in the OpenAPI
/// document) and checked by the dispatcher before any handler runs: every operation that names a role
/// answers 401 without a key and 403, naming the role, to an operator whose role is below it, whatever
/// its path parameters and body. Read from the served document, so a new operation is checked too.
@Suite struct RouteAccessTests {
    static let doorKey = "zhao-door-key-5e2b7c9d1a", boxOfficeKey = "li-boxoffice-key-4d8e6a0c2f"

    @Test func everyOperationThatNamesARoleIsGuardedBeforeItsHandler() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("operators-\(UUID().uuidString).txt").path
        try "zhao door \(OperatorDirectory.digest(Self.doorKey))\nli boxoffice \(OperatorDirectory.digest(Self.boxOfficeKey))\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try TestServer { $0.operatorsFile = path }
        let c = try server.connection()
        let document = try #require(try c.request("GET", "/openapi.json").json)
        let paths = try #require(document["paths"]?.objectValue)
        var checked: [String: Int] = [:]
        for (pattern, item) in zip(paths.keys, paths.values) {
            // Path parameters as anything: the check comes before the handler looks at them.
            let concrete = pattern.replacing(/\{[^}]+\}/, with: "x")
            let operations = item.objectValue ?? JSONObject()
            for (method, op) in zip(operations.keys, operations.values) {
                guard let role = op.objectValue?["x-seatkit-role"]?.stringValue.flatMap(OperatorRole.init(rawValue:)) else { continue }
                let verb = method.uppercased(), body: [UInt8] = Array("{}".utf8)
                let anonymous = try c.request(verb, concrete, headers: [("Content-Type", "application/json")], body: body)
                #expect(
                    anonymous.status == 401 && anonymous.string("type") == "/problems/admin-key-required",
                    "\(verb) \(pattern) without a key: \(anonymous.status) \(anonymous.text)")
                for (key, below) in [(Self.doorKey, OperatorRole.door), (Self.boxOfficeKey, .boxoffice)] where !below.allows(role) {
                    let refused = try c.request(verb, concrete, headers: [("Content-Type", "application/json"), ("X-Admin-Key", key)], body: body)
                    #expect(
                        refused.status == 403 && refused.string("type") == "/problems/operator-role-forbidden"
                            && refused.string("detail")?.hasSuffix("\(role.rawValue)s only") == true,
                        "\(verb) \(pattern) as \(below.rawValue): \(refused.status) \(refused.text)")
                }
                checked[role.rawValue, default: 0] += 1
            }
        }
        print("operations guarded by role: \(checked.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))")
        #expect(checked.values.reduce(0, +) >= 25 && checked.keys.count == 3, "every role is declared somewhere: \(checked)")
    }

    /// A rate declared in the table (`x-seatkit-rate-limit`) is held before the handler: past the
    /// burst an address is answered 429 with Retry-After even for a show that does not exist.
    @Test func everyRateLimitedOperationIsLimitedBeforeItsHandler() throws {
        let server = try TestServer { $0.holdsPerSecond = 1 }
        let c = try server.connection()
        let document = try #require(try c.request("GET", "/openapi.json").json)
        let paths = try #require(document["paths"]?.objectValue)
        var limited = 0
        for (pattern, item) in zip(paths.keys, paths.values) {
            let operations = item.objectValue ?? JSONObject()
            for (method, op) in zip(operations.keys, operations.values) where op.objectValue?["x-seatkit-rate-limit"]?.stringValue == "holds" {
                let concrete = pattern.replacing(/\{[^}]+\}/, with: "no-such-show")
                // The operations share the address's bucket: each starts with its burst refilled (2 at one a second).
                if limited > 0 { usleep(2_100_000) }
                // Burst 2 at one a second: the third is refused (its 429 waits in the tarpit).
                let answers = try (0..<3).map { _ in
                    try c.request(method.uppercased(), concrete, json: #"{"seats":["1-1"]}"#)
                }
                #expect(answers.first?.status == 404, "within the burst the handler answers: \(answers.map(\.status))")
                let refused = answers[2]
                #expect(
                    refused.status == 429 && refused.headers["retry-after"] != nil && refused.string("type") == "/problems/rate-limited",
                    "\(method) \(pattern) past the burst: \(answers.map(\.status))")
                limited += 1
            }
        }
        #expect(limited >= 1, "the holds' rate is declared")
    }

    /// An Idempotency-Key is declared in the table too (`x-seatkit-idempotency`, with its header): the
    /// dispatcher reads it, so a malformed key is a 400 naming the header before the handler reads the
    /// path or the body, and an operation that does not declare one never lists the header.
    @Test func everyIdempotentOperationChecksItsKeyBeforeItsHandler() throws {
        let server = try TestServer()
        let c = try server.connection()
        let document = try #require(try c.request("GET", "/openapi.json").json)
        let paths = try #require(document["paths"]?.objectValue)
        var scopes: [String] = []
        for (pattern, item) in zip(paths.keys, paths.values) {
            let operations = item.objectValue ?? JSONObject()
            for (method, op) in zip(operations.keys, operations.values) {
                let names = op.objectValue?["parameters"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue } ?? []
                guard let scope = op.objectValue?["x-seatkit-idempotency"]?.stringValue else {
                    #expect(!names.contains("Idempotency-Key"), "\(method) \(pattern) lists the header without declaring a scope")
                    continue
                }
                #expect(names.contains("Idempotency-Key"), "\(method) \(pattern)")
                scopes.append(scope)
                let concrete = pattern.replacing(/\{[^}]+\}/, with: "no-such-thing")
                let answer = try c.request(
                    method.uppercased(), concrete,
                    headers: [("Content-Type", "application/json"), ("X-Admin-Key", TestServer.adminKey), ("Idempotency-Key", "too-short")],
                    body: Array("not json".utf8))
                #expect(
                    answer.status == 400 && answer.string("type") == "/problems/bad-idempotency-key",
                    "\(method) \(pattern) with a malformed key: \(answer.status) \(answer.text)")
            }
        }
        #expect(scopes.sorted() == ["cancel", "confirm", "exchange", "hold", "refund", "reserve", "sell"], "\(scopes)")
    }
}
