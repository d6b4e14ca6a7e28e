import SeatJSON
import SeatMap

/// `POST /v1/holds/{token}/card-setup`'s answer: the SetupIntent the buyer's page collects the card
/// into (Stripe.js `confirmCardSetup`).
public struct CardSetupResource: WireWritable, Hashable {
    public var clientSecret: String
    public init(clientSecret: String) { self.clientSecret = clientSecret }

    public func write(into w: inout JSONWriter) { w.raw("{"); w.key("clientSecret", first: true); w.string(clientSecret); w.raw("}") }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        let secret = o.string("clientSecret", at: "", into: &log)
        guard log.isEmpty, let secret else { throw .invalid(log.error) }
        self.init(clientSecret: secret)
    }
}

extension CardSetupResource: WireBody {
    public static let schemaName = "CardSetup"
    public static let schema: JSONSchema = .object(["clientSecret": .string(pattern: "^seti_")], required: ["clientSecret"], closed: true)
        .example(#"{"clientSecret":"seti_1PqX_secret_Zk2"}"#)
}

/// `POST /v1/holds/{token}/card-payment`: charge the hold's payment with the card set up.
public struct CardPaymentRequest: WireWritable, Hashable {
    /// The SetupIntent (`seti_…`) Stripe.js confirmed with the buyer's card.
    public var setupIntent: String
    public init(setupIntent: String) { self.setupIntent = setupIntent }

    public func write(into w: inout JSONWriter) { w.raw("{"); w.key("setupIntent", first: true); w.string(setupIntent); w.raw("}") }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["setupIntent"], at: "", into: &log)
        let id = o.text("setupIntent", into: &log)
        if let id, !id.hasPrefix("seti_") || id.utf8.count > 255 { log.add("setupIntent", "a Stripe SetupIntent id (seti_…), got \"\(id.prefix(40))\"") }
        guard log.isEmpty, let id else { throw .invalid(log.error) }
        self.init(setupIntent: id)
    }
}

extension CardPaymentRequest: WireBody {
    public static let schemaName = "CardPaymentRequest"
    public static let schema: JSONSchema = .object(
        ["setupIntent": .string(pattern: "^seti_", minLength: 6, maxLength: 255)], required: ["setupIntent"], closed: true
    ).example(#"{"setupIntent":"seti_1PqX"}"#)
}

/// `POST /v1/holds/{token}/card-payment`'s answer: `succeeded` (the webhook sells the seats),
/// `processing`, or `requires_action` (the page finishes 3-D Secure with the payment's client secret).
public struct CardPaymentResource: WireWritable, Hashable {
    public static let states = ["succeeded", "processing", "requires_action"]
    public var state: String
    public var clientSecret: String?
    public init(state: String, clientSecret: String? = nil) { self.state = state; self.clientSecret = clientSecret }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("state", first: true); w.string(state)
        if let clientSecret { w.key("clientSecret"); w.string(clientSecret) }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        let state = o.string("state", at: "", into: &log)
        guard log.isEmpty, let state else { throw .invalid(log.error) }
        self.init(state: state, clientSecret: o["clientSecret"]?.stringValue)
    }
}

extension CardPaymentResource: WireBody {
    public static let schemaName = "CardPayment"
    public static let schema: JSONSchema = .object(["state": .oneOf(states), "clientSecret": .string()], required: ["state"], closed: true)
        .example(#"{"state":"succeeded"}"#)
}
