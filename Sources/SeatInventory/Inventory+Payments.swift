import Foundation
import SeatDomain
import SeatMap
import SeatSecrets

/// A buyer's hold sold by its payment: the checkout makes the hold `paying` (its seats kept until the
/// payment window ends, nobody may change it) with a pending payment, in one change; the provider's
/// paid notification sells the seats and records the payment as succeeded, in one durable change. The
/// provider itself is the API's to call (the domain knows none): `checkoutQuote` says what to ask for,
/// `beginCheckout` keeps what the provider answered.
extension Inventory {
    /// What a checkout asks the provider to take for a hold.
    public struct CheckoutQuote: Sendable {
        public var holdID: String
        public var showID: String
        /// The hold's total as it stands now.
        public var total: Money
        /// The total in the currency's minor units (fen): what a provider is asked for.
        public var amount: Int64
        public var currency: String { total.currency }
        /// The hold's pending payment, when a checkout was made already (a retried checkout gets it).
        public var pending: PaymentRecord?
        /// The hold's seat ids: what the payment is for.
        public var seats: [String] = []
        /// The order reference its checkout gave it (a retried checkout keeps it).
        public var orderRef: String? = nil
    }

    /// A buyer's hold a change may not touch while it is being paid for (the checkout set `payment`).
    static func refuseWhilePaying(_ hold: ActiveHold) throws(Refusal) {
        guard hold.record.kind == .buyer, let payment = hold.record.payment else { return }
        throw Refusal(.holdPaying, detail: "the hold is being paid for (payment \(payment)): it is sold when the payment is, or kept until its window ends")
    }

    /// The quote for a live buyer's hold.
    public func checkoutQuote(token plain: String) throws(Refusal) -> CheckoutQuote {
        let token = Secrets.tokenDigest(plain)
        let snapshot = try readHold(tokenDigest: token)
        let (quote, paymentID) = try lockedForHold(token) { (m: Memory) throws(Refusal) -> (CheckoutQuote, String?) in
            let (state, hold) = try activeHold(token, snapshot: snapshot, in: m)
            guard hold.record.kind == .buyer else { throw Refusal(.notFound, detail: "no buyer's hold with this token") }
            // Before any provider is asked for a payment: a real-name hold is paid for only with its attendees.
            if hold.record.payment == nil, let missing = missingAttendees(hold.seats, in: state) { throw missing }
            let total = view(hold, in: state, token: plain).total
            let units = NSDecimalNumber(decimal: total.amount * pow(10, total.digits)).int64Value
            var quote = CheckoutQuote(holdID: hold.record.id, showID: state.record.id, total: total, amount: units, pending: nil)
            quote.seats = hold.seats.map { state.layout.seatID($0) }
            quote.orderRef = hold.record.payment == nil ? nil : hold.record.orderRef
            return (quote, hold.record.payment)
        }
        guard let paymentID else { return quote }
        var withPending = quote
        do { withPending.pending = try store.payments?.payment(id: paymentID) } catch { throw Self.storeRefusal(error) }
        return withPending
    }

    /// Keeps `payment` (pending, with the provider's id) for the hold and makes the hold `paying`: its
    /// expiry moves to the payment's window, its order reference is set. Refused when the hold changed
    /// since the quote (another checkout, a change of seats: its total is no longer the payment's).
    package func beginCheckout(token plain: String, payment: PaymentRecord, orderRef: String) throws(Refusal) -> (HoldView, CommitTicket) {
        let token = Secrets.tokenDigest(plain)
        let snapshot = try readHold(tokenDigest: token)
        return try lockedForHold(token) { (m: Memory) throws(Refusal) -> (HoldView, CommitTicket) in
            let (state, hold) = try activeHold(token, snapshot: snapshot, in: m)
            try Self.refuseWhilePaying(hold)
            guard hold.record.id == payment.holdID else { throw Refusal(.notFound, detail: "the payment is for another hold") }
            if let missing = missingAttendees(hold.seats, in: state) { throw missing }
            guard Set(payment.seats) == Set(hold.seats.map { state.layout.seatID($0) }) else {
                throw Refusal(.holdPaying, detail: "the hold's seats changed while its payment was being made: check out again")
            }
            var record = hold.record
            record.payment = payment.id
            record.orderRef = orderRef
            record.expiresAt = max(record.expiresAt, payment.expiresAt)
            let ticket = try apply(
                state, in: m, changes: [], holds: [record], durable: true, payments: [payment],
                log: LogEntry(action: "checkout", holdID: record.id, reason: "\(payment.provider) \(payment.providerID ?? "")", orderRef: orderRef))
            let updated = ActiveHold(record: record, seats: hold.seats)
            state.holds[token] = updated
            metrics.count("checkouts")
            return (view(updated, in: state, token: plain), ticket)
        }
    }

