import Foundation
import SeatDomain
import SeatJSON
import SeatMap
import SeatSamples
import Testing

@testable import SeatInventory

/// Exchanges and the after-sale policy as the domain keeps them, on the in-memory store in
/// milliseconds: the box office moves an order to other seats or another show with the difference
/// said; a buyer with the order's code only within the show's policy (how many exchanges, until when,
/// at what fee). The HTTP tests (ExchangeTests) keep the wire, keys and the page's flow.
@Suite struct ExchangeDomainTests {
    typealias Rules = BoxOfficeRulesTests
    /// The sample hall's shows: `show` at 19:30 on 1 Dec 2099 (from `Rules.inventory`), and `later`, the
    /// next evening, at a higher standard price, whose policy allows one exchange at ¥5 a seat until
    /// 60 minutes before.
    static let policy = #"{"afterSale":{"exchanges":1,"exchangeFee":"5","exchangeMinutes":60}}"#

    func inventory(details: String = Self.policy) throws -> (Inventory, InMemoryStore) {
        let (inventory, store) = try Rules.inventory()
        try inventory.addShow(
            Inventory.NewShow(
                id: "later", venueID: "cinema-hall-3", startsAt: "2099-12-02T19:30:00+08:00",
                prices: PriceTable(categoryPrices: ["standard": 50, "vip": 70, "couple": 100]), detailsJSON: details))
        return (inventory, store)
    }

    func status(_ inventory: Inventory, _ show: String, _ seat: String) throws -> SeatStatus? {
        let (_, encoded) = try inventory.encodedAvailability(show: show)
        return SampleVenues.cinemaHall().index(ofSeatID: seat).map { (try? SeatAvailability(encoded: encoded))?[$0] } ?? nil
    }

    /// A buyer's online order: held, then confirmed; the hold's token is the order's code.
    func buyerOrder(_ inventory: Inventory, _ seats: [String], show: String = "show", _ orderRef: String) throws -> String {
        guard case .done(let hold) = try inventory.createHold(show: show, seatIDs: seats, wheelchair: false, idempotency: nil) else {
            throw Refusal(.notFound, detail: "replayed")
        }
        _ = try inventory.confirmHold(token: hold.token, orderRef: orderRef, idempotency: nil)
        return hold.token
    }

    func exchanged(_ answer: Answer<ExchangeView>) throws -> ExchangeView {
        guard case .done(let view) = answer else { throw Refusal(.notFound, detail: "replayed, not done") }
        return view
    }

    @Test func theBoxOfficeMovesAnOrderToAnotherShowAndSaysTheDifference() throws {
        let (inventory, _) = try inventory()
        defer { inventory.stop() }
        _ = try Rules.committed(inventory.beginSell(show: "show", Rules.sale(["7-1", "7-2"], "BOX-1"), by: "li"))
        let view = try exchanged(
            inventory.exchange(
                orderRef: "BOX-1", .init(seatIDs: nil, toShow: "later", target: .seats(["8-1", "8-2"]), reason: "came a day late"),
                as: .boxOffice(operatorName: "wang")))
        #expect(view.from.seats.map(\.id) == ["7-1", "7-2"] && view.to.seats.map(\.id) == ["8-1", "8-2"])
        #expect(view.fee.amount == 0, "no fee at the box office")
        #expect(view.difference.amount == view.to.total.amount - view.from.total.amount && view.difference.amount > 0, "\(view.difference)")
        #expect(try status(inventory, "show", "7-1") == .available && status(inventory, "later", "8-2") == .sold)
        let order = try inventory.order(orderRef: "BOX-1")
        #expect(order.parts.contains { $0.showID == "later" && $0.seats.map(\.id) == ["8-1", "8-2"] }, "the order reads on the new show")
    }

    @Test func aBuyerExchangesWithinTheirPolicyOnceAndPaysTheFee() throws {
        let (inventory, _) = try inventory()
        defer { inventory.stop() }
        let code = try buyerOrder(inventory, ["5-1"], show: "later", "WEB-1")
        let first = try exchanged(
            inventory.exchange(orderRef: "WEB-1", .init(seatIDs: nil, toShow: "later", target: .seats(["6-1"])), as: .buyer(code: code)))
        #expect(first.fee.amount == 5, "¥5 a seat by the policy")
        #expect(first.difference.amount == first.to.total.amount + 5 - first.from.total.amount, "the new seat, the fee, less the old: \(first.difference)")
        #expect(try status(inventory, "later", "5-1") == .available && status(inventory, "later", "6-1") == .sold)
        // The policy allows one: a second is refused, and nothing changes.
        let second = Rules.refusal {
            _ = try inventory.exchange(orderRef: "WEB-1", .init(seatIDs: nil, toShow: "later", target: .seats(["6-2"])), as: .buyer(code: code))
        }
        #expect(second != nil && second?.reason != .notFound, "refused by the policy: \(String(describing: second))")
        #expect(try status(inventory, "later", "6-2") == .available && status(inventory, "later", "6-1") == .sold)
    }

    @Test func aBuyersWindowClosesBeforeTheShowAndAWrongCodeFindsNoOrder() throws {
        let (inventory, _) = try inventory()
        defer { inventory.stop() }
        let code = try buyerOrder(inventory, ["5-1"], show: "later", "WEB-2")
        let wrong = Rules.refusal {
            _ = try inventory.exchange(orderRef: "WEB-2", .init(seatIDs: nil, toShow: "later", target: .seats(["6-1"])), as: .buyer(code: "guess"))
        }
        #expect(wrong?.reason == .notFound, "a code that is not the order's tells nothing")
        // 59 minutes before the start: past the policy's 60.
        let starts = Timestamp.milliseconds("2099-12-02T19:30:00+08:00")!
        inventory.clockOffset.advance(by: starts - 59 * 60_000 - inventory.clock())
        let late = Rules.refusal {
            _ = try inventory.exchange(orderRef: "WEB-2", .init(seatIDs: nil, toShow: "later", target: .seats(["6-1"])), as: .buyer(code: code))
        }
        #expect(late?.reason == .afterSaleClosed, "\(String(describing: late))")
        // The box office still can.
        _ = try exchanged(
            inventory.exchange(
                orderRef: "WEB-2", .init(seatIDs: nil, toShow: "later", target: .seats(["6-1"])), as: .boxOffice(operatorName: "wang")))
        #expect(try status(inventory, "later", "6-1") == .sold)
    }

    @Test func aNewSeatSomeoneHoldsIsRefusedAndTheOrderKeepsItsSeats() throws {
        let (inventory, _) = try inventory()
        defer { inventory.stop() }
        _ = try Rules.committed(inventory.beginSell(show: "show", Rules.sale(["7-1"], "BOX-3"), by: "li"))
        _ = try inventory.createHold(show: "later", seatIDs: ["9-9"], wheelchair: false, idempotency: nil)
        let taken = Rules.refusal {
            _ = try inventory.exchange(
                orderRef: "BOX-3", .init(seatIDs: nil, toShow: "later", target: .seats(["9-9"])), as: .boxOffice(operatorName: "wang"))
        }
        guard case .conflicts(let conflicts, _)? = taken?.details.first else {
            Issue.record("a conflict naming the seat: \(String(describing: taken))")
            return
        }
        #expect(conflicts.map(\.seat) == ["9-9"])
        #expect(try status(inventory, "show", "7-1") == .sold, "the old seat kept")
    }
}
