import Dispatch
import SharedState

/// Joins taken together: every join is a decision under the room's lock in the store (a transaction
/// each: 1,470 joins a second on SQLite, p99 117 ms, with 64 connections joining at once). A join waits
/// in its show's line without holding a thread; one decider at a time (on a global queue) takes every
/// join waiting and decides them in one transaction, in arrival order, each refused on its own: the
/// group commit the seat writer does for holds.
extension QueueDesk {
    struct PendingJoin {
        let id: String
        let key: String
        let address: String
        let now: Int64
        let identity: String?
        let proof: String?
        let lane: String?
        let pass: String?
        let done: @Sendable (Result<(entry: String, place: Place), any Error>) -> Void
    }

    struct JoinLine {
        /// The joins waiting, in arrival order.
        var waiting: [PendingJoin] = []
    }

    /// Joins decided so far and the decisions they took (fewer when joins arrived together).
    public var joinGroups: (joins: Int, decisions: Int) { joinCounts.withLock { ($0[0], $0[1]) } }

    /// Whether this instance knows `show`'s room (a room set up on another instance is known within a
    /// tick, or at once by `load`).
    public func knows(show: String) -> Bool { rooms.withLock { $0.byShow[show] != nil } }

    /// A new place in `show`'s line for a buyer from `address`: the entry id (given once, never stored)
    /// and what the page is told, passed to `done` on another thread once decided (with every join that
    /// arrived meanwhile). No thread waits meanwhile. `identity`: the document's keyed hash (one place a
    /// document); `proof`: the spent challenge's key (`JoinChallenge.spentKey`, one join each).
    public func join(
        show: String, address: String, now: Int64, identity: String? = nil, proof: String? = nil, lane: (name: String, pass: String)? = nil,
        done: @escaping @Sendable (Result<(entry: String, place: Place), any Error>) -> Void
    ) {
        // From memory: a page opening a show without a room costs no store read.
        guard knows(show: show) else { return done(.failure(QueueError.noQueue(show))) }
        let id = Self.newEntryID()
        let join = PendingJoin(
            id: id, key: Self.entryKey(id), address: Self.addressKey(address), now: now, identity: identity, proof: proof, lane: lane?.name,
            pass: lane?.pass, done: done)
        let first = joinLines.withLock { lines -> Bool in
            let first = lines[show] == nil
            lines[show, default: JoinLine()].waiting.append(join)
            return first
        }
        // The line was empty: nobody is deciding for it. (A line exists exactly while a decider runs.)
        if first { DispatchQueue.global().async { self.decideWaitingJoins(show: show) } }
    }

    /// The same, waiting for the decision (the command line and the tests).
    public func join(
        show: String, address: String, now: Int64, identity: String? = nil, proof: String? = nil, lane: (name: String, pass: String)? = nil
    ) throws -> (entry: String, place: Place) {
        let outcome = Locked<Result<(entry: String, place: Place), any Error>?>(nil)
        join(show: show, address: address, now: now, identity: identity, proof: proof, lane: lane) { result in
            outcome.withLockWakingWaiters { $0 = result }
        }
        return try outcome.wait(until: { $0 != nil }) { o, _ in o! }.get()
    }

    /// Decides every join waiting for `show`, batch after batch, until none waits; then the line is gone.
    func decideWaitingJoins(show: String) {
        while true {
            let taken: [PendingJoin] = joinLines.withLock { lines in
                let waiting = lines[show]?.waiting ?? []
                if waiting.isEmpty { lines[show] = nil } else { lines[show]!.waiting = [] }
                return waiting
            }
            if taken.isEmpty { return }
            let outcomes = decideJoins(show: show, taken)
            for join in taken { join.done(outcomes[join.key]!.map { (join.id, $0) }) }
        }
    }

    /// One decision for `joins`, in order: each joins or is refused on its own (the per-address limit
    /// counts the ones before it); a failure of the whole decision (the store, a room switched off)
    /// is every join's.
    func decideJoins(show: String, _ joins: [PendingJoin]) -> [String: Result<Place, any Error>] {
        joinCounts.withLock {
            $0[0] += joins.count
            $0[1] += 1
        }
        do {
            return try decide(show: show, now: joins.last!.now) { m, _ in
                if m.offAt != nil { throw QueueError.off(show) }
                var outcomes: [String: Result<Place, any Error>] = [:]
                for join in joins {
                    do {
                        _ = try m.room.join(
                            address: join.address, now: join.now, id: join.key, identity: join.identity, proof: join.proof,
                            lane: m.room.settings.laneIndex(join.lane), pass: join.pass)
                        outcomes[join.key] = .success(place(m, key: join.key, now: join.now, asking: false)!)
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
