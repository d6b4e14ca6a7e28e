import SeatWire

/// The operations of paying (#52): a buyer's checkout, and the providers' notifications.
extension APIOperation {
    /// `POST /v1/holds/{token}/checkout`
    static let checkoutHold = APIOperation(
        "checkoutHold",
        "Pay for a hold: a payment with the provider, the hold's seats kept for it until its window ends",
        description:
            "The hold becomes paying: nobody may change it, and its seats are sold when the provider says the payment succeeded. A retried checkout returns the same payment (200).",
        parameters: [.token],
        body: .ref(CheckoutRequest.self),
        answers: [
            .json(201, "the payment, and the hold kept for it", .ref(CheckoutResource.self)),
            .json(200, "the payment made before for this hold", .ref(CheckoutResource.self)),
        ],
        problems: [404, 409, 410, 413, 422, 501, 502, 503])

    /// `POST /v1/holds/{token}/card-setup`
    static let cardSetup = APIOperation(
        "cardSetup",
        "Start paying a Stripe checkout by card on the buyer's page: a SetupIntent for Stripe.js to collect the card into",
        description:
            "Stripe.js confirms it with the card (confirmCardSetup); the card never reaches this server. A new SetupIntent each call (a declined card leaves its own unusable): 5 at once per payment, then one each 5 s.",
        parameters: [.token],
        answers: [.json(201, "the SetupIntent's client secret", .ref(CardSetupResource.self))],
        problems: [404, 409, 410, 422, 429, 502, 503])

    /// `POST /v1/holds/{token}/card-payment`
    static let cardPayment = APIOperation(
        "cardPayment",
        "Charge the hold's Stripe payment to the card set up for it, for the amount the checkout fixed",
        description:
            "succeeded: the signed webhook sells the seats; requires_action: the page finishes 3-D Secure with Stripe.js (confirmCardPayment with the clientSecret given). A declined card is a 402 with the bank's words, and the payment waits for another card.",
        parameters: [.token],
        body: .ref(CardPaymentRequest.self),
        answers: [.json(200, "what charging the card did", .ref(CardPaymentResource.self))],
        problems: [402, 404, 409, 410, 413, 422, 502, 503])

    /// `GET /v1/payments`
    static let paymentOptions = APIOperation(
        "paymentOptions",
        "How a buyer pays on this server: the online providers, their methods (the default first) and whether each takes test money",
        description: "No providers: a buyer's confirm sells without a payment (the counter takes the money).",
        answers: [.json(200, "the providers and the payment window", PaymentOptionsResource.self)],
        problems: [])

