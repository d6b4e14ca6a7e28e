import Foundation
import SeatDomain
import SeatHTTP
import SeatInventory
import SeatJSON
import SeatMap
import SeatPayments
import SeatSecrets
import SeatWire

/// The buyer pays before the seats are sold (#52): a checkout asks the provider for a payment and keeps
/// the hold for it; the provider's signed notification sells the seats. The provider is called here,
/// outside the inventory's lock (one call a checkout, at most `ProviderHTTP.timeout`).
extension SeatAPI {
    /// `POST /v1/holds/{token}/checkout`.
    func checkout(_ token: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let request = try RequestBody.decode(r, CheckoutRequest.init(json:))
        guard payments.onlineProviders.contains(request.provider) else {
            throw Problem(
                422, "provider-not-configured", "Payment provider not configured",
                detail: "this server takes " + (payments.onlineProviders.isEmpty ? "no payments online" : payments.onlineProviders.joined(separator: ", ")))
        }
        let quote = try inventory.checkoutQuote(token: token)
        guard quote.amount > 0 else {
            throw Problem(422, "nothing-to-pay", "Nothing to pay", detail: "the hold costs nothing: confirm it (POST /v1/holds/{token}/confirm)")
        }
        if let pending = quote.pending, pending.provider != request.provider {
            throw Problem(409, "hold-paying", "Hold being paid for", detail: "the hold is being paid with \(pending.provider): finish that payment")
        }
        let now = inventory.clock()
        let paymentID = quote.pending?.id ?? Self.newPaymentID()
        let orderRef = request.orderRef ?? "WEB-" + String(paymentID.suffix(10)).uppercased()
        let expiresAt = quote.pending?.expiresAt ?? now + Int64(paymentMinutes) * 60_000
        guard let stripe = payments.stripe, request.provider == "stripe" else {
            throw Problem(501, "provider-not-ready", "Provider not ready", detail: "\(request.provider) checkouts are not built yet: pay with stripe")
        }
        // The same payment id is the same PaymentIntent: a retried checkout gets the same one back.
        let (intent, secret) = try Self.provider("stripe") {
            try StripeClient(settings: stripe).createIntent(
                PaymentRequest(
                    paymentID: paymentID, holdID: quote.holdID, showID: quote.showID, amount: quote.amount, currency: quote.currency,
                    description: "SeatKit \(quote.showID) \(orderRef)"))
        }
        guard intent.amount == quote.amount, intent.currency == quote.currency else {
            throw Problem(502, "provider-failed", "Payment provider failed", detail: "stripe made a payment of another amount or currency")
        }
        let record = PaymentRecord(
            id: paymentID, holdID: quote.holdID, showID: quote.showID, provider: "stripe", providerID: intent.providerID, amount: quote.amount,
            currency: quote.currency, state: .pending, createdAt: now, updatedAt: now, expiresAt: expiresAt)
        let resource = PaymentResource(
            id: paymentID, provider: "stripe", state: "pending", amount: quote.total.description,
            currency: quote.currency, expiresAt: Render.iso(expiresAt), orderRef: orderRef, clientSecret: secret)
        if quote.pending != nil {
            let view = try inventory.hold(token: token)
            return Self.checkoutAnswer(200, resource, view)
        }
        let (view, ticket) = try inventory.beginCheckout(token: token, payment: record, orderRef: orderRef)
        return afterCommit(ticket, trace: trace) {
            Self.checkoutAnswer(201, resource, view)
        }
    }

