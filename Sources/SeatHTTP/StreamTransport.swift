import CMicroHTTPD
import Foundation
import SharedState

#if canImport(Glibc)
import Glibc
#endif

/// The sockets of open event streams, after libmicrohttpd handed them over with their response head
/// written (`HTTPServer.queue`): one thread ("seatkit-streams") and one epoll set watch them for a
/// client that hangs up (closed at once; a viewer sends nothing, so any readable byte or end is read)
/// and for a socket that can take more after a write fell short. Writes happen on the sending thread
/// (`EventStream.send`); sockets are closed only here, after they leave the epoll set and the table, so
/// a descriptor number is never reused while an event for it may still arrive.
///
/// Lock: `state` (a leaf: streams' locks are taken after it is released).
final class StreamTransport: Sendable {
    private struct State {
        var streams: [Int32: EventStream] = [:]
        /// Streams that ended, to close on the transport's thread.
        var ending: [EventStream] = []
        /// Streams closed because their client went away (for the hang-up count).
        var hungUp: Set<ObjectIdentifier> = []
        var stopping = false
        var running = false
    }

    private let state = Locked(State())
    private let epoll: Int32
    /// An eventfd that wakes the thread for streams that ended and for `stop`.
    private let wake: Int32
    /// Called with each stream's socket after it is closed (the budget it held is given back).
    private let ended: @Sendable (EventStream, _ hungUp: Bool) -> Void

    init(ended: @escaping @Sendable (EventStream, _ hungUp: Bool) -> Void) {
        self.ended = ended
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wake = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wake))
        epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event)
    }

    deinit {
        close(epoll)
        close(wake)
    }

    var count: Int { state.withLock { $0.streams.count } }

    func start() {
        state.withLock { $0.running = true }
        NamedThread.start("sk-streams") { [self] in run() }
    }

    /// `stream` takes `socket` (a duplicate of libmicrohttpd's, non-blocking) with its head to write.
    func adopt(_ stream: EventStream, socket: Int32, head: [UInt8], chunked: Bool) {
        var on: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        state.withLock { $0.streams[socket] = stream }
        // Edge-triggered: one event when the client hangs up or sends, one when a full socket drains.
        var event = epoll_event(
            events: EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue, data: epoll_data_t(fd: socket))
        epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event)
        stream.adopt(socket: socket, head: head, chunked: chunked, transport: self)
    }

    /// The stream ended: its socket is closed on the transport's thread.
    func release(_ stream: EventStream) {
        state.withLock { $0.ending.append(stream) }
        var one: UInt64 = 1
        _ = Glibc.write(wake, &one, 8)
    }

    /// Ends every stream and the thread.
    func stop() {
        let all = state.withLock { s in
            s.stopping = true
            return Array(s.streams.values)
        }
        for s in all { s.close() }
        var one: UInt64 = 1
        _ = Glibc.write(wake, &one, 8)
        state.wait(until: { !$0.running }) { _, _ in }
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            let n = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, 256, 1000) }
            var closing: [EventStream] = [], drained: [EventStream] = []
            if n > 0 {
                let table = state.withLock { $0.streams }
                for e in events.prefix(Int(n)) {
                    let fd = e.data.fd
                    if fd == wake {
                        var count: UInt64 = 0
                        _ = Glibc.read(wake, &count, 8)
                        continue
                    }
                    guard let stream = table[fd] else { continue }
                    if e.events & (EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
                        || (e.events & EPOLLIN.rawValue != 0 && !Self.stillOpen(fd))
                    {
                        closing.append(stream)
                    } else if e.events & EPOLLOUT.rawValue != 0 {
                        drained.append(stream)
                    }
                }
            }
            for s in drained { s.writable() }
            if !closing.isEmpty { state.withLock { s in for c in closing { s.hungUp.insert(ObjectIdentifier(c)) } } }
            for s in closing { s.close() }
            let (ending, stopping) = state.withLock { s in
                defer { s.ending = [] }
                return (s.ending, s.stopping)
            }
            for stream in ending { finish(stream) }
            if stopping && state.withLock({ $0.streams.isEmpty && $0.ending.isEmpty }) { break }
        }
        state.withLockWakingWaiters { $0.running = false }
    }

    /// Reads what a viewer sent (nothing is expected): false at its end of the connection.
    private static func stillOpen(_ fd: Int32) -> Bool {
        var scratch = [UInt8](repeating: 0, count: 512)
        while true {
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 512, Int32(MSG_DONTWAIT)) }
            if n > 0 { continue }
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        }
    }

    private func finish(_ stream: EventStream) {
        let (socket, callback) = stream.detach()
        guard socket >= 0 else { return }
        let (known, hungUp) = state.withLock { s in
            (s.streams.removeValue(forKey: socket) != nil, s.hungUp.remove(ObjectIdentifier(stream)) != nil)
        }
        guard known else { return }
        epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
        close(socket)
        ended(stream, hungUp)
        callback?()
    }
}
