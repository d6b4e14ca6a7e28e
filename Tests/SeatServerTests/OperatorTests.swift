import Foundation
import LoopbackHTTP
import SeatSecrets
import SeatServer
import SeatServerTestSupport
import Testing

/// Operators by name (`--operators FILE`): managers and box-office staff with keys of their own, kept
/// only as SHA-256 digests.
@Suite struct OperatorTests {
    static let managerKey = "wang-manager-key-7f3a9c2e1b", boxOfficeKey = "li-boxoffice-key-4d8e6a0c2f"
    static let file = """
        # SeatKit operators: name, role, SHA-256 of the key
        wang manager \(OperatorDirectory.digest(managerKey))

        li\tboxoffice \(OperatorDirectory.digest(boxOfficeKey))
        """

    static func server() throws -> TestServer {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("operators-\(UUID().uuidString).txt").path
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        return try TestServer { $0.operatorsFile = path }
    }

    static let show =
        #"{"id":"op","venueId":"cinema-hall-3","startsAt":"2099-12-01T20:00:00+08:00","prices":{"categories":{"standard":"40","vip":"60","couple":"90"}}}"#

    @Test func aBoxOfficeKeyIsRefusedTheManagersOperations() throws {
        let server = try Self.server()
        let c = try server.connection()
        let li = try c.request("POST", "/v1/shows", json: Self.show, headers: [("Authorization", "Bearer \(Self.boxOfficeKey)")])
        #expect(li.status == 403 && li.string("type") == "/problems/operator-role-forbidden")
        #expect(li.string("detail") == "li (boxoffice) cannot create shows: managers only")
        let upload = try c.request("POST", "/v1/venues?id=x", headers: [("X-Admin-Key", Self.boxOfficeKey)], body: Array("{}".utf8))
        #expect(upload.status == 403 && upload.string("detail") == "li (boxoffice) cannot upload venues: managers only")
        // Nothing was created.
        #expect(try c.request("GET", "/v1/shows/op").status == 404)
        let wang = try c.request("POST", "/v1/shows", json: Self.show, headers: [("X-Admin-Key", Self.managerKey)])
        #expect(wang.status == 201)
    }

    @Test func unknownKeysAndTheAdminKey() throws {
        let server = try Self.server()
        let c = try server.connection()
        for headers in [[("X-Admin-Key", "not-anyones-key-0123456789")], [("X-Admin-Key", "")], [("Authorization", "Bearer ")], []] {
            let r = try c.request("POST", "/v1/shows", json: Self.show, headers: headers)
            #expect(r.status == 401 && r.headers["www-authenticate"] == "Bearer", "\(headers)")
        }
        // A key's digest is not a key.
        let digest = try c.request("POST", "/v1/shows", json: Self.show, headers: [("X-Admin-Key", OperatorDirectory.digest(Self.managerKey))])
        #expect(digest.status == 401)
        #expect(try c.request("POST", "/v1/shows", json: Self.show, headers: [("X-Admin-Key", TestServer.adminKey)]).status == 201)
        #expect(server.app.api.operatorNames == ["admin (manager)", "li (boxoffice)", "wang (manager)"])
    }

    @Test(arguments: [
        ("li cashier \(OperatorDirectory.digest("k"))", "ops.txt line 1: role must be door, boxoffice, manager or checkout, not \"cashier\""),
        (
            "li boxoffice my-secret-key",
            "ops.txt line 1: the key must be given as sha256: and 64 lowercase hex digits (printf %s \"$KEY\" | sha256sum), never the key itself"
        ),
        ("# x\n\nli boxoffice", "ops.txt line 3: expected NAME ROLE sha256:HEX (3 fields), got 2"),
        ("li boxoffice \(OperatorDirectory.digest("a"))\nli manager \(OperatorDirectory.digest("b"))", "ops.txt line 2: li is already named on line 1"),
        (
            "li boxoffice \(OperatorDirectory.digest("a"))\nwu manager \(OperatorDirectory.digest("a"))",
            "ops.txt line 2: wu's key is also li's: every operator needs a key of their own"
        ),
        ("admin manager \(OperatorDirectory.digest("a"))", "ops.txt line 1: the name admin is the --admin-key's"),
        ("li/x boxoffice \(OperatorDirectory.digest("a"))", "ops.txt line 1: operator name \"li/x\": 1 to 64 letters, digits, '.', '_', '@' or '-'"),
    ])
    func aBadLineIsNamed(text: String, message: String) {
        #expect(throws: OperatorFileError.self) { try OperatorDirectory(adminKey: TestServer.adminKey, file: (text, "ops.txt")) }
        do { _ = try OperatorDirectory(adminKey: TestServer.adminKey, file: (text, "ops.txt")) } catch { #expect(error.description == message) }
    }

    @Test func theServerDoesNotStartWithABadFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("operators-\(UUID().uuidString).txt").path
        try "wang manager 1234\n".write(toFile: path, atomically: true, encoding: .utf8)
        var options = SeatServerApp.Options(adminKey: TestServer.adminKey)
        options.operatorsFile = path
        options.store = "sqlite:" + FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID().uuidString).db").path
        #expect(throws: OperatorFileError.self) { try SeatServerApp(options: options) }
        #expect(!FileManager.default.fileExists(atPath: String(options.store.dropFirst(7))), "no store was created")
        options.operatorsFile = path + ".missing"
        do { _ = try SeatServerApp(options: options) } catch { #expect("\(error)".hasSuffix("cannot read the operators file (it must exist and be UTF-8)")) }
    }
}
