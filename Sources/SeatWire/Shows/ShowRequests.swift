import SeatJSON

/// `PATCH /v1/shows/{id}`.
public enum ShowEdit {}

extension ShowEdit: WireBody {
    public static let schemaName = "ShowEdit"
    public static let schema: JSONSchema = .object(
        [
            "startsAt": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, format: "date-time"),
            "holdSeconds": .integer(minimum: 30, maximum: 3600),
            "details": .ref(ShowDetails.self),
            "onSale": .boolean,
        ], closed: true
    ).with { $0.minProperties = 1 }.example(#"{"onSale":false}"#)
}

/// `POST /v1/shows/{id}/cancel`.
public enum CancelRequest {}

extension CancelRequest: WireBody {
    public static let schemaName = "CancelRequest"
    public static let schema: JSONSchema = .object(
        [
            "reason": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 200)
        ], required: ["reason"], closed: true
    ).example(#"{"reason":"projector failure"}"#)
}

/// `POST /v1/shows`.
public enum ShowRequest {}

extension ShowRequest: WireBody {
    public static let schemaName = "ShowRequest"
    public static let schema: JSONSchema = .object(
        [
            "id": .string(pattern: "^[A-Za-z0-9._-]{1,64}$"),
            "venueId": .string(pattern: "^[A-Za-z0-9._-]{1,64}$"),
            "startsAt": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, format: "date-time"),
            "holdSeconds": .integer(minimum: 30, maximum: 3600),
            "prices": .ref(PriceTableBody.self),
            "policy": .object(),
            "details": .ref(ShowDetails.self),
        ], required: ["id", "venueId", "startsAt", "prices"], closed: true)
}

/// A show's prices (docs/formats/prices-and-policy.md).
public enum PriceTableBody {}

extension PriceTableBody: WireBody {
    public static let schemaName = "PriceTable"
    public static let schema: JSONSchema = .object(
        [
            "currency": .string(pattern: "^[A-Z]{3}$"),
            "minorUnits": .integer(minimum: 0, maximum: 4),
            "categories": .map(.string(pattern: #"^[0-9]+(\.[0-9]+)?$"#), minProperties: 1).described("a price for every category the venue has"),
            "adjustments": .array(),
        ], required: ["categories"], closed: true
    ).described("see docs/formats/prices-and-policy.md")
}
