import CMicroHTTPD
import Foundation
import SharedState

#if canImport(Glibc)
import Glibc
#endif

/// One Server-Sent Events stream. Publishers append text; once its response head is written the
/// stream owns its socket (taken from libmicrohttpd by `HTTPServer`, watched by `StreamTransport`)
/// and each `send` writes at once, without blocking: what the socket does not take waits for the
/// transport's next "writable". A stream costs libmicrohttpd nothing after its head: kept there,
/// suspended between events, 10,000 streams made every resumed answer walk a list of 10,000
/// (27 % of the server's CPU under hold + release with 10,000 viewers, perf 2026-12-03).
///
/// Lock: `state`; a write (`send(2)`, non-blocking) happens under it, so bytes leave in the order
/// they were sent. Lock order: `state` → `StreamTransport.state`.
public final class EventStream: Sendable {
    private struct State {
        /// Text sent before the stream had its socket (the replay to a new subscriber), not yet framed.
        var early: [UInt8] = []
        /// Framed bytes not yet written, from `written` on.
        var out: [UInt8] = []
        var written = 0
        var socket: Int32 = -1
        var chunked = true
        var closed = false
        var transport: StreamTransport?
        /// Called once when the stream ends (the client hung up, or the server closed it).
        var onFinish: (@Sendable () -> Void)?

        mutating func frame(_ bytes: some Collection<UInt8>) {
            guard !bytes.isEmpty else { return }
            if chunked {
                out.append(contentsOf: String(bytes.count, radix: 16).utf8)
                out.append(contentsOf: [13, 10])
                out.append(contentsOf: bytes)
                out.append(contentsOf: [13, 10])
            } else {
                out.append(contentsOf: bytes)
            }
        }

        /// Writes what the socket takes now; false when the client is gone.
        mutating func flush() -> Bool {
            while written < out.count {
                let n = out.withUnsafeBytes { raw in
                    Glibc.send(socket, raw.baseAddress! + written, raw.count - written, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if n > 0 {
                    written += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    return true
                } else {
                    return false
                }
            }
            // All written: a buffer that grew for a burst is given back (a viewer idles most of the time).
            if out.count > 64 * 1024 { out = [] } else { out.removeAll(keepingCapacity: true) }
            written = 0
            return true
        }

        /// Ends the stream (the end of the chunked body written, if the socket takes it) and hands the
        /// socket back to the transport, which closes it and runs `onFinish`.
        mutating func close(_ me: EventStream) {
            guard !closed else { return }
            closed = true
            guard socket >= 0 else { return }
            if chunked { out.append(contentsOf: Array("0\r\n\r\n".utf8)) }
            _ = flush()
            transport?.release(me)
        }
    }

    private let state = Locked(State())
    /// Bytes waiting beyond this are a client that does not read: it is dropped.
    let maximumBacklog: Int

    public init(maximumBacklog: Int = 1 << 20) { self.maximumBacklog = maximumBacklog }

    /// Runs `body` once the stream ends.
    public func whenFinished(_ body: @escaping @Sendable () -> Void) {
        state.withLock { s in
            let previous = s.onFinish
            s.onFinish = {
                previous?(); body()
            }
        }
    }

    /// Queues `text` for the client (written at once when the socket takes it); false when the stream
    /// is closed or the client is too far behind.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let maximumBacklog = maximumBacklog
        return state.withLock { s in
            guard !s.closed else { return false }
            guard s.socket >= 0 else {
                s.early.append(contentsOf: text.utf8)
                return true
            }
            if s.out.count - s.written + text.utf8.count > maximumBacklog {
                s.close(self)
                return false
            }
            let waiting = s.written < s.out.count
            s.frame(text.utf8)
            // With bytes already waiting, the transport's "writable" writes these after them.
            if !waiting && !s.flush() {
                s.closed = true
                s.transport?.release(self)
                return false
            }
            return true
        }
    }

    /// Ends the stream: the client sees the end of the response.
    public func close() { state.withLock { $0.close(self) } }

    public var isClosed: Bool { state.withLock { $0.closed } }

    // MARK: For the server and the transport

    /// The stream takes `socket` (its response head in `head`), frames what was sent before, and writes.
    func adopt(socket: Int32, head: [UInt8], chunked: Bool, transport: StreamTransport) {
        state.withLock { s in
            s.socket = socket
            s.chunked = chunked
            s.transport = transport
            s.out = head
            s.frame(s.early)
            s.early = []
            let wasClosed = s.closed
            s.closed = false
            if wasClosed || !s.flush() { s.close(self) }
        }
    }

    /// The socket became writable: what waited is written.
    func writable() {
        state.withLock { s in
            guard !s.closed, s.socket >= 0 else { return }
            if !s.flush() {
                s.closed = true
                s.transport?.release(self)
            }
        }
    }

    /// The transport takes the socket back (to close it) and the callbacks to run.
    func detach() -> (socket: Int32, finish: (@Sendable () -> Void)?) {
        state.withLock { s in
            s.closed = true
            defer {
                s.socket = -1
                s.onFinish = nil
                s.transport = nil
                s.out = []
            }
            return (s.socket, s.onFinish)
        }
    }
}

/// A libmicrohttpd connection handle, passed between threads only under a stream's lock (libmicrohttpd
/// allows resuming a connection from any thread). `@unchecked`: an `OpaquePointer` the compiler cannot
/// see into.
struct Connection: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// An answer that arrives later from another thread. The request's connection is suspended meanwhile
/// and resumed on completion; libmicrohttpd then calls the handler again, which sends the answer.
/// Lock: `state` (→ libmicrohttpd's connection mutex, as for `EventStream`); `make` runs outside it.
public final class DeferredResponse: Sendable {
    private struct State {
        var response: HTTPResponse?
        var make: (@Sendable () -> HTTPResponse)?
        var connection: Connection?
        var suspended = false
    }

    private let state = Locked(State())

    public init() {}

    public func complete(_ r: HTTPResponse) { complete { r } }

    /// Completes with an answer made by `make` when it is sent, on the connection's own thread: the
    /// completing thread (the store's single writer) only wakes the connection.
    public func complete(_ make: @escaping @Sendable () -> HTTPResponse) {
        state.withLock { s in
            s.make = make
            if s.suspended, let connection = s.connection {
                s.suspended = false
                MHD_resume_connection(connection.pointer)
            }
        }
    }

    /// The answer if it is already here; otherwise suspends `connection` until it is.
    func park(on connection: OpaquePointer) -> HTTPResponse? {
        let ready = state.withLock { s in
            if s.make != nil || s.response != nil { return true }
            s.connection = Connection(pointer: connection)
            s.suspended = true
            MHD_suspend_connection(connection)
            return false
        }
        return ready ? take() : nil
    }

    func take() -> HTTPResponse? {
        let found: Either = state.withLock { s in
            if let response = s.response { return .made(response) }
            guard let make = s.make else { return .none }
            s.make = nil
            return .make(make)
        }
        switch found {
        case .none: return nil
        case .made(let response): return response
        case .make(let make):
            let made = make()
            state.withLock { $0.response = made }
            return made
        }
    }

    private enum Either {
        case none
        case made(HTTPResponse)
        case make(@Sendable () -> HTTPResponse)
    }
}
