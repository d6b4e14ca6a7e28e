import Foundation
import SeatDomain
import SeatMap
import SeatSecrets

/// A prepaid waitlist (`details.waitlist.prepay`, Damai's 候补 with prepayment): an entry pays, through a
/// provider, the most its seats can cost when it joins, and is offered nothing before the provider says
/// it was paid. An offer to a paid entry is sold at once with that payment (the buyer need not be
/// there), the difference going back when the seats cost less; the money goes back in full when
/// nothing comes: the buyer leaves, the show begins or is cancelled, or the seats offered cost more
/// (prices rose: the offer is then the buyer's to pay like any other). A refund is written `pending`
/// in a change of the show, then sent by the API (`sendRefunds(with:)`); its id is fixed by the
/// payment and the refunds before it, so two instances writing it write one.
extension Inventory {
    /// How the domain has refunds it wrote sent to their providers (the API's: the domain knows none).
    /// Set once by the app; called off every lock, on the thread that wrote them.
    public func sendRefunds(with send: @escaping @Sendable ([PaymentRefundRecord]) -> Void) {
        refundSender.withLock { $0 = send }
    }

    /// The most `count` seats an entry wants can cost under today's prices: the `count` dearest of them
    /// (a zone's or a category's seats, or any). Under the lock.
    /// - Complexity: O(n log n) in the venue's seats.
    func mostWaitlistSeatsCost(category: String?, zone: String?, count: Int, in state: ShowState) throws(Refusal) -> Money {
        let wanting = WaitlistEntry(
            showID: state.record.id, digest: "", category: category, zone: zone, count: count, attendees: nil, createdAt: 0, updatedAt: 0)
        let pricing = state.currentPricing
        var prices: [Decimal] = []
        for seat in 0..<state.layout.seatCount where Self.wants(wanting, seat, in: state.layout) { prices.append(state.price(of: seat, pricing)) }
        guard prices.count >= count else {
            throw Refusal.invalid(path: "count", "show \(state.record.id) has \(prices.count) such seats, fewer than \(count)")
        }
        let most = prices.sorted(by: >).prefix(count).reduce(Decimal(0), +)
        return Money(most, of: state.prices.table)
    }

    /// What a prepayment's paid notification did.
    public enum PrepaidOutcome: Sendable, Equatable {
        /// The entry is in line, paid (its place, `seq`).
        case inLine(Int64)
        /// Told before.
        case alreadyRecorded
        /// The entry had closed (or is not this server's): the money goes back, by these refunds.
        case refunded([PaymentRefundRecord])
    }

    /// The provider says a prepayment was paid: recorded as succeeded, then its entry marked paid (in
    /// line from now); an entry closed meanwhile (left, the show begun) has its money back instead. The
    /// caller has checked the provider's signature, amount, currency and merchant.
    package func waitlistPrepaid(_ payment: PaymentRecord) throws(Refusal) -> PrepaidOutcome {
        let waitlists = try waitlistStore()
        let digest = String(payment.holdID.dropFirst(2))
        var entry: WaitlistEntry?
        do { entry = try waitlists.waitlistEntry(show: payment.showID, digest: digest) } catch { throw Self.storeRefusal(error) }
        var paid = payment
        paid.updatedAt = clock()
        guard let found = entry, found.payment == payment.id else {
            paid.state = .succeeded
            paid.outcome = "prepaid for no waitlist entry of this server: the money is to go back"
            try wait(try beginRecordPayment(paid, action: "waitlist-prepaid"))
            return .refunded(try refundPrepayment(paid.id, reason: "no waitlist entry took this payment"))
        }
        if found.paidAt != nil { return .alreadyRecorded }
        if payment.state != .succeeded {
            paid.state = .succeeded
            paid.outcome = "prepaid: waitlist entry #\(found.seq)"
            try wait(try beginRecordPayment(paid, action: "waitlist-prepaid"))
        }
        if found.state == .waiting {
            let marked: Bool
            do { marked = try waitlists.markWaitlistPrepaid(show: found.showID, seq: found.seq, at: clock()) } catch { throw Self.storeRefusal(error) }
            if marked {
                metrics.count("waitlist_prepaid")
                nudgeWaitlist()
                return .inLine(found.seq)
            }
            do { entry = try waitlists.waitlistEntry(show: payment.showID, digest: digest) } catch { throw Self.storeRefusal(error) }
            if entry?.paidAt != nil { return .alreadyRecorded }
        }
        return .refunded(try refundPrepayment(payment.id, reason: entry?.outcome ?? "the waitlist entry had closed when its payment came"))
    }

