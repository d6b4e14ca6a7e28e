import Foundation
import SeatDomain
import SharedState

/// A request's place in the write queue: it waits here until its batch is committed (or failed).
/// Lock: `state` (a leaf; callbacks run after it is released).
package final class CommitTicket: Sendable {
    private struct State {
        var done = false
        var failure: Error?
        var version: UInt64?
        var callbacks: [@Sendable (Error?) -> Void] = []
    }

    private let state = Locked(State())

    /// The version the store gave the change (set before the waiters wake).
    var version: UInt64? { state.withLock { $0.version } }

    func complete(_ error: Error?, version: UInt64? = nil) {
        let pending = state.withLockWakingWaiters { s in
            s.done = true; s.failure = error; s.version = version
            defer { s.callbacks = [] }
            return s.callbacks
        }
        for c in pending { c(error) }
    }

    /// Calls `body` once the commit is done (at once if it already is), on the writer thread.
    package func whenDone(_ body: @escaping @Sendable (Error?) -> Void) {
        let done: Error?? = state.withLock { s in
            if s.done { return .some(s.failure) }
            s.callbacks.append(body)
            return nil
        }
        if let done { body(done) }
    }

    /// A ticket that completes as this one does, unless the store refused this one's change as a
    /// conflict: then `again` runs (off the writer thread: it may read the store) and the new ticket
    /// completes as its change does, or with its refusal. For a change made from memory the store
    /// checks: memory was stale, the show has been reloaded, and `again` decides anew.
    func retried(_ again: @escaping @Sendable () throws(Refusal) -> CommitTicket) -> CommitTicket {
        let outer = CommitTicket()
        whenDone { [self] error in
            guard let error, StoreError(error).isConflict else { return outer.complete(error, version: version) }
            DispatchQueue.global().async {
                do {
                    let second = try again()
                    second.whenDone { outer.complete($0, version: second.version) }
                } catch {
                    outer.complete(error)
                }
            }
        }
        return outer
    }

    /// A ticket that completes as this one does, a failure told through `explain` (which may name what
    /// the store's refusal was about in the request's own words).
    func explained(_ explain: @escaping @Sendable (Error) -> Error) -> CommitTicket {
        let outer = CommitTicket()
        whenDone { [self] error in outer.complete(error.map(explain), version: version) }
        return outer
    }

    package func wait() throws {
        if let error = state.wait(until: { $0.done }, { s, _ in s.failure }) { throw error }
    }
}

/// Group commit for every change: requests validate and reserve under the inventory lock, queue their
/// commit here and wait; a writer thread commits whatever has queued up in one transaction (one flush
/// of the log when a confirmation is among them), in queue order, then wakes the waiters. Under load a
/// transaction carries dozens of changes instead of one.
///
/// A store of several databases (shards) gets a writer thread a shard (a *lane*, made when its shard
/// first has a change: a shard added to a running server gets one too). Each shard's batches are
/// committed as fast as that shard goes, not in step with the slowest: with one thread for two shards
/// every batch waited for both parts, a shard whose database stalled stalled the other's sales, and
/// two shards sold about 0.7× what one did. A show's changes stay in one lane, in order.
final class BatchWriter: Sendable {
    /// Called on a writer thread after a batch is committed (with what became of each change), before
    /// its waiters are woken; and when a batch could not be committed (memory must be rebuilt from the
    /// store). With several lanes, from several threads at once (a show's batches from one of them).
    struct Handlers {
        let committed: @Sendable ([StoreCommit], [CommitOutcome]) -> Void
        let failed: @Sendable ([StoreCommit], Error) -> Void
    }

    private struct Lanes {
        var lanes: [WriterLane] = []
        var handlers: Handlers?
        var stopping = false
        /// Shows with changes queued or being committed, and their lane: a show whose shard changed (a
        /// move) keeps its lane until they are done, so its changes are never committed out of order.
        var routes: [String: (lane: Int, pending: Int)] = [:]
    }

    let store: SeatStore
    let maximumBatch: Int
    /// How long a lane may wait for its batch to grow to the size of its last one (seconds; 0: never).
    let gather: Double
    /// The lane of a show's changes (its shard's index); nil: one lane. Asked under the inventory lock.
    private let laneOf: (@Sendable (String) -> Int)?
    /// Lock: its own, taken before a lane's (never the other way).
    private let state = Locked(Lanes())
    var batches: Int { state.withLock { $0.lanes }.reduce(0) { $0 + $1.batches } }

