import Foundation
import SeatDomain
import SeatInventory
import SeatMap
import SeatPayments
import SeatWire

/// Money back the same way it came (#52 item 3): a refund of seats paid online writes a `pending`
/// refund through the payment's provider with the seats' refund (one transaction); it is sent here once
/// committed, and the provider's answer recorded (`succeeded`, or `failed` with its reason). One the
/// provider could not be asked about stays pending and is sent again every 30 s (`settleMoney`); its id
/// is the provider's idempotency key, so a refund sent twice (a crash, two instances) is one refund.
extension SeatAPI {
    /// Sends each pending refund to its provider and records the answer; returns them as they now stand.
    /// A provider that cannot be reached (or answers 5xx) leaves a refund pending. Blocks: one provider
    /// call a refund, off every lock.
    @discardableResult
    func sendRefunds(_ pending: [PaymentRefundRecord]) -> [PaymentRefundRecord] {
        pending.map { refund in
            guard refund.state == .pending, let provider = providers[refund.provider],
                let payment = try? inventory.store.payments?.payment(id: refund.paymentID)
            else { return refund }
            var after = refund
            let reference = ProviderReference(paymentID: payment.id, providerID: payment.providerID, amount: payment.amount, currency: payment.currency)
            do {
                let taken = try provider.refund(reference, amount: refund.amount, key: refund.id, reason: refund.reason)
                after.providerRefundID = taken.id
                after.state = taken.state == .failed ? .failed : .succeeded
                after.outcome = taken.state == .pending ? "accepted; \(provider.name) is paying it back" : taken.reason
            } catch let error as ProviderError where error.status < 500 {
                after.state = .failed
                after.outcome = error.description
            } catch {
                inventory.metrics.count("payment_refunds_retried")
                return refund
            }
            after.updatedAt = inventory.clock()
            do { try inventory.wait(try inventory.beginRecordRefund(after)) } catch { return refund }
            inventory.metrics.count(after.state == .failed ? "payment_refunds_failed" : "payment_refunds_sent")
            return after
        }
    }

    /// The refunds through providers of an order's parts, oldest first.
    func moneyBack(_ parts: [OrderResource.Part]) -> [PaymentRefundRecord] {
        guard let payments = inventory.store.payments else { return [] }
        let ids = Set(parts.map(\.payment).filter { $0.hasPrefix("pay_") })
        return ids.sorted().flatMap { (try? payments.paymentRefunds(payment: $0)) ?? [] }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// The payments that sold an order's parts, oldest first (a counter sale's part names none).
    func orderPayments(_ parts: [OrderResource.Part]) -> [OrderResource.Payment] {
        guard let payments = inventory.store.payments else { return [] }
        let ids = Set(parts.map(\.payment).filter { $0.hasPrefix("pay_") })
        return ids.compactMap { try? payments.payment(id: $0) }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map { p in
            OrderResource.Payment(
                id: p.id, provider: p.provider, providerID: p.providerID, state: p.state.rawValue,
                amount: Money(minorUnits: p.amount, currency: p.currency, digits: 2).description, currency: p.currency, createdAt: Render.iso(p.createdAt),
                outcome: p.outcome)
        }
    }

    /// The order resource with its refunds through providers, the pending ones sent first when `send`.
    func withMoneyBack(_ resource: OrderResource, send: Bool) -> OrderResource {
        var refunds = moneyBack(resource.parts)
        if send { refunds = sendRefunds(refunds.filter { $0.state == .pending }) + refunds.filter { $0.state != .pending } }
        var out = resource
        out.moneyBack = refunds.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map { r in
            OrderResource.MoneyBack(
                id: r.id, payment: r.paymentID, provider: r.provider, amount: Money(minorUnits: r.amount, currency: r.currency, digits: 2).description,
                currency: r.currency, state: r.state.rawValue, providerRefundID: r.providerRefundID, reason: r.reason, outcome: r.outcome)
        }
        return out
    }

    /// The background round (every 30 s): refunds still pending sent again, and payments still pending
    /// well past their window whose hold is no longer waiting for them (released by the box office, its
    /// show cancelled) settled at their provider: closed unpaid, or paid, then sold late or refunded.
    public func settleMoney() {
        guard !providers.isEmpty, let payments = inventory.store.payments else { return }
        let now = inventory.clock()
        if let pending = try? payments.pendingPaymentRefunds(madeBy: now - 30_000), !pending.isEmpty { sendRefunds(pending) }
        guard let due = try? payments.pendingPayments(dueBy: now - Inventory.paymentGrace) else { return }
        for payment in due {
            // A waitlist's prepayment past its window: paid (the entry in line, or its money back), or
            // closed unpaid (the entry leaves the line).
            if WaitlistEntry.isPrepayment(holdID: payment.holdID) {
                switch paymentState(payment) {
                case .succeeded?: _ = try? inventory.waitlistPrepaid(payment)
                case .canceled?, .failed?:
                    try? inventory.waitlistPrepaymentClosed(payment, why: "closed at \(payment.provider): not paid within its window")
                case .pending?, .refunded?, nil: break
                }
                continue
            }
            // Still paying (its provider not answering): the hold's own expiry asks, not this round.
            guard let hold = try? inventory.store.holdWithSeats(id: payment.holdID)?.record else { continue }
            if hold.state == .active && hold.payment == payment.id { continue }
            switch paymentState(payment) {
            case .succeeded?:
                _ = try? settlePaidLate(payment)
            case .canceled?, .failed?:
                var closed = payment
                closed.state = .canceled
                closed.updatedAt = inventory.clock()
                closed.outcome = "closed at \(payment.provider): its hold had ended unpaid"
                _ = try? inventory.wait(try inventory.beginRecordPayment(closed, action: "payment-closed"))
            case .pending?, .refunded?, nil:
                continue
            }
        }
    }

    /// A payment found paid after its hold ended with no notification: the same seats sold when free,
    /// otherwise the money given back.
    func settlePaidLate(_ stored: PaymentRecord) throws {
        guard let provider = providers[stored.provider] else { return }
        let (late, ticket) = try inventory.beginSellLate(stored)
        if case .sold = late, let ticket {
            try inventory.wait(ticket)
            return
        }
        let why = if case .holdGone(let more) = late { more } else { "its hold had ended" }
        try inventory.wait(try refundLate(stored, why: "late: \(why)", provider: provider))
    }
}
