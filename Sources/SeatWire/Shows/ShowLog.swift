import SeatJSON

/// A page of a show's log (`GET /v1/shows/{id}/log`): every change in version order.
public struct ShowLog: Sendable {
    public struct Line: Sendable {
        public var version: UInt64
        /// RFC 3339 UTC with milliseconds.
        public var at: String
        public var action: String
        /// The operator, or the hold that made the change.
        public var by: String?
        public var operatorName: String?
        public var holdID: String?
        public var reason: String?
        public var orderRef: String?
        /// Each seat and the status the change left it in.
        public var seats: [(seat: String, status: String)]

        public init(
            version: UInt64, at: String, action: String, by: String?, operatorName: String?, holdID: String?, reason: String?, orderRef: String?,
            seats: [(seat: String, status: String)]
        ) {
            self.version = version; self.at = at; self.action = action; self.by = by; self.operatorName = operatorName; self.holdID = holdID
            self.reason = reason; self.orderRef = orderRef; self.seats = seats
        }
    }

    public var showID: String
    public var lines: [Line]
    /// The `since` of the next page; nil at the end.
    public var next: UInt64?

    public init(showID: String, lines: [Line], next: UInt64?) { self.showID = showID; self.lines = lines; self.next = next }

    public func write(into w: inout JSONWriter) {
        func optional(_ s: String?) { if let s { w.string(s) } else { w.raw("null") } }
        w.raw("{"); w.key("showId", first: true); w.string(showID); w.key("lines"); w.raw("[")
        for (k, l) in lines.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("version", first: true); w.number(Int(l.version)); w.key("at"); w.string(l.at)
            w.key("action"); w.string(l.action); w.key("by"); optional(l.by); w.key("operator"); optional(l.operatorName)
            w.key("holdId"); optional(l.holdID); w.key("reason"); optional(l.reason); w.key("orderRef"); optional(l.orderRef)
            w.key("seats"); w.raw("[")
            for (j, s) in l.seats.enumerated() {
                if j > 0 { w.raw(",") }
                w.raw("{"); w.key("seat", first: true); w.string(s.seat); w.key("status"); w.string(s.status); w.raw("}")
            }
            w.raw("]}")
        }
        w.raw("]"); w.key("next"); if let next { w.number(Int(next)) } else { w.raw("null") }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        let lines = o.objects("lines").map { l in
            Line(
                version: UInt64(l.whole("version")), at: l.text("at"), action: l.text("action"), by: l.optionalText("by"),
                operatorName: l.optionalText("operator"), holdID: l.optionalText("holdId"), reason: l.optionalText("reason"),
                orderRef: l.optionalText("orderRef"), seats: l.objects("seats").map { ($0.text("seat"), $0.text("status")) })
        }
        self.init(showID: o.text("showId"), lines: lines, next: o["next"]?.intValue.map(UInt64.init))
    }
}

extension ShowLog: WireBody, WireWritable {
    public static let schemaName = "Log"
    public static let schema: JSONSchema = .object(
        [
            "showId": .string(),
            "next": .integer().orNull.described("the since of the next page (null: this is the end)"),
            "lines": .array(
                .object(
                    [
                        "version": .integer(minimum: 1),
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
