import Foundation
import SeatJSON
import SeatDomain
import SeatMap
import SeatSecrets

/// A show as buyers and operators are told about it: what `GET /v1/shows/{id}` and the `show` event
/// say (the API writes it; `Inventory.describeShow` frames the event).
public struct ShowSummary: Sendable {
    public var record: ShowRecord
    /// Whether holds are taken now: the manager's switch is on, the show is not cancelled and has not started.
    public var open: Bool
    public var version: UInt64
    public var seatCount: Int
    public var counts: StatusCounts
    /// When the show starts, in Unix milliseconds (parsed once, when the show was loaded; nil: unreadable).
    public var startsAtMilliseconds: Int64? = nil
    /// The shard it is kept on (a store with shards only).
    public var shard: String? = nil
}

extension Inventory {
    package var activeHoldCount: Int { locked { m in m.shows.values.reduce(0) { $0 + $1.holds.count } } }

    package func venueEntry(_ id: String) -> VenueEntry? { locked { m in m.venues[id] } }

    /// The layout of a venue, if it exists.
    public func venueEntryLayout(_ id: String) -> VenueLayout? { venueEntry(id)?.layout }

    /// The show as the API and the `show` event give it: its record, whether it is on sale now, its
    /// version and counts.
    package func showSummary(_ id: String) -> ShowSummary? {
        let now = clock()
        return locked { m in m.shows[id].map { summary(of: $0, now: now) } }
    }

    /// Called under the lock.
    func summary(of s: ShowState, now: Int64) -> ShowSummary {
        // Sales close when the show starts, when the manager stops them, and for good when it is cancelled.
        let open = s.record.onSale && s.record.cancelledAt == nil && (s.startsAtMilliseconds ?? .max) > now
        return ShowSummary(
            record: s.record, open: open, version: s.committed.version, seatCount: s.availability.seatCount, counts: s.committed.counts,
            startsAtMilliseconds: s.startsAtMilliseconds, shard: placement?.shard(ofShow: s.record.id))
    }

    /// What the web page's map and list are drawn from: the venue, the committed availability (a
    /// snapshot: it never changes after this returns), the prices and the rules.
    package typealias PictureState = (
        venue: VenueEntry, availability: SeatAvailability, prices: SeatPrices, policy: SelectionPolicy, priceRevision: Int
    )

    package func pictureState(show id: String) throws(Refusal) -> PictureState {
        try lockedWhenFresh(show: id) { (m: Memory) throws(Refusal) in
            let s = try state(forShow: id, in: m)
            return (s.venue, s.committed, s.prices, s.policy, s.record.priceRevision)
        }
    }

    /// The current version and compact encoding (cached per version).
    public func encodedAvailability(show id: String) throws(Refusal) -> (UInt64, String) {
        try lockedWhenFresh(show: id) { (m: Memory) throws(Refusal) in
            let s = try state(forShow: id, in: m)
            return (s.committed.version, s.encoded)
        }
    }

    /// The venue a show in memory is at (nil: no such show, or not loaded yet): a hint for the page.
    public func venueID(show id: String) -> String? { locked { m in m.shows[id]?.record.venueID } }

    /// The show of a hold, by its token: from memory, else the store (a hold another instance made, or
    /// one no longer live); nil when there is none or the store cannot say.
    /// - Complexity: one digest and one lookup; one store read when not in memory.
    public func showID(holdToken token: String) -> String? {
        let digest = Secrets.tokenDigest(token)
        if let show = locked({ m in m.holdShow[digest] }) { return show }
        return (try? store.hold(tokenDigest: digest))??.showID
    }

    /// The show's committed version (nil: no such show).
    public func committedVersion(show id: String) -> UInt64? { locked { m in m.shows[id]?.committed.version } }

    /// Versions a delta may span when memory does not reach back and the show's log is read instead.
    public static let storeDeltaSpan: UInt64 = 10_000

    /// One delta from `since` to now, merged from the recent events in memory (the last 1,024
    /// versions), or else from the show's log in the store (outside the inventory lock, at most
    /// `storeDeltaSpan` versions back: a client that was offline, or one that reconnects after the
    /// server restarted, whose memory starts empty, catches up by a delta instead of the whole state);
    /// 410 further back (the whole state is one cached encoding). The inventory lock only to read the version.
    /// - Complexity: O(changes merged); from the store, one read of at most `storeDeltaSpan` lines.
    public func delta(show id: String, since: UInt64) throws(Refusal) -> String {
        let now = try lockedWhenFresh(show: id) { (m: Memory) throws(Refusal) in try state(forShow: id, in: m).committed.version }
        guard since <= now else { throw Refusal(.versionAhead, detail: "version \(since) is newer than the show's \(now)") }
        if let merged = hub.mergedDelta(show: id, since: since, through: now) { return merged }
        // Unread, the client is told to fetch the whole availability (410), as when the log is short.
        if now - since <= Self.storeDeltaSpan, let events = storeEvents(show: id, after: since, limit: Int(now - since)),
            events.count == Int(now - since), events.last?.version == now
        {
            var lists: [[SeatChange]] = []
            for e in events {
                guard let d = try? AvailabilityDelta(encoded: e.delta) else { return try deltaGone(id, since, now) }
                lists.append(d.changes)
            }
            metrics.count("deltas_from_store")
            return EventHub.merged(lists, since: since, through: now)
        }
        return try deltaGone(id, since, now)
    }

    private func deltaGone(_ id: String, _ since: UInt64, _ now: UInt64) throws(Refusal) -> String {
        throw Refusal(
            .deltaGone,
            detail: "changes since version \(since) are more than \(Self.storeDeltaSpan) versions back; fetch the whole availability (version \(now))")
    }

    /// Subscribes `stream` to a show's events: the versions it missed since `lastEventID` from the hub's
    /// memory, or the whole state. Only the version and its encoding are read under the inventory lock
    /// (the encoding is cached per version); the hub registers the stream atomically with publishing.
    public func subscribe(_ stream: any EventSubscriber, show id: String, lastEventID: UInt64?) throws(Refusal) {
        let (now, encoded) = try lockedWhenFresh(show: id) { (m: Memory) throws(Refusal) in
            let s = try state(forShow: id, in: m)
            return (s.committed.version, s.encoded)
        }
        hub.subscribe(stream, show: id, current: now, lastEventID: lastEventID) { kind in "id: \(now)\nevent: \(kind)\ndata: \(encoded)\n\n" }
        let hub = self.hub
        stream.whenFinished { [weak stream] in if let stream { hub.unsubscribe(stream, show: id) } }
    }

    /// A comment to every event subscriber (keeps connections alive, finds dead clients).
    public func heartbeat() { hub.heartbeat() }
    public var subscriberCount: Int { hub.count }
    /// Event delivery rounds so far (each brings a show's subscribers to its latest version).
    public var eventRounds: Int { hub.rounds }
}

extension Inventory {
    /// The show's log after `version` from the store; nil when the store could not say (logged).
    func storeEvents(show id: String, after version: UInt64, limit: Int) -> [(version: UInt64, delta: String)]? {
        do { return try store.events(show: id, after: version, limit: limit) } catch {
            storeTrouble("reading the show's log", show: id, error)
            return nil
        }
    }
}
