import Foundation
@testable import SeatInventory
import SeatDomain
import SeatMap
import SeatSamples
import SeatStorage
import SharedState
import Testing

/// A real SQLite store whose next commit can be made to fail and whose claims read can be held at a
/// gate: what a reload after a failed write reads, seen from outside.
final class GatedStore: ForwardingStore, @unchecked Sendable {
    struct Controls {
        var failNextCommit = false
        var gateClaims = false
        var waitingAtGate = false
    }

    let controls = Locked(Controls())

    init(path: String) throws { super.init(base: try SQLiteStore(path: path)) }

    override func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
        if controls.withLock({ c in
            defer { c.failNextCommit = false }; return c.failNextCommit
        }) {
            throw DatabaseError(code: 10, message: "disk I/O error (injected)")
        }
        return try base.commit(batch: batch)
    }

    override func claims(show: String) throws -> [Claim] {
        // Held here until the test opens the gate.
        controls.withLockWakingWaiters { $0.waitingAtGate = $0.gateClaims }
        controls.wait(until: { !$0.gateClaims }) { c, _ in c.waitingAtGate = false }
        return try base.claims(show: show)
    }
}

@Suite struct ReloadTests {
    /// After a failed write the show is reloaded from the store with the inventory lock released: while
    /// the reload's store read is held at the gate, every other read is answered (before, the whole
    /// reload ran under the lock and they all waited), a read of the show itself waits for it, and once the
    /// read completes memory is the store's again.
    @Test func aReloadReadsTheStoreWithoutTheInventoryLock() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try GatedStore(path: dir.appendingPathComponent("store.sqlite").path)
        let inventory = try Inventory(store: store, describeShow: describeShowForTests)
        defer { inventory.stop() }
        try inventory.addVenue(SampleVenues.cinemaHall())
        for id in ["show", "other"] {
            try inventory.addShow(
                Inventory.NewShow(
                    id: id, venueID: "cinema-hall-3", startsAt: "2099-12-01T19:30:00+08:00",
                    prices: PriceTable(categoryPrices: ["standard": 40, "vip": 60, "couple": 90])))
        }
        _ = try inventory.createHold(show: "show", seatIDs: ["7-1", "7-2"], wheelchair: false, idempotency: nil)

        store.controls.withLock {
            $0.failNextCommit = true; $0.gateClaims = true
        }
        let failedHold = Locked<Refusal.Reason?>(nil)
        let buyer = Thread {
            do { _ = try inventory.createHold(show: "show", seatIDs: ["5-1", "5-2"], wheelchair: false, idempotency: nil) } catch {
                failedHold.withLock { $0 = (error as? Refusal)?.reason }
            }
        }
        buyer.start()
        let atGate = store.controls.wait(until: { $0.waitingAtGate }, deadline: Date().addingTimeInterval(5)) { _, reached in reached }
        #expect(atGate, "the reload reads the store's claims")

        // Reads from another thread, which would wait for the lock if the reload held it.
        let answered = Locked<(ids: [String], other: UInt64?)?>(nil)
        Thread {
            let ids = inventory.showIDs, other = inventory.committedVersion(show: "other")
            answered.withLockWakingWaiters { $0 = (ids, other) }
        }.start()
        let reads = answered.wait(until: { $0 != nil }, deadline: Date().addingTimeInterval(5)) { a, _ in a }
        #expect(reads?.ids == ["other", "show"] && reads?.other == 0, "reads are answered while the reload reads the store")
        // A read of the show being reloaded waits for the reload (the lock released meanwhile).
        let staleRead = Locked<Result<UInt64, Refusal>?>(nil)
        Thread {
            do throws(Refusal) {
                let (version, _) = try inventory.encodedAvailability(show: "show")
                staleRead.withLockWakingWaiters { $0 = .success(version) }
            } catch { staleRead.withLockWakingWaiters { $0 = .failure(error) } }
        }.start()
        let early = staleRead.wait(until: { $0 != nil }, deadline: Date().addingTimeInterval(0.3)) { r, _ in r }
        #expect(early == nil, "the show being reloaded is not answered from the memory being replaced")
        store.controls.withLockWakingWaiters { $0.gateClaims = false }
        let late = staleRead.wait(until: { $0 != nil }, deadline: Date().addingTimeInterval(5)) { r, _ in r }
        #expect(try late?.get() == 1, "answered once the reload is in")

