import Foundation
import SeatDomain
import SeatInventory
import SeatMap
import SeatSamples
import SeatStorage
import SharedState
import Testing

/// The inventory on its own: a real SQLite store, no HTTP. Refusals say why in the domain's terms
/// (the API maps them to problems), and events reach any `EventSubscriber`.
@Suite struct InventoryTests {
    /// A subscriber that keeps what it is sent.
    final class Recorder: EventSubscriber {
        let texts = Locked([String]())
        let finished = Locked([@Sendable () -> Void]())
        func send(_ text: String) -> Bool { texts.withLock { $0.append(text) }; return true }
        func close() {
            for f in finished.withLock({ f in
                defer { f = [] }; return f
            }) { f() }
        }
        func whenFinished(_ body: @escaping @Sendable () -> Void) { finished.withLock { $0.append(body) } }
    }

    static func inventory() throws -> (Inventory, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-inventory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let inventory = try Inventory(store: try SQLiteStore(path: dir.appendingPathComponent("store.sqlite").path), describeShow: describeShowForTests)
        try inventory.addVenue(SampleVenues.cinemaHall())
        try inventory.addShow(
            Inventory.NewShow(
                id: "show", venueID: "cinema-hall-3", startsAt: "2099-12-01T19:30:00+08:00",
                prices: PriceTable(categoryPrices: ["standard": 40, "vip": 60, "couple": 90])))
        return (inventory, dir)
    }

    /// The refusal `body` throws (nil when it succeeds; any other error fails the test).
    static func refusal(_ body: () throws -> Void) -> Refusal? {
        do { try body() } catch let r as Refusal { return r } catch { Issue.record("not a refusal: \(error)") }
        return nil
    }

    static func token(_ outcome: HoldOutcome) -> String? {
        if case .done(let view) = outcome { view.token } else { nil }
    }

    @Test func aTakenSeatIsRefusedNamingItAndChangesNothing() throws {
        let (inventory, dir) = try Self.inventory()
        defer { inventory.stop(); try? FileManager.default.removeItem(at: dir) }
        let first = try inventory.createHold(show: "show", seatIDs: ["7-1", "7-2"], wheelchair: false, idempotency: nil)
        #expect(Self.token(first) != nil && inventory.committedVersion(show: "show") == 1)
        let refused = Self.refusal { _ = try inventory.createHold(show: "show", seatIDs: ["7-2", "7-3"], wheelchair: false, idempotency: nil) }
        #expect(refused?.reason == .seatsTaken && refused?.detail == "7-2 is held")
        guard case .conflicts(let conflicts, let version)? = refused?.details.first else {
            Issue.record("a taken seat's refusal names the conflicts")
            return
        }
        #expect(conflicts.map { "\($0.seat) \($0.status)" } == ["7-2 held"] && version == 1)
        #expect(inventory.committedVersion(show: "show") == 1, "a refusal changes nothing")
        let unknown = Self.refusal { _ = try inventory.createHold(show: "show", seatIDs: ["99-99"], wheelchair: false, idempotency: nil) }
        #expect(unknown?.reason == .unknownSeats && unknown?.detail.contains("\"99-99\"") == true)
        let noShow = Self.refusal { _ = try inventory.createHold(show: "nope", seatIDs: ["7-5"], wheelchair: false, idempotency: nil) }
        #expect(noShow?.reason == .notFound)
    }

