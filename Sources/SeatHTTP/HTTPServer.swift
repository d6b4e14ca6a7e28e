import CMicroHTTPD
import Foundation
import SharedState
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: epoll with a thread pool, keep-alive, bodies collected up to a
/// limit, handlers called synchronously on the pool's threads, answers that come later by suspend/resume,
/// Server-Sent Events on sockets taken from libmicrohttpd after their head (`StreamTransport`).
public final class HTTPServer: Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    public struct Configuration: Sendable {
        public var port: UInt16
        /// Listen on every address instead of 127.0.0.1.
        public var anyAddress: Bool
        public var threads: Int
        public var maximumBodyBytes: Int
        /// Request connections per client address, and in all.
        public var connectionsPerAddress: Int
        public var maximumConnections: Int
        /// Event streams per client address, and in all (a budget apart from requests').
        public var streamsPerAddress: Int
        public var maximumStreams: Int
        /// Seconds a request's headers may take (also how long a keep-alive connection may be idle).
        public var headerTimeoutSeconds: Double
        /// Idle seconds after which libmicrohttpd closes a connection (a body that stops arriving).
        public var connectionTimeoutSeconds: Int
        /// Addresses without per-address limits (a load balancer's or proxy's).
        public var trustedAddresses: Set<String>
        /// A request's own body limit, decided once its headers are in (method, path, a header lookup):
        /// an admin's venue upload may be 64 MiB while everyone else keeps `maximumBodyBytes`. A body is
        /// read into memory as it arrives, so no request costs more than its limit.
        public var bodyLimit: (@Sendable (_ method: String, _ path: String, _ header: (String) -> String?) -> Int)?

        public init(
            port: UInt16 = 8080, anyAddress: Bool = false, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
            maximumBodyBytes: Int = 1 << 20, connectionsPerAddress: Int = 64, maximumConnections: Int = 4096,
            streamsPerAddress: Int = 256, maximumStreams: Int = 12_000, headerTimeoutSeconds: Double = 15,
            connectionTimeoutSeconds: Int = 60, trustedAddresses: Set<String> = []
        ) {
            self.port = port; self.anyAddress = anyAddress; self.threads = max(threads, 1)
            self.maximumBodyBytes = maximumBodyBytes; self.connectionsPerAddress = connectionsPerAddress
            self.maximumConnections = maximumConnections; self.streamsPerAddress = streamsPerAddress
            self.maximumStreams = maximumStreams; self.headerTimeoutSeconds = headerTimeoutSeconds
            self.connectionTimeoutSeconds = connectionTimeoutSeconds; self.trustedAddresses = trustedAddresses
        }
    }

    let configuration: Configuration
    let handler: Handler
    let guardian: ConnectionGuard
    /// The running daemon: nil before `start` and after `stop`. Lock: `daemon`.
    private let daemon = Locked<Daemon?>(nil)
    /// Open event streams (closed on stop).
    private let streams = Locked([ObjectIdentifier: EventStream]())
    /// Each open stream's connection record (its budget, given back when the stream ends).
    let streamRecords = Locked([ObjectIdentifier: ConnectionGuard.Record]())
    /// The streams' sockets once libmicrohttpd has let go of them.
    let transport: StreamTransport
    /// The bound port (useful with port 0), written once by `start`.
    private let boundPort = Atomic<UInt16>(0)
    public var port: UInt16 { boundPort.load(ordering: .acquiring) }

    public init(configuration: Configuration, handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
        guardian = ConnectionGuard(
            limits: ConnectionGuard.Limits(
                perAddress: configuration.connectionsPerAddress, requests: configuration.maximumConnections,
                streamsPerAddress: configuration.streamsPerAddress, streams: configuration.maximumStreams,
                headerSeconds: configuration.headerTimeoutSeconds, trusted: configuration.trustedAddresses))
        let guardian = guardian, records = streamRecords
        transport = StreamTransport { stream, hungUp in
            if let record = records.withLock({ $0.removeValue(forKey: ObjectIdentifier(stream)) }) { guardian.streamEnded(record, hungUp: hungUp) }
        }
    }

    /// The client a request comes from: the peer, or, when the peer is a trusted proxy, the address the
    /// proxy appended last to `X-Forwarded-For` (the one it saw; earlier entries are the client's word).
    /// Rate limits then apply per buyer behind the balancer, not to the balancer.
    func clientAddress(peer: String, forwardedFor: String?) -> String {
        guard let forwardedFor, configuration.trustedAddresses.contains(peer),
            let last = forwardedFor.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), Self.isIPAddress(last)
        else { return peer }
        return last
    }

    public static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// Connection counters for /metrics.
    public var connectionGauges: [(String, String, Double)] { guardian.gauges }

    /// Each connection's memory pool: headers, read and write buffers (so also the bound on a request's
    /// headers). libmicrohttpd zeroes the whole pool between keep-alive requests, so it is kept small.
    static let connectionMemory = 16 * 1024

    /// Binds and starts serving; `port` is the bound port (useful with port 0).
    public func start() throws {
        let me = Unmanaged.passUnretained(self).toOpaque()
        // libmicrohttpd's own limit covers both budgets (the guard keeps each within its own), plus
        // room for connections the guard is about to refuse.
        let total = configuration.maximumConnections + configuration.maximumStreams + 64
        Self.raiseFileLimit(to: total + 256)
        let started = seatkit_mhd_start(
            configuration.port, configuration.anyAddress ? 1 : 0, UInt32(configuration.threads),
            UInt32(total), UInt32(configuration.connectionTimeoutSeconds),
            Self.connectionMemory, accessHandler, me, completedHandler, me, seatkit_mhd_quiet(), nil,
            acceptPolicy, me, connectionNotice, me)
        guard let started else {
            throw ServerError.cannotListen("cannot listen on port \(configuration.port) (in use, or not permitted)")
        }
        daemon.withLock { $0 = Daemon(pointer: started) }
        boundPort.store(seatkit_mhd_port(started), ordering: .releasing)
        guardian.start()
        transport.start()
    }

    /// Every connection is a file descriptor: the soft limit (often 1,024) is raised toward the hard one.
    static func raiseFileLimit(to wanted: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Closes every event stream (each writes its last chunk), then stops the daemon and the streams'
    /// transport; in-flight requests complete first.
    /// Graceful: event streams end, and requests in flight (answers resumed just before, by the
    /// inventory's writer or the tarpit, included) are sent before the daemon stops, for at most
    /// `drainSeconds`; stopping the daemon at once cut a just-resumed answer off.
    public func stop(drainSeconds: Double = 2) {
        for s in streams.withLock({ Array($0.values) }) { s.close() }
        let deadline = Date().addingTimeInterval(drainSeconds)
        while daemon.withLock({ $0 != nil }) && guardian.busyRequests > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        let running = daemon.withLock { d in
            defer { d = nil }
            return d
        }
        if let running { MHD_stop_daemon(running.pointer) }
        transport.stop()
        guardian.stop()
    }

    func register(_ stream: EventStream) { streams.withLock { $0[ObjectIdentifier(stream)] = stream } }

    func unregister(_ stream: EventStream) { streams.withLock { $0[ObjectIdentifier(stream)] = nil } }

    public var openStreamCount: Int { streams.withLock { $0.count } }
}