        while !buyer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(failedHold.current == .storeUnavailable)
        let (version, _) = try inventory.encodedAvailability(show: "show")
        #expect(version == 1, "memory is the store's again: the failed hold is gone")
        let retried = try inventory.createHold(show: "show", seatIDs: ["5-1", "5-2"], wheelchair: false, idempotency: nil)
        if case .done(let view) = retried { #expect(view.version == 2) } else { Issue.record("the retry is a fresh hold") }
    }
}

/// A store whose commits wait at a gate: a change of ours stays on its way while the test looks.
final class SlowCommitStore: ForwardingStore, @unchecked Sendable {
    let gateOpen = Locked(true)
    init(path: String) throws { super.init(base: try SQLiteStore(path: path)) }
    override func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
        gateOpen.wait(until: { $0 }) { _, _ in }
        return try base.commit(batch: batch)
    }
}

@Suite struct ShowRowRefreshTests {
    /// Reading the shows' rows again (another instance changed one) while an edit of ours is still on its
    /// way to the store: the row read is older than memory and must not undo the edit (a PATCH's answer
    /// said onSale true a moment after the PATCH set it false, under ThreadSanitizer on PostgreSQL).
    @Test func aRowReadBeforeOurEditCommitsDoesNotUndoIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-refresh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SlowCommitStore(path: dir.appendingPathComponent("store.sqlite").path)
        let inventory = try Inventory(store: store, describeShow: describeShowForTests)
        defer { inventory.stop() }
        try inventory.addVenue(SampleVenues.cinemaHall())
        try inventory.addShow(
            Inventory.NewShow(
                id: "show", venueID: "cinema-hall-3", startsAt: "2099-12-01T19:30:00+08:00",
                prices: PriceTable(categoryPrices: ["standard": 40, "vip": 60, "couple": 90])))
        store.gateOpen.withLock { $0 = false }
        let (_, ticket) = try inventory.beginEditShow(show: "show", Inventory.ShowEdit(onSale: false), by: "test")
        // The follower saw an empty event and asks for the rows again: the store still says on sale.
        _ = inventory.memory.withLock { $0.recordsToRefresh.insert("show") }
        inventory.refreshShowRecords()
        #expect(inventory.showSummary("show")?.record.onSale == false)
        store.gateOpen.withLockWakingWaiters { $0 = true }
        try ticket.wait()
        inventory.refreshShowRecords()
        #expect(inventory.showSummary("show")?.record.onSale == false)
        #expect(try store.shows().first?.onSale == false)
    }
}

/// A new record's id and token come from one draw of the system's generator: lowercase hex of the
/// lengths the API promises, never the same twice, and every digit of the token free to be anything.
@Test func idsAndTokensAreDrawnWhole() {
    let prefix = Inventory.timePrefix(1_764_633_600_000)
    let drawn = (0..<2_000).map { _ in Inventory.randomIDAndToken(prefix: prefix) }
    #expect(drawn.allSatisfy { $0.id.count == 28 && $0.token.count == 44 && $0.id.hasPrefix(prefix) && $0.token.hasPrefix(prefix) })
    #expect(drawn.allSatisfy { ($0.id + $0.token).allSatisfy { $0.isHexDigit && !$0.isUppercase } })
    #expect(Set(drawn.map(\.id)).count == drawn.count && Set(drawn.map(\.token)).count == drawn.count)
    // 2,000 draws: each of the token's 32 random digits takes all 16 values (a digit that never moved,
    // say a word left zero, would show here).
    for position in 12..<44 {
        let values = Set(drawn.map { Array($0.token.utf8)[position] })
        #expect(values.count == 16, "digit \(position) took \(values.count) values")
    }
}