    /// What a paid notification did.
    public enum PaidOutcome: Sendable, Equatable {
        /// The seats are sold under the order, the payment recorded as succeeded.
        case sold(orderRef: String)
        /// Told before: nothing more to do.
        case alreadyRecorded
        /// The hold this payment was for is no longer waiting for it (it ended, or another payment sold
        /// it): the money is to go back (`payment.late`).
        case holdGone(String)
    }

    /// The provider says `payment` (as stored at the checkout) was paid: its hold's seats are sold and
    /// the payment recorded as succeeded in one durable change. The caller has checked the provider's
    /// signature, amount, currency and merchant.
    package func beginPaid(_ payment: PaymentRecord) throws(Refusal) -> (PaidOutcome, CommitTicket?) {
        if payment.state == .succeeded || payment.state == .refunded { return (.alreadyRecorded, nil) }
        let read: (record: HoldRecord, seats: [Int])?
        do { read = try store.holdWithSeats(id: payment.holdID) } catch { throw Self.storeRefusal(error) }
        guard let read else { return (.holdGone("no hold \(payment.holdID)"), nil) }
        let token = read.record.tokenDigest
        let snapshot = HoldSnapshot(tokenDigest: token, read: read)
        return try locked { (m: Memory) throws(Refusal) -> (PaidOutcome, CommitTicket?) in
            // As the store has it when others write it too; never expired here by the clock: a paying
            // hold ends only when its provider says it was not paid (`settlePaying`).
            if mode.followsOthers { apply(snapshot, in: m) }
            guard let showID = m.holdShow[token], let state = m.shows[showID], let hold = state.holds[token] else {
                if read.record.state == .confirmed, read.record.payment == payment.id { return (.alreadyRecorded, nil) }
                if let (ending, _) = m.endedHolds[token], ending == .confirmed, read.record.payment == payment.id { return (.alreadyRecorded, nil) }
                return (.holdGone("the hold ended before the payment came"), nil)
            }
            guard hold.record.payment == payment.id else { return (.holdGone("the hold is being paid by another payment"), nil) }
            let orderRef = hold.record.orderRef ?? payment.id
            var paid = payment
            paid.state = .succeeded
            paid.updatedAt = clock()
            paid.outcome = "sold"
            let (_, ticket) = try confirm(hold, in: state, m, orderRef: orderRef, idempotency: nil, token: "", payments: [paid])
            metrics.count("payments_sold")
            return (.sold(orderRef: orderRef), ticket)
        }
    }

    /// A payment that came after its hold ended unpaid (expired, released): the same seats sold to it
    /// when every one is still free and the show is on (big-neon #1189: "try to reserve the tickets
    /// again"), as a new sale under the hold's order reference and prices, the payment recorded against
    /// it in the same durable change; otherwise `.holdGone` with why, and the money is to go back.
    package func beginSellLate(_ payment: PaymentRecord) throws(Refusal) -> (PaidOutcome, CommitTicket?) {
        let read: (record: HoldRecord, seats: [Int])?
        do { read = try store.holdWithSeats(id: payment.holdID) } catch { throw Self.storeRefusal(error) }
        guard let read else { return (.holdGone("no hold \(payment.holdID)"), nil) }
        guard !payment.seats.isEmpty else { return (.holdGone("the payment names no seats"), nil) }
        guard read.record.state == .expired || read.record.state == .released, read.record.kind == .buyer else {
            return (.holdGone("the hold is \(read.record.state.rawValue)"), nil)
        }
        let now = clock()
        let (random, token) = Self.randomIDAndToken(prefix: idPrefix(show: read.record.showID, now))
        return try lockedWhenFresh(show: read.record.showID) { (m: Memory) throws(Refusal) -> (PaidOutcome, CommitTicket?) in
            let state = try state(forShow: read.record.showID, in: m)
            if state.record.cancelledAt != nil { return (.holdGone("the show was cancelled"), nil) }
            // Its attendees went with the hold (their documents may be another's seats now): not sold without them.
            if state.realName.isOn { return (.holdGone("a real-name show's seats are sold only with their attendees, who left with the hold"), nil) }
            var seats: [SeatIndex] = []
            for id in payment.seats {
                guard let seat = state.layout.index(ofSeatID: id) else { return (.holdGone("seat \(id) is no longer in the show"), nil) }
                seats.append(seat)
            }
            seats.sort()
            let taken = seats.filter { state.availability[$0] != .available }
            guard taken.isEmpty else {
                let names = taken.prefix(5).map { state.layout.seatID($0) }.joined(separator: ", ")
                return (.holdGone("its seats were taken meanwhile (\(names))"), nil)
            }
            let orderRef = read.record.orderRef ?? payment.id
            var record = read.record
            record.id = "h_" + random
            record.tokenDigest = Secrets.tokenDigest(token)
            record.state = .confirmed
            record.orderRef = orderRef
            record.payment = payment.id
            record.expiresAt = now
            record.createdAt = now
            record.reason = "sold late: hold \(read.record.id) had \(read.record.state.rawValue) when payment \(payment.id) came"
            var paid = payment
            paid.holdID = record.id
            paid.state = .succeeded
            paid.updatedAt = now
            paid.outcome = "sold late (hold \(read.record.id) had \(read.record.state.rawValue)): the same seats were still free"
            let ticket = try apply(
                state, in: m, changes: seats.map { SeatChange(seat: $0, status: .sold) },
                insert: seats.map { Claim(seat: $0, status: .sold, holdID: record.id) },
                holds: [record], durable: true, payments: [paid],
                log: LogEntry(action: "sell-late", holdID: record.id, reason: record.reason, orderRef: orderRef))
            m.recentOrders.insert(orderRef)
            metrics.count("payments_sold_late")
            return (.sold(orderRef: orderRef), ticket)
        }
    }