    /// A confirm's external payment, as the operator's own checkout says it took it: only a `checkout`
    /// key (or a manager's) may say so; the amount must be the hold's total, the reference unused.
    func externalPayment(_ external: ConfirmRequest.ExternalPayment, token: String, _ r: HTTPRequest) throws -> PaymentRecord {
        guard let who = caller({ r.header($0) }) else {
            throw Problem(
                401, "admin-key-required", "Operator key required", detail: "a payment taken outside SeatKit is said by a checkout key",
                headers: [("WWW-Authenticate", "Bearer")])
        }
        guard who.role.allows(.checkout) else {
            throw Problem(
                403, "operator-role-forbidden", "Not allowed for this role",
                detail: "\(who.name) (\(who.role.rawValue)) cannot sell against an external payment: checkouts only")
        }
        let quote = try inventory.checkoutQuote(token: token)
        let total = quote.total
        guard let given = Decimal(string: external.amount), given == total.amount else {
            throw Problem(
                422, "payment-mismatch", "Payment does not match",
                detail: "the payment is \(external.amount) but the hold costs \(total.description) \(quote.currency)")
        }
        let used: PaymentRecord?
        do { used = try inventory.store.payments?.payment(provider: "external", providerID: external.reference) } catch {
            throw Problem(503, "store-unavailable", "Store unavailable", detail: "the payment's reference could not be checked")
        }
        if let used, used.holdID != quote.holdID {
            throw Problem(409, "payment-reference-used", "Payment reference used", detail: "\(external.reference) already paid for another hold")
        }
        let now = inventory.clock()
        return PaymentRecord(
            id: used?.id ?? Self.newPaymentID(), holdID: quote.holdID, showID: quote.showID, provider: "external", providerID: external.reference,
            amount: quote.amount, currency: quote.currency, state: .succeeded, createdAt: now, updatedAt: now, expiresAt: now,
            outcome: "sold (taken by \(who.name))")
    }

    /// `GET /v1/reports/payments?from&to`: the period's payments and every mismatch.
    func paymentsReport(_ r: HTTPRequest) throws -> HTTPResponse {
        let (from, to) = try Self.period(r)
        let report = try inventory.paymentsReport(from: from, to: to)
        func money(_ p: PaymentRecord) -> String { Money(minorUnits: p.amount, currency: p.currency, digits: 2).description }
        return .json(
            200,
            PaymentsReportResource(
                from: Render.iso(from), to: Render.iso(to),
                payments: report.lines.map { l in
                    let p = l.payment
                    return .init(
                        id: p.id, provider: p.provider, providerID: p.providerID, state: p.state.rawValue, amount: money(p), currency: p.currency,
                        holdID: p.holdID, showID: p.showID, orderRef: l.orderRef, createdAt: Render.iso(p.createdAt), outcome: p.outcome)
                }, mismatches: report.mismatches.map { .init(payment: $0.paymentID, kind: $0.kind, detail: $0.detail) }
            ).jsonWriter())
    }

    /// `POST /v1/payments/{provider}/notify`: a provider's notification, checked the provider's way.
    func paymentNotify(_ provider: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        switch provider {
        case "stripe": return try stripeNotify(r, trace: trace)
        default: throw Problem.notFound("no payment provider \(provider) on this server")
        }
    }

    /// `POST /v1/payments/stripe/notify`: Stripe's webhook. Anything not signed by the endpoint's secret
    /// within 300 s, not about a payment SeatKit made, or not for its amount and currency changes
    /// nothing, is answered 400 (Stripe shows it to the operator) and counted.
    func stripeNotify(_ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        guard let stripe = payments.stripe else { throw Problem.notFound("this server takes no Stripe payments") }
        let metrics = inventory.metrics
        func refuse(_ why: String, _ type: String, _ detail: String) -> Problem {
            metrics.count("payment_notifications_refused_" + why)
            return Problem(400, type, "Notification refused", detail: detail)
        }
        do { try StripeSignature.verify(header: r.header("stripe-signature"), body: r.body, secret: stripe.webhookSecret, now: Int(Self.now() / 1000)) } catch {
            let why =
                switch error {
                case .mismatch: "forged"
                case .stale: "stale"
                case .malformed: "unsigned"
                }
            throw refuse(why, "bad-signature", error.description)
        }
        let event: (id: String, type: String, payment: ProviderPayment?)
        do { event = try StripeClient.event(r.body) } catch { throw refuse("unreadable", "bad-notification", "\(error)") }
        guard let told = event.payment else { return Self.received(event.type, outcome: "ignored") }
        let stored: PaymentRecord?
        do { stored = try inventory.store.payments?.payment(provider: "stripe", providerID: told.providerID) } catch {
            throw Problem(503, "store-unavailable", "Store unavailable", detail: "the payment could not be read: Stripe will send it again")
        }
        guard let stored else { throw refuse("unknown", "unknown-payment", "no payment of this server is \(told.providerID)") }
        guard told.paymentID == stored.id, told.amount == stored.amount, told.currency == stored.currency else {
            throw refuse(
                "mismatch", "payment-mismatch",
                "the notification's payment does not match \(stored.id): \(told.amount) \(told.currency) against \(stored.amount) \(stored.currency)")
        }
        metrics.count("payment_notifications")
        guard told.status == .succeeded else { return Self.received(event.type, outcome: told.status.rawValue) }
        // Paid late before and its refund not yet accepted: the refund again (the same one: its key).
        if stored.state == .succeeded, stored.outcome?.hasPrefix("late") == true {
            return try refundLate(stored, why: stored.outcome ?? "", stripe: stripe, type: event.type, trace: trace)
        }
        let (outcome, ticket) = try inventory.beginPaid(stored)
        switch outcome {
        case .sold(let orderRef):
            return afterCommit(ticket, trace: trace) { Self.received(event.type, outcome: "sold \(orderRef)") }
        case .alreadyRecorded:
            return Self.received(event.type, outcome: "recorded before")
        case .holdGone(let why):
            metrics.count("payments_late")
            return try refundLate(stored, why: "late: \(why)", stripe: stripe, type: event.type, trace: trace)
        }
    }

