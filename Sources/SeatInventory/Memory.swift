import Foundation
import SeatDomain

/// What the inventory lock guards: venues, shows (each `ShowState` is reached only through here), live
/// holds by token digest, and the idempotency answers in flight. A class, so helpers called under the
/// lock take it without copying; it never leaves a `memory.withLock` body, and the compiler checks that:
/// `Locked` takes it and lends it only as `sending`, and what leaves the lock is `Sendable`
/// (`Inventory.locked`), so no `ShowState` is reachable outside the lock.
final class Memory {
    /// Answers kept for `Idempotency-Key`s whose commit is still queued.
    var pendingIdempotency: [String: StoredResponse] = [:]
    /// The latest committed answers (a retry whose store read came just before the commit finds them
    /// here); the oldest are dropped past 4096.
    var recentIdempotency: [String: StoredResponse] = [:]
    var recentIdempotencyOrder: [String] = []
    var venues: [String: VenueEntry] = [:]
    var shows: [String: ShowState] = [:]
    /// Seasons read or made here, by id: a season never changes, so what was read stays true.
    var seasons: [String: SeasonRecord] = [:]
    /// Live holds by token digest (`Secrets.tokenDigest`) → show id. Memory, like the store, is keyed
    /// by the digest: the token itself is only in the client's hands and in the request being served.
    var holdShow: [String: String] = [:]
    /// Shows whose memory may disagree with the store (a write failed, or the database refused a batch):
    /// reloaded, outside the lock, before their next use.
    var staleShows: Set<String> = []
    /// Order references sold at the counter by this process, so two sales under one reference are
    /// refused before the store has the first (the store is asked too). Emptied past 100,000: by then
    /// the store has them all.
    /// Shows another instance may have changed (an event with no seat): their rows are read again.
    var recordsToRefresh: Set<String> = []
    /// Shows changed by a change of ours that left them stale: their `event: show` goes out after the reload.
    var showEventsDue: Set<String> = []
    var recentOrders: Set<String> = [] {
        didSet { if recentOrders.count > 100_000 { recentOrders = [] } }
    }

    /// Holds this process ended lately, by token digest: how each ended. A request racing the one that
    /// ended it (a confirm against a release) is told "released" or "confirmed" even before the store has
    /// the change, never "no hold with this token" for a token that was good. The oldest are dropped past
    /// 4096: by then the store has them.
    var endedHolds: [String: (state: HoldState, orderRef: String?)] = [:]
    var endedHoldsOrder: [String] = []

    /// Forgets a live hold that just ended (`record` as it ended), remembering how.
    func ended(_ record: HoldRecord, in state: ShowState) {
        state.holds[record.tokenDigest] = nil
        holdShow[record.tokenDigest] = nil
        if endedHolds.updateValue((record.state, record.orderRef), forKey: record.tokenDigest) == nil { endedHoldsOrder.append(record.tokenDigest) }
        if endedHoldsOrder.count > 4096 {
            for key in endedHoldsOrder.prefix(1024) { endedHolds[key] = nil }
            endedHoldsOrder.removeFirst(1024)
        }
    }

    /// The store did not take these holds' change: an ending it carried did not happen. Kept, it was
    /// the answer for the hold from then on: "released" for a hold another instance had confirmed.
    func forgetEndings(of records: [HoldRecord]) {
        for r in records where r.state != .active { endedHolds[r.tokenDigest] = nil }
    }

    /// Whether show `id` waits for its reload (no hashing in the usual case, when none does).
    func isStale(_ id: String) -> Bool { !staleShows.isEmpty && staleShows.contains(id) }

    /// Puts a show's state in memory, its live holds findable by token digest.
    func install(_ state: ShowState) {
        shows[state.record.id] = state
        for token in state.holds.keys { holdShow[token] = state.record.id }
    }

    /// Keeps a committed answer for a retry that read the store just before the commit.
    func remember(_ r: StoredResponse) {
        if recentIdempotency.updateValue(r, forKey: r.key) == nil { recentIdempotencyOrder.append(r.key) }
        if recentIdempotencyOrder.count > 4096 {
            for key in recentIdempotencyOrder.prefix(1024) { recentIdempotency[key] = nil }
            recentIdempotencyOrder.removeFirst(1024)
        }
    }
}
