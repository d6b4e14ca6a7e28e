import Foundation
import SeatDomain
import SeatMap
import SeatSamples
import SeatStorage
import SharedState
import Testing

@testable import SeatInventory

/// No store call happens under the inventory lock (ARCHITECTURE.md's lock order): a store's round trip
/// there stalls every request of every show. Debug builds check it at the stores' way into the database
/// (`LockRules`, which stops the process); this store says, for each call, whether it came under the lock,
/// over the paths that once did (a venue's and a show's insert, a retried confirm's read of every claim,
/// the store read for a token memory did not know).
@Suite struct LockDisciplineTests {
    /// The real SQLite store, noting every call that arrives while the calling thread holds the lock.
    final class Watching: ForwardingStore, @unchecked Sendable {
        let underLock = Locked<[String]>([])
        func note(_ call: String) { if LockRules.storeCallsForbidden { underLock.withLock { $0.append(call) } } }
        override func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws {
            note("insertVenue"); try super.insertVenue(id: id, fingerprint: fingerprint, layoutJSON: layoutJSON)
        }
        override func insertShow(_ show: ShowRecord) throws { note("insertShow"); try super.insertShow(show) }
        override func hold(tokenDigest: String) throws -> HoldRecord? { note("hold"); return try super.hold(tokenDigest: tokenDigest) }
        override func holdWithSeats(tokenDigest: String) throws -> (record: HoldRecord, seats: [Int])? {
            note("holdWithSeats"); return try super.holdWithSeats(tokenDigest: tokenDigest)
        }
        override func claims(show: String) throws -> [Claim] { note("claims"); return try super.claims(show: show) }
        override func commit(batch: [StoreCommit]) throws -> [CommitOutcome] { note("commit"); return try super.commit(batch: batch) }
    }

    @Test func theLockMarksItsHolder() throws {
        #if DEBUG
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-locks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let inventory = try Inventory(store: try SQLiteStore(path: dir.appendingPathComponent("s.sqlite").path), describeShow: describeShowForTests)
        defer { inventory.stop() }
        #expect(!LockRules.storeCallsForbidden)
        #expect(inventory.locked { _ in LockRules.storeCallsForbidden })
        #expect(!LockRules.storeCallsForbidden, "released with the lock")
        #endif
    }

    @Test func theBoxOfficeAndBuyersPathsCallTheStoreOutsideTheLock() throws {
        // The venue's and the show's inserts are watched too: sampleInventory makes them.
        let (inventory, store, dir) = try sampleInventory { Watching(base: try SQLiteStore(path: $0)) }
        defer { inventory.stop(); try? FileManager.default.removeItem(at: dir) }
        let held = try inventory.createHold(show: "show", seatIDs: ["7-1", "7-2"], wheelchair: false, idempotency: nil)
        guard case .done(let view) = held else { Issue.record("no hold"); return }
        let token = view.token
        _ = try inventory.confirmHold(token: token, orderRef: "A-1", idempotency: nil)
        // The same confirm again (a retry after a lost answer) is answered from the store.
        guard case .done(let again) = try inventory.confirmHold(token: token, orderRef: "A-1", idempotency: nil) else {
            Issue.record("a retried confirm was not answered"); return
        }
        #expect(again.seatIDs == ["7-1", "7-2"] && again.state == .confirmed && again.orderRef == "A-1")
        // Tokens memory does not know: a guess, and a hold ended long ago (forgotten here, kept in the store).
        #expect(throws: Refusal.self) { try inventory.hold(token: "guessed-token-0123456789abcdef") }
        inventory.locked { m in
            m.endedHolds.removeAll(); m.endedHoldsOrder.removeAll()
        }
        do {
            _ = try inventory.hold(token: token)
            Issue.record("a confirmed hold was answered as live")
        } catch { #expect(error.reason == .holdConfirmed, "the store says how it ended") }
        #expect(store.underLock.current.isEmpty, "store calls under the inventory lock: \(store.underLock.current)")
    }
}