public enum ServerError: Error, CustomStringConvertible {
    case cannotListen(String)
    case invalidAdminKey(String)
    public var description: String {
        switch self {
        case .cannotListen(let m), .invalidAdminKey(let m): return m
        }
    }
}

/// Per-request state between libmicrohttpd's calls: the body so far.
final class RequestState {
    var body: [UInt8] = []
    var tooLarge = false
    /// This request's body limit (`Configuration.bodyLimit`).
    var limit = 0
    var deferred: DeferredResponse?
}

/// A problem answered before the handler sees the request, on libmicrohttpd's first call (it then
/// closes the connection: the request's framing cannot be trusted).
private func framingProblem(_ connection: OpaquePointer, version: String) -> Problem? {
    let detail: String
    switch seatkit_mhd_framing(connection, version) {
    case SEATKIT_FRAMING_OK: return nil
    case SEATKIT_FRAMING_DUPLICATE_CONTENT_LENGTH: detail = "more than one Content-Length header"
    case SEATKIT_FRAMING_LENGTH_AND_CHUNKED: detail = "both Content-Length and Transfer-Encoding"
    case SEATKIT_FRAMING_FOLDED_HEADER: detail = "a header folded onto a second line (obsolete line folding, RFC 9112 section 5.2)"
    case SEATKIT_FRAMING_MISSING_HOST: detail = "no Host header (required in HTTP/1.1)"
    case SEATKIT_FRAMING_DUPLICATE_HOST: detail = "more than one Host header"
    case SEATKIT_FRAMING_BAD_LINE: detail = "a line that does not end in CR LF, or a NUL character in a header"
    case SEATKIT_FRAMING_CHUNKED_BODY:
        return Problem(
            411, "length-required", "Length required", detail: "send the request body with a Content-Length header, not chunked",
            headers: [("Connection", "close")])
    default: detail = "a Transfer-Encoding other than chunked"
    }
    return Problem(400, "bad-framing", "Malformed HTTP request", detail: "the request has \(detail)", headers: [("Connection", "close")])
}

