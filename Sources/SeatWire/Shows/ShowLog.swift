import SeatJSON

/// A page of a show's log.
public enum ShowLog {}

extension ShowLog: WireBody {
    public static let schemaName = "Log"
    public static let schema: JSONSchema = .object(
        [
            "showId": .string(),
            "next": .integer().orNull.described("the since of the next page (null: this is the end)"),
            "lines": .array(
                .object(
                    [
                        "version": .integer(),
                        "at": .string(format: "date-time"),
                        "action": .string(),
                        "by": .string().orNull.described("the operator, or the hold that made the change"),
                        "operator": .string().orNull,
                        "holdId": .string().orNull,
                        "reason": .string().orNull,
                        "orderRef": .string().orNull,
                        "seats": .array(
                            .object(
                                [
                                    "seat": .string(),
                                    "status": .oneOf(["available", "held", "sold", "blocked"]),
                                ], required: ["seat", "status"])),
                    ], required: ["version", "at", "action", "by", "seats"])),
        ], required: ["showId", "lines", "next"])
}
