import Foundation
import SeatMap
import SharedState

/// Server-Sent Events subscribers by show, and each show's most recent events. Publishing happens
/// under the inventory's lock, in version order, so every subscriber sees every version once and in
/// order.
///
/// The recent events (the last `keep` versions of each show, with their changes parsed) answer
/// `?since=` and a resuming subscriber from memory: neither reads the store, and neither takes the
/// inventory lock (four clients looping on `?since=` once held it across a 10,000-event store read
/// each time and cut hold throughput from 1,454/s to 22/s). Further back is `410`: the whole state is
/// one cached encoding, cheaper than merging thousands of deltas. Lock: `state`; while holding it only
/// `EventSubscriber`s are written to (a new subscriber's replay, atomic with publishing).
final class EventHub: Sendable {
    private struct Event {
        var version: UInt64
        var delta: String
        var changes: [SeatChange]
        /// The show's own fields as this version left them, when it changed them (an `event: show`).
        var show: String?
    }

    private struct Recent {
        /// Consecutive versions, oldest first.
        var events: [Event] = []
        /// The last merged answer to `?since=` (a client polling with the same version gets it again).
        var merged: (since: UInt64, to: UInt64, text: String)?
    }

    private struct State {
        var subscribers: [String: [ObjectIdentifier: any EventSubscriber]] = [:]
        var recent: [String: Recent] = [:]
    }

    /// Versions kept per show: a reconnecting viewer or a poller that fell behind by more gets the whole
    /// state (one snapshot) instead.
    let keep: Int
    private let state = Locked(State())

    init(keep: Int = 1024) { self.keep = keep }

    func unsubscribe(_ stream: any EventSubscriber, show: String) {
        state.withLock { $0.subscribers[show]?[ObjectIdentifier(stream)] = nil }
    }

    /// Publishes one committed version; `changes` are the delta's, when the caller has them parsed
    /// (the writer does: parsing again under the inventory lock cost the hold path ~1 µs a change).
    func publish(show: String, version: UInt64, delta: String, changes known: [SeatChange]? = nil) {
        // `delta` is one this process encoded (or read back from its own log): it parses. Were it ever not
        // to, subscribers still get the event and its version, and resync from it.
        let changes = known ?? (try? AvailabilityDelta(encoded: delta))?.changes ?? []
        let targets = state.withLock { s -> [any EventSubscriber] in
            // In place: a copy of `Recent` taken out of the dictionary and appended to would copy all
            // `keep` events on every publish (that copy cost a third of the hold throughput).
            Self.append(Event(version: version, delta: delta, changes: changes), to: &s.recent[show, default: Recent()], keep: keep)
            return s.subscribers[show].map { Array($0.values) } ?? []
        }
        // Framed only when someone listens (this runs under the inventory lock on the writer thread).
        if !targets.isEmpty { send(Self.message(version: version, delta: delta), to: targets, show: show) }
    }

    private static func append(_ event: Event, to r: inout Recent, keep: Int) {
        if let last = r.events.last, last.version + 1 != event.version { r.events.removeAll(keepingCapacity: true) }
        r.events.append(event)
        // Trimmed a quarter at a time: one move of `keep` events per `keep / 4` publishes.
        if r.events.count > keep + keep / 4 { r.events.removeFirst(r.events.count - keep) }
    }

    /// The show itself changed (prices, times, details, on-sale, cancelled) at `version`: an `event: show`
    /// with the show as `GET /v1/shows/{id}` has it, after that version's `seats` event, kept with it
    /// for subscribers that resume.
    func publish(show: String, changedAt version: UInt64, json: String) {
        let targets = state.withLock { s -> [any EventSubscriber] in
            if let k = s.recent[show]?.events.lastIndex(where: { $0.version == version }) { s.recent[show]!.events[k].show = json }
            return s.subscribers[show].map { Array($0.values) } ?? []
        }
        send(Self.showMessage(json), to: targets, show: show)
    }

    static func showMessage(_ json: String) -> String { "event: show\ndata: \(json)\n\n" }

    /// What a subscriber that missed `e` is sent.
    private static func replay(_ e: Event) -> String { message(version: e.version, delta: e.delta) + (e.show.map(showMessage) ?? "") }

