/// Where a buyer's payment stands: `pending` from the checkout until the provider says; `succeeded`
/// once it has the money; `failed` when the provider says it never will; `canceled` when SeatKit closed
/// it (the hold ended unpaid, the provider confirmed nothing was taken); `refunded` when the money went
/// back whole (a payment that came after its seats were gone, or a refund of the whole order).
public enum PaymentState: String, Sendable, CaseIterable {
    case pending, succeeded, failed, canceled, refunded
}

/// One payment for one buyer's hold, through one provider: written with the change it belongs to, in
/// the same transaction (the checkout that makes the hold `paying`, the sale a paid notification makes),
/// so a sale never stands without its payment nor a payment recorded as sold without its sale.
public struct PaymentRecord: Sendable, Hashable {
    /// SeatKit's id (`pay_…`, unguessable): the provider's idempotency key and its metadata carry it.
    public var id: String
    public var holdID: String
    public var showID: String
    /// `stripe`, `wechatpay`, `alipay`, or `external` (an operator's own checkout).
    public var provider: String
    /// The provider's own id (a Stripe PaymentIntent `pi_…`, WeChat Pay's or Alipay's trade number):
    /// one payment a provider id, which is how a notification repeated twenty times is one.
    public var providerID: String?
    /// In the currency's minor units (fen for CNY).
    public var amount: Int64
    public var currency: String
    public var state: PaymentState
    /// Unix milliseconds.
    public var createdAt: Int64
    public var updatedAt: Int64
    /// When the payment window ends: the hold's seats are kept for it until then.
    public var expiresAt: Int64
    /// What became of it, in words an operator reads (`sold`, `refunded: the seats were taken`, the
    /// provider's reason for a failure); nil while pending.
    public var outcome: String?
    /// The seat ids it pays for, as the checkout had them: what a payment that comes after its hold
    /// ended sells when they are still free. Empty for a payment SeatKit did not take.
    public var seats: [String]

    public init(
        id: String, holdID: String, showID: String, provider: String, providerID: String?, amount: Int64, currency: String, state: PaymentState,
        createdAt: Int64, updatedAt: Int64, expiresAt: Int64, outcome: String? = nil, seats: [String] = []
    ) {
        self.id = id; self.holdID = holdID; self.showID = showID; self.provider = provider; self.providerID = providerID; self.amount = amount
        self.currency = currency; self.state = state; self.createdAt = createdAt; self.updatedAt = updatedAt; self.expiresAt = expiresAt
        self.outcome = outcome; self.seats = seats
    }
}

/// Money given back through the provider that took it: written `pending` with the seats' refund (in its
/// transaction), then `succeeded` once the provider took it or `failed` with the provider's reason. Its
/// id is the provider's idempotency key, so sending it again (after a crash, from another instance) is
/// the same refund.
public struct PaymentRefundRecord: Sendable, Hashable {
    public enum State: String, Sendable, CaseIterable { case pending, succeeded, failed }
    /// `rf_…`.
    public var id: String
    public var paymentID: String
    public var holdID: String
    public var showID: String
    public var provider: String
    /// Minor units, at most what the payment took less what went back before.
    public var amount: Int64
    public var currency: String
    public var state: State
    /// The provider's id of the refund, once it took it.
    public var providerRefundID: String?
    /// Why the money goes back (the box office's reason, "show cancelled", "exchange").
    public var reason: String
    public var createdAt: Int64
    public var updatedAt: Int64
    /// The provider's words: its reason for a failure.
    public var outcome: String?

    public init(
        id: String, paymentID: String, holdID: String, showID: String, provider: String, amount: Int64, currency: String, state: State,
        providerRefundID: String? = nil, reason: String, createdAt: Int64, updatedAt: Int64, outcome: String? = nil
    ) {
        self.id = id; self.paymentID = paymentID; self.holdID = holdID; self.showID = showID; self.provider = provider; self.amount = amount
        self.currency = currency; self.state = state; self.providerRefundID = providerRefundID; self.reason = reason; self.createdAt = createdAt
        self.updatedAt = updatedAt; self.outcome = outcome
    }
}

/// Where payments are read (both stores). They are written only with a change (`StoreCommit.payments`).
public protocol PaymentStore: AnyObject, Sendable {
    func payment(id: String) throws -> PaymentRecord?
    /// The payment a provider's notification names.
    func payment(provider: String, providerID: String) throws -> PaymentRecord?
    func payments(hold holdID: String) throws -> [PaymentRecord]
    /// Payments made in `[from, to)` (Unix milliseconds), oldest first: the reconciliation report's.
    func payments(from: Int64, to: Int64) throws -> [PaymentRecord]
    /// Pending payments whose window ended by `time`: asked of the provider before their hold may end.
    func pendingPayments(dueBy time: Int64) throws -> [PaymentRecord]
    /// The refunds of a payment, oldest first.
    func paymentRefunds(payment paymentID: String) throws -> [PaymentRefundRecord]
    /// Refunds made in `[from, to)`, oldest first.
    func paymentRefunds(from: Int64, to: Int64) throws -> [PaymentRefundRecord]
    /// Refunds not yet taken by their provider, made by `time`: sent again.
    func pendingPaymentRefunds(madeBy time: Int64) throws -> [PaymentRefundRecord]
}
