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
}