    /// A payment that sold nothing (its hold was gone when it came): first recorded as paid and late, so
    /// a crash between here and the provider's answer leaves it on the reconciliation report and the
    /// provider's retry refunds it; then its money given back through Stripe (one refund: its key is the
    /// payment's) and recorded as refunded. A refund Stripe refuses leaves it paid and late, answered 502
    /// so Stripe sends the notification again.
    func refundLate(_ stored: PaymentRecord, why: String, stripe: StripeSettings, type: String, trace: RequestTrace) throws -> HTTPResponse {
        var late = stored
        if late.state != .succeeded {
            late.state = .succeeded
            late.updatedAt = inventory.clock()
            late.outcome = why + "; the money is to go back"
            try inventory.wait(try inventory.beginRecordPayment(late, action: "payment-late"))
        }
        let refund = try Self.provider("stripe") {
            try StripeClient(settings: stripe).refund(intent: stored.providerID ?? "", amount: nil, key: "refund_" + stored.id)
        }
        guard refund.status == "succeeded" || refund.status == "pending" else {
            throw Problem(502, "provider-failed", "Payment provider failed", detail: "stripe refused the refund of \(stored.id): \(refund.status)")
        }
        late.state = .refunded
        late.updatedAt = inventory.clock()
        late.outcome = "refunded (\(refund.id), \(refund.status)): " + (why.hasPrefix("late") ? why : "late: " + why)
        inventory.metrics.count("payments_refunded_late")
        let recorded = try inventory.beginRecordPayment(late, action: "payment-refunded")
        return afterCommit(recorded, trace: trace) { Self.received(type, outcome: "refunded") }
    }

    /// Where `payment` stands at its provider, settled there when it was not paid (an unpaid Stripe
    /// intent is cancelled): what the inventory asks before a paying hold may expire. nil when the
    /// provider could not say.
    func paymentState(_ payment: PaymentRecord) -> PaymentState? {
        switch payment.provider {
        case "stripe":
            guard let stripe = payments.stripe, let intent = payment.providerID,
                let status = try? StripeClient(settings: stripe).settle(intent: intent)
            else { return nil }
            switch status {
            case .succeeded: return .succeeded
            case .pending: return .pending
            case .failed: return .failed
            case .canceled: return .canceled
            }
        default:
            return nil
        }
    }

    static func checkoutAnswer(_ status: Int, _ payment: PaymentResource, _ hold: HoldView) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")],
            body: CheckoutResource(payment: payment, hold: Render.holdResource(hold)).jsonBytes())
    }

    static func received(_ type: String, outcome: String) -> HTTPResponse {
        var w = JSONWriter()
        w.raw("{"); w.key("received", first: true); w.raw("true"); w.key("type"); w.string(type); w.key("outcome"); w.string(outcome); w.raw("}")
        return .json(200, w)
    }

    /// A provider's call: its refusal a 502 with the provider's words, no answer a 503.
    static func provider<T>(_ name: String, _ call: () throws -> T) throws -> T {
        do { return try call() } catch let error as ProviderError {
            throw Problem(502, "provider-failed", "Payment provider failed", detail: error.description)
        } catch let error as ProviderHTTP.Unreachable {
            throw Problem(503, "provider-unavailable", "Payment provider unavailable", detail: error.description)
        }
    }

    /// `pay_` and 128 random bits: unguessable, as hold tokens are.
    static func newPaymentID() -> String {
        var g = SystemRandomNumberGenerator()
        return "pay_" + SHA256.hex((0..<16).map { _ in g.next() as UInt8 })
    }
}
