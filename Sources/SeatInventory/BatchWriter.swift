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

    package func wait() throws {
        if let error = state.wait(until: { $0.done }, { s, _ in s.failure }) { throw error }
    }
}

/// Group commit for every change: requests validate and reserve under the inventory lock, queue their
/// commit here and wait; one writer thread commits whatever has queued up in one transaction (one flush
/// of the log when a confirmation is among them), in queue order, then wakes the waiters. Under load a
/// transaction carries dozens of changes instead of one.
final class BatchWriter: Sendable {
    private struct Queue {
        /// The changes and their tickets, in two arrays so a batch is taken without copying a change.
        var commits: [StoreCommit] = []
        var tickets: [CommitTicket] = []
        var stopping = false
        var running = true
        var batches = 0
        /// Where batches are reported (`start`): read with each batch, under the lock already taken for it.
        var handlers: Handlers?
    }

    /// Called on the writer thread after a batch is committed (with what became of each change), before
    /// its waiters are woken; and when a batch could not be committed (memory must be rebuilt from the store).
    struct Handlers {
        let committed: @Sendable ([StoreCommit], [CommitOutcome]) -> Void
        let failed: @Sendable ([StoreCommit], Error) -> Void
    }

    /// Lock: `queue` (a leaf: the store is called, and the tickets completed, after it is released).
    private let queue = Locked(Queue())
    let store: SeatStore
    let maximumBatch: Int
    var batches: Int { queue.withLock { $0.batches } }

    /// A writer whose thread waits for `start` (its owner's handlers need the owner made first).
    init(store: SeatStore, maximumBatch: Int = 256) {
        self.store = store; self.maximumBatch = maximumBatch
        let t = Thread { [unowned self] in self.run() }
        t.name = "seatkit-writer"
        t.start()
    }

    /// Where batches are reported from now on; nothing is committed before.
    func start(
        committed: @escaping @Sendable ([StoreCommit], [CommitOutcome]) -> Void, failed: @escaping @Sendable ([StoreCommit], Error) -> Void
    ) {
        queue.withLockWakingWaiters { $0.handlers = Handlers(committed: committed, failed: failed) }
    }

    func enqueue(_ commit: StoreCommit) -> CommitTicket {
        let ticket = CommitTicket()
        let accepted = queue.withLockWakingWaiters { q in
            guard !q.stopping else { return false }
            q.commits.append(commit)
            q.tickets.append(ticket)
            return true
        }
        if !accepted { ticket.complete(StoreError.closed) }
        return ticket
    }

    /// Queues changes that are written all or none (`StoreCommit.allOrNoneWithNext` links each to the
    /// next): one after another, never split between two batches.
    func enqueue(together commits: [StoreCommit]) -> [CommitTicket] {
        var linked = commits
        for k in linked.indices { linked[k].allOrNoneWithNext = k < linked.count - 1 }
        let tickets = commits.map { _ in CommitTicket() }
        let accepted = queue.withLockWakingWaiters { q in
            guard !q.stopping else { return false }
            q.commits.append(contentsOf: linked)
            q.tickets.append(contentsOf: tickets)
            return true
        }
        if !accepted { for t in tickets { t.complete(StoreError.closed) } }
        return tickets
    }

    /// Commits what is queued, then ends the writer thread.
    func stop() {
        queue.withLockWakingWaiters { $0.stopping = true }
        queue.wait(until: { !$0.running }) { _, _ in }
    }

    private func run() {
        while true {
            let taken: ([StoreCommit], [CommitTicket], Handlers)? = queue.wait(until: {
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
                queue.withLockWakingWaiters { $0.running = false }
                return
            }
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
