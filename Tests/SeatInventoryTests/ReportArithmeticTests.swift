import Foundation
import SeatDomain
import SeatMap
import SeatSamples
import SeatStorage
import SharedState
import Testing

@testable import SeatInventory

/// The box office's figures in the domain, on a real store and no HTTP: a show's report and the sales
/// report across shows, in exact money, and a sales report that fails naming the show it could not count.
@Suite struct ReportArithmeticTests {
    /// The real store, failing one show's sales read when asked to.
    final class FailingSales: ForwardingStore, @unchecked Sendable {
        let failing = Locked<String?>(nil)
        override func sales(show: String) throws -> [(record: HoldRecord, seats: [Int])] {
            if failing.current == show { throw StoreError.unavailable(cause: "disk on fire") }
            return try super.sales(show: show)
        }
    }

    static let evening = Int64(4_099_766_400_000)  // 2099-12-01T00:00:00Z

    static func inventory() throws -> (Inventory, FailingSales) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = FailingSales(base: try SQLiteStore(path: dir.appendingPathComponent("s.sqlite").path))
        let inventory = try Inventory(store: store, describeShow: describeShowForTests)
        try inventory.addVenue(SampleVenues.cinemaHall())
        let prices = PriceTable(categoryPrices: ["standard": Decimal(string: "33.30")!, "vip": Decimal(string: "58.10")!, "couple": 90])
        for (id, time) in [("a", "2099-12-01T19:30:00+08:00"), ("b", "2099-12-01T21:45:00+08:00"), ("c", "2099-12-02T19:30:00+08:00")] {
            try inventory.addShow(Inventory.NewShow(id: id, venueID: "cinema-hall-3", startsAt: time, prices: prices))
        }
        return (inventory, store)
    }

    static func sell(_ inventory: Inventory, show: String, seats: [String], order: String) throws {
        let (_, ticket) = try inventory.beginSell(
            show: show, Inventory.NewSale(source: .seats(seats), orderRef: order, payment: "cash", force: false), by: "clerk")
        try ticket?.wait()
    }

    @Test func aShowsReportAndTheSalesReportAgreeToTheCent() throws {
        let (inventory, _) = try Self.inventory()
        defer { inventory.stop() }
        // Three standard seats at 33.30 in show a, one refunded; two in show b; none in c.
        try Self.sell(inventory, show: "a", seats: ["2-1", "2-2", "2-3"], order: "A-1")
        _ = try inventory.refund(orderRef: "A-1", seatIDs: ["2-3"], reason: "changed mind", by: "clerk")
        try Self.sell(inventory, show: "b", seats: ["2-1", "2-2"], order: "B-1")
        let a = try inventory.report(show: "a")
        #expect(a.gross.description == "99.90" && a.refunded.description == "33.30" && a.net.description == "66.60")
        #expect(a.gross.amount == a.net.amount + a.refunded.amount, "exact, no float")
        #expect(a.byChannel.map(\.0) == ["counter"] && a.byChannel.first?.1.description == "66.60")
        let sales = try inventory.salesReport(from: Self.evening - 86_400_000, to: Self.evening + 2 * 86_400_000)
        #expect(sales.shows.map(\.showID) == ["a", "b", "c"])
        #expect(sales.totals.count == 1 && sales.totals[0].net.description == "133.20" && sales.totals[0].sold == 4)
        #expect(sales.totals[0].refunded.description == "33.30" && sales.totals[0].gross.description == "166.50")
        // Days are the shows' own dates, as written: a and b on the 1st, c on the 2nd.
        #expect(sales.days.map(\.date) == ["2099-12-01", "2099-12-02"])
        #expect(sales.days[0].sums[0].shows == 2 && sales.days[0].sums[0].net.description == "133.20")
        #expect(sales.days[1].sums[0].net.description == "0.00")
    }

    @Test func aShowThatCannotBeCountedFailsTheWholeReportNamingIt() throws {
        let (inventory, store) = try Self.inventory()
        defer { inventory.stop() }
        try Self.sell(inventory, show: "b", seats: ["2-1"], order: "B-1")
        store.failing.withLock { $0 = "b" }
        do {
            _ = try inventory.salesReport(from: Self.evening - 86_400_000, to: Self.evening + 2 * 86_400_000)
            Issue.record("a report without show b was given as whole")
        } catch {
            #expect(error.reason == .storeUnavailable && error.detail.contains("show b"), "\(error)")
        }
    }

    @Test func takingsCountEachSaleAndRefundWhenItHappenedByClerkAndPayment() throws {
        let (inventory, _) = try Self.inventory()
        defer { inventory.stop() }
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        try Self.sell(inventory, show: "a", seats: ["2-1", "2-2", "2-3"], order: "A-1")
        let (_, card) = try inventory.beginSell(
            show: "b", Inventory.NewSale(source: .seats(["2-1", "2-2"]), orderRef: "B-1", payment: "card", force: false), by: "wang")
        try card?.wait()
        // An hour later another clerk refunds a seat of A-1: that hour's money, given back in cash.
        inventory.clockOffset.advance(by: 3_600_000)
        _ = try inventory.refund(orderRef: "A-1", seatIDs: ["2-3"], reason: "changed mind", by: "li")
        let all = try inventory.takings(from: before, to: before + 2 * 3_600_000 + 60_000)
        #expect(all.totals.count == 1 && all.totals[0].taken.description == "166.50" && all.totals[0].refunded.description == "33.30")
        #expect(all.totals[0].net.description == "133.20" && all.totals[0].seatsSold == 5 && all.totals[0].seatsRefunded == 1)
        #expect(all.byPayment.map { "\($0.key) \($0.net)" } == ["card 66.60", "cash 66.60"])
        #expect(all.byClerk.map { "\($0.key) \($0.taken)-\($0.refunded)" } == ["clerk 99.90-0.00", "li 0.00-33.30", "wang 66.60-0.00"])
        #expect(all.byShow.map { "\($0.key) \($0.net)" } == ["a 66.60", "b 66.60"])
        #expect(all.entries.map(\.kind) == [.sale, .sale, .refund])
        // Over the shows' whole lives the takings are the sales report's net.
        let sales = try inventory.salesReport(from: Self.evening - 86_400_000, to: Self.evening + 2 * 86_400_000)
        #expect(sales.totals[0].net.description == all.totals[0].net.description)
        // The first half hour holds the sales only; the refund is in the hour after; li's cash-up is the refund.
        let first = try inventory.takings(from: before, to: before + 1_800_000)
        #expect(first.totals.first?.taken.description == "166.50" && first.totals.first?.refunded.description == "0.00")
        let later = try inventory.takings(from: before + 1_800_000, to: before + 2 * 3_600_000 + 60_000)
        #expect(later.entries.count == 1 && later.totals.first?.net.description == "-33.30")
        let li = try inventory.takings(from: before, to: before + 2 * 3_600_000 + 60_000, clerk: "li")
        #expect(li.entries.count == 1 && li.entries[0].payment == "cash" && li.byClerk.map(\.key) == ["li"])
    }

    @Test func aShowMayNotOverlapAnotherOfItsHallOrItsTurnaround() throws {
        let (inventory, _) = try Self.inventory()
        defer { inventory.stop() }
        let prices = PriceTable(categoryPrices: ["standard": 30, "vip": 50, "couple": 90])
        func add(_ id: String, _ time: String, minutes: Int?) throws {
            try inventory.addShow(
                Inventory.NewShow(
                    id: id, venueID: "cinema-hall-3", startsAt: time, prices: prices, detailsJSON: minutes.map { "{\"duration\":\($0)}" } ?? "{}"))
        }
        try add("m1", "2099-12-05T10:00:00+08:00", minutes: 120)
        // 12:00 is the end; the hall needs 15 minutes: 12:14 clashes, 12:15 does not.
        #expect(throws: Refusal.self) { try add("m2", "2099-12-05T12:14:00+08:00", minutes: 90) }
        do { try add("m2", "2099-12-05T12:14:00+08:00", minutes: 90) } catch let error as Refusal {
            #expect(error.reason == .scheduleClash && error.detail.contains("m1") && error.detail.contains("15 minutes"), "\(error)")
        }
        try add("m2", "2099-12-05T12:15:00+08:00", minutes: 90)
        // Before m1: ending 09:45 leaves its 15 minutes; ending 09:50 does not.
        #expect(throws: Refusal.self) { try add("m0", "2099-12-05T08:20:00+08:00", minutes: 90) }
        try add("m0", "2099-12-05T08:15:00+08:00", minutes: 90)
        // Another offset is the same instant: 02:00Z is 10:00 in Beijing.
        #expect(throws: Refusal.self) { try add("utc", "2099-12-05T03:00:00Z", minutes: 30) }
        // A show without a running time is not checked (where it ends is not known); nor is a cancelled one.
        try add("open", "2099-12-05T10:30:00+08:00", minutes: nil)
        _ = try inventory.beginCancelShow(show: "m2", reason: "print lost", by: "boss").1?.wait()
        try add("m3", "2099-12-05T12:30:00+08:00", minutes: 60)
        // Moving a show onto another is refused and changes nothing; a longer running time likewise.
        #expect(throws: Refusal.self) {
            _ = try inventory.beginEditShow(show: "m3", Inventory.ShowEdit(startsAt: "2099-12-05T11:00:00+08:00"), by: "boss")
        }
        #expect(throws: Refusal.self) {
            _ = try inventory.beginEditShow(show: "m0", Inventory.ShowEdit(detailsJSON: "{\"duration\":100}"), by: "boss")
        }
        #expect(inventory.showSummary("m3")?.record.startsAt == "2099-12-05T12:30:00+08:00")
        _ = try inventory.beginEditShow(show: "m3", Inventory.ShowEdit(startsAt: "2099-12-05T12:45:00+08:00"), by: "boss").1.wait()
        #expect(inventory.showSummary("m3")?.record.startsAt == "2099-12-05T12:45:00+08:00")
    }
}
