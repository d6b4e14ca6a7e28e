import Foundation
import SeatDomain
import SeatInventory
import SeatServerTestSupport
import Testing

@testable import SeatStorage

/// Payments are written only with their change, in its transaction, on both stores: a checkout's
/// pending payment with the hold it keeps, the paid one with the sale; a refused change writes none;
/// one payment a provider id.
@Suite(.serialized) struct PaymentStoreTests {
    let contract = StoreContractTests()

    func payment(_ id: String, hold: String, providerID: String?, state: PaymentState, at: Int64) -> PaymentRecord {
        PaymentRecord(
            id: id, holdID: hold, showID: "s", provider: "stripe", providerID: providerID, amount: 7600, currency: "CNY", state: state,
            createdAt: at, updatedAt: at, expiresAt: at + 900_000, outcome: state == .succeeded ? "sold" : nil)
    }

    @Test(arguments: StoreBackend.available) func aPaymentStandsOrFallsWithItsChange(backend: StoreBackend) throws {
        let (store, dir) = try contract.fresh(backend)
        defer { dir.remove() }
        let payments = try #require(store.payments)
        // The checkout: the hold and its pending payment, together.
        var checkout = try contract.holdCommit(store, id: "h1", seats: [3, 4])
        checkout.payments = [payment("pay_1", hold: "h1", providerID: "pi_1", state: .pending, at: 1_000)]
        #expect(try contract.outcome(store, checkout).get() == 1)
        #expect(try payments.payment(id: "pay_1")?.state == .pending)
        #expect(try payments.payment(provider: "stripe", providerID: "pi_1")?.id == "pay_1")
        #expect(try payments.pendingPayments(dueBy: 901_000).map(\.id) == ["pay_1"] && payments.pendingPayments(dueBy: 900_999).isEmpty)

        // A change the store refuses (seat 4 is h1's) writes none of its payments.
        var refused = try contract.holdCommit(store, id: "h2", seats: [5, 4])
        refused.payments = [payment("pay_2", hold: "h2", providerID: "pi_2", state: .pending, at: 2_000)]
        guard case .failure = contract.outcome(store, refused) else {
            Issue.record("seat 4 held twice")
            return
        }
        #expect(try payments.payment(id: "pay_2") == nil && payments.payment(provider: "stripe", providerID: "pi_2") == nil)

        // The paid notification: the sale and the payment's new state, together.
        var sale = try contract.finish(store, id: "h1", seats: [3, 4], as: .confirmed)
        var paid = payment("pay_1", hold: "h1", providerID: "pi_1", state: .succeeded, at: 1_000)
        paid.updatedAt = 5_000
        sale.payments = [paid]
        #expect(try contract.outcome(store, sale).get() == 2)
        let stored = try #require(try payments.payment(id: "pay_1"))
        #expect(stored == paid && stored.outcome == "sold")
        #expect(try payments.payments(hold: "h1") == [paid] && payments.pendingPayments(dueBy: .max).isEmpty)
        #expect(try payments.payments(from: 0, to: 1_001).map(\.id) == ["pay_1"] && payments.payments(from: 1_001, to: .max).isEmpty)

        // One payment a provider id: another payment naming pi_1 is refused with its change.
        var twice = try contract.holdCommit(store, id: "h3", seats: [7])
        twice.payments = [payment("pay_3", hold: "h3", providerID: "pi_1", state: .pending, at: 6_000)]
        if case .success = contract.outcome(store, twice) { Issue.record("a second payment for pi_1 was written") }
        #expect(try payments.payment(id: "pay_3") == nil && store.holdSeats(holdID: "h3").isEmpty)
    }

    /// The reconciliation report names every way payments and sales disagree: money taken for a hold
    /// that is not sold, a payment still pending long after its window, a hold sold against a payment
    /// that did not succeed; a payment that sold its hold is no mismatch.
    @Test(arguments: StoreBackend.available) func theReportNamesEveryMismatch(backend: StoreBackend) throws {
        let (store, dir) = try contract.fresh(backend)
        defer { dir.remove() }
        var held = try contract.holdCommit(store, id: "h1", seats: [3])
        held.payments = [payment("pay_paid", hold: "h1", providerID: "pi_a", state: .succeeded, at: 1_000)]
        _ = try contract.outcome(store, held).get()
        var waiting = try contract.holdCommit(store, id: "h2", seats: [4])
        waiting.payments = [payment("pay_waiting", hold: "h2", providerID: "pi_b", state: .pending, at: 2_000)]
        _ = try contract.outcome(store, waiting).get()
        var good = try contract.holdCommit(store, id: "h3", seats: [5])
        good.payments = [payment("pay_good", hold: "h3", providerID: "pi_c", state: .pending, at: 3_000)]
        _ = try contract.outcome(store, good).get()
        var sale = try contract.finish(store, id: "h3", seats: [5], as: .confirmed)
        sale.holds[0].payment = "pay_good"
        sale.payments = [payment("pay_good", hold: "h3", providerID: "pi_c", state: .succeeded, at: 3_000)]
        _ = try contract.outcome(store, sale).get()
        var unpaid = try contract.holdCommit(store, id: "h4", seats: [6])
        unpaid.payments = [payment("pay_failed", hold: "h4", providerID: "pi_d", state: .failed, at: 4_000)]
        _ = try contract.outcome(store, unpaid).get()
        var soldAnyway = try contract.finish(store, id: "h4", seats: [6], as: .confirmed)
        soldAnyway.holds[0].payment = "pay_failed"
        _ = try contract.outcome(store, soldAnyway).get()

        let inventory = try Inventory(store: store, describeShow: { _ in "" })
        let report = try inventory.paymentsReport(from: 0, to: 10_000)
        #expect(report.lines.map(\.payment.id) == ["pay_paid", "pay_waiting", "pay_good", "pay_failed"])
        #expect(report.lines.first { $0.payment.id == "pay_good" }?.orderRef == "o")
        #expect(
            report.mismatches.map { "\($0.paymentID) \($0.kind)" } == [
                "pay_paid paid-not-sold", "pay_waiting pending-past-window", "pay_failed sold-not-paid",
            ], "\(report.mismatches)")
        #expect(try inventory.paymentsReport(from: 10_000, to: 20_000).lines.isEmpty)
    }
}
