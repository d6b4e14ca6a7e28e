import Foundation
import SeatDomain
import SeatJSON
import SeatMap
import SeatSamples
import Testing

@testable import SeatInventory

/// The box office's rules as the domain keeps them, on an in-memory store (no HTTP, no file: each test
/// runs in milliseconds): reservations, counter sales, refunds, price changes and the log. The server
/// tests keep what needs HTTP (keys and roles, problem documents, idempotent replays).
@Suite struct BoxOfficeRulesTests {
    /// The sample hall and one show tomorrow: standard 40, vip 60, couple 90 (CNY).
    static func inventory() throws -> (Inventory, InMemoryStore) {
        let store = InMemoryStore()
        let inventory = try Inventory(store: store, describeShow: describeShowForTests)
        try inventory.addVenue(SampleVenues.cinemaHall())
        try inventory.addShow(
            Inventory.NewShow(
                id: "show", venueID: "cinema-hall-3", startsAt: "2099-12-01T19:30:00+08:00",
                prices: PriceTable(categoryPrices: ["standard": 40, "vip": 60, "couple": 90])))
        return (inventory, store)
    }

    /// The view once its change is durable.
    static func committed<View>(_ begun: (Answer<View>, CommitTicket?)) throws -> View {
        try begun.1?.wait()
        guard case .done(let view) = begun.0 else { throw Refusal(.notFound, detail: "replayed, not done") }
        return view
    }

    static func refusal(_ body: () throws -> Void) -> Refusal? { InventoryTests.refusal(body) }

    static func sale(_ seats: [String], _ orderRef: String, force: Bool = false, prices: [String: Decimal] = [:]) -> Inventory.NewSale {
        Inventory.NewSale(source: .seats(seats), orderRef: orderRef, payment: "cash", force: force, prices: prices)
    }

    @Test func houseSeatsAreBlockedToBuyersUntilReleasedAndTheirReleaseTimeIsFromTheStart() throws {
        let (inventory, _) = try Self.inventory()
        defer { inventory.stop() }
        let kept = try Self.committed(
            inventory.beginCreateReservation(
                show: "show", .init(kind: .house, seatIDs: ["9-7", "9-8"], reason: "director's guests", release: .minutesBeforeStart(30)),
                by: "li"))
        #expect(kept.kind == .house && kept.operatorName == "li" && kept.seatIDs == ["9-7", "9-8"])
        #expect(kept.releaseAt == Timestamp.milliseconds("2099-12-01T19:00:00+08:00"), "30 minutes before the start")
        let buyer = Self.refusal { _ = try inventory.createHold(show: "show", seatIDs: ["9-8"], wheelchair: false, idempotency: nil) }
        guard case .conflicts(let conflicts, _)? = buyer?.details.first else {
            Issue.record("a buyer is told the seat is taken")
            return
        }
        #expect(buyer?.reason == .seatsTaken && conflicts.map(\.status) == ["blocked"], "a buyer sees blocked, never why")
        let (changed, ticket) = try inventory.beginModifyReservation(id: kept.id, add: [], remove: ["9-8"], by: "li")
        try ticket.wait()
        #expect(changed.seatIDs == ["9-7"])
        _ = try inventory.createHold(show: "show", seatIDs: ["9-8"], wheelchair: false, idempotency: nil)
        try inventory.beginReleaseReservation(id: kept.id, by: "li").wait()
        #expect(try inventory.reservations(show: "show").isEmpty)
        _ = try inventory.createHold(show: "show", seatIDs: ["9-7"], wheelchair: false, idempotency: nil)
        let late = Self.refusal {
            _ = try inventory.beginCreateReservation(
                show: "show", .init(kind: .house, seatIDs: ["9-1"], reason: "late guests", release: .at(Timestamp.milliseconds("2099-12-02T12:00:00Z")!)),
                by: "li")
        }
        #expect(late != nil && late?.reason != .seatsTaken, "kept past the show's end is refused: \(late?.description ?? "")")
    }

