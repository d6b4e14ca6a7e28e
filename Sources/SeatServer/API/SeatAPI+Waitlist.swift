import Foundation
import SeatDomain
import SeatHTTP
import SeatInventory
import SeatMap
import SeatPayments
import SeatWire

/// The waitlist's routes (候补): join, see the place or the offer, leave. An entry's token is a
/// capability (a wrong guess is charged as one, `capabilityRoutes`); joins are held to the hold rate
/// of the client, as a hold is.
extension SeatAPI {
    func joinWaitlist(_ showID: String, _ r: HTTPRequest) throws -> HTTPResponse {
        // No such show is a 404 whatever the body, as for a hold.
        if inventory.showSummary(showID) == nil { throw inventory.noSuchShow(showID) }
        let body = try RequestBody.decode(r, WaitlistRequest.init(json:))
        let join = try inventory.prepareWaitlistJoin(
            show: showID, category: body.price, zone: body.zone, count: body.count, attendees: Self.attendees(body.attendees))
        guard let most = join.prepay else {
            if body.prepay != nil {
                throw Refusal.invalid(path: "prepay", "show \(showID)'s waitlist takes no prepayment: join without one")
            }
            return .json(201, Self.waitlist(try inventory.addWaitlistJoin(join, payment: nil)), headers: [("Cache-Control", "no-store")])
        }
        return try prepaidJoin(join, most: most, body.prepay, r)
    }

    /// A prepaid waitlist's join: the provider asked for the most the seats can cost, the payment and
    /// the entry kept (the entry is in line, and offered seats, once the provider says it was paid).
    func prepaidJoin(_ join: Inventory.WaitlistJoin, most: Money, _ prepay: CheckoutRequest?, _ r: HTTPRequest) throws -> HTTPResponse {
        guard let prepay else {
            throw Refusal.invalid(
                path: "prepay",
                "show \(join.showID)'s waitlist is prepaid (\(most.description) \(most.currency)): say how the entry is paid ({\"provider\": …})")
        }
        guard payments.onlineProviders.contains(prepay.provider), let provider = providers[prepay.provider] else {
            throw Problem(
                422, "provider-not-configured", "Payment provider not configured",
                detail: "this server takes " + (payments.onlineProviders.isEmpty ? "no payments online" : payments.onlineProviders.joined(separator: ", ")))
        }
        try checkMethod(prepay)
        let now = inventory.clock()
        let paymentID = Self.newPaymentID()
        let expiresAt = now + Int64(paymentMinutes) * 60_000
        let (made, payment) = try askProvider(
            provider,
            PaymentRequest(
                paymentID: paymentID, holdID: join.holdID, showID: join.showID, amount: join.prepayUnits, currency: most.currency,
                description: "SeatKit \(join.showID) waitlist", method: prepay.method, payer: prepay.payer, expiresAt: expiresAt,
                returnURL: returnURL(provider.name, show: join.showID), payerIP: r.clientAddress), total: most, orderRef: nil)
        let record = PaymentRecord(
            id: paymentID, holdID: join.holdID, showID: join.showID, provider: provider.name, providerID: made.providerID, amount: join.prepayUnits,
            currency: most.currency, state: .pending, createdAt: now, updatedAt: now, expiresAt: expiresAt)
        var resource = Self.waitlist(try inventory.addWaitlistJoin(join, payment: record))
        resource.prepayment = payment
        return .json(201, resource, headers: [("Cache-Control", "no-store")])
    }

    /// `POST /v1/payments/{provider}/notify` of a waitlist's prepayment: the entry in line, or, when it
    /// had closed, the money back (a refund the provider refuses is on the reconciliation report).
    func prepaymentPaid(_ paid: PaymentRecord, _ provider: any PaymentProvider, type: String) throws -> HTTPResponse {
        switch try inventory.waitlistPrepaid(paid) {
        case .inLine(let seq): return Self.received(provider, type, outcome: "waitlist entry #\(seq) in line")
        case .alreadyRecorded: return Self.received(provider, type, outcome: "recorded before")
        case .refunded: return Self.received(provider, type, outcome: "refunded")
        }
    }

    func waitlistEntry(_ token: String) throws -> HTTPResponse {
        .json(200, Self.waitlist(try inventory.waitlistEntry(token: token)), headers: [("Cache-Control", "no-store")])
    }

    func leaveWaitlist(_ token: String) throws -> HTTPResponse {
        .json(200, Self.waitlist(try inventory.leaveWaitlist(token: token)), headers: [("Cache-Control", "no-store")])
    }

    static func waitlist(_ v: Inventory.WaitlistView) -> WaitlistResource {
        func money(_ units: Int64, _ currency: String) -> String { Money(minorUnits: units, currency: currency, digits: 2).description }
        return WaitlistResource(
            entry: v.entry, show: v.showID, state: v.state.rawValue, position: v.position, price: v.category, zone: v.zone, count: v.count,
            offer: v.offer.map { .init(token: $0.token, expiresAt: Render.iso($0.expiresAt), seats: $0.seatIDs) }, createdAt: Render.iso(v.createdAt),
            prepayment: v.prepayment.map { p in
                PaymentResource(
                    id: p.id, provider: p.provider, state: p.state.rawValue, amount: money(p.amount, p.currency), currency: p.currency,
                    expiresAt: Render.iso(p.expiresAt), orderRef: nil)
            }, refunded: v.prepayment.map { money(v.refunded, $0.currency) }, outcome: v.outcome,
            order: v.order.map { WaitlistResource.Order(ref: $0.ref, code: $0.code, seats: $0.seatIDs) })
    }
}
