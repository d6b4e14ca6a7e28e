import Foundation
import SeatMap
import SharedState

/// Server-Sent Events subscribers by show, and each show's most recent events.
///
/// Publishing (under the inventory's lock, in version order, on the writer thread) only records the
/// event: the hub's delivery thread (`EventHub+Delivery`) sends it. A round sends each subscriber
/// everything since its last round as one merged delta, so a show watched by 10,000 viewers costs
/// 10,000 sends a round however many versions the round covers; sent from the writer thread, each
/// hold + release was 20,000 sends under the inventory lock, and holds on such a show fell from
/// 5,021 to 22 a second (2026-12-03). Every subscriber still sees every version once and in order:
/// a merged delta goes from the version it last had to the latest.
///
/// The recent events (the last `keep` versions of each show, with their changes parsed) answer
/// `?since=` and a resuming subscriber from memory: neither reads the store, and neither takes the
/// inventory lock (four clients looping on `?since=` once held it across a 10,000-event store read
/// each time and cut hold throughput from 1,454/s to 22/s). Further back is `410`: the whole state is
/// one cached encoding, cheaper than merging thousands of deltas.
///
/// Lock: `state`; while holding it only `EventSubscriber`s are written to (a new subscriber's replay,
/// atomic with publishing). The delivery thread sends rounds outside it: it is the only thread that
/// sends a subscriber events after its replay, so its sends stay in order.
final class EventHub: Sendable {
    struct Event: Sendable {
        var version: UInt64
        var delta: String
        var changes: [SeatChange]
        /// The show's own fields as this version left them, when it changed them (an `event: show`).
        var show: String?
    }

    /// A subscriber and how far its stream has been written.
    struct Subscriber: Sendable {
        let stream: any EventSubscriber
        /// Every version through this one is in its stream.
        var version: UInt64
        /// The last `event: show` revision in its stream.
        var showRevision: Int
    }

    /// One show's events and viewers.
    struct Feed {
        /// Consecutive versions, oldest first.
        var events: [Event] = []
        /// The last merged answer to `?since=` (a client polling with the same version gets it again).
        var merged: (since: UInt64, to: UInt64, text: String)?
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        /// The latest version published.
        var latest: UInt64 = 0
        /// Each seat's last status over the versions after `roundBase`, where the last round left its
        /// subscribers: the next round's delta for all of them, however far the ring of events reaches.
        var sinceRound: [SeatIndex: SeatStatus] = [:]
        var roundBase: UInt64 = 0
        /// The show's latest `event: show`; `revision` counts them.
        var show: (revision: Int, json: String)?
        /// The whole state at a version, after the changes in between could not be told one by one; sent
        /// by the next round to subscribers from before it.
        var reset: (version: UInt64, encoded: String)?
        /// Uptime (ns) before which the next round of this show does not start.
        var nextRound: UInt64 = 0
    }

    struct State {
        var feeds: [String: Feed] = [:]
        /// Shows with something their subscribers have not been sent.
        var due: Set<String> = []
        var deliveryStarted = false
        var stopping = false
        var deliveryRunning = false
        var rounds = 0
    }

    /// Versions kept per show: a reconnecting viewer or a poller that fell behind by more gets the whole
    /// state (one snapshot) instead.
    let keep: Int
    let state = Locked(State())

    init(keep: Int = 1024) { self.keep = keep }

    func unsubscribe(_ stream: any EventSubscriber, show: String) {
        state.withLock { $0.feeds[show]?.subscribers[ObjectIdentifier(stream)] = nil }
    }

    /// Records one committed version for the show's subscribers; `changes` are the delta's, when the
    /// caller has them parsed (the writer does: parsing again under the inventory lock cost the hold
    /// path ~1 µs a change).
    /// - Complexity: O(changes) (amortised: the ring is trimmed a quarter at a time).
    func publish(show: String, version: UInt64, delta: String, changes known: [SeatChange]? = nil) {
        // `delta` is one this process encoded (or read back from its own log): it parses. Were it ever not
        // to, subscribers still get the version, and resync from it.
        let changes = known ?? (try? AvailabilityDelta(encoded: delta))?.changes ?? []
        let wake = state.withLock { s in
            // In place: a copy of the feed taken out of the dictionary and appended to would copy all
            // `keep` events on every publish (that copy cost a third of the hold throughput).
            Self.append(Event(version: version, delta: delta, changes: changes), to: &s.feeds[show, default: Feed()], keep: keep)
            return Self.markDue(show, in: &s)
        }
        if wake { wakeDelivery() }
    }

    private static func append(_ event: Event, to f: inout Feed, keep: Int) {
        if let last = f.events.last, last.version + 1 != event.version { f.events.removeAll(keepingCapacity: true) }
        f.events.append(event)
        // Trimmed a quarter at a time: one move of `keep` events per `keep / 4` publishes.
        if f.events.count > keep + keep / 4 { f.events.removeFirst(f.events.count - keep) }
        f.latest = event.version
        if f.subscribers.isEmpty {
            // Nobody to tell: nothing accumulates for a show no one watches.
            f.roundBase = event.version
            f.sinceRound.removeAll()
        } else {
            for c in event.changes { f.sinceRound[c.seat] = c.status }
        }
    }