    /// Records what became of a payment that sells nothing (a late one, a failure, a cancellation): an
    /// empty change of its show, so the payment is written in a transaction of the show's like any other.
    package func beginRecordPayment(_ payment: PaymentRecord, action: String) throws(Refusal) -> CommitTicket {
        try locked { (m: Memory) throws(Refusal) -> CommitTicket in
            guard let state = m.shows[payment.showID] else { throw Refusal(.notFound, detail: "no show \(payment.showID)") }
            return try apply(
                state, in: m, changes: [], holds: [], durable: true, payments: [payment],
                log: LogEntry(action: action, holdID: payment.holdID, reason: payment.outcome))
        }
    }

    /// How long past its window a paying hold waits for its provider to say (10 minutes: a provider
    /// down longer costs the buyer the seats, and a payment after that is refunded).
    public static let paymentGrace: Int64 = 600_000
    /// Asked of one payment at most this often while its hold waits (10 s).
    static let paymentAskInterval: Int64 = 10_000

    /// How the domain asks where a payment stands (the API's providers: the domain knows none): the
    /// answer, or nil when the provider could not say. Set once by the app.
    public func askPayments(with query: @escaping @Sendable (PaymentRecord) -> PaymentState?) {
        paymentQuery.withLock { $0 = query }
    }

    /// A paying hold past its window: its provider asked (not more than every 10 s); paid, it is sold;
    /// closed unpaid, it expires with its payment recorded as canceled; still being paid, or the
    /// provider not answering, it waits. Called outside the lock.
    func settlePaying(token: String, payment id: String) -> CommitTicket? {
        let now = clock()
        let due = paymentsAsked.withLock { asked -> Bool in
            if let last = asked[id], now - last < Self.paymentAskInterval { return false }
            asked[id] = now
            return true
        }
        guard due, let query = paymentQuery.withLock({ $0 }) else { return nil }
        let stored: PaymentRecord?
        do { stored = try store.payments?.payment(id: id) } catch {
            storeTrouble("reading a payment before its hold expires", error)
            return nil
        }
        guard let stored, stored.state == .pending, let verdict = query(stored) else { return nil }
        switch verdict {
        case .succeeded:
            paymentsAsked.withLock { $0[id] = nil }
            return try? beginPaid(stored).1
        case .canceled, .failed, .refunded:
            paymentsAsked.withLock { $0[id] = nil }
            var closed = stored
            closed.state = .canceled
            closed.updatedAt = clock()
            closed.outcome = "the payment window ended unpaid"
            return try? locked { (m: Memory) throws(Refusal) -> CommitTicket? in
                guard let showID = m.holdShow[token], let state = m.shows[showID], let hold = state.holds[token], hold.record.payment == id else {
                    return nil
                }
                metrics.count("holds_expired")
                return try end(hold, as: .expired, in: state, m, payments: [closed])
            }
        case .pending:
            return nil
        }
    }
}

