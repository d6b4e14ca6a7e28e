import Foundation
import SeatJSON

/// The card form on the buyer's page, the two-step way Stripe documents for a server that finalizes
/// the payment: Stripe.js collects the card into a SetupIntent (the card never touches SeatKit), then
/// the server charges the hold's PaymentIntent with it, so the amount charged is always the one the
/// checkout fixed, whatever the page says. A card that needs 3-D Secure comes back `requiresAction`:
/// the page finishes it with Stripe.js (`confirmCardPayment`) and the webhook sells.
extension StripeClient {
    /// What charging the card did.
    public enum CardCharge: Sendable, Hashable {
        /// Paid: the webhook (`payment_intent.succeeded`) sells the seats.
        case succeeded
        /// Stripe is still processing it; the webhook says how it ended.
        case processing
        /// The bank wants the buyer (3-D Secure): the page finishes it with the intent's client secret.
        case requiresAction
        /// Declined, with the card network's words for the buyer.
        case declined(String)
    }

    /// A SetupIntent for payment `paymentID`'s card, under a customer of its own (a card set up without
    /// a customer may not be charged afterwards): its client secret, for Stripe.js's `confirmCardSetup`.
    /// A new one each call: a declined card leaves its SetupIntent unusable.
    public func cardSetup(paymentID: String) throws -> String {
        let customer = try call(
            "POST", "/v1/customers", body: ProviderHTTP.form([("metadata[payment]", paymentID)]), idempotencyKey: nil)
        guard let customerID = customer["id"]?.stringValue else {
            throw ProviderError(provider: "stripe", status: 200, message: "a customer without an id")
        }
        let setup = try call(
            "POST", "/v1/setup_intents",
            body: ProviderHTTP.form([
                ("customer", customerID), ("usage", "on_session"), ("payment_method_types[]", "card"), ("metadata[payment]", paymentID),
            ]), idempotencyKey: nil)
        guard let secret = setup["client_secret"]?.stringValue else {
            throw ProviderError(provider: "stripe", status: 200, message: "a SetupIntent without a client secret")
        }
        return secret
    }

    /// Why a SetupIntent cannot pay payment `paymentID`, or its customer and card.
    public enum CardSetup: Sendable, Hashable {
        case ready(customer: String, paymentMethod: String)
        /// Not made for this payment (another hold's, or not SeatKit's).
        case foreign
        /// Not set up (yet): Stripe's status.
        case notReady(String)
    }

    /// SetupIntent `id` as Stripe has it, checked against the payment it must be for.
    public func setup(_ id: String, for paymentID: String) throws -> CardSetup {
        guard id.hasPrefix("seti_"), id.utf8.count <= 255, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return .foreign }
        let object = try call("GET", "/v1/setup_intents/" + id, body: nil, idempotencyKey: nil)
        guard object["metadata"]?.objectValue?["payment"]?.stringValue == paymentID else { return .foreign }
        let status = object["status"]?.stringValue ?? "unknown"
        guard status == "succeeded", let customer = object["customer"]?.stringValue, let method = object["payment_method"]?.stringValue else {
            return .notReady(status)
        }
        return .ready(customer: customer, paymentMethod: method)
    }

    /// Charges PaymentIntent `intent` with the card set up for it. A retry after a decline takes
    /// another card; one after success changes nothing (Stripe refuses to confirm a paid intent, and
    /// the intent is read instead).
    public func charge(intent: String, customer: String, paymentMethod: String) throws -> CardCharge {
        do {
            try call(
                "POST", "/v1/payment_intents/" + intent, body: ProviderHTTP.form([("customer", customer), ("payment_method", paymentMethod)]),
                idempotencyKey: nil)
            let confirmed = try call("POST", "/v1/payment_intents/\(intent)/confirm", body: [], idempotencyKey: nil)
            return Self.cardCharge(confirmed)
        } catch let error as ProviderError where error.status == 402 {
            return .declined(error.message)
        } catch let error as ProviderError where error.status == 400 {
            // Paid or being paid already (a second click): what the intent says now.
            let now = try call("GET", "/v1/payment_intents/" + intent, body: nil, idempotencyKey: nil)
            guard ["succeeded", "processing", "requires_action"].contains(now["status"]?.stringValue ?? "") else { throw error }
            return Self.cardCharge(now)
        }
    }

    static func cardCharge(_ intent: JSONObject) -> CardCharge {
        switch intent["status"]?.stringValue {
        case "succeeded": return .succeeded
        case "processing", "requires_capture": return .processing
        case "requires_action": return .requiresAction
        default:
            let error = intent["last_payment_error"]?.objectValue?["message"]?.stringValue
            return .declined(error ?? "the card was not charged (\(intent["status"]?.stringValue ?? "no status"))")
        }
    }
}

extension StripeClient {
    /// PaymentIntent `id`'s client secret, as Stripe keeps it.
    public func clientSecret(intent id: String) throws -> String {
        guard let secret = try call("GET", "/v1/payment_intents/" + id, body: nil, idempotencyKey: nil)["client_secret"]?.stringValue else {
            throw ProviderError(provider: "stripe", status: 200, message: "a PaymentIntent without a client secret")
        }
        return secret
    }
}
