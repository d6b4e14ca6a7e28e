import Foundation
import SeatMap
import SeatSecrets
import SeatStorage
import SeatHTTP

/// The `v1` JSON API over the inventory: routing, the admin key, the rate limit, metrics.
public final class SeatAPI: @unchecked Sendable {
    public let inventory: Inventory
    let adminKey: String
    let holdLimiter: RateLimiter
    /// Deltas spanning more than `cheapDeltaSpan` versions are a merge of that many events: 10 a second
    /// per client address (bursts of 20), so a client looping on old versions cannot take the CPU the
    /// buyers need (four such clients cost a quarter of the hold throughput before).
    let deltaLimiter = RateLimiter(rate: 10, burst: 20)
    static let cheapDeltaSpan: UInt64 = 64
    let startedAt = Date()
    let site = WebSite(root: WebSite.locate())
    /// Seat-map pictures, drawn once per version (see `PictureCache`).
    let pictures = PictureCache()
    /// The transport's connection counters, shown in /metrics (set by the app once the server exists).
    var connectionGauges: @Sendable () -> [(String, String, Double)] = { [] }
    /// Whether the web picker's files were found (`/` answers 503 otherwise).
    public var hasWebPage: Bool { site.root != nil }

    /// `holdsPerSecond` per client address (0: no limit), bursts of twice that.
    public init(inventory: Inventory, adminKey: String, holdsPerSecond: Double = 20) {
        self.inventory = inventory
        self.adminKey = adminKey
        holdLimiter = RateLimiter(rate: holdsPerSecond, burst: max(holdsPerSecond * 2, 1))
    }

