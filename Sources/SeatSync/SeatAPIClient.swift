import Foundation
import SeatJSON
import SharedState
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SeatMap
import SeatWire

/// What can go wrong talking to the server, typed so a UI can say the right thing.
public enum APIError: Error, Sendable, CustomStringConvertible {
    /// The server said no, with a problem document (conflicts, rule violations, …).
    case problem(ProblemDocument)
    /// No answer: connection refused, timed out, cut.
    case transport(String)
    /// An answer that is not what the API promises.
    case unexpected(status: Int, detail: String)

    public var description: String {
        switch self {
        case .problem(let p): return p.description
        case .transport(let m): return "transport: \(m)"
        case .unexpected(let status, let detail): return "unexpected \(status): \(detail)"
        }
    }

    /// The problem's slug (`seats-taken`, `rule-violation`, `hold-expired`, …), if the server sent one.
    public var slug: String? { if case .problem(let p) = self { return p.slug } else { return nil } }
}

/// A typed client for the server's `v1` API on URLSession (async/await). Layouts are cached by ETag,
/// in memory and, with a `cache`, on disk with the shows and their last availabilities (what a map
/// opens with offline).
public final class SeatAPIClient: Sendable {
    public let baseURL: URL
    let session: URLSession
    /// Layouts by venue with their ETags. Lock: `layouts` (a leaf).
    private let layouts = Locked([String: (etag: String, layout: VenueLayout)]())
    /// What survives the app: layouts, shows, availabilities, hold tokens (nil: memory only).
    public let cache: (any SeatCache)?

    public init(baseURL: URL, session: URLSession = URLSession(configuration: .ephemeral), cache: (any SeatCache)? = nil) {
        self.baseURL = baseURL
        self.session = session
        self.cache = cache
    }

    struct Answer { var status: Int; var headers: [String: String]; var body: [UInt8] }

