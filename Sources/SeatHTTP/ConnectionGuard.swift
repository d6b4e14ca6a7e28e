import CMicroHTTPD
import Foundation

#if canImport(Glibc)
import Glibc
import SharedState
#endif

/// The server's connection budgets, so that no client can crowd out the others:
/// - request connections (buyers, including idle keep-alive ones) per client address and in all;
/// - event streams (viewers) on a budget of their own, per address and in all, so a popular show's
///   viewers never take the connections buyers need;
/// - a deadline for each request's headers (slow senders are cut off; libmicrohttpd's own timeout is
///   an idle timeout that one byte every few seconds resets);
/// - an adopted event stream holds its stream budget until `StreamTransport` closes it (at once when
///   its client hangs up).
/// Addresses on `trusted` (a load balancer's, a proxy's) have no per-address limit.
///
/// Threads: libmicrohttpd's pool threads call `admit`, `opened`, `closed`, `requestStarted`,
/// `requestCompleted` and `adoptStream`; the stream transport calls `streamEnded`; the guard's own
/// watcher thread sweeps deadlines. All state is in `table` (one `Locked`). Under that lock the only
/// syscall is `shutdown` on a socket the table still owns: libmicrohttpd calls `closed` before it
/// closes a socket, so a socket in the table is never one reused by another connection.
final class ConnectionGuard: Sendable {
    struct Limits: Sendable {
        /// Request connections from one address (a family behind one NAT has a few dozen).
        var perAddress = 64
        /// Request connections in all.
        var requests = 4096
        /// Event streams from one address.
        var streamsPerAddress = 256
        /// Event streams in all.
        var streams = 12_000
        /// Seconds a request's headers may take, counted from the connection's opening or the end of
        /// its previous request (so also how long a keep-alive connection may sit idle).
        var headerSeconds = 15.0
        var trusted: Set<String> = []
    }

    enum Phase {
        case awaitingHeaders(since: UInt64)
        case busy
        /// Its response is an event stream (it has left libmicrohttpd and the table).
        case stream
        /// Its headers were overdue and its socket shut down: libmicrohttpd closes it next.
        case cut
    }

    /// One open connection. Its phase changes twice a request, on the connection's thread: it has a
    /// lock of its own (uncontended: one thread serves a connection at a time), so a request does not
    /// take the table's lock, which every pool thread would share (two global lock round trips a
    /// request cost ~4 % of hold + release). libmicrohttpd keeps it in the connection's socket context.
    /// Lock: `phase`; taken under `table` by the watcher (lock order: `table` → `phase`).
    final class Record: Sendable {
        let address: String
        let fd: Int32
        let phase: Locked<Phase>
        init(address: String, fd: Int32) {
            self.address = address; self.fd = fd
            phase = Locked(.awaitingHeaders(since: ConnectionGuard.now()))
        }
    }

    private struct Table {
        var connections: [UInt: Record] = [:]
        /// The connections not serving an event stream: what the deadline sweep walks (four times a
        /// second, under this lock; with 10,000 streams open, walking them all was ~2 % of the server's
        /// CPU under hold + release, perf 2026-12-03).
        var requestConnections: [UInt: Record] = [:]
        var requestsByAddress: [String: Int] = [:]
        var streamsByAddress: [String: Int] = [:]
        var requestCount = 0
        var streamCount = 0
        var refusedConnections = 0
        var refusedStreams = 0
        var timedOut = 0
        var hungUp = 0
    }

    let limits: Limits
    private let table = Locked(Table())
    private let stopping = Locked(false)