    /// Answers one request; never throws, never crashes on input.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let start = DispatchTime.now().uptimeNanoseconds
        var route = "unmatched"
        let response: HTTPResponse
        do throws(Problem) {
            response = try dispatch(request, route: &route, start: start)
        } catch {
            response = error.response
        }
        // A deferred answer is counted when it is complete.
        if response.deferred == nil {
            inventory.metrics.request(route: route, status: response.status, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return response
    }

    /// The answer once `ticket`'s change is committed (at once when there is nothing to commit); no
    /// thread waits meanwhile.
    func afterCommit(_ ticket: CommitTicket?, route: String, start: UInt64, _ render: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        guard let ticket else { return render() }
        let deferred = DeferredResponse()
        let metrics = inventory.metrics
        ticket.whenDone { error in
            // Rendered on the connection's thread once it is resumed, not on the writer's.
            deferred.complete {
                // A seat taken by a change the database committed first (another instance's): a conflict too.
                if let e = error as? DatabaseError, e.isConstraint { metrics.count("hold_conflicts") }
                let response = error.map { Inventory.problem(forCommitError: $0).response } ?? render()
                metrics.request(route: route, status: response.status, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                return response
            }
        }
        return HTTPResponse(status: 0, deferred: deferred)
    }

    func dispatch(_ r: HTTPRequest, route: inout String, start: UInt64) throws(Problem) -> HTTPResponse {
        guard r.path.utf8.count <= 2048 else { throw Problem(414, "uri-too-long", "URI too long", detail: "the path is over 2048 bytes") }
        let parts = r.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        func only(_ methods: String...) throws(Problem) {
            guard methods.contains(r.method) else {
                throw Problem(
                    405, "method-not-allowed", "Method not allowed", detail: "\(r.method) is not allowed here; use \(methods.joined(separator: ", "))",
                    headers: [("Allow", methods.joined(separator: ", "))])
            }
        }
        switch parts.count {
        case 1 where parts[0] == "healthz":
            route = "/healthz"; try only("GET", "HEAD")
            return .text(200, "ok\n")
        case 1 where parts[0] == "metrics":
            route = "/metrics"; try only("GET")
            return .text(
                200,
                inventory.metrics.text(
                    gauges: [
                        ("event_subscribers", "Open Server-Sent Events streams.", Double(inventory.hub.count)),
                        ("active_holds", "Holds not yet released, expired or confirmed.", Double(inventory.activeHoldCount)),
                    ]
                        + connectionGauges()),
                contentType: "text/plain; version=0.0.4")
        case 1 where parts[0] == "openapi.json":
            route = "/openapi.json"; try only("GET")
            return .text(200, OpenAPIDocument.json, contentType: "application/json")
        default: break
        }
        // The web picker: the page for `/` and `/shows/{id}` (it routes itself), its files under `/web/`.
        switch (parts.first, parts.count) {
        case (nil, _):
            route = "/"; try only("GET", "HEAD")
            return try site.response("index.html", r)
        case ("shows", 2):
            route = "/shows/{id}"; try only("GET", "HEAD")
            guard RequestBody.isIdentifier(parts[1]) else { throw Problem.notFound("no show \(parts[1])") }
            return try site.response("index.html", r)
        case ("web", 2...):
            route = parts.count == 3 && parts[1] == "js" ? "/web/js/{file}" : "/web/{file}"; try only("GET", "HEAD")
            guard !parts.contains("..") else { throw Problem.notFound("no file \(r.path)") }
            return try site.response(parts.dropFirst().joined(separator: "/"), r)
        default: break
        }
        guard parts.first == "v1", parts.count >= 2 else { throw Problem.notFound("no route \(r.path)") }
        switch (parts[1], parts.count) {
        case ("venues", 2):
            route = "/v1/venues"; try only("GET", "POST")
            return r.method == "GET" ? listVenues() : try createVenue(r)
        case ("venues", 3):
            route = "/v1/venues/{id}"; try only("GET")
            return try venue(parts[2], r)
        case ("venues", 4) where parts[3] == "heatmap":
            route = "/v1/venues/{id}/heatmap"; try only("GET")
            return try heatmap(parts[2], r)
        case ("shows", 2):
            route = "/v1/shows"; try only("GET", "POST")
            return r.method == "GET" ? listShows() : try createShow(r)
        case ("shows", 3):
            route = "/v1/shows/{id}"; try only("GET")
            return try show(parts[2])
        case ("shows", 4) where parts[3] == "availability":
            route = "/v1/shows/{id}/availability"; try only("GET")
            return try availability(parts[2], r)
        case ("shows", 4) where parts[3] == "events":
            route = "/v1/shows/{id}/events"; try only("GET")
            return try events(parts[2], r)
        case ("shows", 4) where parts[3] == "seatmap.svg":
            route = "/v1/shows/{id}/seatmap.svg"; try only("GET")
            return try seatMap(parts[2], r)
        case ("shows", 4) where parts[3] == "best":
            route = "/v1/shows/{id}/best"; try only("GET")
            return try bestSeats(parts[2], r)
        case ("shows", 4) where parts[3] == "free-seats":
            route = "/v1/shows/{id}/free-seats"; try only("GET")
            return try freeSeats(parts[2], r)
        case ("shows", 4) where parts[3] == "holds":
            route = "/v1/shows/{id}/holds"; try only("POST")
            return try createHold(parts[2], r, start: start)
        case ("holds", 3):
            route = "/v1/holds/{token}"; try only("GET", "DELETE")
            if r.method == "GET" { return .json(200, Render.hold(try inventory.hold(token: parts[2]))) }
            return afterCommit(try inventory.beginReleaseHold(token: parts[2]), route: route, start: start) { .empty(204) }
        case ("holds", 4) where parts[3] == "seats":
            route = "/v1/holds/{token}/seats"; try only("POST")
            let (add, remove) = try RequestBody.modifyRequest(r)
            let (view, ticket) = try inventory.beginModifyHold(token: parts[2], add: add, remove: remove)
            return afterCommit(ticket, route: route, start: start) { .json(200, Render.hold(view)) }
        case ("holds", 4) where parts[3] == "extend":
            route = "/v1/holds/{token}/extend"; try only("POST")
            let (view, ticket) = try inventory.beginExtendHold(token: parts[2])
            return afterCommit(ticket, route: route, start: start) { .json(200, Render.hold(view)) }
        case ("holds", 4) where parts[3] == "confirm":
            route = "/v1/holds/{token}/confirm"; try only("POST")
            return try confirm(parts[2], r, route: route, start: start)
        default:
            throw Problem.notFound("no route \(r.path)")
        }
    }

    func requireAdmin(_ r: HTTPRequest) throws(Problem) {
        let given = r.header("x-admin-key") ?? r.header("authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        guard let given, Self.constantTimeEqual(given, adminKey) else {
            throw Problem(
                401, "admin-key-required", "Admin key required", detail: "this operation needs the admin key (X-Admin-Key or Authorization: Bearer)",
                headers: [("WWW-Authenticate", "Bearer")])
        }
    }

    /// Compares secrets without leaking where they differ through timing.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var diff = UInt8(x.count == y.count ? 0 : 1)
        for k in 0..<max(x.count, y.count) { diff |= (k < x.count ? x[k] : 0) ^ (k < y.count ? y[k] : 0) }
        return diff == 0
    }

    /// The request's `Idempotency-Key` with a fingerprint of what it asks.
    static func idempotency(_ r: HTTPRequest, scope: String, render: @escaping @Sendable (HoldView) -> (status: Int, body: [UInt8])) throws(Problem)
        -> IdempotentRequest?
    {
        guard let key = r.header("idempotency-key") else { return nil }
        if let problem = Secrets.idempotencyKeyProblem(key) { throw Problem(400, "bad-idempotency-key", "Bad Idempotency-Key", detail: problem) }
        let fingerprint = String(FNV1a.hash(r.body.withUnsafeBufferPointer { FNV1a.hash($0, into: FNV1a.hash(scope)) }, into: 0), radix: 16)
        return IdempotentRequest(scope: scope, clientKey: key, fingerprint: fingerprint, render: render)
    }
}
