import Foundation
import SeatDomain
import SeatMap
import SeatSecrets

/// The waitlist's offerer: every half second (and at once when woken: a refund, a join, an offer let
/// go) each show with an open entry or a pool is brought forward: offers paid read `bought`, offers
/// ended unpaid `lapsed` (their seats are back in the pool by then), the pool's seats offered to the
/// entries in line order, and seats nobody in line wants put on sale.
extension Inventory {
    /// Wakes the offerer now.
    func nudgeWaitlist() { waitlistWake.signal() }

    /// One round over every show with an open entry or a pool; answers the offers made. Blocks on the
    /// store: call off the lock (the server's `sk-waitlist` thread does).
    @discardableResult
    public func offerWaitlists() -> Int {
        guard let waitlists = store.waitlists else { return 0 }
        // An instance none of whose shows keeps a waitlist asks the store nothing (every half second, on
        // every instance, that would be load for nothing): a substring of the details is enough to know.
        guard locked({ m in m.shows.values.contains { $0.record.detailsJSON.contains("\"waitlist\"") } }) else { return 0 }
        var shows = Set((try? waitlists.waitlistShows()) ?? [])
        shows.formUnion(locked { m in m.shows.values.filter { s in s.holds.values.contains { Self.isWaitlistPool($0.record) } }.map(\.record.id) })
        var made = 0
        for show in shows.sorted() {
            do { made += try offerWaitlist(show: show) } catch { logger.debug("waitlist of \(show): \(error)") }
        }
        return made
    }

    /// One show's round (`offerWaitlists`).
    @discardableResult
    func offerWaitlist(show: String) throws -> Int {
        let waitlists = try waitlistStore()
        var line = try waitlists.openWaitlist(show: show)
        try closeWaitlistIfOver(show: show, &line, waitlists)
        try settleOffers(&line, waitlists)
        // A prepaid entry not paid yet keeps its place but is offered nothing (nor are seats kept for it).
        let waiting = line.filter(\.isInLine)
        locked { m in m.shows[show]?.waitlistLine = waiting }
        // A shared store's pools as the store has them (another instance's may be fresher); memory's else.
        let pools = try readReservations(show: show).filter { $0.read.map { Self.isWaitlistPool($0.record) } ?? false }
        let pooled = !pools.isEmpty || locked { m in m.shows[show]?.holds.values.contains { Self.isWaitlistPool($0.record) } ?? false }
        var made = 0
        // One offer at a time, in line order, each committed and recorded before the next is chosen; a
        // seat or an entry another instance took first ends the round (it is offering: the next round
        // reads its offers), so two instances never offer a later entry ahead of an earlier one.
        var queue = pooled ? waiting : [], snapshots = pools
        while let plan = try planOffer(show: show, waiting: queue, pools: snapshots) {
            snapshots = []
            queue.removeAll { $0.seq <= plan.entry.seq }
            do { try plan.ticket.wait() } catch { break }
            var offered = plan.entry
            offered.state = .offered
            offered.offers += 1
            offered.offerHold = plan.holdID
            offered.updatedAt = clock()
            guard try waitlists.updateWaitlistEntry(offered, whenState: .waiting, offers: plan.entry.offers) else {
                // The entry left, or another instance offered it first: the seats go back to the pool.
                try? releaseHold(token: plan.token)
                break
            }
            made += 1
            metrics.count("waitlist_offers")
            nameOfferAttendees(plan.entry, token: plan.token)
            if offered.payment != nil { _ = try? sellPrepaidOffer(offered, token: plan.token) }
        }
        try releaseUnwanted(show: show, waitlists)
        return made
    }

    /// Offered entries whose hold was sold read `bought`; those whose hold ended unsold, `lapsed`.
    private func settleOffers(_ line: inout [WaitlistEntry], _ waitlists: any WaitlistStore) throws {
        for (k, e) in line.enumerated() where e.state == .offered {
            let token = offerToken(entryDigest: e.digest, offer: e.offers - 1)
            let read = try store.holdWithSeats(tokenDigest: Secrets.tokenDigest(token))
            var next = e
            switch read?.record.state {
            case .active?:
                // A paid entry's offer not sold yet (a crash between the offer and its sale): sold now.
                if e.payment != nil { _ = try? sellPrepaidOffer(e, token: token) }
                continue
            case .confirmed?: next.state = .bought
            default: next.state = .lapsed
            }
            next.updatedAt = clock()
            if try waitlists.updateWaitlistEntry(next, whenState: .offered, offers: e.offers) {
                line[k] = next
                metrics.count(next.state == .bought ? "waitlist_bought" : "waitlist_lapsed")
                // A prepaid entry whose offer was not sold with its payment: the money goes back.
                if next.state == .lapsed, next.payment != nil { settlePrepayment(of: next, reason: "the offer ended unsold") }
                // A lapsed offer's seats are the next entry's: this same round offers them.
            }
        }
    }