    init(limits: Limits) {
        self.limits = limits
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: Called by libmicrohttpd's threads

    /// A new TCP connection from `address`: within its address's and the server's budget?
    func admit(_ address: String) -> Bool {
        table.withLock { t in
            if t.requestCount >= limits.requests || (!limits.trusted.contains(address) && t.requestsByAddress[address, default: 0] >= limits.perAddress) {
                t.refusedConnections += 1
                return false
            }
            return true
        }
    }

    /// A connection was opened: its record, for the connection's socket context.
    func opened(_ connection: OpaquePointer, address: String, fd: Int32) -> Record {
        let record = Record(address: address, fd: fd)
        table.withLock { t in
            t.connections[UInt(bitPattern: connection)] = record
            t.requestConnections[UInt(bitPattern: connection)] = record
            t.requestsByAddress[address, default: 0] += 1
            t.requestCount += 1
        }
        return record
    }

    func closed(_ connection: OpaquePointer) {
        table.withLock { t in
            // An adopted stream left the table when libmicrohttpd let go of it.
            guard let c = t.connections.removeValue(forKey: UInt(bitPattern: connection)) else { return }
            t.requestConnections[UInt(bitPattern: connection)] = nil
            Self.decrement(&t.requestsByAddress, c.address)
            t.requestCount -= 1
        }
    }

    func requestStarted(_ record: Record?) { Self.set(record, .busy) }

    func requestCompleted(_ record: Record?) { Self.set(record, .awaitingHeaders(since: Self.now())) }

    private static func set(_ record: Record?, _ phase: Phase) {
        record?.phase.withLock { p in
            switch p {
            case .stream, .cut: return
            case .awaitingHeaders, .busy: p = phase
            }
        }
    }

    /// Requests between their headers and their completion (answers waiting suspended included).
    var busyRequests: Int {
        table.withLock { t in
            t.requestConnections.values.reduce(0) { n, c in
                if case .busy = c.phase.withLock({ $0 }) { n + 1 } else { n }
            }
        }
    }

    /// The connection's response is an event stream: it moves from the request budget to the stream
    /// budget and out of the table (libmicrohttpd lets go of it; the stream owns its socket from now
    /// on), or is refused (nil) when that budget is spent. `streamEnded` gives the budget back.
    func adoptStream(_ connection: OpaquePointer) -> Record? {
        table.withLock { t in
            let key = UInt(bitPattern: connection)
            guard let c = t.connections[key] else { return nil }
            if t.streamCount >= limits.streams || (!limits.trusted.contains(c.address) && t.streamsByAddress[c.address, default: 0] >= limits.streamsPerAddress)
            {
                t.refusedStreams += 1
                return nil
            }
            Self.decrement(&t.requestsByAddress, c.address)
            t.requestCount -= 1
            t.streamsByAddress[c.address, default: 0] += 1
            t.streamCount += 1
            c.phase.withLock { $0 = .stream }
            t.connections[key] = nil
            t.requestConnections[key] = nil
            return c
        }
    }

    /// An adopted stream ended (`hungUp`: its client went away).
    func streamEnded(_ record: Record, hungUp: Bool) {
        table.withLock { t in
            Self.decrement(&t.streamsByAddress, record.address)
            t.streamCount -= 1
            if hungUp { t.hungUp += 1 }
        }
    }

    private static func decrement(_ counts: inout [String: Int], _ address: String) {
        if let n = counts[address], n > 1 { counts[address] = n - 1 } else { counts[address] = nil }
    }

    // MARK: The watcher thread

    func start() {
        NamedThread.start("sk-conn-guard") { [self] in
            while !stopping.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: 0.25)
                sweep()
            }
        }
    }

    /// The watcher ends within one 250 ms wait.
    func stop() { stopping.withLock { $0 = true } }

    /// Ends connections whose request headers are overdue: `shutdown` makes libmicrohttpd's next read
    /// fail, and it closes the connection itself.
    private func sweep() {
        let deadline = UInt64(limits.headerSeconds * 1e9)
        let now = Self.now()
        table.withLock { t in
            for c in t.requestConnections.values {
                let overdue = c.phase.withLock { p in
                    guard case .awaitingHeaders(let since) = p, now > since + deadline else { return false }
                    p = .cut  // once; libmicrohttpd closes it on its next read
                    return true
                }
                if overdue {
                    shutdown(c.fd, Int32(SHUT_RDWR))
                    t.timedOut += 1
                }
            }
        }
    }

    /// Counters for /metrics.
    var gauges: [(String, String, Double)] {
        table.withLock { t in
            [
                ("open_request_connections", "Open connections not serving an event stream.", Double(t.requestCount)),
                ("open_event_streams", "Connections serving an event stream.", Double(t.streamCount)),
                ("refused_connections", "Connections refused: over the per-address or total budget.", Double(t.refusedConnections)),
                ("refused_event_streams", "Event streams refused: over the per-address or total stream budget.", Double(t.refusedStreams)),
                ("header_timeouts", "Connections ended because a request's headers did not arrive in time.", Double(t.timedOut)),
                ("event_stream_hangups", "Event streams closed because their client hung up.", Double(t.hungUp)),
            ]
        }
    }
}