    /// The whole state, when the changes in between cannot be told one by one (the log was pruned).
    func publish(reset show: String, version: UInt64, encoded: String) {
        let targets = state.withLock { s -> [any EventSubscriber] in
            s.recent[show] = Recent()
            return s.subscribers[show].map { Array($0.values) } ?? []
        }
        send("id: \(version)\nevent: reset\ndata: \(encoded)\n\n", to: targets, show: show)
    }

    private func send(_ message: String, to targets: [any EventSubscriber], show: String) {
        for s in targets where !s.send(message) { unsubscribe(s, show: show) }
    }

    private static func slice(_ events: [Event], after version: UInt64, through: UInt64) -> ArraySlice<Event>? {
        if version == through { return [] }
        guard let first = events.first, let last = events.last, first.version <= version + 1, last.version >= through else { return nil }
        let from = Int(version + 1 - first.version), to = Int(through - first.version)
        return events[from...to]
    }

    /// The delta from `since` to `through` merged from memory (nil: memory does not reach back).
    /// - Complexity: O(changes in the events merged); the last answer per show is kept.
    func mergedDelta(show: String, since: UInt64, through: UInt64) -> String? {
        // The changes are copied out under the lock (a slice of at most `keep` events); the merge runs
        // outside it.
        let found = state.withLock { s -> Either<String, [[SeatChange]]>? in
            if let m = s.recent[show]?.merged, m.since == since, m.to == through { return .first(m.text) }
            return Self.slice(s.recent[show]?.events ?? [], after: since, through: through).map { .second($0.map(\.changes)) }
        }
        switch found {
        case nil: return nil
        case .first(let kept): return kept
        case .second(let lists):
            let text = Self.merged(lists, since: since, through: through)
            state.withLock { $0.recent[show]?.merged = (since, through, text) }
            return text
        }
    }

    /// Consecutive versions' changes as one delta: each seat's last status, in seat order.
    /// - Complexity: O(changes + seats changed × log seats changed).
    static func merged(_ lists: [[SeatChange]], since: UInt64, through: UInt64) -> String {
        var latest: [SeatIndex: SeatStatus] = [:]
        for list in lists { for c in list { latest[c.seat] = c.status } }
        let changes = latest.keys.sorted().map { SeatChange(seat: $0, status: latest[$0]!) }
        return AvailabilityDelta(fromVersion: since, toVersion: through, changes: changes).encoded()
    }

    /// Registers `stream` for `show`, first sending it what it missed: the events after `lastEventID`
    /// from memory, or `snapshot()` (the whole state at the current version) when there is no last id
    /// or memory does not reach back. Atomic with `publish`: no version is missed or sent twice.
    func subscribe(_ stream: any EventSubscriber, show: String, current: UInt64, lastEventID: UInt64?, snapshot: (String) -> String) {
        state.withLock { s in
            // Events published since the caller read `current` are in memory too.
            let latest = max(current, s.recent[show]?.events.last?.version ?? current)
            stream.send("retry: 2000\n\n")
            let events = s.recent[show]?.events ?? []
            if let last = lastEventID, last <= latest, let missed = Self.slice(events, after: last, through: latest) {
                for e in missed { stream.send(Self.replay(e)) }
            } else if let since = Self.slice(events, after: current, through: latest) {
                // The whole state as the caller read it, then what was published since (in memory).
                stream.send(snapshot(lastEventID == nil ? "snapshot" : "reset"))
                for e in since { stream.send(Self.replay(e)) }
            } else {
                stream.close()
                return
            }
            s.subscribers[show, default: [:]][ObjectIdentifier(stream)] = stream
        }
    }

    /// A comment line to every subscriber: keeps proxies from timing out and finds dead clients.
    func heartbeat() {
        let all = state.withLock { s in s.subscribers.flatMap { show, streams in streams.values.map { (show, $0) } } }
        for (show, s) in all where !s.send(": ping\n\n") { unsubscribe(s, show: show) }
    }

    var count: Int { state.withLock { s in s.subscribers.values.reduce(0) { $0 + $1.count } } }

    static func message(version: UInt64, delta: String) -> String { "id: \(version)\nevent: seats\ndata: \(delta)\n\n" }
}
