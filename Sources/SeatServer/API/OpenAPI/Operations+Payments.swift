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

    /// `POST /v1/payments/{provider}/notify`
    static let paymentNotify = APIOperation(
        "paymentNotify",
        "A payment provider's notification (Stripe's webhook), checked the provider's way",
        description:
            "Stripe: the Stripe-Signature header (HMAC-SHA256 of timestamp.body under the endpoint's secret, within 300 s). A paid notification sells the hold's seats in the transaction that records the payment; a forged, stale, unknown or mismatched one changes nothing and is counted in /metrics.",
        parameters: [.path("provider", .oneOf(["stripe", "wechatpay", "alipay"]))],
        body: .object([:]),
        answers: [
            .json(200, "received", .object(["received": .boolean, "type": .string(), "outcome": .string()], required: ["received"]))
        ],
        problems: [404, 413, 503])

    /// `GET /v1/reports/payments`
    static let paymentsReport = APIOperation(
        "paymentsReport",
        "The payments made in [from, to) (box office), each with its provider id and the order it sold, and every mismatch: "
            + "paid but not sold, sold by another payment, pending past its window, sold but not paid (empty on a healthy day)",
        access: .role(.boxoffice, "see reports"),
        parameters: [
            .query("from", .string(), required: true, example: #""2026-12-01T00:00:00+08:00""#),
            .query("to", .string(), required: true, example: #""2026-12-02T00:00:00+08:00""#),
        ],
        answers: [
            .json(200, "the payments and their mismatches", PaymentsReportResource.self)
        ],
        problems: [401, 403, 422, 503])
}
