import Foundation
import SeatDomain
import SeatHTTP
import SeatInventory
import SeatPayments
import SeatWire

/// The card form on the buyer's page (#52): after a Stripe checkout the page collects the card into a
/// SetupIntent with Stripe.js, and this server charges the hold's PaymentIntent with it, for the amount
/// the checkout fixed. The sale itself stays with the signed webhook, as for every payment.
extension SeatAPI {
    /// `POST /v1/holds/{token}/card-setup`: a SetupIntent for the card (a new one each time: a declined
    /// card leaves its own unusable). 5 at once per payment, then one each 5 s (each makes a customer
    /// and a SetupIntent at Stripe).
    func cardSetup(_ token: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let (stripe, payment) = try cardPayment(token)
        if let wait = cardLimiter.wait(payment.id) {
            return rateLimited("too many cards tried for this payment: wait \(Int(wait.rounded(.up))) s", wait: wait, trace: trace)
        }
        let secret = try Self.provider("stripe") { try stripe.cardSetup(paymentID: payment.id) }
        return .json(201, CardSetupResource(clientSecret: secret))
    }

    /// `POST /v1/holds/{token}/card-payment {"setupIntent"}`: the hold's payment charged to the card
    /// set up for it. A decline is a 402 with the bank's words; the payment stays pending for another card.
    func cardPay(_ token: String, _ r: HTTPRequest) throws -> HTTPResponse {
        let request = try RequestBody.decode(r, CardPaymentRequest.init(json:))
        let (stripe, payment) = try cardPayment(token)
        let setup = try Self.provider("stripe") { try stripe.setup(request.setupIntent, for: payment.id) }
        let charge: StripeClient.CardCharge
        switch setup {
        case .foreign:
            throw Refusal(
                .invalidBody, detail: "setupIntent: \(request.setupIntent) was not made for this hold's payment",
                details: [.errors([("setupIntent", "not this payment's")])])
        case .notReady(let status):
            throw Problem(409, "card-not-set-up", "Card not set up", detail: "the SetupIntent is \(status): confirm the card with Stripe.js first")
        case .ready(let customer, let method):
            charge = try Self.provider("stripe") { try stripe.charge(intent: payment.providerID ?? "", customer: customer, paymentMethod: method) }
        }
        let answer: CardPaymentResource
        switch charge {
        case .succeeded: answer = CardPaymentResource(state: "succeeded")
        case .processing: answer = CardPaymentResource(state: "processing")
        case .requiresAction: answer = CardPaymentResource(state: "requires_action", clientSecret: try clientSecret(stripe, payment))
        case .declined(let why):
            inventory.metrics.count("card_declines")
            throw Problem(402, "card-declined", "Card declined", detail: why)
        }
        return .json(200, answer)
    }

    /// The Stripe client and the hold's pending Stripe payment, or why there is no card to pay here.
    func cardPayment(_ token: String) throws -> (StripeClient, PaymentRecord) {
        guard let stripe = providers["stripe"] as? StripeClient, payments.stripe?.publishableKey != nil else {
            throw Problem(
                422, "provider-not-configured", "Payment provider not configured",
                detail: "this server takes no card on the buyer's page (stripe with publishableKey=)")
        }
        let quote = try inventory.checkoutQuote(token: token)
        guard let pending = quote.pending, pending.provider == "stripe", pending.providerID != nil else {
            throw Problem(
                409, "no-card-payment", "No card payment under way", detail: "check the hold out with stripe first (POST /v1/holds/{token}/checkout)")
        }
        return (stripe, pending)
    }

    /// The PaymentIntent's client secret (for Stripe.js to finish 3-D Secure), read again from Stripe:
    /// it is not kept in the store.
    func clientSecret(_ stripe: StripeClient, _ payment: PaymentRecord) throws -> String {
        try Self.provider("stripe") { try stripe.clientSecret(intent: payment.providerID ?? "") }
    }
}
