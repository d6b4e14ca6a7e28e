import Foundation

/// Server-Sent Events subscribers by show. Publishing happens under the inventory's lock, in version
/// order, so every subscriber sees every version once and in order.
final class EventHub: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [String: [ObjectIdentifier: EventStream]] = [:]

    func subscribe(_ stream: EventStream, show: String) {
        lock.lock(); defer { lock.unlock() }
        subscribers[show, default: [:]][ObjectIdentifier(stream)] = stream
    }

    func unsubscribe(_ stream: EventStream, show: String) {
        lock.lock(); defer { lock.unlock() }
        subscribers[show]?[ObjectIdentifier(stream)] = nil
    }

    func publish(show: String, version: UInt64, delta: String) {
        send(Self.message(version: version, delta: delta), show: show)
    }

    /// The whole state, when the changes in between cannot be told one by one (the log was pruned).
    func publish(reset show: String, version: UInt64, encoded: String) {
        send("id: \(version)\nevent: reset\ndata: \(encoded)\n\n", show: show)
    }

    private func send(_ message: String, show: String) {
        lock.lock()
        let targets = subscribers[show].map { Array($0.values) } ?? []
        lock.unlock()
        for s in targets where !s.send(message) { unsubscribe(s, show: show) }
    }

    /// A comment line to every subscriber: keeps proxies from timing out and finds dead clients.
    func heartbeat() {
        lock.lock()
        let all = subscribers.flatMap { show, streams in streams.values.map { (show, $0) } }
        lock.unlock()
        for (show, s) in all where !s.send(": ping\n\n") { unsubscribe(s, show: show) }
    }

    var count: Int { lock.lock(); defer { lock.unlock() }; return subscribers.values.reduce(0) { $0 + $1.count } }

    static func message(version: UInt64, delta: String) -> String { "id: \(version)\nevent: seats\ndata: \(delta)\n\n" }
}