    /// A writer whose threads wait for `start` (its owner's handlers need the owner made first): one
    /// lane, or with `laneOf`, a lane a shard. `gather`: see `WriterLane`.
    init(store: SeatStore, maximumBatch: Int = 256, gather: Double = 0, laneOf: (@Sendable (String) -> Int)? = nil) {
        self.store = store; self.maximumBatch = maximumBatch; self.gather = gather; self.laneOf = laneOf
        state.withLock { $0.lanes = [WriterLane(store: store, maximumBatch: maximumBatch, gather: gather, number: 0)] }
    }

    /// Where batches are reported from now on; nothing is committed before.
    func start(
        committed: @escaping @Sendable ([StoreCommit], [CommitOutcome]) -> Void,
        failed: @escaping @Sendable ([StoreCommit], Error) -> Void
    ) {
        var handlers = Handlers(committed: committed, failed: failed)
        if laneOf != nil {
            // The routes of a batch's shows are done with once its waiters' memory is settled. (Weak:
            // the lanes keep these handlers, and a stopped writer must let go of its store.)
            let done: @Sendable ([StoreCommit]) -> Void = { [weak state] commits in
                state?.withLock { s in
                    for c in commits {
                        guard let route = s.routes[c.showID] else { continue }
                        s.routes[c.showID] = route.pending > 1 ? (route.lane, route.pending - 1) : nil
                    }
                }
            }
            handlers = Handlers(
                committed: { commits, outcomes in
                    committed(commits, outcomes)
                    done(commits)
                },
                failed: { commits, error in
                    failed(commits, error)
                    done(commits)
                })
        }
        let lanes = state.withLock { s in
            s.handlers = handlers
            return s.lanes
        }
        for lane in lanes { lane.start(handlers) }
    }

    func enqueue(_ commit: StoreCommit) -> CommitTicket {
        lane(for: [commit.showID]).enqueue([commit])[0]
    }

    /// Queues changes that are written all or none (`StoreCommit.allOrNoneWithNext` links each to the
    /// next): one after another, never split between two batches, on the first change's lane (a store
    /// of shards refuses changes linked across two).
    func enqueue(together commits: [StoreCommit]) -> [CommitTicket] {
        guard !commits.isEmpty else { return [] }
        var linked = commits
        for k in linked.indices { linked[k].allOrNoneWithNext = k < linked.count - 1 }
        return lane(for: linked.map(\.showID)).enqueue(linked)
    }

    /// The first show's lane (made, with any before it, if its shard has none yet), counting a change
    /// more pending for each show of `shows` (a change each; linked changes may touch two shows).
    private func lane(for shows: [String]) -> WriterLane {
        guard let laneOf else { return state.withLock { $0.lanes[0] } }
        let wanted = max(0, laneOf(shows[0]))
        let (lane, fresh, handlers) = state.withLock { s -> (WriterLane, [WriterLane], Handlers?) in
            let k = s.routes[shows[0]]?.lane ?? wanted
            for show in shows { s.routes[show] = (s.routes[show]?.lane ?? k, (s.routes[show]?.pending ?? 0) + 1) }
            var fresh: [WriterLane] = []
            while s.lanes.count <= k && !s.stopping {
                fresh.append(WriterLane(store: store, maximumBatch: maximumBatch, gather: gather, number: s.lanes.count))
                s.lanes.append(fresh.last!)
            }
            return (s.lanes[min(k, s.lanes.count - 1)], fresh, s.handlers)
        }
        if let handlers { for f in fresh { f.start(handlers) } }
        return lane
    }

    /// Commits what is queued, then ends the writer threads.
    func stop() {
        let lanes = state.withLock { s in
            s.stopping = true
            return s.lanes
        }
        for lane in lanes { lane.beginStopping() }
        for lane in lanes { lane.waitUntilStopped() }
    }
}