    private typealias OfferPlan = (entry: WaitlistEntry, token: String, holdID: String, ticket: CommitTicket)

    /// Under the lock: the first waiting entry, in line order, that the pools can fill gets the first
    /// pool's seats it wants, as many as it asked, in seat order (an entry the pools cannot fill yet
    /// keeps its place and waits); nil when none can be.
    private func planOffer(show: String, waiting: [WaitlistEntry], pools: [HoldSnapshot]) throws(Refusal) -> OfferPlan? {
        guard !waiting.isEmpty else { return nil }
        return try lockedWhenFresh(show: show) { (m: Memory) throws(Refusal) -> OfferPlan? in
            for pool in pools { apply(pool, in: m) }
            let state = try state(forShow: show, in: m)
            let minutes = WaitlistPolicy(detailsJSON: state.record.detailsJSON)?.offerMinutes ?? WaitlistPolicy().offerMinutes
            for e in waiting {
                let live = state.holds.values.filter { Self.isWaitlistPool($0.record) }.sorted { $0.record.id < $1.record.id }
                var chosen: (pool: ActiveHold, seats: [SeatIndex])?
                for pool in live {
                    let fit = pool.seats.filter { Self.wants(e, $0, in: state.layout) }
                    if fit.count >= e.count { chosen = (pool, Array(fit.sorted().prefix(e.count))); break }
                }
                guard let (pool, seats) = chosen else { continue }
                let token = offerToken(entryDigest: e.digest, offer: e.offers), digest = Secrets.tokenDigest(token)
                guard state.holds[digest] == nil else { return nil }  // made by a round whose entry update is still to come
                let now = clock()
                let (id, _) = Self.randomIDAndToken(prefix: idPrefix(show: show, now))
                let record = HoldRecord(
                    id: "p_" + id + "@" + pool.record.id.dropFirst(2), tokenDigest: digest, showID: show, state: .active,
                    expiresAt: now + Int64(minutes) * 60_000, extended: false, orderRef: nil, wheelchair: false, createdAt: now,
                    prices: state.currentPricing.stored(in: state.prices.table))
                let ticket = try apply(
                    state, in: m, changes: seats.map { SeatChange(seat: $0, status: .held) },
                    insert: seats.map { Claim(seat: $0, status: .held, holdID: record.id) }, delete: seats, holds: [record, pool.record],
                    log: LogEntry(action: "hold", holdID: record.id, reason: "waitlist offer #\(e.seq)"))
                state.holds[pool.record.tokenDigest] = ActiveHold(record: pool.record, seats: pool.seats.filter { !seats.contains($0) })
                state.holds[digest] = ActiveHold(record: record, seats: seats)
                m.holdShow[digest] = show
                return (e, token, record.id, ticket)
            }
            return nil
        }
    }

    /// Seats in the show's pools that no entry still waiting wants go on sale (every seat, when nobody
    /// waits: the pool ends).
    private func releaseUnwanted(show: String, _ waitlists: any WaitlistStore) throws {
        let waiting = try waitlists.openWaitlist(show: show).filter(\.isInLine)
        let surplus: [(id: String, seats: [String])] = locked { m in
            guard let state = m.shows[show] else { return [] }
            return state.holds.values.filter { Self.isWaitlistPool($0.record) }.compactMap { pool in
                let unwanted = pool.seats.filter { seat in !waiting.contains { Self.wants($0, seat, in: state.layout) } }
                return unwanted.isEmpty ? nil : (pool.record.id, unwanted.map { state.layout.seatID($0) })
            }
        }
        for s in surplus {
            guard let (_, ticket) = try? beginModifyReservation(id: s.id, add: [], remove: s.seats, by: "waitlist") else { continue }
            try? ticket.wait()
            metrics.count("waitlist_released_seats", by: s.seats.count)
        }
    }
}
