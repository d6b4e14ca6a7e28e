import Foundation
import SeatMap
import SeatDomain
import SharedState
import SeatStorage
import Testing

@testable import SeatInventory

/// The follower's filter of this instance's own notifications: only payloads whose every change was
/// given to this instance's writer are dropped, and each only once.
@Suite struct OwnVersionsTests {
    func take(_ own: inout OwnVersions, _ payload: String) -> Bool { own.take(notified: payload) }

    @Test func onlyAPayloadWhollyOfOwnVersionsIsDroppedAndOnlyOnce() {
        var own = OwnVersions()
        for v in [5, 6, 7] as [UInt64] { own.insert(v, show: "s") }
        // One change a notification (change by change), then a batch's deltas a line each.
        #expect(take(&own, "s\nskd1;4;5;3h"))
        #expect(!take(&own, "s\nskd1;4;5;3h"), "a version is taken once")
        #expect(take(&own, "s\nskd1;5;6;3a,4h\nskd1;6;7;9h"))
        #expect(own.kept(show: "s").isEmpty)
        // Another instance's versions, another show's, a batch of ours and theirs, what does not parse.
        own.insert(8, show: "s")
        #expect(!take(&own, "s\nskd1;8;9;1h"))
        #expect(!take(&own, "t\nskd1;7;8;1h"))
        #expect(!take(&own, "s\nskd1;7;8;1h\nskd1;8;9;2h"))
        #expect(!take(&own, "s\n"))
        #expect(!take(&own, "s"))
        #expect(!take(&own, "s\nnot a delta"))
        #expect(own.kept(show: "s") == [8], "a refused payload forgets nothing")
    }

    @Test func versionsWhoseNotificationNeverCameAreBounded() {
        var own = OwnVersions()
        for v in 1...UInt64(OwnVersions.limit * 3) { own.insert(v, show: "s") }
        let kept = own.kept(show: "s")
        #expect(kept.count <= OwnVersions.limit && kept.contains(UInt64(OwnVersions.limit * 3)))
        #expect(!kept.contains(1))
    }
}

/// A notification of a batch written whole carries its deltas a line each: the follower applies each in
/// order, and stops at a gap (the rest is read from the log).
@Suite struct BatchNotificationTests {
    @Test func eachDeltaOfABatchNotificationIsAppliedInOrder() throws {
        let (inventory, _, dir) = try sampleInventory { try SQLiteStore(path: $0) }
        defer {
            inventory.stop()
            try? FileManager.default.removeItem(at: dir)
        }
        let v = try inventory.encodedAvailability(show: "show").0
        try inventory.follow(notifications: ["show\nskd1;\(v);\(v + 1);3h\nskd1;\(v + 1);\(v + 2);4h,5h"])
        var seats = try SeatAvailability(encoded: inventory.encodedAvailability(show: "show").1)
        #expect(seats.version == v + 2 && [3, 4, 5].allSatisfy { seats[$0] == .held })
        // Already applied, then the next, then a gap: the follower applies up to the gap.
        try inventory.follow(notifications: ["show\nskd1;\(v + 1);\(v + 2);4h,5h\nskd1;\(v + 2);\(v + 3);3a\nskd1;\(v + 9);\(v + 10);6h"])
        seats = try SeatAvailability(encoded: inventory.encodedAvailability(show: "show").1)
        #expect(seats.version == v + 3 && seats[3] == .available && seats[6] == .available)
    }
}

/// This instance's own commit can be heard before its writer has the versions: the database answers the
/// writer and signals the listeners at once (40 % of the notifications in `SeatKitBench shards` came
/// first). The follower waits for the batch in the store, then drops the notification as ours, instead
/// of applying it under memory's lock and leaving its version behind.
@Suite struct OwnNotificationRaceTests {
    /// A shared store whose answer to a commit waits for `answer` once `armed`.
    final class Shared: ForwardingStore, SharedStore, @unchecked Sendable {
        let armed = Locked(false)
        let inStore = DispatchSemaphore(value: 0), answer = DispatchSemaphore(value: 0)
        override var sharing: (any SharedStore)? { self }
        override func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
            let outcomes = try super.commit(batch: batch)
            if armed.current {
                inStore.signal()
                answer.wait()
            }
            return outcomes
        }
        func dueHolds(at time: Int64) throws -> [HoldRecord] { [] }
        func advanceVersion(show: String, from expected: UInt64, past: UInt64, changes: [SeatChange]) throws -> Bool { false }
        func commitListener() throws -> any CommitListener { throw StoreError.closed }
    }

    @Test func anOwnCommitHeardBeforeItsAnswerIsDroppedAsOurs() throws {
        let (inventory, store, dir) = try sampleInventory { Shared(base: try SQLiteStore(path: $0)) }
        defer {
            store.armed.withLock { $0 = false }
            store.answer.signal()
            inventory.stop()
            try? FileManager.default.removeItem(at: dir)
        }
        let v = try #require(inventory.committedVersion(show: "show"))
        store.armed.withLock { $0 = true }
        let held = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? inventory.createHold(show: "show", seatIDs: ["7-1"], wheelchair: false, idempotency: nil)
            held.signal()
        }
        store.inStore.wait()
        // Committed in the store, its answer not yet back: the notification is heard now.
        let heard = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? inventory.follow(notifications: ["show\nskd1;\(v);\(v + 1);0h"])
            heard.signal()
        }
        #expect(heard.wait(timeout: .now() + 0.1) == .timedOut, "the follower waits for the batch in the store")
        store.armed.withLock { $0 = false }
        store.answer.signal()
        #expect(heard.wait(timeout: .now() + 5) == .success && held.wait(timeout: .now() + 5) == .success)
        #expect(inventory.ownVersions.current.kept(show: "show").isEmpty, "the notification was taken as ours, not left behind")
        #expect(inventory.committedVersion(show: "show") == v + 1)
    }

    /// A show's batches are counted when handed to the store and when done; the follower waits only for
    /// those in flight when it heard the payload, not for later ones.
    @Test func theFollowerWaitsOnlyForTheBatchesInFlightWhenItHeard() {
        var own = OwnVersions()
        own.beginCommit(shows: ["s", "s", "t"])
        let due = own.inFlight(for: ["s\nskd1;1;2;3h", "u\nskd1;1;2;3h"])
        #expect(due == ["s": 1], "only a show with a batch in the store is waited for")
        own.endCommit(shows: ["s"])
        own.beginCommit(shows: ["s"])
        #expect(own.isDone(due), "a later batch of the show is not waited for")
        #expect(!own.isDone(own.inFlight(for: ["s\n", "t\n"])))
    }
}
