import CMicroHTTPD
import Foundation

/// One Server-Sent Events connection. Publishers append text; libmicrohttpd pulls it through `read`.
/// With nothing to send, the connection is suspended (no busy loop) until the next append resumes it.
public final class EventStream: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var readOffset = 0
    private var suspended = false
    private var closed = false
    /// Set once by `attach`, under `lock` (publishers read it to resume the connection).
    private var connection: OpaquePointer?
    /// Called once when the client has gone (or the server closed the stream).
    private var onFinish: (@Sendable () -> Void)?
    /// Bytes waiting beyond this are a client that does not read: it is dropped.
    let maximumBacklog: Int

    public init(maximumBacklog: Int = 1 << 20) { self.maximumBacklog = maximumBacklog }

    /// Binds the stream to its connection (on the connection's thread, possibly after publishers
    /// started appending: they read `connection` under the same lock) and adds `finish` to what runs
    /// when it ends.
    func attach(_ connection: OpaquePointer, onFinish finish: @escaping @Sendable () -> Void) {
        lock.lock(); defer { lock.unlock() }
        self.connection = connection
        let previous = onFinish
        onFinish = {
            previous?(); finish()
        }
    }

    /// Runs `body` once the stream ends (set before the stream is handed to libmicrohttpd).
    public func whenFinished(_ body: @escaping @Sendable () -> Void) {
        lock.lock(); defer { lock.unlock() }
        let previous = onFinish
        onFinish = {
            previous?(); body()
        }
    }

    /// Queues `text` for the client; false when the stream is closed or the client is too far behind.
    @discardableResult
    public func send(_ text: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard !closed else { return false }
        if buffer.count - readOffset + text.utf8.count > maximumBacklog { closeLocked(); return false }
        buffer.append(contentsOf: text.utf8)
        wakeLocked()
        return true
    }

    /// Ends the stream: the client sees the end of the response.
    public func close() {
        lock.lock(); defer { lock.unlock() }
        closeLocked()
    }

    public var isClosed: Bool { lock.lock(); defer { lock.unlock() }; return closed }

    private func closeLocked() {
        guard !closed else { return }
        closed = true
        wakeLocked()
    }

    private func wakeLocked() {
        if suspended, let connection {
            suspended = false
            MHD_resume_connection(connection)
        }
    }

    /// libmicrohttpd asks for up to `max` bytes.
    func read(into destination: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        lock.lock(); defer { lock.unlock() }
        let available = buffer.count - readOffset
        if available == 0 {
            if closed { return seatkit_mhd_end_of_stream }
            if let connection {
                suspended = true
                MHD_suspend_connection(connection)
            }
            return 0
        }
        let n = min(available, max)
        buffer.withUnsafeBufferPointer { b in
            UnsafeMutableRawPointer(destination).copyMemory(from: b.baseAddress! + readOffset, byteCount: n)
        }
        readOffset += n
        if readOffset > 64 * 1024 && readOffset * 2 > buffer.count {
            buffer.removeFirst(readOffset)
            readOffset = 0
        }
        return n
    }

    func finished() {
        lock.lock()
        closed = true
        connection = nil
        let callback = onFinish
        onFinish = nil
        lock.unlock()
        callback?()
    }
}

/// An answer that arrives later from another thread. The request's connection is suspended meanwhile
/// and resumed on completion; libmicrohttpd then calls the handler again, which sends the answer.
public final class DeferredResponse: @unchecked Sendable {
    private let lock = NSLock()
    private var response: HTTPResponse?
    private var make: (@Sendable () -> HTTPResponse)?
    private var connection: OpaquePointer?
    private var suspended = false

    public init() {}

    public func complete(_ r: HTTPResponse) { complete { r } }

    /// Completes with an answer made by `make` when it is sent, on the connection's own thread: the
    /// completing thread (the store's single writer) only wakes the connection.
    public func complete(_ make: @escaping @Sendable () -> HTTPResponse) {
        lock.lock(); defer { lock.unlock() }
        self.make = make
        if suspended, let connection {
            suspended = false
            MHD_resume_connection(connection)
        }
    }

    /// The answer if it is already here; otherwise suspends `connection` until it is.
    func park(on connection: OpaquePointer) -> HTTPResponse? {
        lock.lock()
        if make != nil || response != nil { lock.unlock(); return take() }
        defer { lock.unlock() }
        self.connection = connection
        suspended = true
        MHD_suspend_connection(connection)
        return nil
    }

    func take() -> HTTPResponse? {
        lock.lock()
        if let response { lock.unlock(); return response }
        guard let make else { lock.unlock(); return nil }
        self.make = nil
        lock.unlock()
        let made = make()
        lock.lock(); response = made; lock.unlock()
        return made
    }
}