    @Test func aReleasedHoldIsRefusedAsReleased() throws {
        let (inventory, dir) = try Self.inventory()
        defer { inventory.stop(); try? FileManager.default.removeItem(at: dir) }
        let token = try #require(Self.token(try inventory.createHold(show: "show", seatIDs: ["7-1"], wheelchair: false, idempotency: nil)))
        try inventory.releaseHold(token: token)
        #expect(Self.refusal { _ = try inventory.hold(token: token) }?.reason == .holdReleased)
        #expect(Self.refusal { _ = try inventory.hold(token: "not-a-token") }?.reason == .notFound)
        let extended = try inventory.extendHold(
            token: #require(Self.token(try inventory.createHold(show: "show", seatIDs: ["7-1"], wheelchair: false, idempotency: nil))))
        #expect(extended.extended)
        #expect(Self.refusal { _ = try inventory.extendHold(token: extended.token) }?.reason == .alreadyExtended)
    }

    @Test func subscribersGetTheStateThenEveryVersionInOrder() throws {
        let (inventory, dir) = try Self.inventory()
        defer { inventory.stop(); try? FileManager.default.removeItem(at: dir) }
        let viewer = Recorder()
        try inventory.subscribe(viewer, show: "show", lastEventID: nil)
        #expect(inventory.subscriberCount == 1)
        let token = try #require(Self.token(try inventory.createHold(show: "show", seatIDs: ["7-1"], wheelchair: false, idempotency: nil)))
        try inventory.releaseHold(token: token)
        // Events are published after the commit, on the writer's thread.
        let deadline = Date().addingTimeInterval(5)
        // Versions 1 and 2 come one by one, or merged into one delta when the release was published
        // before the delivery thread's round: either way each delta continues the last, through 2.
        func versions() -> [(UInt64, UInt64)] {
            viewer.texts.current.dropFirst(2).compactMap { text in
                text.split(separator: "\n").first { $0.hasPrefix("data: ") }.flatMap { try? AvailabilityDelta(encoded: String($0.dropFirst(6))) }
                    .map { ($0.fromVersion, $0.toVersion) }
            }
        }
        while versions().last?.1 != 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let texts = viewer.texts.current
        #expect(texts.count >= 3 && texts[0] == "retry: 2000\n\n" && texts[1].hasPrefix("id: 0\nevent: snapshot\n"))
        let ranges = versions()
        #expect(ranges.first?.0 == 0 && ranges.last?.1 == 2 && zip(ranges, ranges.dropFirst()).allSatisfy { $0.1 == $1.0 }, "\(ranges)")
        viewer.close()
        #expect(inventory.subscriberCount == 0, "a finished subscriber is dropped")
        let resumed = Recorder()
        try inventory.subscribe(resumed, show: "show", lastEventID: 1)
        #expect(resumed.texts.current.dropFirst().map { $0.prefix(20) } == ["id: 2\nevent: seats\nd"], "a resuming subscriber gets only what it missed")
        #expect(Self.refusal { try inventory.subscribe(Recorder(), show: "nope", lastEventID: nil) }?.reason == .notFound)
    }
}

/// What a failing store says to a client (#26 item 8): never its cause. PostgreSQL's message for an
/// outage names the database's host and port; an anonymous buyer once read them in the 503.
@Suite struct StoreRefusalTests {
    @Test func anOutageIsA503ThatNamesNoHostAndARaceIsAConflict() {
        let outage = Inventory.storeRefusal(
            StoreError.unavailable(cause: #"PostgreSQL error 08006: connection to server at "10.1.2.3", port 5432 failed: Connection refused"#))
        #expect(outage.reason == .storeUnavailable)
        #expect(!outage.detail.contains("10.1.2.3") && !outage.detail.contains("5432") && !outage.detail.contains("PostgreSQL"), "\(outage.detail)")
        #expect(StoreError(sqlState: "08006", message: "connection lost") == .unavailable(cause: "PostgreSQL error 08006: connection lost"))
        // Told apart by code, not words: a seat another instance took, the show's row changed meanwhile.
        #expect(Inventory.storeRefusal(StoreError(sqlState: "23505", message: "duplicate key")).reason == .seatsTaken)
        #expect(Inventory.storeRefusal(StoreError(sqlState: "SK001", message: "hold h is no longer active")).reason == .seatsTaken)
        #expect(Inventory.storeRefusal(StoreError(sqlState: "SK002", message: "anything at all")).reason == .showChanged)
        #expect(Inventory.storeRefusal(StoreError(sqlState: "40001", message: "could not serialize")).reason == .showChanged)
        #expect(StoreError(sqlState: "23503", message: "missing row").isConflict == false, "a lost row is a failure, not a conflict")
        #expect(Inventory.storeRefusal(StoreError.closed).reason == .storeUnavailable)
    }
}
