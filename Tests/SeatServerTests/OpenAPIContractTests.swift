import Foundation
import LoopbackHTTP
import SeatMap
@testable import SeatServer
import SeatServerTestSupport
import Testing

/// The OpenAPI document against the server's routes: every documented path is routed, and on each the
/// methods it does not document are a 405 whose `Allow` lists exactly the documented ones. (schemathesis
/// checks the rest in make test: scripts/contract-test.sh.)
@Suite(.serialized) struct OpenAPIContractTests {
    @Test func everyDocumentedPathIsRoutedAndAllowsExactlyItsMethods() throws {
        let server = try TestServer()
        let c = try server.connection()
        let doc = try #require(try JSONParser.parse(Array(OpenAPIDocument.json.utf8)).objectValue)
        #expect(doc["openapi"]?.stringValue == "3.1.0")
        let paths = try #require(doc["paths"]?.objectValue)
        let token = try #require(try hold(c, ["7-1", "7-2"]).string("token"))
        let known = ["id": "show", "token": token, "file": "app.css"]
        var checked = 0
        for key in paths.keys {
            let documented = Set((paths[key]?.objectValue?.keys ?? []).map { $0.uppercased() })
            var path = key
            for (name, value) in known { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
            if key.hasPrefix("/v1/venues/") { path = path.replacingOccurrences(of: "/show", with: "/cinema-hall-3") }
            if key == "/web/js/{file}" { path = "/web/js/app.js" }
            for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] where !documented.contains(method) {
                let r = try server.connection().request(method, path, body: method == "GET" ? [] : Array("{}".utf8))
                #expect(r.status == 405, "\(method) \(path): \(r.status)")
                let allow = Set((r.headers["allow"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(allow == documented, "\(method) \(path): Allow \(allow), documented \(documented)")
                checked += 1
            }
        }
        #expect(checked > 40)
    }
}