    func send(_ method: String, _ path: String, body: [UInt8]? = nil, headers: [String: String] = [:]) async throws(APIError) -> Answer {
        guard let url = URL(string: path, relativeTo: baseURL) else { throw .unexpected(status: 0, detail: "bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body { request.httpBody = Data(body); request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        let data: Data, response: URLResponse
        do { (data, response) = try await session.data(for: request) } catch { throw .transport("\(error.localizedDescription)") }
        guard let http = response as? HTTPURLResponse else { throw .transport("not an HTTP response") }
        var lowered: [String: String] = [:]
        for (k, v) in http.allHeaderFields { if let k = k as? String, let v = v as? String { lowered[k.lowercased()] = v } }
        let answer = Answer(status: http.statusCode, headers: lowered, body: [UInt8](data))
        if answer.status >= 400 {
            if let problem = try? ProblemDocument(json: answer.body) { throw .problem(problem) }
            throw .unexpected(status: answer.status, detail: String(decoding: answer.body.prefix(200), as: UTF8.self))
        }
        return answer
    }

    func hold(_ answer: Answer) throws(APIError) -> HoldResource {
        do { return try HoldResource(json: answer.body) } catch { throw .unexpected(status: answer.status, detail: error.description) }
    }

    // MARK: Venues and availability

    /// The venue's layout; fetched once, then revalidated with `If-None-Match` (a 304 costs no body).
    /// Offline, the layout last kept in the cache.
    public func layout(venue: String) async throws(APIError) -> VenueLayout {
        let cached = layouts.withLock { $0[venue] } ?? keptLayout(venue: venue)
        let answer: Answer
        do { answer = try await send("GET", "/v1/venues/\(venue)", headers: cached.map { ["If-None-Match": $0.etag] } ?? [:]) } catch {
            if case .transport = error, let cached { return cached.layout }
            throw error
        }
        if answer.status == 304, let cached {
            layouts.withLock { $0[venue] = cached }
            return cached.layout
        }
        let layout: VenueLayout
        do { layout = try VenueLayout(json: answer.body) } catch { throw .unexpected(status: answer.status, detail: "layout: \(error)") }
        if let etag = answer.headers["etag"] {
            layouts.withLock { $0[venue] = (etag, layout) }
            // The ETag on the first line, the layout after it.
            cache?.store(Data(Array((etag + "\n").utf8) + answer.body), for: CacheKey.layout(venue))
        }
        return layout
    }

    /// The layout and its ETag as the cache kept them.
    func keptLayout(venue: String) -> (etag: String, layout: VenueLayout)? {
        guard let data = cache?.data(for: CacheKey.layout(venue)), let newline = data.firstIndex(of: 10) else { return nil }
        let etag = String(decoding: data[..<newline], as: UTF8.self)
        guard let layout = try? VenueLayout(json: Array(data[(newline + 1)...])) else { return nil }
        return (etag, layout)
    }

    /// The availability the cache kept for the show (the last one fetched or refreshed), if it is for `layout`.
    func keptAvailability(show: String, layout: VenueLayout) -> SeatAvailability? {
        cache?.data(for: CacheKey.availability(show)).flatMap { try? SeatAvailability(encoded: String(decoding: $0, as: UTF8.self), layout: layout) }
    }

    /// Keeps the show's availability (what a map opens with offline).
    func keep(_ availability: SeatAvailability, show: String) {
        cache?.store(Data(availability.encoded().utf8), for: CacheKey.availability(show))
    }

    /// The show's summary as the cache kept it.
    func keptShow(_ id: String) -> JSONObject? {
        cache?.data(for: CacheKey.show(id)).flatMap { (try? JSONParser.parse([UInt8]($0)))?.objectValue }
    }

    /// The whole availability of a show (checked against `layout` when given).
    public func availability(show: String, layout: VenueLayout? = nil) async throws(APIError) -> SeatAvailability {
        let answer = try await send("GET", "/v1/shows/\(show)/availability")
        do { return try SeatAvailability(encoded: String(decoding: answer.body, as: UTF8.self), layout: layout) } catch {
            throw .unexpected(status: answer.status, detail: error.description)
        }
    }

    /// The changes since `version`; a `delta-gone` problem means: fetch the whole availability.
    public func delta(show: String, since version: UInt64) async throws(APIError) -> AvailabilityDelta {
        let answer = try await send("GET", "/v1/shows/\(show)/availability?since=\(version)")
        do { return try AvailabilityDelta(encoded: String(decoding: answer.body, as: UTF8.self)) } catch {
            throw .unexpected(status: answer.status, detail: error.description)
        }
    }

    /// The show's summary as JSON (venue, times, rules, prices, counts).
    public func show(_ id: String) async throws(APIError) -> JSONObject {
        let answer = try await send("GET", "/v1/shows/\(id)")
        guard let o = (try? JSONParser.parse(answer.body))?.objectValue else { throw .unexpected(status: answer.status, detail: "show is not an object") }
        cache?.store(Data(answer.body), for: CacheKey.show(id))
        return o
    }

    /// Every show's summary, in the server's order (a show list or a strip of show times).
    public func shows() async throws(APIError) -> [JSONObject] {
        let answer = try await send("GET", "/v1/shows")
        guard let list = (try? JSONParser.parse(answer.body))?.arrayValue else { throw .unexpected(status: answer.status, detail: "shows are not a list") }
        return list.compactMap(\.objectValue)
    }

    // MARK: Holds

    /// Holds seats, all or none. Pass the same `idempotencyKey` when retrying a request whose answer was lost.
    public func createHold(show: String, _ request: HoldRequest, idempotencyKey: String? = nil) async throws(APIError) -> HoldResource {
        try hold(
            try await send(
                "POST", "/v1/shows/\(show)/holds", body: request.jsonBytes(),
                headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:]))
    }

    public func hold(token: String) async throws(APIError) -> HoldResource {
        try hold(try await send("GET", "/v1/holds/\(token)"))
    }

    public func modifyHold(token: String, _ request: ModifyHoldRequest) async throws(APIError) -> HoldResource {
        try hold(try await send("POST", "/v1/holds/\(token)/seats", body: request.jsonBytes()))
    }

    public func releaseHold(token: String) async throws(APIError) {
        _ = try await send("DELETE", "/v1/holds/\(token)")
    }

    public func extendHold(token: String) async throws(APIError) -> HoldResource {
        try hold(try await send("POST", "/v1/holds/\(token)/extend", body: []))
    }

    /// Pays for the hold with `provider` (`stripe`, `wechatpay`, `alipay`): the payment, with what the
    /// provider's own SDK needs to take it (Stripe's client secret, WeChat Pay's code URL, Alipay's QR
    /// code or redirect), and the hold kept for it. The seats are sold when the provider says so (the
    /// show's events carry the sale; `hold(token:)` then answers `hold-confirmed`).
    public func checkout(token: String, provider: String, method: String? = nil, orderRef: String? = nil) async throws(APIError) -> CheckoutResource {
        let answer = try await send(
            "POST", "/v1/holds/\(token)/checkout", body: CheckoutRequest(provider: provider, method: method, orderRef: orderRef).jsonBytes())
        do { return try CheckoutResource(json: answer.body) } catch { throw .unexpected(status: answer.status, detail: error.description) }
    }

    public func confirmHold(token: String, orderRef: String, idempotencyKey: String? = nil) async throws(APIError) -> HoldResource {
        try hold(
            try await send(
                "POST", "/v1/holds/\(token)/confirm", body: ConfirmRequest(orderRef: orderRef).jsonBytes(),
                headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:]))
    }
}