    @Test func aCounterSaleIsPricedTodayOrByTheOperatorAndTheRulesHoldUnlessForced() throws {
        let (inventory, store) = try Self.inventory()
        defer { inventory.stop() }
        let order = try Self.committed(inventory.beginSell(show: "show", Self.sale(["10-7", "10-8"], "BOX-1"), by: "li"))
        #expect(order.parts.count == 1 && order.parts[0].channel == "counter" && order.parts[0].operatorName == "li")
        #expect(order.parts[0].total == Money(80, currency: "CNY", digits: 2) && order.parts[0].total.description == "80.00")
        #expect(try store.sales(show: "show").first?.seats.count == 2, "sold in the store")
        let again = Self.refusal { _ = try inventory.beginSell(show: "show", Self.sale(["10-9"], "BOX-1"), by: "li") }
        #expect(again?.reason == .orderExists, "one order reference, one order")
        let taken = Self.refusal { _ = try inventory.beginSell(show: "show", Self.sale(["10-8"], "BOX-2"), by: "li") }
        #expect(taken?.reason == .seatsTaken)
        let lone = Self.refusal { _ = try inventory.beginSell(show: "show", Self.sale(["5-2", "5-3"], "BOX-3"), by: "li") }
        guard case .violations(let broken)? = lone?.details.first else {
            Issue.record("a rule refusal names the rules: \(String(describing: lone))")
            return
        }
        #expect(lone?.reason == .ruleViolation && broken.map(\.rule) == ["loneSeat"] && broken[0].seats == ["5-1"])
        #expect(broken[0].chinese.contains("5排1座") && broken[0].english.contains("Row 5, seat 1"))
        let forced = try Self.committed(
            inventory.beginSell(show: "show", Self.sale(["5-2", "5-3"], "BOX-3", force: true, prices: ["5-3": 20]), by: "li"))
        #expect(forced.parts[0].overridden?.contains("loneSeat") == true, "forcing is recorded with the sale")
        #expect(
            forced.parts[0].seats.map { "\($0.id) \($0.price)" }.sorted() == ["5-2 40.00", "5-3 20.00"] && forced.parts[0].total.description == "60.00",
            "the operator's own price for 5-3: \(forced.parts[0].seats.map { "\($0.id) \($0.price)" })")
    }

    @Test func aRefundReturnsTheSeatOnceAndKeepsWhatWasPaid() throws {
        let (inventory, _) = try Self.inventory()
        defer { inventory.stop() }
        _ = try Self.committed(inventory.beginSell(show: "show", Self.sale(["10-7", "10-8"], "BOX-1"), by: "li"))
        guard case .done(let refunded) = try inventory.refund(orderRef: "BOX-1", seatIDs: ["10-8"], reason: "could not come", by: "wang") else {
            Issue.record("the refund is done")
            return
        }
        #expect(refunded.refunds.map { "\($0.seatID) \($0.price) \($0.operatorName)" } == ["10-8 40.00 wang"])
        #expect(refunded.parts[0].seats.map(\.id) == ["10-7"] && refunded.parts[0].total.description == "40.00")
        _ = try inventory.createHold(show: "show", seatIDs: ["10-8"], wheelchair: false, idempotency: nil)
        let twice = Self.refusal { _ = try inventory.refund(orderRef: "BOX-1", seatIDs: ["10-8"], reason: "again", by: "wang") }
        #expect(twice?.reason == .notInOrder, "a seat is refunded once")
        let unknown = Self.refusal { _ = try inventory.refund(orderRef: "NOPE", seatIDs: nil, reason: "?", by: "wang") }
        #expect(unknown?.reason == .notFound)
    }

    @Test func newPricesApplyToNewHoldsWhileLiveHoldsKeepTheirs() throws {
        let (inventory, _) = try Self.inventory()
        defer { inventory.stop() }
        let before = try inventory.createHold(show: "show", seatIDs: ["7-1", "7-2"], wheelchair: false, idempotency: nil)
        guard case .done(let old) = before else { return }
        let table = PriceTable(categoryPrices: ["standard": 45, "vip": 70, "couple": 99])
        try inventory.beginChangePrices(show: "show", to: table, by: "zhao").1.wait()
        guard case .done(let new) = try inventory.createHold(show: "show", seatIDs: ["7-3", "7-4"], wheelchair: false, idempotency: nil) else { return }
        #expect(old.total.description == "120.00" && new.total.description == "140.00")
        #expect(try inventory.hold(token: old.token).total.description == "120.00", "a live hold keeps the price it was made at")
        var yen = table
        yen.currency = "JPY"
        let currency = Self.refusal { _ = try inventory.beginChangePrices(show: "show", to: yen, by: "zhao") }
        guard case .errors(let errors)? = currency?.details.first else {
            Issue.record("a currency change is refused naming the member")
            return
        }
        #expect(errors.map(\.path) == ["currency"])
    }

    @Test func theLogSaysWhoDidWhatToWhichSeatInVersionOrder() throws {
        let (inventory, _) = try Self.inventory()
        defer { inventory.stop() }
        guard case .done(let hold) = try inventory.createHold(show: "show", seatIDs: ["7-1"], wheelchair: false, idempotency: nil) else { return }
        _ = try Self.committed(
            inventory.beginCreateReservation(show: "show", .init(kind: .blocked, seatIDs: ["3-1"], reason: "broken armrest", release: nil), by: "li"))
        _ = try Self.committed(inventory.beginSell(show: "show", Self.sale(["10-7"], "BOX-1"), by: "li"))
        _ = try inventory.refund(orderRef: "BOX-1", seatIDs: nil, reason: "could not come", by: "wang")
        let lines = try inventory.log(show: "show", since: 0)
        #expect(lines.map(\.version) == [1, 2, 3, 4])
        #expect(lines.map(\.action) == ["hold", "blocked", "sell", "refund"])
        #expect(lines[0].holdID == hold.holdID && lines[0].operatorName == nil)
        #expect(lines[1].operatorName == "li" && lines[1].reason == "broken armrest" && lines[1].seats.map(\.status) == [.blocked])
        #expect(lines[2].orderRef == "BOX-1" && lines[2].seats.map(\.status) == [.sold])
        #expect(lines[3].operatorName == "wang" && lines[3].seats.map { "\($0.id) \($0.status.name)" } == ["10-7 available"])
        #expect(try inventory.log(show: "show", since: 2, limit: 1).map(\.version) == [3], "paged by version")
    }
}