/// An address as text ("unknown" when it is neither IPv4 nor IPv6), written by `fill` into a buffer.
private func addressText(_ fill: (UnsafeMutablePointer<CChar>) -> Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    guard buffer.withUnsafeMutableBufferPointer({ fill($0.baseAddress!) }) != 0 else { return "unknown" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

private func text(_ address: UnsafePointer<sockaddr>?) -> String { addressText { seatkit_sockaddr_text(address, $0, 64) } }

/// The TCP peer of `connection`.
private func peerAddress(_ connection: OpaquePointer) -> String { addressText { seatkit_mhd_client_address(connection, $0, 64) } }

private let acceptPolicy: MHD_AcceptPolicyCallback = { cls, address, _ in
    guard let cls else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.guardian.admit(text(address)) ? MHD_Result.YES : MHD_Result.NO
}

private let connectionNotice: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let cls, let connection else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if code == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
        let record = server.guardian.opened(connection, address: peerAddress(connection), fd: seatkit_mhd_connection_fd(connection))
        socketContext?.pointee = Unmanaged.passRetained(record).toOpaque()
    } else {
        server.guardian.closed(connection)
        if let pointer = socketContext?.pointee {
            Unmanaged<ConnectionGuard.Record>.fromOpaque(pointer).release()
            socketContext?.pointee = nil
        }
    }
}

/// The connection's record in the guard (kept in its socket context by the connection notice).
func connectionRecord(_ connection: OpaquePointer) -> ConnectionGuard.Record? {
    seatkit_mhd_socket_context(connection).map { Unmanaged<ConnectionGuard.Record>.fromOpaque($0).takeUnretainedValue() }
}

final class KeyValues {
    var values: [String: String] = [:]
    let lowercaseKeys: Bool
    init(lowercaseKeys: Bool) { self.lowercaseKeys = lowercaseKeys }
}

private let collectValue: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return MHD_Result.YES }
    let box = Unmanaged<KeyValues>.fromOpaque(cls).takeUnretainedValue()
    let k = String(cString: key)
    box.values[box.lowercaseKeys ? k.lowercased() : k] = value.map { String(cString: $0) } ?? ""
    return MHD_Result.YES
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, requestContext in
    guard let cls, let connection, let requestContext, let uploadDataSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    guard let pointer = requestContext.pointee, seatkit_is_mark(pointer) == 0 else {
        // First call: only the headers have arrived (and perhaps a mark the URI callback left).
        let refusedQuery = requestContext.pointee == seatkit_query_refused()
        let refusedLine = requestContext.pointee == seatkit_line_refused()
        let fresh = RequestState()
        fresh.limit = server.configuration.maximumBodyBytes
        if let bodyLimit = server.configuration.bodyLimit {
            fresh.limit = bodyLimit(method.map { String(cString: $0) } ?? "GET", url.map { String(cString: $0) } ?? "/") { name in
                MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
            }
        }
        requestContext.pointee = Unmanaged.passRetained(fresh).toOpaque()
        server.guardian.requestStarted(connectionRecord(connection))
        let problem =
            refusedQuery
            ? Problem(
                414, "query-too-long", "Query too long",
                detail: "the query has over \(SEATKIT_MAX_QUERY_PARAMETERS) parameters or \(SEATKIT_MAX_QUERY_BYTES) bytes", headers: [("Connection", "close")])
            : refusedLine
                ? Problem(
                    400, "bad-framing", "Malformed HTTP request", detail: "the request has a line that does not end in CR LF",
                    headers: [("Connection", "close")])
                : framingProblem(connection, version: version.map { String(cString: $0) } ?? "")
        if let problem { return server.queue(problem.response, on: connection) }
        return MHD_Result.YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
    if let deferred = state.deferred {
        // Resumed: the answer has come.
        guard let response = deferred.take() else { return MHD_Result.YES }
        state.deferred = nil
        return server.queue(response, on: connection)
    }
    if uploadDataSize.pointee > 0 {
        let n = uploadDataSize.pointee
        if !state.tooLarge {
            if state.body.count + n > state.limit {
                state.tooLarge = true
                state.body = []
            } else if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: n) { state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
            }
        }
        uploadDataSize.pointee = 0
        return MHD_Result.YES
    }
    let headers = KeyValues(lowercaseKeys: true), query = KeyValues(lowercaseKeys: false)
    MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, collectValue, Unmanaged.passUnretained(headers).toOpaque())
    MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, collectValue, Unmanaged.passUnretained(query).toOpaque())
    // The peer's text is made once per connection (its record has it): inet_ntop and a String per
    // request showed in the hold path's profile.
    let peer = connectionRecord(connection)?.address ?? peerAddress(connection)
    let client = server.clientAddress(peer: peer, forwardedFor: headers.values["x-forwarded-for"])
    let response: HTTPResponse
    if state.tooLarge {
        response = Problem(413, "body-too-large", "Request body too large", detail: "the body is over \(state.limit) bytes").response
    } else {
        switch decodedBody(state.body, encoding: headers.values["content-encoding"], limit: state.limit) {
        case .failure(let problem): response = problem.response
        case .success(let body):
            response = server.handler(
                HTTPRequest(
                    method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
                    query: query.values, headers: headers.values, body: body, clientAddress: client))
        }
    }
    if let deferred = response.deferred {
        guard let ready = deferred.park(on: connection) else {
            state.deferred = deferred
            return MHD_Result.YES
        }
        return server.queue(ready, on: connection)
    }
    return server.queue(response, on: connection, version: version.map { String(cString: $0) })
}