    /// The show needs a round; true when the delivery thread must be woken for it (it was not due).
    private static func markDue(_ show: String, in s: inout State) -> Bool {
        guard s.feeds[show]?.subscribers.isEmpty == false else { return false }
        return s.due.insert(show).inserted
    }

    /// The show itself changed (prices, times, details, on-sale, cancelled) at `version`: an `event: show`
    /// with the show as `GET /v1/shows/{id}` has it, after that version's `seats` event, kept with it
    /// for subscribers that resume.
    func publish(show: String, changedAt version: UInt64, json: String) {
        let wake = state.withLock { s in
            var f = s.feeds[show, default: Feed()]
            s.feeds[show] = nil
            if let k = f.events.lastIndex(where: { $0.version == version }) { f.events[k].show = json }
            f.show = ((f.show?.revision ?? 0) + 1, json)
            s.feeds[show] = f
            return Self.markDue(show, in: &s)
        }
        if wake { wakeDelivery() }
    }

    static func showMessage(_ json: String) -> String { "event: show\ndata: \(json)\n\n" }

    /// What a subscriber that missed `e` is sent.
    private static func replay(_ e: Event) -> String { message(version: e.version, delta: e.delta) + (e.show.map(showMessage) ?? "") }

    /// The whole state, when the changes in between cannot be told one by one (the log was pruned).
    func publish(reset show: String, version: UInt64, encoded: String) {
        let wake = state.withLock { s in
            var f = s.feeds[show, default: Feed()]
            s.feeds[show] = nil
            f.events = []
            f.merged = nil
            f.latest = version
            f.reset = (version, encoded)
            f.roundBase = version
            f.sinceRound = [:]
            s.feeds[show] = f
            return Self.markDue(show, in: &s)
        }
        if wake { wakeDelivery() }
    }

    static func slice(_ events: [Event], after version: UInt64, through: UInt64) -> ArraySlice<Event>? {
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
            if let m = s.feeds[show]?.merged, m.since == since, m.to == through { return .first(m.text) }
            return Self.slice(s.feeds[show]?.events ?? [], after: since, through: through).map { .second($0.map(\.changes)) }
        }
        switch found {
        case nil: return nil
        case .first(let kept): return kept
        case .second(let lists):
            let text = Self.merged(lists, since: since, through: through)
            state.withLock { $0.feeds[show]?.merged = (since, through, text) }
            return text
        }
    }

    /// Consecutive versions' changes as one delta: each seat's last status, in seat order.
    /// - Complexity: O(changes + seats changed × log seats changed).
    static func merged(_ lists: [[SeatChange]], since: UInt64, through: UInt64) -> String {
        var latest: [SeatIndex: SeatStatus] = [:]
        for list in lists { for c in list { latest[c.seat] = c.status } }
        return merged(latest, since: since, through: through)
    }

    static func merged(_ latest: [SeatIndex: SeatStatus], since: UInt64, through: UInt64) -> String {
        let changes = latest.keys.sorted().map { SeatChange(seat: $0, status: latest[$0]!) }
        return AvailabilityDelta(fromVersion: since, toVersion: through, changes: changes).encoded()
    }

    /// Registers `stream` for `show`, first sending it what it missed: the events after `lastEventID`
    /// from memory, or `snapshot()` (the whole state at the current version) when there is no last id
    /// or memory does not reach back. Atomic with `publish`: no version is missed or sent twice.
    func subscribe(_ stream: any EventSubscriber, show: String, current: UInt64, lastEventID: UInt64?, snapshot: (String) -> String) {
        state.withLock { s in
            // Events published since the caller read `current` are in memory too.
            let latest = max(current, s.feeds[show]?.events.last?.version ?? current)
            stream.send("retry: 2000\n\n")
            let events = s.feeds[show]?.events ?? []
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
            var f = s.feeds[show, default: Feed()]
            s.feeds[show] = nil
            if f.subscribers.isEmpty {
                // The first viewer: rounds start from here (nothing was accumulated without viewers).
                f.roundBase = f.latest
                f.sinceRound = [:]
            }
            f.subscribers[ObjectIdentifier(stream)] = Subscriber(stream: stream, version: latest, showRevision: f.show?.revision ?? 0)
            s.feeds[show] = f
            startDeliveryIfNeeded(&s)
        }
    }

    /// A comment line to every subscriber: keeps proxies from timing out and finds dead clients.
    func heartbeat() {
        let all = state.withLock { s in s.feeds.flatMap { show, f in f.subscribers.values.map { (show, $0.stream) } } }
        for (show, s) in all where !s.send(": ping\n\n") { unsubscribe(s, show: show) }
    }

    var count: Int { state.withLock { s in s.feeds.values.reduce(0) { $0 + $1.subscribers.count } } }

    static func message(version: UInt64, delta: String) -> String { "id: \(version)\nevent: seats\ndata: \(delta)\n\n" }
}
