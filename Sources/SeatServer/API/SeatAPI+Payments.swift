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
        if quote.pending == nil { try checkAdmissionDocument(token) }
        guard quote.amount > 0 else {
            throw Problem(422, "nothing-to-pay", "Nothing to pay", detail: "the hold costs nothing: confirm it (POST /v1/holds/{token}/confirm)")
        }
        if let pending = quote.pending, pending.provider != request.provider {
            throw Problem(409, "hold-paying", "Hold being paid for", detail: "the hold is being paid with \(pending.provider): finish that payment")
        }
        guard let provider = providers[request.provider] else { throw Problem.notFound("no payment provider \(request.provider)") }
        try checkMethod(request)
        let now = inventory.clock()
        let paymentID = quote.pending?.id ?? Self.newPaymentID()
        // A retried checkout is the same payment under the same order, whatever reference it names.
        let orderRef = quote.orderRef ?? request.orderRef ?? "WEB-" + String(paymentID.suffix(10)).uppercased()
        let expiresAt = quote.pending?.expiresAt ?? now + Int64(paymentMinutes) * 60_000
        // The same payment id is the same payment at the provider: a retried checkout gets it back.
        let (made, resource) = try askProvider(
            provider,
            PaymentRequest(
                paymentID: paymentID, holdID: quote.holdID, showID: quote.showID, amount: quote.amount, currency: quote.currency,
                description: "SeatKit \(quote.showID) \(orderRef)", method: request.method, payer: request.payer, expiresAt: expiresAt,
                returnURL: returnURL(provider.name, show: quote.showID), payerIP: r.clientAddress), total: quote.total, orderRef: orderRef)
        let record = PaymentRecord(
            id: paymentID, holdID: quote.holdID, showID: quote.showID, provider: provider.name, providerID: made.providerID, amount: quote.amount,
            currency: quote.currency, state: .pending, createdAt: now, updatedAt: now, expiresAt: expiresAt, seats: quote.seats)
        if quote.pending != nil {
            let view = try inventory.hold(token: token)
            return Self.checkoutAnswer(200, resource, view)
        }
        let (view, ticket) = try inventory.beginCheckout(token: token, payment: record, orderRef: orderRef)
        let answer = Self.checkoutAnswer(201, resource, view)
        return afterCommit(ticket, trace: trace) { answer }
    }

    /// A payment asked of `provider` (a hold's checkout, a waitlist's prepayment), refused as a 502 when
    /// the provider made it for another amount or currency; with the resource the buyer's page pays with
    /// (and the local cashier's page when the money is test money).
    func askProvider(
        _ provider: any PaymentProvider, _ request: PaymentRequest, total: Money, orderRef: String?
    ) throws -> (ProviderCheckout, PaymentResource) {
        let made = try Self.provider(provider.name) { try provider.create(request) }
        guard made.amount == request.amount, made.currency == request.currency else {
            throw Problem(502, "provider-failed", "Payment provider failed", detail: "\(provider.name) made a payment of another amount or currency")
        }
        var resource = PaymentResource(
            id: request.paymentID, provider: provider.name, state: "pending", amount: total.description, currency: total.currency,
            expiresAt: Render.iso(request.expiresAt), orderRef: orderRef, clientSecret: made.clientSecret, codeURL: made.codeURL, qrCode: made.qrCode,
            redirectURL: made.redirectURL)
        resource.jsapi = made.jsapi
        if let cashier = payments.localCashier(provider.name) {
            let number = ProviderReference(paymentID: request.paymentID, providerID: nil, amount: request.amount, currency: request.currency)
                .merchantOrderNumber
            resource.testPayURL = cashier + "?provider=\(provider.name)&order=\(number)"
        }
        return (made, resource)
    }

    /// The ways each provider is paid: the first is its default.
    static let methods = ["stripe": ["card"], "wechatpay": ["native", "h5", "jsapi"], "alipay": ["qr", "page", "wap"]]

    /// Where a provider's own page sends the buyer back: the show's page on this server as the public
    /// reaches it (the origin of the provider's `notifyUrl`). Stripe pays on the buyer's page: none.
    func returnURL(_ provider: String, show: String) -> String? {
        let notify = provider == "wechatpay" ? payments.wechatpay?.notifyURL : provider == "alipay" ? payments.alipay?.notifyURL : nil
        guard let notify, let origin = URL(string: "/", relativeTo: notify)?.absoluteURL.absoluteString else { return nil }
        return origin + "shows/" + ProviderHTTP.formEncoded(show)
    }

    /// `GET /v1/payments`: the providers a buyer may pay with here, their methods, and whether it is test money.
    func paymentOptions() -> HTTPResponse {
        let options = payments.onlineProviders.map {
            var option = PaymentOptionsResource.Option(provider: $0, methods: Self.methods[$0] ?? [], testMoney: payments.takesTestMoney($0))
            if $0 == "stripe", let stripe = payments.stripe, let key = stripe.publishableKey {
                option.publishableKey = key
                option.script = stripe.script.absoluteString
            }
            return option
        }
        let body = PaymentOptionsResource(providers: options, paymentMinutes: paymentMinutes).jsonBytes()
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "max-age=60")], body: body)
    }

    /// The texts a payment QR code may hold: WeChat Pay Native's `weixin://wxpay/` links and Alipay's
    /// `https://qr.alipay.com/` ones, at most 512 bytes (a code_url is about 40, a qr_code about 50).
    static let qrPrefixes = ["weixin://wxpay/", "https://qr.alipay.com/"]

    /// `GET /v1/payments/qr.svg?text=`: a provider's payment link as a QR code for the buyer's page
    /// (drawn here rather than by a script library: libqrencode already draws the tickets).
    func paymentQR(_ r: HTTPRequest) throws -> HTTPResponse {
        guard let text = r.query["text"], !text.isEmpty else {
            throw Refusal(.invalidBody, detail: "text: the payment link to draw is required", details: [.errors([("text", "required")])])
        }
        guard text.utf8.count <= 512, Self.qrPrefixes.contains(where: text.hasPrefix) else {
            throw Refusal(
                .invalidBody, detail: "text: only a WeChat Pay (weixin://wxpay/…) or Alipay (https://qr.alipay.com/…) link of at most 512 bytes is drawn",
                details: [.errors([("text", "a payment link")])])
        }
        guard let svg = TicketPicture.svg(text, label: "QR") else { throw Problem.notFound("the link does not fit a QR code") }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "max-age=3600")], body: Array(svg.utf8))
    }

    func checkMethod(_ request: CheckoutRequest) throws {
        let known = Self.methods[request.provider] ?? []
        if let method = request.method, !known.contains(method) {
            throw Refusal(
                .invalidBody, detail: "method: \(request.provider) is paid by \(known.joined(separator: " or ")), not \(method)",
                details: [.errors([("method", "one of \(known.joined(separator: ", "))")])])
        }
        if request.method == "jsapi", request.payer == nil {
            throw Refusal(
                .invalidBody, detail: "payer: a WeChat Pay JSAPI payment needs the buyer's openid", details: [.errors([("payer", "required for jsapi")])])
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
    func paymentsReport(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let (from, to) = try Self.period(r)
        let including = try showsSeen(r, by: who)
        var report = try inventory.paymentsReport(from: from, to: to)
        // An operator of some cinemas sees their shows' payments, and refunds and mismatches of those.
        report.lines = report.lines.filter { including($0.payment.showID) }
        let kept = Set(report.lines.map(\.payment.id))
        if who.cinemas != nil || r.query["cinema"] != nil {
            report.refunds = report.refunds.filter { kept.contains($0.0.paymentID) }
            report.mismatches = report.mismatches.filter { kept.contains($0.paymentID) }
        }
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
                },
                refunds: report.refunds.map { r, orderRef in
                    .init(
                        id: r.id, payment: r.paymentID, provider: r.provider, providerRefundID: r.providerRefundID, state: r.state.rawValue,
                        amount: Money(minorUnits: r.amount, currency: r.currency, digits: 2).description, currency: r.currency, orderRef: orderRef,
                        createdAt: Render.iso(r.createdAt), reason: r.reason, outcome: r.outcome)
                },
                mismatches: report.mismatches.map { .init(payment: $0.paymentID, kind: $0.kind, detail: $0.detail) }
            ).jsonWriter())
    }

    /// `POST /v1/payments/{provider}/notify`: a provider's notification, checked the provider's way
    /// (`PaymentProvider.notification`). Anything forged, stale, for another merchant, not about a
    /// payment SeatKit made, or not for its amount and currency changes nothing, is answered the way the
    /// provider reads a refusal, and counted (`seatkit_payment_notifications_refused_total{reason}`).
    func paymentNotify(_ name: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        guard let provider = providers[name] else { throw Problem.notFound("this server takes no \(name) payments") }
        let metrics = inventory.metrics
        func refuse(_ why: String, _ type: String, _ detail: String) -> Problem {
            metrics.count("payment_notifications_refused_" + why)
            return Problem(400, type, "Notification refused", detail: detail)
        }
        let told: ProviderNotification
        do { told = try provider.notification(header: { r.header($0) }, body: r.body, now: Int(Self.now() / 1000)) } catch {
            let type = ["unreadable": "bad-notification", "merchant": "payment-mismatch"][error.reason] ?? "bad-signature"
            throw refuse(error.reason, type, error.message)
        }
        guard let payment = told.payment else { return Self.received(provider, told.type, outcome: "ignored") }
        // By SeatKit's payment id when the notification carries it (metadata, the merchant's order
        // number), else by the provider's id.
        let stored: PaymentRecord?
        do {
            let payments = inventory.store.payments
            if let id = payment.paymentID {
                stored = try payments?.payment(id: id)
            } else {
                stored = try payments?.payment(provider: name, providerID: payment.providerID)
            }
        } catch {
            throw Problem(503, "store-unavailable", "Store unavailable", detail: "the payment could not be read: \(name) will send it again")
        }
        guard let stored, stored.provider == name else {
            throw refuse("unknown", "unknown-payment", "no \(name) payment of this server is \(payment.paymentID ?? payment.providerID)")
        }
        guard payment.amount == stored.amount, payment.currency == stored.currency, stored.providerID == nil || stored.providerID == payment.providerID else {
            throw refuse(
                "mismatch", "payment-mismatch",
                "the notification's payment does not match \(stored.id): \(payment.providerID) \(payment.amount) \(payment.currency) against \(stored.providerID ?? "-") \(stored.amount) \(stored.currency)"
            )
        }
        metrics.count("payment_notifications")
        guard payment.status == .succeeded else { return Self.received(provider, told.type, outcome: payment.status.rawValue) }
        var paid = stored
        if paid.providerID == nil, !payment.providerID.isEmpty { paid.providerID = payment.providerID }
        // A waitlist entry's prepayment (its hold id `w_…`): the entry is in line from now.
        if WaitlistEntry.isPrepayment(holdID: stored.holdID) { return try prepaymentPaid(paid, provider, type: told.type) }
        // Paid late before and its refund not yet accepted: the refund again (the same one: its key).
        if stored.state == .succeeded, stored.outcome?.hasPrefix("late") == true {
            let recorded = try refundLate(paid, why: stored.outcome ?? "", provider: provider)
            return afterCommit(recorded, trace: trace) { Self.received(provider, told.type, outcome: "refunded") }
        }
        let (outcome, ticket) = try inventory.beginPaid(paid)
        switch outcome {
        case .sold(let orderRef):
            // Waited for here (a provider's call, not a buyer's): when another instance heard the same
            // notification and sold first, this commit is refused; the payment then reads succeeded
            // and the answer is "received", not a 409 the provider would send again for nothing.
            if let ticket {
                do { try inventory.wait(ticket) } catch {
                    guard (try? inventory.store.payments?.payment(id: paid.id))??.state == .succeeded else { throw error }
                    return Self.received(provider, told.type, outcome: "recorded before")
                }
            }
            return Self.received(provider, told.type, outcome: "sold \(orderRef)")
        case .alreadyRecorded:
            return Self.received(provider, told.type, outcome: "recorded before")
        case .holdGone(let why):
            metrics.count("payments_late")
            // The same seats again when they are still free; otherwise the money goes back.
            let (late, lateTicket) = try inventory.beginSellLate(paid)
            if case .sold(let orderRef) = late {
                return afterCommit(lateTicket, trace: trace) { Self.received(provider, told.type, outcome: "sold late \(orderRef)") }
            }
            let reason = if case .holdGone(let more) = late { more } else { why }
            let recorded = try refundLate(paid, why: "late: \(why); \(reason)", provider: provider)
            return afterCommit(recorded, trace: trace) { Self.received(provider, told.type, outcome: "refunded") }
        }
    }

    /// A payment that sold nothing (its hold was gone when it came, its seats taken): first recorded as
    /// paid and late, so a crash between here and the provider's answer leaves it on the reconciliation
    /// report and the provider's retry refunds it; then its money given back through the provider (one
    /// refund: its key is the payment's) and recorded as refunded. A refund the provider refuses leaves
    /// it paid and late (a 502: the provider sends the notification again). The ticket of the record.
    func refundLate(_ stored: PaymentRecord, why: String, provider: any PaymentProvider) throws -> CommitTicket {
        var late = stored
        if late.state != .succeeded {
            late.state = .succeeded
            late.updatedAt = inventory.clock()
            late.outcome = why + "; the money is to go back"
            try inventory.wait(try inventory.beginRecordPayment(late, action: "payment-late"))
        }
        let reference = ProviderReference(paymentID: stored.id, providerID: late.providerID, amount: stored.amount, currency: stored.currency)
        let refund = try Self.provider(provider.name) {
            try provider.refund(reference, amount: stored.amount, key: "refund_" + stored.id, reason: "paid after the seats were released")
        }
        guard refund.state != .failed else {
            throw Problem(
                502, "provider-failed", "Payment provider failed",
                detail: "\(provider.name) refused the refund of \(stored.id): \(refund.reason ?? "no reason given")")
        }
        late.state = .refunded
        late.updatedAt = inventory.clock()
        late.outcome = "refunded (\(refund.id), \(refund.state.rawValue)): " + (why.hasPrefix("late") ? why : "late: " + why)
        inventory.metrics.count("payments_refunded_late")
        return try inventory.beginRecordPayment(late, action: "payment-refunded")
    }

    /// Where `payment` stands at its provider, settled there when it was not paid (closed, so nobody
    /// can pay it any more): what the inventory asks before a paying hold may expire. nil when the
    /// provider could not say.
    func paymentState(_ payment: PaymentRecord) -> PaymentState? {
        guard let provider = providers[payment.provider] else { return nil }
        let reference = ProviderReference(paymentID: payment.id, providerID: payment.providerID, amount: payment.amount, currency: payment.currency)
        switch try? provider.settle(reference) {
        case .succeeded: return .succeeded
        case .pending: return .pending
        case .failed: return .failed
        case .canceled: return .canceled
        case nil: return nil
        }
    }

    static func checkoutAnswer(_ status: Int, _ payment: PaymentResource, _ hold: HoldView) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")],
            body: CheckoutResource(payment: payment, hold: Render.holdResource(hold)).jsonBytes())
    }

    /// A notification taken, answered as its provider expects.
    static func received(_ provider: any PaymentProvider, _ type: String, outcome: String) -> HTTPResponse {
        let answer = provider.answer(accepted: true, type: type, outcome: outcome)
        return HTTPResponse(status: answer.status, headers: [("Content-Type", answer.contentType)], body: answer.body)
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
