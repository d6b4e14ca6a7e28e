import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
@testable import SeatServer
import SeatServerTestSupport
import SeatWire
import Testing

/// The route table against the OpenAPI document and the running server: the table's patterns are
/// exactly the documented paths, each with exactly the documented methods, and on the running server
/// every other method is a 405 whose `Allow` lists them. (schemathesis checks the rest in make test:
/// scripts/contract-test.sh.)
@Suite(.serialized) struct OpenAPIContractTests {
    static func document() throws -> JSONObject {
        let doc = try #require(try JSONParser.parse(Array(OpenAPIDocument.json.utf8)).objectValue)
        #expect(doc["openapi"]?.stringValue == "3.1.0")
        return doc
    }

    /// The generated document holds together: every `$ref` names a component that exists, operation
    /// ids are unique and every link names one, each operation declares exactly its pattern's path
    /// parameters, and every example conforms to its schema.
    @Test func theGeneratedDocumentHoldsTogether() throws {
        let doc = try Self.document()
        var references: [String] = []
        func collect(_ v: JSONValue) {
            switch v {
            case .object(let o):
                for (k, value) in zip(o.keys, o.values) { if k == "$ref", let s = value.stringValue { references.append(s) } else { collect(value) } }
            case .array(let list): list.forEach(collect)
            default: break
            }
        }
        collect(.object(doc))
        #expect(references.count > 100)
        let components = try #require(doc["components"]?.objectValue)
        for ref in Set(references) {
            let parts = ref.split(separator: "/").map(String.init)
            #expect(parts.count == 4 && components[parts[2]]?.objectValue?[parts[3]] != nil, "\(ref) resolves to nothing")
        }
        var ids: [String] = [], links: [String] = []
        for route in SeatAPI.routes.routes {
            let pathParameters = route.segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
            for h in route.operations {
                ids.append(h.method == "HEAD" ? h.operation.id + "Head" : h.operation.id)
                links += h.operation.answers.flatMap(\.links).map(\.operationID)
                let declared = h.operation.parameters.filter { $0.location == .path }.map(\.name)
                #expect(declared == pathParameters, "\(h.method) \(route.pattern) declares \(declared)")
            }
        }
        #expect(Set(ids).count == ids.count, "operation ids repeat: \(ids)")
        for link in links { #expect(ids.contains(link), "a link names no operation: \(link)") }
        var examples = 0
        for type in WireContract.components {
            guard let example = type.schema.example else { continue }
            let problems = type.schema.validate(try JSONParser.parse(Array(example.utf8)), resolving: WireContract.component)
            #expect(problems.isEmpty, "\(type.schemaName)'s example: \(problems)")
            examples += 1
        }
        #expect(examples >= 8)
    }

    /// The validator the answer tests rely on finds what breaks a schema, with its path.
    @Test func theValidatorNamesWhatBreaksASchema() throws {
        let hold = try JSONParser.parse(
            Array(
                #"{"token":"x","holdId":"h","showId":"s","state":"gone","seats":["1",2],"total":"1.5","currency":"CNY","expiresAt":"soon","extended":true}"#
                    .utf8))
        let problems = HoldResource.schema.validate(hold, resolving: WireContract.component)
        for expected in [
            "version: missing", "token: \"x\" does not match", "state: expected one of", "seats[1]: expected string", "expiresAt: \"soon\" is not a date-time",
        ] {
            #expect(problems.contains { $0.hasPrefix(expected) }, "\(expected) not in \(problems)")
        }
        #expect(problems.count == 5)
        let sale = try JSONParser.parse(Array(#"{"seats":["1"],"reservation":"r","orderRef":"A","payment":"cash"}"#.utf8))
        #expect(SaleRequest.schema.validate(sale, resolving: WireContract.component) == ["(body): matches 0 of oneOf, not exactly one"])
    }

    /// Each pattern, with its parameters filled in, resolves to itself: no route hides another.
    @Test func noRouteHidesAnother() {
        for route in SeatAPI.routes.routes {
            let path = "/" + route.segments.map { if case .literal(let t) = $0 { t } else { "x" } }.joined(separator: "/")
            guard case .found(let found, _, _, let parameters) = SeatAPI.routes.resolve(method: route.methods[0], path: path) else {
                Issue.record("\(path) is not routed")
                continue
            }
            #expect(found.pattern == route.pattern && parameters.allSatisfy { $0 == "x" }, "\(path) → \(found.pattern)")
        }
        guard case .methodNotAllowed(let r) = SeatAPI.routes.resolve(method: "PUT", path: "/v1/shows/s/holds") else {
            Issue.record("PUT on a routed path must be 405")
            return
        }
        #expect(r.methods == ["POST"])
        guard case .notFound = SeatAPI.routes.resolve(method: "GET", path: "/v1/shows/s/holds/extra") else {
            Issue.record("an unrouted path must be 404")
            return
        }
    }

    /// The table reads segments from the path's bytes: empty segments are skipped (as splitting did),
    /// parameters come out whole in any script, a path longer than every pattern or differing in one
    /// byte of a literal is not routed.
    @Test func pathsAreReadByteForByte() {
        let cases: [(String, String, String?, [String])] = [
            ("POST", "//v1//shows/s1//holds/", "/v1/shows/{id}/holds", ["s1"]),
            ("GET", "/v1/shows/影厅-3/seat-prices", "/v1/shows/{id}/seat-prices", ["影厅-3"]),
            ("POST", "/v1/holds/tok/confirm", "/v1/holds/{token}/confirm", ["tok"]),
            ("GET", "/", "/", []),
            ("GET", "", "/", []),
            ("GET", "/v1/shows/s/holdz", nil, []),
            ("GET", "/v1/shows/s/hold", nil, []),
            ("GET", "/v1/shows/s/holds/a/b/c/d", nil, []),
            ("GET", "/V1/shows", nil, []),
        ]
        for (method, path, pattern, parameters) in cases {
            switch SeatAPI.routes.resolve(method: method, path: path) {
            case .found(let route, _, _, let found): #expect(route.pattern == pattern && found == parameters, "\(path) → \(route.pattern) \(found)")
            case .methodNotAllowed(let route): Issue.record("\(path): 405 for \(route.pattern)")
            case .notFound: #expect(pattern == nil, "\(path) is not routed")
            }
        }
    }

    @Test func everyRouteAllowsExactlyItsMethodsOnTheRunningServer() throws {
        let server = try TestServer()
        let c = try server.connection()
        let token = try #require(try hold(c, ["7-1", "7-2"]).string("token"))
        var checked = 0
        for route in SeatAPI.routes.routes {
            let methods = Set(route.methods)
            let path = route.pattern.replacingOccurrences(of: "/v1/venues/{id}", with: "/v1/venues/cinema-hall-3")
                .replacingOccurrences(of: "{id}", with: "show").replacingOccurrences(of: "{token}", with: token)
                .replacingOccurrences(of: "/web/js/{file}", with: "/web/js/app.js").replacingOccurrences(of: "{file}", with: "app.css")
            for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] where !methods.contains(method) {
                let r = try server.connection().request(method, path, body: method == "GET" ? [] : Array("{}".utf8))
                #expect(r.status == 405, "\(method) \(path): \(r.status)")
                #expect(r.headers["allow"] == route.methods.joined(separator: ", "), "\(method) \(path): Allow \(r.headers["allow"] ?? "none")")
                checked += 1
            }
        }
        #expect(checked > 40)
        // The metrics label is the pattern.
        let metrics = try c.request("GET", "/metrics").text
        #expect(metrics.contains(#"route="/v1/shows/{id}/holds",status="201""#) && metrics.contains(#"route="/v1/holds/{token}",status="405""#))
    }
}
