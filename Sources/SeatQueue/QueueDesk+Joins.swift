import SharedState

/// Joins taken together: every join is a decision under the room's lock in the store (a transaction
/// each: 1,470 joins a second on SQLite, p99 117 ms, with 64 connections joining at once). Joins that
/// arrive while one is being decided wait, and the next of them decides for all that wait, in arrival
/// order, in one transaction: the group commit the seat writer does for holds.
extension QueueDesk {
    struct JoinLine {
        /// Entry key and address key of each join waiting, in arrival order.
        var waiting: [(key: String, address: String)] = []
        /// A join of this show is deciding for the ones it took (the others wait for it).
        var deciding = false
        /// What each taken join became, until its own thread picks it up.
        var done: [String: Result<Place, any Error>] = [:]
    }

    /// Joins decided so far and the decisions they took (fewer when joins arrived together).
    public var joinGroups: (joins: Int, decisions: Int) { joinCounts.withLock { ($0[0], $0[1]) } }

    /// A new place in `show`'s line for a buyer from `address`: the entry id (given once, never stored)
    /// and what the page is told. Waits for the decision in progress for the show, if any, and is then
    /// decided with every join that arrived meanwhile.
    public func join(show: String, address: String, now: Int64) throws -> (entry: String, place: Place) {
        // From memory: a page opening a show without a room costs no store read (a room set up on
        // another instance is known here within a tick).
        if rooms.withLock({ $0.byShow[show] == nil }) { throw QueueError.noQueue(show) }
        let id = Self.newEntryID(), key = Self.entryKey(id)
        joinLines.withLock { $0[show, default: JoinLine()].waiting.append((key, Self.addressKey(address))) }
        while true {
            // Either this join was decided by another, or nobody is deciding: then this one decides.
            let taken: [(key: String, address: String)]? = joinLines.wait(until: { $0[show]?.done[key] != nil || $0[show]?.deciding == false }) {
                lines, _ in
                if lines[show]?.done[key] != nil { return nil }
                lines[show]!.deciding = true
                defer { lines[show]!.waiting = [] }
                return lines[show]!.waiting
            }
            if let taken {
                let outcomes = decideJoins(show: show, taken, now: now)
                joinLines.withLockWakingWaiters { lines in
                    for (k, outcome) in outcomes { lines[show]!.done[k] = outcome }
                    lines[show]!.deciding = false
                }
            }
            let mine: Result<Place, any Error>? = joinLines.withLock { lines in
                guard let outcome = lines[show]?.done.removeValue(forKey: key) else { return nil }
                if lines[show]!.waiting.isEmpty && lines[show]!.done.isEmpty && !lines[show]!.deciding { lines[show] = nil }
                return outcome
            }
            if let mine { return (id, try mine.get()) }
        }
    }

    /// One decision for `joins`, in order: each joins or is refused on its own (the per-address limit
    /// counts the ones before it); a failure of the whole decision (the store, a room switched off)
    /// is every join's.
    func decideJoins(show: String, _ joins: [(key: String, address: String)], now: Int64) -> [String: Result<Place, any Error>] {
        joinCounts.withLock {
            $0[0] += joins.count
            $0[1] += 1
        }
        do {
            return try decide(show: show, now: now) { m, _ in
                if m.offAt != nil { throw QueueError.off(show) }
                var outcomes: [String: Result<Place, any Error>] = [:]
                for join in joins {
                    do {
                        _ = try m.room.join(address: join.address, now: now, id: join.key)
                        outcomes[join.key] = .success(place(m, key: join.key, now: now, asking: false)!)
                    } catch let refusal as WaitingRoom.JoinRefusal {
                        outcomes[join.key] = .failure(QueueError.join(refusal))
                    }
                }
                return outcomes
            }
        } catch {
            return Dictionary(uniqueKeysWithValues: joins.map { ($0.key, .failure(error)) })
        }
    }
}
