import Foundation
import SeatDomain
import SeatMap

/// A hold as the shared store had it, read before taking the lock.
struct HoldSnapshot {
    var tokenDigest: String
    var read: (record: HoldRecord, seats: [Int])?
    /// A real-name show's hold: its seats' attendees as the store has them (another instance may have
    /// set them).
    var attendees: [Claim] = []
}

/// Several instances on one shared store (PostgreSQL): each instance's memory follows the store's event
/// log, so its readers and event subscribers see every instance's changes, in version order, no gaps.
extension Inventory {
    /// Applies events that continue the show's committed version (others are skipped: already applied,
    /// or after a gap a later read of the log fills), publishing each. Called under the lock.
    /// An event with no seat in it may be a change of the show itself (prices, times, details): its
    /// row is read again after (`refreshShowRecords`; an extended hold's empty event costs one read
    /// of the shows table, no reload).
    func applyEvents(_ events: [(version: UInt64, delta: String)], to state: ShowState, in m: Memory) {
        let id = state.record.id
        for e in events where e.version == state.committed.version + 1 {
            // A log line that does not parse leaves a gap: the version check below reloads the show.
            guard let delta = try? AvailabilityDelta(encoded: e.delta) else { continue }
            if delta.changes.isEmpty { m.recordsToRefresh.insert(id) }
            for c in delta.changes where c.seat < state.layout.seatCount {
                if c.status != .sold && state.committed[c.seat] == .sold { state.soldFreedVersion = max(state.soldFreedVersion, e.version) }
                state.committed.setStatus(c.status, for: c.seat)
                // A seat we are changing keeps our (newer) reservation; if the two disagree, the store
                // refuses ours and the show is reloaded.
                if state.pendingSeats[c.seat] == nil {
                    state.availability.setStatus(c.status, for: c.seat)
                    // Freed by another instance: its attendee's document is free again.
                    if c.status == .available { state.unbind(c.seat) }
                }
            }
            state.committed.commit(version: e.version)
            if state.availability.version < e.version { state.availability.commit(version: e.version) }
            state.setVersion(max(state.record.version, e.version))
            hub.publish(show: id, version: e.version, delta: e.delta, changes: delta.changes)
        }
    }

    /// Applies what other instances' notifications carried (`show\ndelta`, or a delta a line for a batch
    /// written whole): changes that continue a show's version are applied at once, with no query; shows
    /// with a gap (or a notification without its changes) are caught up from the log, read outside the
    /// lock. This instance's own writes never come here: the store's listener leaves them out by the
    /// database session that sent them (`SharedStore.commitListener`).
    /// `part`: the part of the store they were heard on, whose shows' versions a gap is read from
    /// (nil: every part).
    public func follow(notifications others: [String], in part: (any FollowedPart)? = nil) throws {
        guard !others.isEmpty else { return }
        var gaps = Set<String>()
        locked { m in
            for payload in others {
                var lines = payload.split(separator: "\n", omittingEmptySubsequences: false)
                let id = String(lines.removeFirst())
                guard let state = m.shows[id] else { gaps.insert(id); continue }
                // A stale show stays as it is until its reload: applying others' changes to it would
                // move memory past every store read, and the reload would never catch up (it did, under
                // load from another instance, after a database restart).
                if m.isStale(id) { continue }
                if lines.isEmpty { gaps.insert(id) }
                for line in lines {
                    // A payload that does not parse is a gap, read from the log (never a guess).
                    guard let delta = try? AvailabilityDelta(encoded: String(line)) else { gaps.insert(id); break }
                    if delta.toVersion <= state.committed.version { continue }
                    guard delta.fromVersion == state.committed.version else { gaps.insert(id); break }
                    applyEvents([(delta.toVersion, String(line))], to: state, in: m)
                }
            }
        }
        if !gaps.isEmpty { try followStore(only: gaps, in: part) }
        refreshShowRecords()
    }

    /// Reads again the rows of shows another instance changed (their empty events), installs what
    /// changed (a new price table from that version on) and tells their subscribers (`event: show`).
    /// Between the event and this read (one query) this instance still prices new holds at the old table.
    func refreshShowRecords() {
        let ids = locked { m in
            let ids = m.recordsToRefresh
            m.recordsToRefresh = []
            return ids
        }
        guard !ids.isEmpty else { return }
        let records: [ShowRecord]
        do { records = try store.shows() } catch {
            // Read again on the next pass: the ids go back on the list.
            storeTrouble("reading changed shows", error)
            locked { m in m.recordsToRefresh.formUnion(ids) }
            return
        }
        locked { m in
            for r in records where ids.contains(r.id) {
                guard let state = m.shows[r.id], !m.isStale(r.id), !Self.sameFields(state.record, r) else { continue }
                // An edit of ours is on its way to the store: this row is older than memory (it undid a
                // PATCH a moment after an earlier one, under ThreadSanitizer). Read again after it commits.
                if state.pendingShowEdits > 0 {
                    m.recordsToRefresh.insert(r.id)
                    continue
                }
                var fresh = r
                fresh.version = state.record.version
                let revisions: [SeatPrices]
                do { revisions = try Self.priceRevisions(of: r, layout: state.layout) } catch {
                    // Another instance wrote prices this one cannot read: it keeps its own until they can be.
                    storeTrouble("reading another instance's prices", show: r.id, error)
                    continue
                }
                state.replace(record: fresh, revisions: revisions)
                hub.publish(show: r.id, changedAt: state.committed.version, json: describeShow(summary(of: state, now: clock())))
            }
        }
    }

