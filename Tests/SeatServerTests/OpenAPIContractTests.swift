import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
@testable import SeatServer
import SeatServerTestSupport
import Testing

/// The route table against the OpenAPI document and the running server: the table's patterns are
/// exactly the documented paths, each with exactly the documented methods, and on the running server
/// every other method is a 405 whose `Allow` lists them. (schemathesis checks the rest in make test:
/// scripts/contract-test.sh.)
@Suite(.serialized) struct OpenAPIContractTests {
    static func documentedPaths() throws -> [String: Set<String>] {
        let doc = try #require(try JSONParser.parse(Array(OpenAPIDocument.json.utf8)).objectValue)
        #expect(doc["openapi"]?.stringValue == "3.1.0")
        let paths = try #require(doc["paths"]?.objectValue)
        var out: [String: Set<String>] = [:]
        for (path, item) in zip(paths.keys, paths.values) { out[path] = Set((item.objectValue?.keys ?? []).map { $0.uppercased() }) }
        return out
    }

    @Test func theRouteTableIsTheDocumentedPathsAndMethods() throws {
        let documented = try Self.documentedPaths()
        let routed = Dictionary(uniqueKeysWithValues: SeatAPI.routes.routes.map { ($0.pattern, Set($0.methods)) })
        #expect(Set(routed.keys) == Set(documented.keys), "routed but undocumented, or documented but not routed")
        for (pattern, methods) in routed { #expect(methods == documented[pattern], "\(pattern): routed \(methods), documented \(documented[pattern] ?? [])") }
        #expect(routed.count == 37)
    }

    /// Each pattern, with its parameters filled in, resolves to itself: no route hides another.
    @Test func noRouteHidesAnother() {
        for route in SeatAPI.routes.routes {
            let path = "/" + route.segments.map { if case .literal(let t) = $0 { t } else { "x" } }.joined(separator: "/")
            guard case .found(let found, _, let parameters) = SeatAPI.routes.resolve(method: route.methods[0], path: path) else {
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
            case .found(let route, _, let found): #expect(route.pattern == pattern && found == parameters, "\(path) → \(route.pattern) \(found)")
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