extension Inventory {
    /// The online payments that sold `holds` (a provider took the money, so it goes back the same way),
    /// each with what is left of it to give back. Read from the store: call off the lock.
    func paymentsToRefund(_ holds: [HoldRecord]) throws -> [String: (payment: PaymentRecord, left: Int64)] {
        guard let payments = store.payments else { return [:] }
        var out: [String: (payment: PaymentRecord, left: Int64)] = [:]
        for hold in holds {
            guard let id = hold.payment, id.hasPrefix("pay_"), let payment = try payments.payment(id: id),
                Self.onlineProviders.contains(payment.provider), payment.state == .succeeded
            else { continue }
            let given = try payments.paymentRefunds(payment: id).filter { $0.state != .failed }.reduce(0) { $0 + $1.amount }
            out[hold.id] = (payment, payment.amount - given)
        }
        return out
    }

    /// The providers whose money SeatKit gives back itself (an `external` payment is the operator's own
    /// checkout's to refund).
    static let onlineProviders: Set<String> = ["stripe", "wechatpay", "alipay"]

    /// The refunds through providers for `seats` given back: one a paid sale, for those seats' prices
    /// as sold (never more than is left of the payment), `pending` until its provider takes it.
    /// Called under the lock.
    func providerRefunds(
        _ seats: [(state: ShowState, record: HoldRecord, seat: Int)], paid: [String: (payment: PaymentRecord, left: Int64)], reason: String, now: Int64,
        fees: [String: Decimal] = [:]
    ) -> [PaymentRefundRecord] {
        var out: [PaymentRefundRecord] = []
        for holdID in Set(seats.map(\.record.id)).sorted() {
            guard let (payment, left) = paid[holdID], left > 0 else { continue }
            let part = seats.filter { $0.record.id == holdID }
            let total = orderPart(part[0].record, seats: part.map(\.seat), in: part[0].state).total
            // The buyer's refund fee (`refundTiers`) is kept: the provider gives back the rest.
            let kept = part.reduce(Decimal(0)) { $0 + (fees["\(holdID)#\($1.seat)"] ?? 0) }
            let units = min(left, NSDecimalNumber(decimal: (total.amount - kept) * pow(10, total.digits)).int64Value)
            guard units > 0 else { continue }
            let (random, _) = Self.randomIDAndToken(prefix: idPrefix(show: payment.showID, now))
            out.append(
                PaymentRefundRecord(
                    id: "rf_" + random, paymentID: payment.id, holdID: holdID, showID: payment.showID, provider: payment.provider, amount: units,
                    currency: payment.currency, state: .pending, reason: reason, createdAt: now, updatedAt: now))
        }
        return out
    }

    /// Records what a provider said of a refund (taken, or refused with its reason), in a change of its
    /// show like any other write.
    package func beginRecordRefund(_ refund: PaymentRefundRecord) throws(Refusal) -> CommitTicket {
        try locked { (m: Memory) throws(Refusal) -> CommitTicket in
            guard let state = m.shows[refund.showID] else { throw Refusal(.notFound, detail: "no show \(refund.showID)") }
            return try apply(
                state, in: m, changes: [], holds: [], durable: true, paymentRefunds: [refund],
                log: LogEntry(action: "refund-\(refund.state.rawValue)", holdID: refund.holdID, reason: "\(refund.provider) \(refund.outcome ?? "")"))
        }
    }
}

/// Every payment of a period beside what it sold, and every way the two disagree (`GET
/// /v1/reports/payments`): a healthy day has no mismatch.
public struct PaymentsReport: Sendable {
    public struct Line: Sendable {
        public var payment: PaymentRecord
        /// The order it sold, when its hold is sold.
        public var orderRef: String?
    }

    public struct Mismatch: Sendable, Hashable {
        public var paymentID: String
        /// `paid-not-sold`, `sold-by-another-payment`, `pending-past-window`, `sold-not-paid`, `prepaid-not-refunded`.
        public var kind: String
        public var detail: String
    }

    public var lines: [Line]
    /// The period's refunds through providers, each with the order its payment sold.
    public var refunds: [(refund: PaymentRefundRecord, orderRef: String?)] = []
    public var mismatches: [Mismatch]
}

