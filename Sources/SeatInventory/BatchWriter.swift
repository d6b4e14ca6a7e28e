import Foundation
import SeatStorage

/// A request's place in the write queue: it waits here until its batch is committed (or failed).
package final class CommitTicket: @unchecked Sendable {
    private let condition = NSCondition()
    private var done = false
    private var failure: Error?
    /// The version the store gave the change (set before the waiters wake).
    private(set) var version: UInt64?
    private var callbacks: [@Sendable (Error?) -> Void] = []

    func complete(_ error: Error?, version: UInt64? = nil) {
        condition.lock()
        done = true; failure = error; self.version = version
        let pending = callbacks
        callbacks = []
        condition.broadcast()
        condition.unlock()
        for c in pending { c(error) }
    }

    /// Calls `body` once the commit is done (at once if it already is), on the writer thread.
    package func whenDone(_ body: @escaping @Sendable (Error?) -> Void) {
        condition.lock()
        if done { let e = failure; condition.unlock(); body(e); return }
        callbacks.append(body)
        condition.unlock()
    }

    package func wait() throws {
        condition.lock()
        while !done { condition.wait() }
        let error = failure
        condition.unlock()
        if let error { throw error }
    }
}

/// Group commit for every change: requests validate and reserve under the inventory lock, queue their
/// commit here and wait; one writer thread commits whatever has queued up in one transaction (one flush
/// of the log when a confirmation is among them), in queue order, then wakes the waiters. Under load a
/// transaction carries dozens of changes instead of one.
final class BatchWriter: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [(StoreCommit, CommitTicket)] = []
    private var stopping = false
    private var thread: Thread?
    let store: SeatStore
    let maximumBatch: Int
    /// Called on the writer thread after a batch is committed (with what became of each change), before
    /// its waiters are woken.
    let committed: @Sendable ([(StoreCommit, CommitOutcome)]) -> Void
    /// Called when a batch could not be committed: memory must be rebuilt from the store.
    let failed: @Sendable ([StoreCommit], Error) -> Void
    private(set) var batches = 0

    init(
        store: SeatStore, maximumBatch: Int = 256, committed: @escaping @Sendable ([(StoreCommit, CommitOutcome)]) -> Void,
        failed: @escaping @Sendable ([StoreCommit], Error) -> Void
    ) {
        self.store = store; self.maximumBatch = maximumBatch; self.committed = committed; self.failed = failed
        let t = Thread { [unowned self] in self.run() }
        t.name = "seatkit-writer"
        thread = t
        t.start()
    }

    func enqueue(_ commit: StoreCommit) -> CommitTicket {
        let ticket = CommitTicket()
        condition.lock()
        if stopping {
            condition.unlock()
            ticket.complete(DatabaseError(code: 21, message: "the server is shutting down"))
            return ticket
        }
        queue.append((commit, ticket))
        condition.signal()
        condition.unlock()
        return ticket
    }

    /// Commits what is queued, then ends the writer thread.
    func stop() {
        condition.lock(); stopping = true; condition.broadcast(); condition.unlock()
        while true {
            condition.lock(); let finished = thread == nil; condition.unlock()
            if finished { return }
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty && stopping { thread = nil; condition.unlock(); return }
            let batch = Array(queue.prefix(maximumBatch))
            queue.removeFirst(batch.count)
            condition.unlock()
            let commits = batch.map(\.0)
            do {
                let outcomes = try store.commit(batch: commits)
                batches += 1
                committed(Array(zip(commits, outcomes)))
                for ((_, t), outcome) in zip(batch, outcomes) {
                    switch outcome {
                    case .committed(let version, _): t.complete(nil, version: version)
                    case .refused(let error): t.complete(error)
                    }
                }
            } catch {
                failed(commits, error)
                for (_, t) in batch { t.complete(error) }
            }
        }
    }
}
