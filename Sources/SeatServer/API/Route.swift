import SeatHTTP

/// One route of the table: a path pattern and a handler per method. The pattern is also the route's
/// metrics label and its path in the OpenAPI document; a method it lacks is a `405` whose `Allow` lists
/// `methods` (a test checks both against the document).
struct Route: Sendable {
    /// What a handler gets: the request, the pattern's `{parameters}` in order, and what an answer
    /// deferred until a commit needs to count itself.
    struct Call {
        let request: HTTPRequest
        let parameters: [String]
        let route: String
        let start: UInt64
        subscript(_ k: Int) -> String { parameters[k] }
    }

    typealias Handler = @Sendable (SeatAPI, Call) throws -> HTTPResponse

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let pattern: String
    let segments: [Segment]
    let handlers: [(method: String, handler: Handler)]

    init(_ pattern: String, _ handlers: [(String, Handler)]) {
        self.pattern = pattern
        segments = pattern.split(separator: "/").map { s in
            s.hasPrefix("{") && s.hasSuffix("}") ? .parameter(String(s.dropFirst().dropLast())) : .literal(String(s))
        }
        self.handlers = handlers.map { (method: $0.0, handler: $0.1) }
    }

    var methods: [String] { handlers.map(\.method) }

    /// The parameters when `parts` (the path's segments) match, in pattern order; nil otherwise.
    /// - Complexity: O(segments).
    func match(_ parts: [Substring]) -> [String]? {
        guard parts.count == segments.count else { return nil }
        var parameters: [String] = []
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text): if part != text { return nil }
            case .parameter: parameters.append(String(part))
            }
        }
        return parameters
    }
}

/// The routes in order; the first pattern that matches the path wins (no two patterns here match the
/// same path, a test checks it).
struct RouteTable: Sendable {
    let routes: [Route]

    enum Outcome {
        case found(Route, Route.Handler, parameters: [String])
        /// The path is routed but not for this method.
        case methodNotAllowed(Route)
        case notFound
    }

    /// - Complexity: O(routes × segments): 22 routes of at most 4 segments.
    func resolve(method: String, path: String) -> Outcome {
        let parts = path.split(separator: "/")
        for route in routes {
            guard let parameters = route.match(parts) else { continue }
            guard let h = route.handlers.first(where: { $0.method == method }) else { return .methodNotAllowed(route) }
            return .found(route, h.handler, parameters: parameters)
        }
        return .notFound
    }
}
