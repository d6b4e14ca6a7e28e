import Foundation
import SeatHTTP
import SeatInventory
import SeatSecrets

/// One route of the table: a path pattern and a handler per method. The pattern is also the route's
/// metrics label and its path in the OpenAPI document; a method it lacks is a `405` whose `Allow` lists
/// `methods` (a test checks both against the document).
struct Route: Sendable {
    /// What a handler gets: the request, the pattern's `{parameters}` in order, and what an answer
    /// deferred until a commit needs to count itself.
    struct Call {
        let request: HTTPRequest
        let parameters: [String]
        let trace: RequestTrace
        /// The operator the dispatcher signed in for an operation whose access names a role (nil for
        /// the others).
        var who: Operator? = nil
        /// The request's Idempotency-Key in its operation's scope, read by the dispatcher for an
        /// operation that declares one (nil for the others, and for a request without the header).
        var idempotency: IdempotencyClaim? = nil
        var route: String { trace.route }
        subscript(_ k: Int) -> String { parameters[k] }

        /// The operator signed in by the dispatcher; a route table whose operation declares no role
        /// for a handler that needs one is a 500 (never reached by a request's own content).
        var signedIn: Operator {
            get throws {
                guard let who else { throw Problem(500, "internal", "Internal error", detail: "route \(route) declares no operator role") }
                return who
            }
        }
    }

    typealias Handler = @Sendable (SeatAPI, Call) throws -> HTTPResponse

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let pattern: String
    let segments: [Segment]
    /// Each segment's literal bytes, nil for a parameter (compared without making strings).
    let literals: [[UInt8]?]
    /// Looked up on every request: kept apart from the operations (an element that carried its
    /// operation was copied, with its dozen references retained, at each step of the lookup).
    let handlers: [(method: String, handler: Handler)]
    /// What the OpenAPI document says of each method, in `handlers`' order.
    let operations: [(method: String, operation: APIOperation)]

    init(_ pattern: String, _ handlers: [(String, APIOperation, Handler)]) {
        self.pattern = pattern
        segments = pattern.split(separator: "/").map { s in
            s.hasPrefix("{") && s.hasSuffix("}") ? .parameter(String(s.dropFirst().dropLast())) : .literal(String(s))
        }
        literals = segments.map { if case .literal(let text) = $0 { Array(text.utf8) } else { nil } }
        self.handlers = handlers.map { (method: $0.0, handler: $0.2) }
        operations = handlers.map { (method: $0.0, operation: $0.1) }
    }

    var methods: [String] { handlers.map(\.method) }

    /// Whether the path's segments (`bounds` into `bytes`) match this pattern's literals; the
    /// parameters are read only once a route matches.
    /// - Complexity: O(segments), no allocation.
    func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ bounds: UnsafeMutableBufferPointer<(Int, Int)>) -> Bool {
        for (k, literal) in literals.enumerated() {
            guard let literal else { continue }
            let (start, end) = bounds[k]
            guard end - start == literal.count else { return false }
            let same = literal.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress! + start, literal.count) == 0 }
            if !same { return false }
        }
        return true
    }
}

/// The routes in order; the first pattern that matches the path wins (no two patterns here match the
/// same path, a test checks it).
struct RouteTable: Sendable {
    let routes: [Route]
    /// The routes of each segment count, in table order: a path is compared only with patterns as long.
    let byLength: [[Int]]

    init(routes: [Route]) {
        self.routes = routes
        var byLength = [[Int]](repeating: [], count: (routes.map(\.segments.count).max() ?? 0) + 1)
        for (k, route) in routes.enumerated() { byLength[route.segments.count].append(k) }
        self.byLength = byLength
    }

    enum Outcome {
        /// The route, the method's handler and what the table declares of it (access, rate).
        case found(Route, Route.Handler, APIOperation, parameters: [String])
        /// The path is routed but not for this method.
        case methodNotAllowed(Route)
        case notFound
    }

    /// The path's segments are found in its UTF-8 bytes (empty ones skipped, as `split` does) and
    /// compared with the literals of the patterns of that length; strings are made only for the
    /// parameters of the route that matches. (Splitting into substrings and trying every pattern cost
    /// 3.6 % of the server's CPU under hold + release; this is about a tenth of that.)
    /// - Complexity: O(path bytes + patterns of that length × segments): at most 20 patterns of 4 segments.
    func resolve(method: String, path: String) -> Outcome {
        var path = path
        return path.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: byLength.count) { bounds in
                var count = 0, i = 0
                while i < bytes.count {
                    if bytes[i] == UInt8(ascii: "/") { i += 1; continue }
                    let start = i
                    while i < bytes.count && bytes[i] != UInt8(ascii: "/") { i += 1 }
                    guard count < byLength.count - 1 else { return .notFound }  // longer than every pattern
                    bounds[count] = (start, i)
                    count += 1
                }
                for k in byLength[count] where routes[k].matches(bytes, bounds) {
                    let route = routes[k]
                    guard let h = route.handlers.firstIndex(where: { $0.method == method }) else { return .methodNotAllowed(route) }
                    var parameters: [String] = []
                    for (j, literal) in route.literals.enumerated() where literal == nil {
                        let (start, end) = bounds[j]
                        parameters.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                    }
                    return .found(route, route.handlers[h].handler, route.operations[h].operation, parameters: parameters)
                }
                return .notFound
            }
        }
    }
}

/// A request's `Idempotency-Key` in its scope (the operation's and its first path parameter: a key
/// used for a hold of one show is another key for another show), with what the request asked.
struct IdempotencyClaim: Sendable, Equatable {
    var scope: String
    var key: String
    var fingerprint: String

    /// The claim as the inventory keeps it, with how the answer's body is drawn.
    func request<View>(_ render: @escaping @Sendable (View) -> [UInt8]) -> IdempotentRequest<View> {
        IdempotentRequest(scope: scope, clientKey: key, fingerprint: fingerprint, render: render)
    }
}