    /// `GET /v1/payments/qr.svg`
    static let paymentQR = APIOperation(
        "paymentQR",
        "A payment link (WeChat Pay Native's code_url, Alipay's qr_code) as a QR code for the buyer's page",
        parameters: [.query("text", .string(minLength: 1, maxLength: 512), required: true, example: #""weixin://wxpay/bizpayurl?pr=abc1234""#)],
        answers: [.init(status: 200, description: "the QR code (error correction M, a quiet zone of 4 modules)", content: [("image/svg+xml", nil)])],
        problems: [404, 422])

    /// `POST /v1/payments/{provider}/notify`
    static let paymentNotify = APIOperation(
        "paymentNotify",
        "A payment provider's notification (Stripe's webhook, WeChat Pay's and Alipay's notify), checked the provider's way",
        description:
            "Stripe: the Stripe-Signature header (HMAC-SHA256 of timestamp.body under the endpoint's secret, within 300 s). WeChat Pay API v3: Wechatpay-Signature (RSA-SHA256 over timestamp, nonce and body, by the platform certificate named in Wechatpay-Serial, within 300 s), then the resource opened with the API v3 key (AES-256-GCM). Alipay: the RSA2 sign over the sorted parameters, by Alipay's public key. A paid notification sells the hold's seats in the transaction that records the payment; a forged, stale, unknown or mismatched one changes nothing, is answered 400 and counted in /metrics. Each provider is answered its way: Stripe JSON, WeChat Pay 204, Alipay the text success.",
        parameters: [.path("provider", .oneOf(["stripe", "wechatpay", "alipay"]))],
        body: .object([:]),
        answers: [
            .init(
                status: 200, description: "received (Stripe: JSON; Alipay: the text success)",
                content: [
                    ("application/json", .object(["received": .boolean, "type": .string(), "outcome": .string()], required: ["received"])),
                    ("text/plain", nil),
                ]),
            .empty(204, "received (WeChat Pay)"),
        ],
        problems: [400, 404, 413, 502, 503])

    /// `GET /v1/reports/payments`
    static let paymentsReport = APIOperation(
        "paymentsReport",
        "The payments made in [from, to) (box office), each with its provider id and the order it sold, and every mismatch: "
            + "paid but not sold, sold by another payment, pending past its window, sold but not paid (empty on a healthy day)",
        access: .role(.boxoffice, "see reports"),
        parameters: [
            .cinemaFilter,
            .query("from", .string(), required: true, example: #""2026-12-01T00:00:00+08:00""#),
            .query("to", .string(), required: true, example: #""2026-12-02T00:00:00+08:00""#),
        ],
        answers: [
            .json(200, "the payments and their mismatches", PaymentsReportResource.self)
        ],
        problems: [401, 403, 422, 503])
}

/// Webhooks out (#52): the endpoints an operator's other systems listen on, and what was sent to them.
extension APIOperation {
    static let webhookId = APIOperation.Parameter.path("id", .string(pattern: "^wh_[0-9a-f]{16}$"), example: #""wh_4f1c2a9b0d3e5f67""#)
    static let webhookProblems = [401, 403, 404, 503]

    /// `POST /v1/webhooks`
    static let createWebhook = APIOperation(
        "createWebhook",
        "Add a webhook endpoint (managers): SeatKit posts the events it takes, signed Standard Webhooks style with its secret",
        description:
            "Each delivery carries webhook-id (the event's id: the same in every retry), webhook-timestamp and webhook-signature (v1, and the base64 HMAC-SHA256 of id.timestamp.body). Retried about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after a failure; an endpoint failing for 3 days (or answering 410) is switched off. The secret is in this answer only.",
        access: .role(.manager, "manage webhooks"),
        body: .ref(WebhookEndpointRequest.self),
        answers: [.json(201, "the endpoint, with its secret", .ref(WebhookEndpointResource.self))],
        problems: [401, 403, 409, 413, 422, 503])

    /// `GET /v1/webhooks`
    static let listWebhooks = APIOperation(
        "listWebhooks", "The webhook endpoints (managers), without their secrets", access: .role(.manager, "manage webhooks"),
        answers: [.json(200, "the endpoints", .object(["endpoints": .array(.ref(WebhookEndpointResource.self))], required: ["endpoints"]))],
        problems: [401, 403, 503])

    /// `GET /v1/webhooks/{id}`
    static let getWebhook = APIOperation(
        "getWebhook", "A webhook endpoint (managers): whether it is on, and since when it has been failing", access: .role(.manager, "manage webhooks"),
        parameters: [webhookId], answers: [.json(200, "the endpoint", .ref(WebhookEndpointResource.self))], problems: webhookProblems)

    /// `PATCH /v1/webhooks/{id}`
    static let patchWebhook = APIOperation(
        "patchWebhook", "Change a webhook endpoint (managers): its url, events, secret, or switch it off and on",
        access: .role(.manager, "manage webhooks"), parameters: [webhookId], body: .ref(WebhookEndpointRequest.self),
        answers: [.json(200, "the endpoint", .ref(WebhookEndpointResource.self))], problems: webhookProblems + [413, 422])

    /// `DELETE /v1/webhooks/{id}`
    static let deleteWebhook = APIOperation(
        "deleteWebhook", "Delete a webhook endpoint and its deliveries (managers)", access: .role(.manager, "manage webhooks"),
        parameters: [webhookId], answers: [.empty(204, "deleted")], problems: webhookProblems)

    /// `GET /v1/webhooks/{id}/deliveries`
    static let webhookDeliveries = APIOperation(
        "webhookDeliveries", "An endpoint's recent deliveries, newest first (managers): state, attempts, the last answer",
        access: .role(.manager, "manage webhooks"),
        parameters: [webhookId, .query("limit", .integer(minimum: 1, maximum: 500), required: false, example: "50")],
        answers: [.json(200, "the deliveries", .object(["deliveries": .array(.ref(WebhookDeliveryResource.self))], required: ["deliveries"]))],
        problems: webhookProblems + [422])

    /// `POST /v1/webhooks/{id}/replay`
    static let replayWebhook = APIOperation(
        "replayWebhook", "Send an endpoint's events since a time again (managers): the same event ids, signed anew, in order per show",
        access: .role(.manager, "manage webhooks"), parameters: [webhookId],
        body: .object(["since": .string(format: "date-time")], required: ["since"], closed: true),
        answers: [.json(200, "how many deliveries are due again", .object(["replayed": .integer(minimum: 0)], required: ["replayed"]))],
        problems: webhookProblems + [413, 422])
}
