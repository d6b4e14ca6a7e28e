import Foundation
import SeatMap

extension Inventory {
    var activeHoldCount: Int { locked { shows.values.reduce(0) { $0 + $1.holds.count } } }

    func venueEntry(_ id: String) -> VenueEntry? { locked { venues[id] } }

    /// The layout of a venue, if it exists.
    public func venueEntryLayout(_ id: String) -> VenueLayout? { venueEntry(id)?.layout }

    /// The show as JSON: id, venue, start, whether it is on sale, hold time, rules, prices, version and counts.
    func showSummary(_ id: String) -> JSONWriter? {
        let now = clock()
        return locked {
            guard let s = shows[id] else { return nil }
            var w = JSONWriter()
            w.raw("{"); w.key("id", first: true); w.string(s.record.id)
            w.key("venueId"); w.string(s.record.venueID)
            w.key("startsAt"); w.string(s.record.startsAt)
            // Sales close when the show starts.
            w.key("onSale"); w.raw((s.startsAtMilliseconds ?? .max) > now ? "true" : "false")
            w.key("holdSeconds"); w.number(s.record.holdSeconds)
            w.key("policy"); w.raw(s.record.policyJSON)
            w.key("prices"); w.raw(s.record.pricesJSON)
            w.key("version"); w.number(Int(s.committed.version))
            let c = s.committed.counts
            w.key("seats"); w.raw("{")
            w.key("total", first: true); w.number(s.availability.seatCount); w.key("available"); w.number(c.available)
            w.key("held"); w.number(c.held); w.key("sold"); w.number(c.sold); w.key("blocked"); w.number(c.blocked)
            w.raw("}}")
            return w
        }
    }

    /// What the web page's map and list are drawn from: the venue, the committed availability (a
    /// snapshot: it never changes after this returns), the prices and the rules.
    typealias PictureState = (venue: VenueEntry, availability: SeatAvailability, prices: SeatPrices, policy: SelectionPolicy)

    func pictureState(show id: String) throws(Problem) -> PictureState {
        try locked { () throws(Problem) in
            let s = try state(forShow: id)
            return (s.venue, s.committed, s.prices, s.policy)
        }
    }

    /// The current version and compact encoding (cached per version).
    public func encodedAvailability(show id: String) throws(Problem) -> (UInt64, String) {
        try locked { () throws(Problem) in
            let s = try state(forShow: id)
            return (s.committed.version, s.encoded)
        }
    }

    /// One delta from `since` to now, merged from the event log; 410 when the log no longer reaches back.
    public func delta(show id: String, since: UInt64) throws(Problem) -> String {
        try locked { () throws(Problem) in
            let s = try state(forShow: id)
            let now = s.committed.version
            guard since <= now else { throw Problem.badRequest("version \(since) is newer than the show's \(now)") }
            if since == now { return AvailabilityDelta(fromVersion: now, toVersion: now, changes: []).encoded() }
            let limit = 10_000
            let events: [(version: UInt64, delta: String)]?
            do { events = try store.events(show: id, after: since, limit: limit) } catch { throw Self.storeProblem(error) }
            guard let events, events.count == Int(now - since) else {
                throw Problem(410, "delta-gone", "Delta no longer available",
                              detail: "changes since version \(since) are not kept; fetch the whole availability (version \(now))")
            }
            var latest: [SeatIndex: SeatStatus] = [:]
            for e in events { if let d = try? AvailabilityDelta(encoded: e.delta) { for c in d.changes { latest[c.seat] = c.status } } }
            let changes = latest.keys.sorted().map { SeatChange(seat: $0, status: latest[$0]!) }
            return AvailabilityDelta(fromVersion: since, toVersion: now, changes: changes).encoded()
        }
    }

    /// Subscribes `stream` to a show's events. Under the inventory lock, so no version is missed between
    /// the replay and the live feed.
    func subscribe(_ stream: EventStream, show id: String, lastEventID: UInt64?) throws(Problem) {
        try locked { () throws(Problem) in
            let s = try state(forShow: id)
            let now = s.committed.version
            stream.send("retry: 2000\n\n")
            if let last = lastEventID, last <= now {
                let missed: [(version: UInt64, delta: String)]?
                do { missed = last == now ? [] : try store.events(show: id, after: last, limit: Int(min(now - last, 10_000))) } catch { throw Self.storeProblem(error) }
                if let missed, missed.count == Int(now - last) {
                    for e in missed { stream.send(EventHub.message(version: e.version, delta: e.delta)) }
                } else {
                    stream.send("id: \(now)\nevent: reset\ndata: \(s.encoded)\n\n")
                }
            } else {
                stream.send("id: \(now)\nevent: snapshot\ndata: \(s.encoded)\n\n")
            }
            hub.subscribe(stream, show: id)
            let hub = self.hub
            stream.onFinish = { [weak stream] in if let stream { hub.unsubscribe(stream, show: id) } }
        }
    }

    /// A comment to every event subscriber (keeps connections alive, finds dead clients).
    public func heartbeat() { hub.heartbeat() }
    public var subscriberCount: Int { hub.count }
}
