import SeatJSON

/// A show as the API returns it.
public enum ShowResource {}

extension ShowResource: WireBody {
    public static let schemaName = "Show"
    public static let schema: JSONSchema = .object([
        "id": .string(),
        "venueId": .string(),
        "startsAt": .string(format: "date-time"),
        "onSale": .boolean.described(
            "whether holds are taken now: false once the show has started, while the manager's switch is off, and after a cancellation"),
        "salesSwitch": .boolean.described("the manager's on-sale switch"),
        "cancelledAt": .string(format: "date-time").orNull,
        "details": .ref(ShowDetails.self),
        "holdSeconds": .integer(),
        "policy": .object(),
        "prices": .object(),
        "priceRevision": .integer().described("how many times the prices changed; holds keep the revision they were made at"),
        "version": .integer(),
        "seats": .object(),
    ])
}

/// What cancelling a show did.
public enum Cancellation {}

extension Cancellation: WireBody {
    public static let schemaName = "Cancellation"
    public static let schema: JSONSchema = .object(
        [
            "showId": .string(),
            "releasedHolds": .integer(),
            "releasedReservations": .integer(),
            "toRefund": .array(.ref(OrderResource.self)),
        ], required: ["showId", "releasedHolds", "releasedReservations", "toRefund"])
}