    /// The provider says a prepayment will never be paid (closed at its window's end): recorded as
    /// canceled, and its entry, still waiting for it, leaves the line.
    package func waitlistPrepaymentClosed(_ payment: PaymentRecord, why: String) throws(Refusal) {
        let waitlists = try waitlistStore()
        var closed = payment
        closed.state = .canceled
        closed.updatedAt = clock()
        closed.outcome = why
        try wait(try beginRecordPayment(closed, action: "payment-closed"))
        let found: WaitlistEntry?
        do { found = try waitlists.waitlistEntry(show: payment.showID, digest: String(payment.holdID.dropFirst(2))) } catch {
            throw Self.storeRefusal(error)
        }
        guard var entry = found, entry.payment == payment.id, entry.state == .waiting, entry.paidAt == nil else { return }
        let was = entry
        entry.state = .cancelled
        entry.outcome = "the prepayment was not made in time"
        entry.updatedAt = clock()
        do { _ = try waitlists.updateWaitlistEntry(entry, whenState: was.state, offers: was.offers) } catch { throw Self.storeRefusal(error) }
    }

    /// What is left of a prepayment (not refunded, or refunding) goes back in full: one pending refund
    /// written in a change of its show and handed to the sender. None when nothing is left, when a
    /// refund is already on its way, or when the payment was never taken. Off the lock.
    @discardableResult
    func refundPrepayment(_ paymentID: String, reason: String) throws(Refusal) -> [PaymentRefundRecord] {
        guard let payments = store.payments else { return [] }
        let payment: PaymentRecord?, before: [PaymentRefundRecord]
        do {
            payment = try payments.payment(id: paymentID)
            before = try payments.paymentRefunds(payment: paymentID)
        } catch { throw Self.storeRefusal(error) }
        // Spent on a sale (it names the offer's hold now): the order's money, refunded only with its seats.
        guard let payment, payment.state == .succeeded, WaitlistEntry.isPrepayment(holdID: payment.holdID),
            !before.contains(where: { $0.state == .pending })
        else { return [] }
        let left = payment.amount - before.filter { $0.state != .failed }.reduce(0) { $0 + $1.amount }
        guard left > 0 else { return [] }
        let now = clock()
        let refund = PaymentRefundRecord(
            id: "rf_" + payment.id.dropFirst(4) + "_\(before.count)", paymentID: payment.id, holdID: payment.holdID, showID: payment.showID,
            provider: payment.provider, amount: left, currency: payment.currency, state: .pending, reason: "waitlist: " + reason, createdAt: now,
            updatedAt: now)
        try wait(try beginRecordRefund(refund))
        metrics.count("waitlist_prepayments_refunded")
        refundSender.withLock { $0 }?([refund])
        return [refund]
    }

    /// A closed entry's prepayment settled: paid, its money back; still pending at the provider, asked
    /// there (closed so nobody can pay it, or found paid and given back); nothing when the provider
    /// cannot say (the settling round asks again). Off the lock.
    func settlePrepayment(of entry: WaitlistEntry, reason: String) {
        guard entry.state == .cancelled || entry.state == .lapsed, let id = entry.payment, let stored = try? store.payments?.payment(id: id) else {
            return
        }
        switch stored.state {
        case .succeeded:
            _ = try? refundPrepayment(id, reason: reason)
        case .pending:
            switch paymentQuery.withLock({ $0 })?(stored) {
            case .succeeded?: _ = try? waitlistPrepaid(stored)
            case .canceled?, .failed?: try? waitlistPrepaymentClosed(stored, why: "closed at \(stored.provider): \(reason) before paying")
            case .pending?, .refunded?, nil: break
            }
        case .canceled, .failed, .refunded:
            break
        }
    }

