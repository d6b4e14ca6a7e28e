import SeatDomain
import SeatMap
import SharedState

/// What the writer reports back: a batch committed (memory, readers and subscribers move on) or
/// failed (its shows reloaded from the store).
extension Inventory {
    /// After the store committed a batch: readers and subscribers see it, in version order. With a
    /// shared store the versions are the database's: other instances' changes before ours are read from
    /// the event log first (outside the lock), and a change the database refused, or a gap the log read
    /// did not fill, makes its show stale: reloaded from the store right after, outside the lock.
    func committed(_ commits: [StoreCommit], _ outcomes: [CommitOutcome]) {
        let results = zip(commits, outcomes)
        metrics.count("store_batches")
        metrics.count("store_changes", by: commits.count)
        var earlier: [String: [(version: UInt64, delta: String)]] = [:]
        if mode.followsOthers {
            var firstOwn: [String: UInt64] = [:]
            for (c, outcome) in results { if case .committed(let v, _) = outcome { firstOwn[c.showID] = min(firstOwn[c.showID] ?? v, v) } }
            let known: [(String, UInt64)] = locked { m in firstOwn.keys.compactMap { id in m.shows[id].map { (id, $0.committed.version) } } }
            for (id, from) in known where firstOwn[id]! > from + 1 {
                // Unread (nil), the show is marked stale below and reloaded: nothing is published out of order.
                do { earlier[id] = try store.events(show: id, after: from, limit: Int(firstOwn[id]! - 1 - from)) } catch {
                    storeTrouble("reading other instances' changes before ours", show: id, error)
                }
            }
        }
        let (reload, refresh) = locked { m in
            for (c, outcome) in results {
                if let r = c.idempotency {
                    m.pendingIdempotency[r.key] = nil
                    if case .committed = outcome { m.remember(r) }
                }
                guard let state = m.shows[c.showID] else { continue }
                state.settle(c.changes)
                if c.show != nil { state.pendingShowEdits = max(0, state.pendingShowEdits - 1) }
                // A stale show is replaced by the store's state (its events published then, in order).
                if m.isStale(c.showID) { continue }
                switch outcome {
                case .committed(let version, let delta):
                    if mode.followsOthers {
                        if let events = earlier.removeValue(forKey: c.showID) { applyEvents(events, to: state, in: m) }
                        // The follower may have read our own event already (and published it; the show's new
                        // fields it could not tell from memory's, which has them since the change was made).
                        guard version > state.committed.version else {
                            if c.show != nil { hub.publish(show: c.showID, changedAt: version, json: describeShow(summary(of: state, now: clock()))) }
                            continue
                        }
                        // Another instance's change in between is not in memory yet: never publish out of order.
                        guard version == state.committed.version + 1 else {
                            m.staleShows.insert(c.showID)
                            if c.show != nil { m.showEventsDue.insert(c.showID) }
                            continue
                        }
                    }
                    for change in c.changes { state.committed.setStatus(change.status, for: change.seat) }
                    state.committed.commit(version: version)
                    if state.availability.version < version { state.availability.commit(version: version) }
                    hub.publish(show: c.showID, version: version, delta: delta, changes: c.changes)
                    if c.show != nil { hub.publish(show: c.showID, changedAt: version, json: describeShow(summary(of: state, now: clock()))) }
                case .refused:
                    m.staleShows.insert(c.showID)
                    m.forgetEndings(of: c.holds)
                }
            }
            return (!m.staleShows.isEmpty, !m.recordsToRefresh.isEmpty)
        }
        if reload { reloadStaleShows() }
        // Known under the lock just taken: the writer takes no second lock a batch to find nothing to read.
        if refresh { refreshShowRecords() }
    }

    /// A batch failed (the disk, the database went away): the shows it touched are reloaded from the
    /// store (outside the lock), and the waiting requests are answered with the error. A show that
    /// cannot be reloaded now is reloaded on a later pass (the expiry thread tries every half second).
    func failed(_ batch: [StoreCommit], _ error: Error) {
        locked { m in
            for c in batch {
                if let key = c.idempotency?.key { m.pendingIdempotency[key] = nil }
                m.shows[c.showID]?.settle(c.changes)
                if c.show != nil, let s = m.shows[c.showID] { s.pendingShowEdits = max(0, s.pendingShowEdits - 1) }
                if m.shows[c.showID] != nil { m.staleShows.insert(c.showID) }
                m.forgetEndings(of: c.holds)
            }
        }
        reloadStaleShows()
    }