    /// One round of following the store: new venues and shows are loaded, every show behind the store
    /// catches up. Run by the server's follower after each notification (and every second regardless).
    /// `venues`: also load venues that have no show yet (layouts are large, so only when asked). The
    /// store is read outside the lock, then applied under it; what arrived in between is read in the
    /// next round (at most 3 here, then the follower's next pass).
    /// `part`: only the shows of that part of the store (a shard's follower reads only its shard).
    public func followStore(venues includeVenues: Bool = false, only: Set<String>? = nil, in part: (any FollowedPart)? = nil) throws {
        guard mode.followsOthers else { return }
        var versions = try part?.showVersions() ?? store.showVersions()
        if let only { versions = versions.filter { only.contains($0.key) } }
        let missing = versions.keys.filter { id in locked { m in m.shows[id] == nil } }
        if !missing.isEmpty || includeVenues {
            let venueRows = try store.venues()
            let records = try store.shows(), active = try store.activeHolds()
            let (known, knownShows) = locked { m in (m.venues, Set(m.shows.keys)) }
            var venues: [String: VenueEntry] = [:]
            for (id, json) in venueRows where known[id] == nil { venues[id] = VenueEntry(layout: try VenueLayout(json: json)) }
            var fresh: [ShowState] = []
            for record in records where !knownShows.contains(record.id) {
                guard let venue = known[record.venueID] ?? venues[record.venueID] else { continue }
                fresh.append(try loadState(record, venue: venue, activeHolds: active, claims: try store.claims(show: record.id)))
            }
            locked { m in
                for (id, v) in venues where m.venues[id] == nil { m.venues[id] = v }
                for state in fresh where m.shows[state.record.id] == nil { m.install(state) }
            }
        }
        for _ in 0..<3 {
            let behind: [(id: String, from: UInt64, to: UInt64)] = locked { m in
                versions.compactMap { id, v in
                    m.isStale(id) ? nil : m.shows[id].flatMap { $0.committed.version < v ? (id, $0.committed.version, v) : nil }
                }
            }
            if behind.isEmpty { return }
            var fetched: [String: [(version: UInt64, delta: String)]] = [:]
            var gone: Set<String> = []
            for b in behind {
                // nil: the log no longer reaches back; the show is reloaded whole.
                if let events = try store.events(show: b.id, after: b.from, limit: Int(b.to - b.from)) { fetched[b.id] = events } else { gone.insert(b.id) }
            }
            locked { m in
                for b in behind {
                    guard let state = m.shows[b.id], !m.isStale(b.id) else { continue }
                    if gone.contains(b.id) { m.staleShows.insert(b.id) } else { applyEvents(fetched[b.id] ?? [], to: state, in: m) }
                }
            }
            if !gone.isEmpty { reloadStaleShows() }
            refreshShowRecords()
        }
    }

    /// With a shared store a hold may have been changed by another instance: it is read again (outside
    /// the lock, one query) before any operation on it, and the answer applied under the lock.
    func readHold(tokenDigest: String) throws(Refusal) -> HoldSnapshot? {
        do {
            return try mode.reread {
                var snapshot = HoldSnapshot(tokenDigest: tokenDigest, read: try store.holdWithSeats(tokenDigest: tokenDigest))
                if let record = snapshot.read?.record, record.state == .active, locked({ m in m.shows[record.showID]?.realName.isOn == true }) {
                    snapshot.attendees = try store.attendeeClaims(show: record.showID, holdID: record.id)
                }
                return snapshot
            }
        } catch {
            throw Self.storeRefusal(error)
        }
    }

    /// Applies a hold as read from the store to memory. Called under the lock.
    func apply(_ snapshot: HoldSnapshot?, in m: Memory) {
        guard let snapshot else { return }
        guard let (record, seats) = snapshot.read, let state = m.shows[record.showID] else { return }
        // Our own change to this hold may still be on its way to the store: then memory is newer.
        if let mine = state.holds[snapshot.tokenDigest], (mine.seats + seats).contains(where: { state.pendingSeats[$0] != nil }) { return }
        if record.state == .active {
            // Ended here since the read (the store may not have it yet): memory is newer.
            if m.endedHolds[snapshot.tokenDigest] != nil { return }
            state.holds[snapshot.tokenDigest] = ActiveHold(record: record, seats: seats)
            m.holdShow[snapshot.tokenDigest] = record.showID
            if state.realName.isOn {
                for seat in seats { state.unbind(seat) }
                for claim in snapshot.attendees { if let a = attendee(fromClaim: claim, show: record.showID) { state.bind(claim.seat, a) } }
            }
        } else {
            state.holds[snapshot.tokenDigest] = nil
            m.holdShow[snapshot.tokenDigest] = nil
        }
    }

    /// Holds past their expiry, as the shared store has them (read outside the lock): this instance may
    /// not know them (made by another instance, perhaps one that died).
    func dueHoldsInStore(now: Int64) -> [(record: HoldRecord, seats: [Int])] {
        do {
            return try mode.dueHolds(at: now).map { record in (record, try store.holdSeats(holdID: record.id)) }
        } catch {
            // The next expiry pass (half a second on) reads them again.
            storeTrouble("reading due holds", error)
            return []
        }
    }

    /// Loads those holds so the expiry pass releases them; if two instances expire one hold at once, the
    /// store lets one of them do it. Called under the lock.
    func adopt(_ due: [(record: HoldRecord, seats: [Int])], in m: Memory) {
        for (record, seats) in due {
            guard let state = m.shows[record.showID], state.holds[record.tokenDigest] == nil else { continue }
            state.holds[record.tokenDigest] = ActiveHold(record: record, seats: seats)
            m.holdShow[record.tokenDigest] = record.showID
        }
    }
}
