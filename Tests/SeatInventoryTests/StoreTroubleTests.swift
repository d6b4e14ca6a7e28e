import Foundation
import Logging
import SeatDomain
import SeatMap
import SeatSamples
import SeatStorage
import SharedState
import Testing

@testable import SeatInventory

/// What the inventory could not do and went on without is said, with its cause, not swallowed: a show
/// whose reload fails stays stale, a warning names the show and the store's error, and the next pass
/// succeeds once the store answers again.
@Suite struct StoreTroubleTests {
    final class Flaky: ForwardingStore, @unchecked Sendable {
        let failing = Locked(false)
        override func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
            if failing.current { throw StoreError.unavailable(cause: "connection reset by peer") }
            return try super.commit(batch: batch)
        }
        override func shows() throws -> [ShowRecord] {
            if failing.current { throw StoreError.unavailable(cause: "connection reset by peer") }
            return try super.shows()
        }
    }

    /// Keeps what is logged.
    struct Collecting: LogHandler {
        let lines: Locked<[(Logger.Level, String, Logger.Metadata)]>
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { lines.withLock { $0.append((event.level, "\(event.message)", event.metadata ?? [:])) } }
    }

    @Test func aFailedReloadIsSaidWithItsCauseAndTriedAgain() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-trouble-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = Locked<[(Logger.Level, String, Logger.Metadata)]>([])
        let store = Flaky(base: try SQLiteStore(path: dir.appendingPathComponent("s.sqlite").path))
        let inventory = try Inventory(store: store, logger: Logger(label: "t") { _ in Collecting(lines: lines) })
        defer { inventory.stop() }
        try inventory.addVenue(SampleVenues.cinemaHall())
        try inventory.addShow(
            Inventory.NewShow(
                id: "show", venueID: "cinema-hall-3", startsAt: "2099-12-01T19:30:00+08:00",
                prices: PriceTable(categoryPrices: ["standard": 40, "vip": 60, "couple": 90])))
        store.failing.withLock { $0 = true }
        #expect(throws: Refusal.self) { try inventory.createHold(show: "show", seatIDs: ["2-1"], wheelchair: false, idempotency: nil) }
        #expect(inventory.hasStaleShows, "the refused write leaves the show to be read again")
        // The writer tried at once; each pass that fails says so again.
        inventory.reloadStaleShows()
        let said = lines.current.filter { $0.0 == .warning }
        #expect(said.count >= 2 && said.allSatisfy { $0.1 == "reloading a show from the store failed" }, "\(said.map(\.1))")
        #expect(said.first?.2["show"] == "show" && "\(said.first?.2["cause"] ?? "")".contains("connection reset by peer"))
        #expect(inventory.hasStaleShows && inventory.metrics.value("store_troubles") == said.count)
        store.failing.withLock { $0 = false }
        inventory.reloadStaleShows()
        #expect(!inventory.hasStaleShows, "the next pass reads it")
        _ = try inventory.createHold(show: "show", seatIDs: ["2-1"], wheelchair: false, idempotency: nil)
    }
}
