import SeatJSON

/// `POST /v1/shows/{id}/sales`.
public enum SaleRequest {}

extension SaleRequest: WireBody {
    public static let schemaName = "SaleRequest"
    public static let schema: JSONSchema = .object(
        [
            "seats": .array(.ref(WireSeatID.self), minItems: 1, maxItems: 1000),
            "reservation": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 64),
            "orderRef": .string(pattern: #"^[^/?#%\\\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 128).described(
                #"any characters but control characters and / ? # % \\ (it is a segment of /v1/orders/{orderRef})"#),
            "payment": .string(pattern: "^[a-z0-9_-]{1,32}$"),
            "force": .boolean,
            "prices": .map(.string(pattern: #"^[0-9]+(\.[0-9]+)?$"#), maxProperties: 1000).described(
                "the operator's own price for seats of this sale (seat id → amount), instead of the show's"),
        ], required: ["orderRef", "payment"], closed: true
    ).with {
        $0.oneOf = [
            .constraint(required: ["seats"]).with { $0.not = [.constraint(required: ["reservation"])] },
            .constraint(required: ["reservation"]).with { $0.not = [.constraint(required: ["seats"])] },
        ]
    }.example(#"{"seats":["5-1","5-2"],"orderRef":"BOX-1","payment":"cash"}"#)
}

/// An order as the API returns it.
public enum OrderResource {}

extension OrderResource: WireBody {
    public static let schemaName = "Order"
    public static let schema: JSONSchema = .object(
        [
            "orderRef": .string(),
            "refunds": .array(
                .object(
                    [
                        "seat": .string(),
                        "price": .string(),
                        "refundedAt": .string(format: "date-time"),
                        "reason": .string(),
                        "operator": .string(),
                        "returnedTo": .string().orNull.described("the reservation the seat went back to"),
                    ], required: ["seat", "price", "refundedAt", "reason", "operator"])),
            "parts": .array(
                .object(
                    [
                        "holdId": .string(),
                        "showId": .string(),
                        "channel": .oneOf(["online", "counter"]),
                        "payment": .string(),
                        "operator": .string().orNull,
                        "seats": .array(
                            .object(
                                [
                                    "seat": .string(),
                                    "price": .string(),
                                ], required: ["seat", "price"])),
                        "total": .string(),
                        "currency": .string(),
                        "soldAt": .string(format: "date-time"),
                        "overridden": .string().orNull.described("the rules the operator sold past with force"),
                    ], required: ["holdId", "showId", "channel", "payment", "operator", "seats", "total", "currency", "soldAt", "overridden"])),
        ], required: ["orderRef", "parts", "refunds"])
}

/// `POST /v1/orders/{orderRef}/refund`.
public enum RefundRequest {}

extension RefundRequest: WireBody {
    public static let schemaName = "RefundRequest"
    public static let schema: JSONSchema = .object(
        [
            "seats": .array(.ref(WireSeatID.self), minItems: 1, maxItems: 1000),
            "reason": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 200),
            "returnTo": .oneOf(["reservation", "sale"]).described(
                "where a sold reservation's seats go: back to a reservation like it (the default while its release time is ahead) or on sale"),
        ], required: ["reason"], closed: true
    ).example(#"{"seats":["5-1"],"reason":"customer could not come"}"#)
}
