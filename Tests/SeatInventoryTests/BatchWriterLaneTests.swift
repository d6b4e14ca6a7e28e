import Foundation
import SeatDomain
import SharedState
import Testing

@testable import SeatInventory

/// The writer's lanes (a writer thread a shard, `BatchWriter`): each lane commits on its own thread,
/// a slow lane does not hold up another, and a show whose shard changes while it has changes in
/// flight (a move) keeps its old lane until they are committed, so its changes stay in order.
@Suite struct BatchWriterLaneTests {
    /// Records each batch's shows and the thread that committed it (its pthread); a batch of show `slow` takes 300 ms.
    final class Recording: ForwardingStore, @unchecked Sendable {
        let batches = Locked<[(thread: UInt, shows: [String])]>([])
        override func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
            if batch.contains(where: { $0.showID == "slow" }) { Thread.sleep(forTimeInterval: 0.3) }
            batches.withLock { $0.append((UInt(pthread_self()), batch.map(\.showID))) }
            return batch.map { _ in .committed(version: 1, delta: "") }
        }
    }

    func change(_ show: String) -> StoreCommit {
        StoreCommit(showID: show, version: 1, changes: [], insert: [], delete: [], sell: [], holds: [], delta: "", durable: false, idempotency: nil)
    }

    @Test func eachShardCommitsOnItsOwnLaneAndAShowKeepsItsLaneUntilItsChangesAreIn() throws {
        let store = Recording(base: InMemoryStore())
        // Shows "slow" and "moving" on shard 0, "fast" on shard 1, until "moving" moves to shard 1.
        let moved = Locked(false)
        let writer = BatchWriter(store: store, maximumBatch: 8) { show in
            show == "fourth" ? 3 : show == "third" ? 2 : show == "fast" || (show == "moving" && moved.current) ? 1 : 0
        }
        writer.start(committed: { _, _ in }, failed: { _, _ in })
        let slow = writer.enqueue(change("slow"))
        let early = writer.enqueue(change("moving"))
        Thread.sleep(forTimeInterval: 0.05)
        let started = Date()
        try writer.enqueue(change("fast")).wait()
        #expect(Date().timeIntervalSince(started) < 0.2, "shard 1's change did not wait for shard 0's slow batch")
        // The show moves while its first change waits on lane 0: its next change follows it there.
        moved.withLock { $0 = true }
        let late = writer.enqueue(change("moving"))
        for ticket in [slow, early, late] { try ticket.wait() }
        // Its changes all in: the next goes to its new shard's lane.
        try writer.enqueue(change("moving")).wait()
        // A show on a shard two past the last lane made (the fourth): the third's lane is made with it,
        // and started too.
        let far = DispatchGroup()
        for show in ["fourth", "third"] {
            far.enter()
            writer.enqueue(change(show)).whenDone { _ in far.leave() }
        }
        #expect(far.wait(timeout: .now() + 5) == .success, "every lane made on the way commits")
        writer.stop()
        let batches = store.batches.current
        // A thread per change (not per batch): two changes queued behind the slow batch may share a batch.
        func threads(of show: String) -> [UInt] { batches.flatMap { batch in batch.shows.filter { $0 == show }.map { _ in batch.thread } } }
        let (zero, one) = (threads(of: "slow"), threads(of: "fast"))
        #expect(zero.count == 1 && one.count == 1 && zero != one, "a thread a lane")
        #expect(threads(of: "moving") == zero + zero + one, "\(batches)")
        #expect(writer.batches == batches.count)
    }

    /// A single database's writer has one lane and one thread, whatever the shows.
    @Test func oneDatabaseOneLane() throws {
        let store = Recording(base: InMemoryStore())
        let writer = BatchWriter(store: store)
        writer.start(committed: { _, _ in }, failed: { _, _ in })
        for show in ["a", "b", "c"] { try writer.enqueue(change(show)).wait() }
        writer.stop()
        #expect(Set(store.batches.current.map(\.thread)).count == 1)
    }

    /// Each lane's thread carries its name where the system shows it (`top -H`, `perf`): Foundation's
    /// `Thread.name` never reached the kernel, and a lane made from a request read `MHD-worker`.
    @Test func eachLaneIsAThreadTheSystemNames() throws {
        final class Names: ForwardingStore, @unchecked Sendable {
            let seen = Locked<Set<String>>([])
            override func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
                seen.withLock { _ = $0.insert(NamedThread.currentName) }
                return batch.map { _ in .committed(version: 1, delta: "") }
            }
        }
        let store = Names(base: InMemoryStore())
        let writer = BatchWriter(store: store, maximumBatch: 8) { $0 == "second" ? 1 : 0 }
        writer.start(committed: { _, _ in }, failed: { _, _ in })
        try writer.enqueue(change("first")).wait()
        try writer.enqueue(change("second")).wait()
        writer.stop()
        #expect(store.seen.current == ["sk-writer", "sk-writer-1"])
    }

    /// Names are cut to the kernel's 15 bytes, never inside a character, and set by the thread itself.
    @Test func aNamedThreadIsNamedForTheSystem() throws {
        #expect(NamedThread.shortened("sk-listen-a-very-long-shard") == "sk-listen-a-ver")
        #expect(NamedThread.shortened("sk-影院影院影院") == "sk-影院影院", "3 + 4 × 3 bytes; the fifth character would make 18")
        let seen = Locked<String?>(nil)
        NamedThread.start("sk-listen-a-very-long-shard") { seen.withLockWakingWaiters { $0 = NamedThread.currentName } }
        let name = seen.wait(until: { $0 != nil }, deadline: Date().addingTimeInterval(5)) { s, _ in s }
        #expect(name == "sk-listen-a-ver")
    }

    /// A lane that last committed several changes waits (at most `gather`) for as many again: the
    /// first of the next requests is not committed alone. A lone change after a batch of one is not
    /// held back, and a window that runs out commits what came.
    @Test func aLaneGathersAsManyChangesAsItsLastBatchBeforeCommitting() throws {
        /// The first batch waits until `release` (so the next changes queue up behind it).
        final class Gate: ForwardingStore, @unchecked Sendable {
            let sizes = Locked<[Int]>([])
            let release = DispatchSemaphore(value: 0)
            override func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
                if sizes.current.isEmpty { release.wait() }
                sizes.withLock { $0.append(batch.count) }
                return batch.map { _ in .committed(version: 1, delta: "") }
            }
        }
        for gather in [0.0, 0.5] {
            let store = Gate(base: InMemoryStore())
            let writer = BatchWriter(store: store, maximumBatch: 8, gather: gather)
            writer.start(committed: { _, _ in }, failed: { _, _ in })
            let first = writer.enqueue(change("a"))
            Thread.sleep(forTimeInterval: 0.05)
            let queued = (0..<3).map { _ in writer.enqueue(change("a")) }
            store.release.signal()
            try first.wait()
            for t in queued { try t.wait() }
            // Last batch: 3. One change now, two more 50 ms later: gathered into one batch of 3.
            let next = writer.enqueue(change("a"))
            Thread.sleep(forTimeInterval: 0.05)
            let more = (0..<2).map { _ in writer.enqueue(change("a")) }
            for t in [next] + more { try t.wait() }
            // Last batch: 3 again. One change alone: the window runs out and it is committed by itself.
            let started = Date()
            try writer.enqueue(change("a")).wait()
            let alone = Date().timeIntervalSince(started)
            // Last batch: 1. The next lone change waits for nothing.
            let again = Date()
            try writer.enqueue(change("a")).wait()
            let lone = Date().timeIntervalSince(again)
            writer.stop()
            if gather > 0 {
                #expect(store.sizes.current == [1, 3, 3, 1, 1], "\(store.sizes.current)")
                #expect(alone >= 0.4, "the window ran out before the lone change went: \(alone) s")
                #expect(lone < 0.25, "a change after a batch of one does not wait: \(lone) s")
            } else {
                // (The two after it may go together or apart: no window waits for them.)
                let sizes = store.sizes.current
                #expect(Array(sizes.prefix(3)) == [1, 3, 1] && sizes.reduce(0, +) == 9, "without a window, the first of the next is committed alone: \(sizes)")
            }
        }
    }
}