    /// Replaces stale shows' memory with what the store has. The store is read outside the lock; the
    /// fresh state is installed under it unless memory has moved past what was read (then a later pass
    /// does it). Meanwhile new holds and reads of the show wait for it (`lockedWhenFresh`). The
    /// versions in between reach subscribers one by one, in order (or as one reset when the log no
    /// longer has them).
    ///
    /// A shared store can be *behind* memory: a database crash loses the acknowledged changes not yet
    /// flushed (holds commit without waiting for the disk; sales wait). Readers may have seen those
    /// versions, so the store is moved past them first, with one event that puts every seat back as the
    /// store has it (`advanceVersion`), and the show is read again: a version number never means two
    /// different maps. Before, the reload waited for the store to catch up with memory, for ever.
    /// - Complexity: four store reads per stale show (a repair adds one write and four reads).
    package func reloadStaleShows() {
        let stale: [(id: String, venue: VenueEntry)] = locked { m in m.staleShows.compactMap { id in m.shows[id].map { (id, $0.venue) } } }
        for (id, venue) in stale {
            // Two rounds: a read, and after a repair of a store that lost changes, the read of the repair.
            for _ in 0..<2 {
                guard let repair = reload(id, venue: venue) else { break }
                metrics.count("show_version_repairs")
                let moved: Bool
                do { moved = try mode.advanceVersion(show: id, from: repair.store, past: repair.memory, changes: repair.changes) } catch {
                    storeTrouble("moving a store that lost changes past them", show: id, error)
                    break
                }
                guard moved else { break }
            }
        }
    }

    /// One reload of a stale show. Returns what the store must be repaired with when it is behind memory.
    private func reload(_ id: String, venue: VenueEntry) -> (store: UInt64, memory: UInt64, changes: [SeatChange])? {
        metrics.count("show_reloads")
        guard let from = locked({ m in m.shows[id]?.committed.version }) else { return nil }
        // A failed read leaves the show stale: requests on it wait or get a 503, the next pass tries again.
        let fresh: ShowState, events: [(version: UInt64, delta: String)]?
        do {
            guard let record = try store.shows().first(where: { $0.id == id }) else { return nil }
            let (active, claims) = (try store.activeHolds(show: id), try store.claims(show: id))
            fresh = try loadState(record, venue: venue, activeHolds: active, claims: claims)
            let to = fresh.committed.version
            events = to > from ? try store.events(show: id, after: from, limit: Int(to - from)) : []
        } catch {
            storeTrouble("reloading a show from the store", show: id, error)
            return nil
        }
        let to = fresh.committed.version
        // Waking the requests waiting for the show (`lockedWhenFresh`).
        return memory.withLockWakingWaiters { m in
            LockRules.enterNoStoreCalls()
            defer { LockRules.leaveNoStoreCalls() }
            // As the reload under the lock did before: changes of ours still queued for the show reach
            // the fresh state when they commit (waiting for none to be queued could wait for ever under
            // load). Memory never moves past the read: a stale show takes no change.
            guard let old = m.shows[id], m.staleShows.contains(id) else { return nil }
            let now = old.committed.version
            if now > to && mode.followsOthers {
                let changes = (0..<fresh.committed.seatCount).compactMap { seat in
                    old.committed[seat] == fresh.committed[seat] ? nil : SeatChange(seat: seat, status: fresh.committed[seat])
                }
                return (to, now, changes)
            }
            for token in old.holds.keys { m.holdShow[token] = nil }
            fresh.pendingShowEdits = old.pendingShowEdits
            m.install(fresh)
            m.staleShows.remove(id)
            guard to > now else { return nil }
            if let events, now >= from, events.count == Int(to - from) {
                for e in events where e.version > now { hub.publish(show: id, version: e.version, delta: e.delta) }
            } else {
                hub.publish(reset: id, version: to, encoded: fresh.encoded)
            }
            if m.showEventsDue.remove(id) != nil || !Self.sameFields(old.record, fresh.record) {
                hub.publish(show: id, changedAt: to, json: describeShow(summary(of: fresh, now: clock())))
            }
            return nil
        }
    }

    /// Whether two records of a show say the same about it, versions aside.
    static func sameFields(_ a: ShowRecord, _ b: ShowRecord) -> Bool {
        var b = b
        b.version = a.version
        return a == b
    }
}
