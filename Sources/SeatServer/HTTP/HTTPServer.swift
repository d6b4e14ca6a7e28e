import CMicroHTTPD
import Foundation

/// An HTTP/1.1 server on libmicrohttpd: epoll with a thread pool, keep-alive, bodies collected up to a
/// limit, handlers called synchronously on the pool's threads, Server-Sent Events by suspend/resume.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    public struct Configuration: Sendable {
        public var port: UInt16
        /// Listen on every address instead of 127.0.0.1.
        public var anyAddress: Bool
        public var threads: Int
        public var maximumBodyBytes: Int
        public var maximumConnections: Int
        public var connectionTimeoutSeconds: Int

        public init(port: UInt16 = 8080, anyAddress: Bool = false, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maximumBodyBytes: Int = 1 << 20, maximumConnections: Int = 4096, connectionTimeoutSeconds: Int = 60) {
            self.port = port; self.anyAddress = anyAddress; self.threads = max(threads, 1)
            self.maximumBodyBytes = maximumBodyBytes; self.maximumConnections = maximumConnections
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
        }
    }

    let configuration: Configuration
    let handler: Handler
    private var daemon: OpaquePointer?
    private let streamsLock = NSLock()
    private var streams: [ObjectIdentifier: EventStream] = [:]
    public private(set) var port: UInt16 = 0

    public init(configuration: Configuration, handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
    }

    /// Each connection's memory pool: headers, read and write buffers (so also the bound on a request's
    /// headers). libmicrohttpd zeroes the whole pool between keep-alive requests, so it is kept small.
    static let connectionMemory = 16 * 1024

    /// Binds and starts serving; `port` is the bound port (useful with port 0).
    public func start() throws {
        let me = Unmanaged.passUnretained(self).toOpaque()
        daemon = seatkit_mhd_start(configuration.port, configuration.anyAddress ? 1 : 0, UInt32(configuration.threads),
                                   UInt32(configuration.maximumConnections), UInt32(configuration.connectionTimeoutSeconds),
                                   Self.connectionMemory, accessHandler, me, completedHandler, me, seatkit_mhd_quiet(), nil)
        guard let daemon else {
            throw ServerError.cannotListen("cannot listen on port \(configuration.port) (in use, or not permitted)")
        }
        port = seatkit_mhd_port(daemon)
    }

    /// Closes every event stream (so suspended connections finish), then stops the daemon; in-flight
    /// requests complete first.
    public func stop() {
        streamsLock.lock()
        let open = Array(streams.values)
        streamsLock.unlock()
        for s in open { s.close() }
        if let daemon { MHD_stop_daemon(daemon) }
        daemon = nil
    }

    func register(_ stream: EventStream) {
        streamsLock.lock(); streams[ObjectIdentifier(stream)] = stream; streamsLock.unlock()
    }

    func unregister(_ stream: EventStream) {
        streamsLock.lock(); streams[ObjectIdentifier(stream)] = nil; streamsLock.unlock()
    }

    public var openStreamCount: Int { streamsLock.lock(); defer { streamsLock.unlock() }; return streams.count }
}

public enum ServerError: Error, CustomStringConvertible {
    case cannotListen(String)
    public var description: String {
        switch self { case .cannotListen(let m): return m }
    }
}

/// Per-request state between libmicrohttpd's calls: the body so far.
final class RequestState {
    var body: [UInt8] = []
    var tooLarge = false
    var deferred: DeferredResponse?
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

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, requestContext in
    guard let cls, let connection, let requestContext, let uploadDataSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    guard let pointer = requestContext.pointee else {
        // First call: only the headers have arrived.
        requestContext.pointee = Unmanaged.passRetained(RequestState()).toOpaque()
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
            if state.body.count + n > server.configuration.maximumBodyBytes {
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
    var address = [CChar](repeating: 0, count: 64)
    let client = seatkit_mhd_client_address(connection, &address, 64) != 0 ? String(cString: address) : "unknown"
    let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
                              query: query.values, headers: headers.values, body: state.body, clientAddress: client)
    let response: HTTPResponse
    if state.tooLarge {
        response = Problem(413, "body-too-large", "Request body too large",
                           detail: "the body is over \(server.configuration.maximumBodyBytes) bytes").response
    } else {
        response = server.handler(request)
    }
    if let deferred = response.deferred {
        guard let ready = deferred.park(on: connection) else {
            state.deferred = deferred
            return MHD_Result.YES
        }
        return server.queue(ready, on: connection)
    }
    return server.queue(response, on: connection)
}

private let completedHandler: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let pointer = requestContext.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(pointer).release()
    requestContext.pointee = nil
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return seatkit_mhd_end_of_stream }
    let stream = Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue()
    return stream.read(into: buffer, max: max)
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let stream = Unmanaged<EventStream>.fromOpaque(cls).takeRetainedValue()
    stream.finished()
}

extension HTTPServer {
    func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let mhdResponse: OpaquePointer?
        if let stream = response.stream {
            stream.connection = connection
            let server = self
            let previous = stream.onFinish
            stream.onFinish = { previous?(); server.unregister(stream) }
            register(stream)
            mhdResponse = MHD_create_response_from_callback(seatkit_mhd_size_unknown, 4096, streamReader,
                                                            Unmanaged.passRetained(stream).toOpaque(), streamFree)
        } else {
            mhdResponse = response.body.withUnsafeBytes { raw in
                MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        }
        guard let mhdResponse else { return MHD_Result.NO }
        for (name, value) in response.headers { MHD_add_response_header(mhdResponse, name, value) }
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }
}
