import SeatJSON

/// A block or house seats as the API returns them.
public enum ReservationResource {}

extension ReservationResource: WireBody {
    public static let schemaName = "Reservation"
    public static let schema: JSONSchema = .object(
        [
            "id": .string(pattern: "^r_[0-9a-f]{28}$"),
            "showId": .string(),
            "kind": .oneOf(["blocked", "house"]),
            "seats": .array(.string()),
            "reason": .string(),
            "releaseAt": .string(format: "date-time").orNull,
            "operator": .string(),
            "createdAt": .string(format: "date-time"),
            "version": .integer(),
        ], required: ["id", "showId", "kind", "seats", "reason", "releaseAt", "operator", "createdAt", "version"])
}

/// `POST /v1/shows/{id}/reservations`.
public enum ReservationRequest {}

extension ReservationRequest: WireBody {
    public static let schemaName = "ReservationRequest"
    public static let schema: JSONSchema = .object(
        [
            "kind": .oneOf(["blocked", "house"]),
            "seats": .array(.ref(WireSeatID.self), minItems: 1, maxItems: 1000),
            "reason": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 200),
            "releaseAt": .string().described(#"an ISO 8601 time, or "N minutes before start""#),
        ], required: ["kind", "seats", "reason"], closed: true
    ).example(#"{"kind":"blocked","seats":["7-1"],"reason":"broken seat"}"#)
}
