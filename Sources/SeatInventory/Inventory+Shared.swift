import Foundation
import SeatMap
import SeatStorage

/// A hold as the shared store had it, read before taking the lock.
struct HoldSnapshot {
    var tokenDigest: String
    var read: (record: HoldRecord, seats: [Int])?
}

/// Several instances on one shared store (PostgreSQL): each instance's memory follows the store's event
/// log, so its readers and event subscribers see every instance's changes, in version order, no gaps.
extension Inventory {
    /// Applies the show's events after our committed version up to `target` (other instances' changes),
    /// publishing each. Called under the lock. When the log no longer reaches back, the show is reloaded.
    func catchUp(_ state: ShowState, to target: UInt64) {
        guard store.assignsVersions, target > state.committed.version else { return }
        let id = state.record.id
        let events: [(version: UInt64, delta: String)]?
        do { events = try store.events(show: id, after: state.committed.version, limit: Int(target - state.committed.version)) } catch {
            staleShows.insert(id)
            return
        }
        guard let events, events.count == Int(target - state.committed.version) else {
            reloadShow(id)  // which tells subscribers what it can, or sends the whole state
            return
        }
        applyEvents(events, to: state)
    }

    /// Applies events that continue the show's committed version (others are skipped: already applied,
    /// or after a gap that `catchUp` will fill), publishing each. Called under the lock.
    func applyEvents(_ events: [(version: UInt64, delta: String)], to state: ShowState) {
        let id = state.record.id
        for e in events where e.version == state.committed.version + 1 {
            guard let delta = try? AvailabilityDelta(encoded: e.delta) else { continue }
            for c in delta.changes where c.seat < state.layout.seatCount {
                state.committed.setStatus(c.status, for: c.seat)
                // A seat we are changing keeps our (newer) reservation; if the two disagree, the store
                // refuses ours and the show is reloaded.
                if state.pendingSeats[c.seat] == nil { state.availability.setStatus(c.status, for: c.seat) }
            }
            state.committed.commit(version: e.version)
            if state.availability.version < e.version { state.availability.commit(version: e.version) }
            state.record.version = max(state.record.version, e.version)
            hub.publish(show: id, version: e.version, delta: e.delta, changes: delta.changes)
        }
    }

    /// Applies what other instances' notifications carried (`show\ndelta`): changes that continue a
    /// show's version are applied at once, with no query; shows with a gap (or a notification without its
    /// change) are caught up from the log, read outside the lock.
    public func follow(notifications payloads: [String]) throws {
        var gaps = Set<String>()
        locked {
            for payload in payloads {
                let parts = payload.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
                let id = String(parts[0])
                guard let state = shows[id] else { gaps.insert(id); continue }
                guard parts.count == 2, let delta = try? AvailabilityDelta(encoded: String(parts[1])) else { gaps.insert(id); continue }
                if delta.toVersion <= state.committed.version { continue }
                if delta.fromVersion == state.committed.version {
                    applyEvents([(delta.toVersion, String(parts[1]))], to: state)
                } else {
                    gaps.insert(id)
                }
            }
        }
        if !gaps.isEmpty { try followStore(only: gaps) }
    }

    /// One round of following the store: new venues and shows are loaded, every show behind the store
    /// catches up. Run by the server's follower after each notification (and every second regardless).
    /// `venues`: also load venues that have no show yet (layouts are large, so only when asked).
    public func followStore(venues includeVenues: Bool = false, only: Set<String>? = nil) throws {
        guard store.assignsVersions else { return }
        var versions = try store.showVersions()
        if let only { versions = versions.filter { only.contains($0.key) } }
        let missing = versions.keys.filter { id in locked { shows[id] == nil } }
        if !missing.isEmpty || includeVenues {
            let venueRows = try store.venues()
            let records = try store.shows(), active = try store.activeHolds()
            try locked {
                for (id, json) in venueRows where venues[id] == nil { venues[id] = VenueEntry(layout: try VenueLayout(json: json)) }
                for record in records where shows[record.id] == nil {
                    guard let venue = venues[record.venueID] else { continue }
                    shows[record.id] = try loadState(record, venue: venue, activeHolds: active)
                }
            }
        }
        // The log is read outside the lock (requests keep flowing), then applied under it; whatever
        // arrived in between is read under the lock by `catchUp`.
        let behind: [(id: String, from: UInt64, to: UInt64)] = locked {
            versions.compactMap { id, v in shows[id].flatMap { $0.committed.version < v ? (id, $0.committed.version, v) : nil } }
        }
        var fetched: [String: [(version: UInt64, delta: String)]] = [:]
        for b in behind { fetched[b.id] = try store.events(show: b.id, after: b.from, limit: Int(b.to - b.from)) ?? [] }
        locked {
            for b in behind {
                guard let state = shows[b.id] else { continue }
                applyEvents(fetched[b.id] ?? [], to: state)
                catchUp(state, to: b.to)
            }
        }
    }

    /// With a shared store a hold may have been changed by another instance: it is read again (outside
    /// the lock, one query) before any operation on it, and the answer applied under the lock.
    func readHold(tokenDigest: String) throws(Refusal) -> HoldSnapshot? {
        guard store.assignsVersions else { return nil }
        do { return HoldSnapshot(tokenDigest: tokenDigest, read: try store.holdWithSeats(tokenDigest: tokenDigest)) } catch { throw Self.storeRefusal(error) }
    }

    /// Applies a hold as read from the store to memory. Called under the lock.
    func apply(_ snapshot: HoldSnapshot?) {
        guard let snapshot else { return }
        guard let (record, seats) = snapshot.read, let state = shows[record.showID] else { return }
        // Our own change to this hold may still be on its way to the store: then memory is newer.
        if let mine = state.holds[snapshot.tokenDigest], (mine.seats + seats).contains(where: { state.pendingSeats[$0] != nil }) { return }
        if record.state == .active {
            state.holds[snapshot.tokenDigest] = ActiveHold(record: record, seats: seats)
            holdShow[snapshot.tokenDigest] = record.showID
        } else {
            state.holds[snapshot.tokenDigest] = nil
            holdShow[snapshot.tokenDigest] = nil
        }
    }

    /// Holds past their expiry, as the shared store has them (read outside the lock): this instance may
    /// not know them (made by another instance, perhaps one that died).
    func dueHoldsInStore(now: Int64) -> [(record: HoldRecord, seats: [Int])] {
        guard store.assignsVersions, let due = try? store.dueHolds(at: now) else { return [] }
        return due.compactMap { record in (try? store.holdSeats(holdID: record.id)).map { (record, $0) } }
    }

    /// Loads those holds so the expiry pass releases them; if two instances expire one hold at once, the
    /// store lets one of them do it. Called under the lock.
    func adopt(_ due: [(record: HoldRecord, seats: [Int])]) {
        for (record, seats) in due {
            guard let state = shows[record.showID], state.holds[record.tokenDigest] == nil else { continue }
            state.holds[record.tokenDigest] = ActiveHold(record: record, seats: seats)
            holdShow[record.tokenDigest] = record.showID
        }
    }
}