    /// Sells a paid entry's offer at once with its prepayment (the payment now names the offer's hold):
    /// the difference back when the seats cost less. Seats dearer than what was paid (prices rose since)
    /// are not sold so: the prepayment goes back in full and the offer waits for the buyer's checkout.
    /// False when the offer's hold is no longer live. Off the lock.
    @discardableResult
    func sellPrepaidOffer(_ entry: WaitlistEntry, token plain: String) throws(Refusal) -> Bool {
        guard let id = entry.payment, entry.paidAt != nil, let payments = store.payments else { return false }
        let stored: PaymentRecord?
        do { stored = try payments.payment(id: id) } catch { throw Self.storeRefusal(error) }
        guard let payment = stored, payment.state == .succeeded, WaitlistEntry.isPrepayment(holdID: payment.holdID) else { return false }
        // Given back already (the seats were dearer): the offer is the buyer's to pay.
        do { if try payments.paymentRefunds(payment: id).contains(where: { $0.state != .failed }) { return false } } catch {
            throw Self.storeRefusal(error)
        }
        let token = Secrets.tokenDigest(plain)
        let snapshot = try readHold(tokenDigest: token)
        let now = clock()
        enum Outcome {
            case sold(CommitTicket?, [PaymentRefundRecord])
            case dearer(Int64)
            case gone
        }
        let outcome = try lockedForHold(token) { (m: Memory) throws(Refusal) -> Outcome in
            guard let (state, hold) = try? activeHold(token, snapshot: snapshot, in: m) else { return .gone }
            let total = view(hold, in: state, token: plain).total
            let units = NSDecimalNumber(decimal: total.amount * pow(10, total.digits)).int64Value
            guard units <= payment.amount, total.currency == payment.currency else { return .dearer(units) }
            var paid = payment
            paid.holdID = hold.record.id
            paid.seats = hold.seats.map { state.layout.seatID($0) }
            paid.updatedAt = now
            paid.outcome = "sold: waitlist offer to entry #\(entry.seq)"
            var refunds: [PaymentRefundRecord] = []
            if units < payment.amount {
                refunds.append(
                    PaymentRefundRecord(
                        id: "rf_" + payment.id.dropFirst(4) + "_0", paymentID: payment.id, holdID: hold.record.id, showID: payment.showID,
                        provider: payment.provider, amount: payment.amount - units, currency: payment.currency, state: .pending,
                        reason: "waitlist: the seats offered cost less than was prepaid", createdAt: now, updatedAt: now))
            }
            var record = hold
            record.record.payment = payment.id
            let orderRef = "WL-" + String(payment.id.suffix(10)).uppercased()
            let (_, ticket) = try confirm(record, in: state, m, orderRef: orderRef, idempotency: nil, token: plain, payments: [paid], refunds: refunds)
            return .sold(ticket, refunds)
        }
        switch outcome {
        case .gone:
            return false
        case .dearer(let units):
            logger.info("waitlist entry #\(entry.seq) of \(entry.showID): its seats cost \(units), more than the \(payment.amount) prepaid")
            try refundPrepayment(id, reason: "the seats offered cost more than was prepaid (prices rose): pay the offer at its checkout")
            return false
        case .sold(let ticket, let refunds):
            if let ticket { try wait(ticket) }
            metrics.count("waitlist_prepaid_sold")
            if !refunds.isEmpty { refundSender.withLock { $0 }?(refunds) }
            return true
        }
    }

    /// A show begun or cancelled closes its line: each entry still waiting leaves it (cancelled, with
    /// why), its prepayment back or closed. Off the lock.
    func closeWaitlistIfOver(show: String, _ line: inout [WaitlistEntry], _ waitlists: any WaitlistStore) throws {
        let now = clock()
        let why: String? = locked { m in
            guard let state = m.shows[show] else { return nil }
            if state.record.cancelledAt != nil { return "the show was cancelled" }
            if let starts = state.startsAtMilliseconds, starts <= now { return "the show began before seats came back" }
            return nil
        }
        guard let why else { return }
        for (k, e) in line.enumerated() where e.state == .waiting {
            var closed = e
            closed.state = .cancelled
            closed.outcome = why
            closed.updatedAt = now
            guard try waitlists.updateWaitlistEntry(closed, whenState: .waiting, offers: e.offers) else { continue }
            line[k] = closed
            metrics.count("waitlist_closed")
            if e.payment != nil {
                closed.paidAt = try waitlists.waitlistEntry(show: show, digest: e.digest)?.paidAt
                settlePrepayment(of: closed, reason: why)
            }
        }
    }
}
