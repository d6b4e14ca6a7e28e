import CMicroHTTPD
import Foundation
import SharedState

/// One Server-Sent Events connection. Publishers append text; libmicrohttpd pulls it through `read`.
/// With nothing to send, the connection is suspended (no busy loop) until the next append resumes it.
/// Lock: `state`; libmicrohttpd's resume and suspend are called under it (lock order: `state` →
/// libmicrohttpd's connection mutex), so a publisher never resumes a connection being suspended.
public final class EventStream: Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var readOffset = 0
        var suspended = false
        var closed = false
        /// Set once by `attach` (publishers may already be appending: they resume it when it is set).
        var connection: Connection?
        /// Called once when the client has gone (or the server closed the stream).
        var onFinish: (@Sendable () -> Void)?

        mutating func wake() {
            if suspended, let connection {
                suspended = false
                MHD_resume_connection(connection.pointer)
            }
        }

        mutating func close() {
            guard !closed else { return }
            closed = true
            wake()
        }
    }

    private let state = Locked(State())
    /// Bytes waiting beyond this are a client that does not read: it is dropped.
    let maximumBacklog: Int

    public init(maximumBacklog: Int = 1 << 20) { self.maximumBacklog = maximumBacklog }

    /// Binds the stream to its connection (on the connection's thread, possibly after publishers
    /// started appending) and adds `finish` to what runs when it ends.
    func attach(_ connection: OpaquePointer, onFinish finish: @escaping @Sendable () -> Void) {
        state.withLock { s in
            s.connection = Connection(pointer: connection)
            let previous = s.onFinish
            s.onFinish = {
                previous?(); finish()
            }
        }
    }

    /// Runs `body` once the stream ends (set before the stream is handed to libmicrohttpd).
    public func whenFinished(_ body: @escaping @Sendable () -> Void) {
        state.withLock { s in
            let previous = s.onFinish
            s.onFinish = {
                previous?(); body()
            }
        }
    }

    /// Queues `text` for the client; false when the stream is closed or the client is too far behind.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let maximumBacklog = maximumBacklog
        return state.withLock { s in
            guard !s.closed else { return false }
            if s.buffer.count - s.readOffset + text.utf8.count > maximumBacklog {
                s.close()
                return false
            }
            s.buffer.append(contentsOf: text.utf8)
            s.wake()
            return true
        }
    }

    /// Ends the stream: the client sees the end of the response.
    public func close() { state.withLock { $0.close() } }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// libmicrohttpd asks for up to `max` bytes.
    func read(into destination: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { s in
            let available = s.buffer.count - s.readOffset
            if available == 0 {
                if s.closed { return seatkit_mhd_end_of_stream }
                if let connection = s.connection {
                    s.suspended = true
                    MHD_suspend_connection(connection.pointer)
                }
                return 0
            }
            let n = min(available, max)
            let offset = s.readOffset
            s.buffer.withUnsafeBufferPointer { b in
                UnsafeMutableRawPointer(destination).copyMemory(from: b.baseAddress! + offset, byteCount: n)
            }
            s.readOffset += n
            if s.readOffset > 64 * 1024 && s.readOffset * 2 > s.buffer.count {
                s.buffer.removeFirst(s.readOffset)
                s.readOffset = 0
            }
            return n
        }
    }

    func finished() {
        let callback = state.withLock { s in
            s.closed = true
            s.connection = nil
            defer { s.onFinish = nil }
            return s.onFinish
        }
        callback?()
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