/// A request body as sent (`Content-Encoding` absent or `identity`) or inflated from gzip, at most
/// `limit` bytes either way (a small gzip that inflates past it is refused, not unpacked).
func decodedBody(_ body: [UInt8], encoding: String?, limit: Int) -> Result<[UInt8], Problem> {
    guard let encoding = encoding?.trimmingCharacters(in: .whitespaces).lowercased(), !encoding.isEmpty, encoding != "identity" else {
        return .success(body)
    }
    guard encoding == "gzip" || encoding == "x-gzip" else {
        return .failure(
            Problem(
                415, "unsupported-content-encoding", "Unsupported Content-Encoding",
                detail: "Content-Encoding \"\(encoding)\" is not supported; send the body plain or gzip", headers: [("Accept-Encoding", "gzip")]))
    }
    guard let inflated = Gzip.decompress(body, maximumBytes: limit) else {
        return .failure(
            Problem(400, "bad-content-encoding", "Body not readable", detail: "the body is not a gzip stream, or is over \(limit) bytes once inflated"))
    }
    return .success(inflated)
}

private let completedHandler: MHD_RequestCompletedCallback = { cls, connection, requestContext, _ in
    if let cls, let connection { Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().guardian.requestCompleted(connectionRecord(connection)) }
    guard let requestContext, let pointer = requestContext.pointee, seatkit_is_mark(pointer) == 0 else { return }
    Unmanaged<RequestState>.fromOpaque(pointer).release()
    requestContext.pointee = nil
}

extension HTTPServer {
    func queue(_ response: HTTPResponse, on connection: OpaquePointer, version: String? = nil) -> MHD_Result {
        if let stream = response.stream { return adopt(stream, response, on: connection, version: version) }
        let mhdResponse = response.body.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let mhdResponse else { return MHD_Result.NO }
        for (name, value) in response.headers { MHD_add_response_header(mhdResponse, name, value) }
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }

    /// An event stream leaves libmicrohttpd: its socket is duplicated, its head written by the stream,
    /// and libmicrohttpd told to drop the connection (`MHD_NO`), which it does without a `shutdown`
    /// (`MHD_USE_TURBO`) — closing its own descriptor leaves the duplicate's socket open.
    private func adopt(_ stream: EventStream, _ response: HTTPResponse, on connection: OpaquePointer, version: String?) -> MHD_Result {
        guard let record = guardian.adoptStream(connection) else {
            stream.close()
            return queue(
                Problem(
                    503, "too-many-streams", "Too many event streams",
                    detail: "this server, or this address, has as many open event streams as it serves; try again shortly",
                    headers: [("Retry-After", "5")]
                ).response, on: connection)
        }
        let socket = fcntl(seatkit_mhd_connection_fd(connection), F_DUPFD_CLOEXEC, 0)
        guard socket >= 0 else {
            guardian.streamEnded(record, hungUp: false)
            stream.close()
            return MHD_Result.NO
        }
        // An HTTP/1.0 client cannot read chunks: its body ends when the connection does.
        let chunked = version != "HTTP/1.0"
        var head = "HTTP/1.1 \(response.status) OK\r\nDate: \(Self.httpDate())\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Connection: close\r\n\r\n"
        let server = self
        stream.whenFinished { server.unregister(stream) }
        register(stream)
        streamRecords.withLock { $0[ObjectIdentifier(stream)] = record }
        transport.adopt(stream, socket: socket, head: Array(head.utf8), chunked: chunked)
        return MHD_Result.NO
    }

    /// Now as an HTTP date (RFC 9110 section 5.6.7).
    static func httpDate() -> String {
        var now = time(nil), parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, 64, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// libmicrohttpd's daemon handle. `@unchecked`: an `OpaquePointer` the compiler cannot see into;
/// libmicrohttpd's calls on a daemon are thread-safe, and here only `start` and `stop` use it.
struct Daemon: @unchecked Sendable {
    let pointer: OpaquePointer
}