/// One writer thread and its queue. Lock: `queue` (a leaf: the store is called, and the tickets
/// completed, after it is released).
///
/// With `gather`, a lane that last committed a batch of several changes waits (at most `gather`) for as
/// many again before it commits: under load the next requests are the answers to the last batch coming
/// back, and committing the first one or two of them alone costs a whole commit each. A commit's
/// fixed part is several changes' worth of the database's CPU (BENCHMARKS.md), so below capacity two
/// shards, whose lanes each see half the requests, made twice the commits of one and sold a fifth
/// less; gathering up to 1 ms (at most 16) brings them level. A lone buyer (a last batch of one) never
/// waits. The commits' own order is kept: waiting only lets the queue grow.
final class WriterLane: Sendable {
    private struct Queue {
        /// The changes and their tickets, in two arrays so a batch is taken without copying a change.
        var commits: [StoreCommit] = []
        var tickets: [CommitTicket] = []
        var stopping = false
        var running = true
        var batches = 0
        /// Where batches are reported (`start`): read with each batch, under the lock already taken for it.
        var handlers: BatchWriter.Handlers?
    }

    private let queue = Locked(Queue())
    let store: SeatStore
    let maximumBatch: Int
    let gather: Double
    var batches: Int { queue.withLock { $0.batches } }

    init(store: SeatStore, maximumBatch: Int, gather: Double, number: Int) {
        self.store = store; self.maximumBatch = maximumBatch; self.gather = gather
        NamedThread.start(number == 0 ? "sk-writer" : "sk-writer-\(number)") { [unowned self] in self.run() }
    }

    func start(_ handlers: BatchWriter.Handlers) {
        queue.withLockWakingWaiters { $0.handlers = handlers }
    }

    /// Queues `commits` (linked ones already marked), a ticket each.
    func enqueue(_ commits: [StoreCommit]) -> [CommitTicket] {
        let tickets = commits.map { _ in CommitTicket() }
        let accepted = queue.withLockWakingWaiters { q in
            guard !q.stopping else { return false }
            q.commits.append(contentsOf: commits)
            q.tickets.append(contentsOf: tickets)
            return true
        }
        if !accepted { for t in tickets { t.complete(StoreError.closed) } }
        return tickets
    }

    func beginStopping() { queue.withLockWakingWaiters { $0.stopping = true } }
    func waitUntilStopped() { queue.wait(until: { !$0.running }) { _, _ in } }

    /// The most changes a lane waits for: past 16 a commit's fixed part is under a third of it, and
    /// waiting for the whole last batch of a busy lane (28 and more) cost one shard a fifth of its holds
    /// below capacity for a few µs a hold saved.
    static let gatherAtMost = 16

    private func run() {
        var last = 0
        while true {
            if gather > 0 && last > 1 {
                let wanted = min(last, Self.gatherAtMost, maximumBatch)
                queue.wait(until: { $0.commits.count >= wanted || $0.stopping }, deadline: Date().addingTimeInterval(gather)) { _, _ in }
            }
            let taken: ([StoreCommit], [CommitTicket], BatchWriter.Handlers)? = queue.wait(until: {
                ($0.handlers != nil && !$0.commits.isEmpty) || $0.stopping
            }) { q, _ in
                guard let handlers = q.handlers, !q.commits.isEmpty else { return nil }
                // Changes linked all or none stay in one batch: the cut moves past the last of them.
                var cut = min(maximumBatch, q.commits.count)
                while cut < q.commits.count && q.commits[cut - 1].allOrNoneWithNext { cut += 1 }
                if cut == q.commits.count {
                    defer { q.commits = []; q.tickets = [] }
                    return (q.commits, q.tickets, handlers)
                }
                defer { q.commits.removeFirst(cut); q.tickets.removeFirst(cut) }
                return (Array(q.commits.prefix(cut)), Array(q.tickets.prefix(cut)), handlers)
            }
            guard let (commits, tickets, handlers) = taken else {
                queue.withLockWakingWaiters { q in
                    q.running = false
                    q.handlers = nil
                }
                return
            }
            last = commits.count
            do {
                let outcomes = try store.commit(batch: commits)
                queue.withLock { $0.batches += 1 }
                handlers.committed(commits, outcomes)
                for (t, outcome) in zip(tickets, outcomes) {
                    switch outcome {
                    case .committed(let version, _): t.complete(nil, version: version)
                    case .refused(let error): t.complete(error)
                    }
                }
            } catch {
                handlers.failed(commits, error)
                for t in tickets { t.complete(error) }
            }
        }
    }
}