extension Inventory {
    /// The payments made in `[from, to)`, each with its hold as the store has it now, and the mismatches:
    /// money taken and nothing sold (and not refunded), a hold sold by another payment than one that
    /// succeeded for it, a payment still pending long past its window, a hold sold against a payment
    /// that did not succeed.
    /// - Complexity: one store read for the period, one a payment for its hold.
    public func paymentsReport(from: Int64, to: Int64) throws(Refusal) -> PaymentsReport {
        guard let payments = store.payments else { return PaymentsReport(lines: [], mismatches: []) }
        var report = PaymentsReport(lines: [], mismatches: [])
        var lines: [PaymentsReport.Line] = [], mismatches: [PaymentsReport.Mismatch] = []
        let now = clock()
        do {
            for p in try payments.payments(from: from, to: to) {
                if WaitlistEntry.isPrepayment(holdID: p.holdID) {
                    lines.append(PaymentsReport.Line(payment: p, orderRef: nil))
                    if let kind = try prepaymentMismatch(p, now: now) { mismatches.append(.init(paymentID: p.id, kind: kind.0, detail: kind.1)) }
                    continue
                }
                let hold = try store.holdWithSeats(id: p.holdID)?.record
                let sold = hold?.state == .confirmed
                lines.append(PaymentsReport.Line(payment: p, orderRef: sold ? hold?.orderRef : nil))
                func mismatch(_ kind: String, _ detail: String) { mismatches.append(.init(paymentID: p.id, kind: kind, detail: detail)) }
                switch p.state {
                case .succeeded where !sold:
                    mismatch(
                        "paid-not-sold",
                        "\(p.provider) took \(p.amount) \(p.currency) and hold \(p.holdID) is \(hold?.state.rawValue ?? "gone"): \(p.outcome ?? "")")
                case .succeeded where hold?.payment != p.id && p.provider != "external":
                    mismatch("sold-by-another-payment", "hold \(p.holdID) was sold by payment \(hold?.payment ?? "none"): this one is to go back")
                case .pending where now > p.expiresAt + Self.paymentGrace:
                    mismatch("pending-past-window", "still pending \((now - p.expiresAt) / 60_000) minutes after its window ended")
                case .succeeded, .pending:
                    break
                case .canceled, .failed, .refunded:
                    if sold && hold?.payment == p.id {
                        mismatch(
                            "sold-not-paid", "hold \(p.holdID) is sold as order \(hold?.orderRef ?? "") against this payment, which is \(p.state.rawValue)")
                    }
                }
            }
            // Money back: refused by the provider, or not taken an hour on, or more than the payment took.
            for r in try payments.paymentRefunds(from: from, to: to) {
                let hold = try store.holdWithSeats(id: r.holdID)?.record
                report.refunds.append((r, hold?.orderRef))
                func mismatch(_ kind: String, _ detail: String) { mismatches.append(.init(paymentID: r.paymentID, kind: kind, detail: detail)) }
                switch r.state {
                case .failed: mismatch("refund-failed", "\(r.provider) refused refund \(r.id) of \(r.amount) \(r.currency): \(r.outcome ?? "no reason given")")
                case .pending where now - r.createdAt > 3_600_000:
                    mismatch("refund-pending", "refund \(r.id) not taken by \(r.provider) \((now - r.createdAt) / 60_000) minutes on")
                case .pending, .succeeded: break
                }
                if let paid = try payments.payment(id: r.paymentID) {
                    let back = try payments.paymentRefunds(payment: r.paymentID).filter { $0.state != .failed }.reduce(0) { $0 + $1.amount }
                    if back > paid.amount, r.id == (try payments.paymentRefunds(payment: r.paymentID).last?.id) {
                        mismatch("refunded-more-than-paid", "\(back) \(r.currency) back of \(paid.amount) taken")
                    }
                }
            }
        } catch { throw Self.storeRefusal(error) }
        report.lines = lines
        report.mismatches = mismatches
        return report
    }

    /// A waitlist's prepayment not yet spent on a sale (its hold id still the entry's): money kept for
    /// an entry that closed is a mismatch until all of it is back; one pending long past its window too.
    private func prepaymentMismatch(_ p: PaymentRecord, now: Int64) throws -> (String, String)? {
        switch p.state {
        case .pending where now > p.expiresAt + Self.paymentGrace:
            return ("pending-past-window", "still pending \((now - p.expiresAt) / 60_000) minutes after its window ended")
        case .succeeded:
            let entry = try store.waitlists?.waitlistEntry(show: p.showID, digest: String(p.holdID.dropFirst(2)))
            guard let entry, !entry.state.isOpen else { return nil }
            let back = try store.payments?.paymentRefunds(payment: p.id).filter { $0.state != .failed }.reduce(0) { $0 + $1.amount } ?? 0
            guard back < p.amount else { return nil }
            return (
                "prepaid-not-refunded", "waitlist entry #\(entry.seq) is \(entry.state.rawValue) and \(p.amount - back) \(p.currency) of its prepayment is kept"
            )
        default:
            return nil
        }
    }
}
