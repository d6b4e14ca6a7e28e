import SeatJSON

/// `GET /v1/shows/{id}/report`: what a show sold. The numbers add up: the statuses are the venue's
/// seats, each split of the revenue sums to `net`, and `gross − refunded = net`.
public struct ShowReportResource: Sendable {
    public struct Zone: Sendable {
        public var zone: String
        public var category: String
        public var byStatus: StatusCountsBody
        public init(zone: String, category: String, byStatus: StatusCountsBody) { self.zone = zone; self.category = category; self.byStatus = byStatus }
    }

    public var showID: String
    public var version: UInt64
    public var seats: Int
    public var byStatus: StatusCountsBody
    public var zones: [Zone]
    /// Sold seats over all seats, to four decimals.
    public var occupancy: Double
    public var currency: String
    /// Amounts are exact decimal text.
    public var gross: String, refunded: String, net: String
    public var byCategory: [(String, String)], byChannel: [(String, String)], byPayment: [(String, String)]
    public var orders: Int
    public var refundedSeats: Int
    /// Of the refunded seats, those given back in an exchange; and the exchange fees (in `gross` and `net`).
    public var exchangedSeats = 0
    public var fees = "0"
    /// Tickets scanned in at the door at least once (how many came), and inside now.
    public var came: Int, inside: Int

    public init(
        showID: String, version: UInt64, seats: Int, byStatus: StatusCountsBody, zones: [Zone], occupancy: Double, currency: String,
        gross: String, refunded: String, net: String, byCategory: [(String, String)], byChannel: [(String, String)],
        byPayment: [(String, String)], orders: Int, refundedSeats: Int, came: Int = 0, inside: Int = 0
    ) {
        self.came = came; self.inside = inside
        self.showID = showID; self.version = version; self.seats = seats; self.byStatus = byStatus; self.zones = zones
        self.occupancy = occupancy; self.currency = currency; self.gross = gross; self.refunded = refunded; self.net = net
        self.byCategory = byCategory; self.byChannel = byChannel; self.byPayment = byPayment; self.orders = orders
        self.refundedSeats = refundedSeats
    }

    public func write(into w: inout JSONWriter) {
        func split(_ name: String, _ pairs: [(String, String)]) {
            w.key(name); w.raw("{")
            for (k, (key, value)) in pairs.enumerated() { w.key(key, first: k == 0); w.string(value) }
            w.raw("}")
        }
        w.raw("{"); w.key("showId", first: true); w.string(showID); w.key("version"); w.number(Int(version)); w.key("seats"); w.number(seats)
        w.key("byStatus"); byStatus.write(into: &w)
        w.key("zones"); w.raw("[")
        for (k, z) in zones.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("zone", first: true); w.string(z.zone); w.key("category"); w.string(z.category)
            w.key("byStatus"); z.byStatus.write(into: &w); w.raw("}")
        }
        w.raw("]")
        w.key("occupancy"); w.number(occupancy)
        w.key("revenue"); w.raw("{"); w.key("currency", first: true); w.string(currency)
        w.key("gross"); w.string(gross); w.key("refunded"); w.string(refunded); w.key("net"); w.string(net); w.key("fees"); w.string(fees)
        split("byCategory", byCategory); split("byChannel", byChannel); split("byPayment", byPayment); w.raw("}")
        w.key("orders"); w.number(orders); w.key("refundedSeats"); w.number(refundedSeats); w.key("exchangedSeats"); w.number(exchangedSeats)
        w.key("came"); w.number(came); w.key("inside"); w.number(inside)
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        let revenue = o.object("revenue")
        self.init(
            showID: o.text("showId"), version: UInt64(o.whole("version")), seats: o.whole("seats"), byStatus: StatusCountsBody(o.object("byStatus")),
            zones: o.objects("zones").map { Zone(zone: $0.text("zone"), category: $0.text("category"), byStatus: StatusCountsBody($0.object("byStatus"))) },
            occupancy: o["occupancy"]?.doubleValue ?? 0, currency: revenue.text("currency"), gross: revenue.text("gross"),
            refunded: revenue.text("refunded"), net: revenue.text("net"), byCategory: revenue.textMap("byCategory"),
            byChannel: revenue.textMap("byChannel"), byPayment: revenue.textMap("byPayment"), orders: o.whole("orders"),
            refundedSeats: o.whole("refundedSeats"), came: o.whole("came"), inside: o.whole("inside"))
        exchangedSeats = o.whole("exchangedSeats")
        fees = revenue.optionalText("fees") ?? "0"
    }
}

extension ShowReportResource: WireBody, WireWritable {
    public static let schemaName = "ShowReport"
    public static let schema: JSONSchema = .object(
        [
            "showId": .string(),
            "version": .integer(minimum: 0),
            "seats": .integer(minimum: 0),
            "byStatus": .ref(StatusCountsBody.self),
            "zones": .array(
                .object(["zone": .string(), "category": .string(), "byStatus": .ref(StatusCountsBody.self)], required: ["zone", "category", "byStatus"])),
            "occupancy": .number.with {
                $0.minimum = 0; $0.maximum = 1
            },
            "revenue": .object(
                [
                    "currency": .string(pattern: "^[A-Z]{3}$"),
                    "gross": WireMoney.schema,
                    "refunded": WireMoney.schema,
                    "net": WireMoney.schema,
                    "fees": WireMoney.schema.described("exchange fees (in gross and net; not in byCategory: a fee buys no seat)"),
                    "byCategory": .map(WireMoney.schema),
                    "byChannel": .map(WireMoney.schema),
                    "byPayment": .map(WireMoney.schema),
                ], required: ["currency", "gross", "refunded", "net", "fees", "byCategory", "byChannel", "byPayment"]),
            "orders": .integer(minimum: 0),
            "refundedSeats": .integer(minimum: 0),
            "exchangedSeats": .integer(minimum: 0).described("of the refunded seats, those given back in an exchange"),
            "came": .integer(minimum: 0).described("tickets scanned in at the door at least once"),
            "inside": .integer(minimum: 0).described("tickets inside now"),
        ],
        required: [
            "showId", "version", "seats", "byStatus", "zones", "occupancy", "revenue", "orders", "refundedSeats", "exchangedSeats", "came", "inside",
        ])
}

/// Seats by status, without the total (a report's `byStatus`).
public struct StatusCountsBody: Sendable, Hashable {
    public var available: Int, held: Int, sold: Int, blocked: Int
    public init(available: Int, held: Int, sold: Int, blocked: Int) {
        self.available = available; self.held = held; self.sold = sold; self.blocked = blocked
    }
    init(_ o: JSONObject) { self.init(available: o.whole("available"), held: o.whole("held"), sold: o.whole("sold"), blocked: o.whole("blocked")) }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("available", first: true); w.number(available); w.key("held"); w.number(held)
        w.key("sold"); w.number(sold); w.key("blocked"); w.number(blocked); w.raw("}")
    }
}

extension StatusCountsBody: WireBody {
    public static let schemaName = "StatusCounts"
    public static let schema: JSONSchema = .object(
        ["available": .integer(minimum: 0), "held": .integer(minimum: 0), "sold": .integer(minimum: 0), "blocked": .integer(minimum: 0)],
        required: ["available", "held", "sold", "blocked"], closed: true)
}

/// `GET /v1/reports/sales`: shows starting in `[from, to)`, per show, per day and in total, per currency;
/// each show's figures are its report's.
public struct SalesReportResource: Sendable {
    public struct ShowRow: Sendable {
        public var showID: String, startsAt: String, currency: String
        public var seats: Int, sold: Int, orders: Int
        public var gross: String, refunded: String, net: String
        /// Seats given back (of those, in exchanges), and tickets scanned in at the door.
        public var refundedSeats: Int, exchangedSeats: Int, came: Int
        public init(
            showID: String, startsAt: String, currency: String, seats: Int, sold: Int, orders: Int, gross: String, refunded: String, net: String,
            refundedSeats: Int = 0, exchangedSeats: Int = 0, came: Int = 0
        ) {
            self.showID = showID; self.startsAt = startsAt; self.currency = currency; self.seats = seats; self.sold = sold; self.orders = orders
            self.gross = gross; self.refunded = refunded; self.net = net
            self.refundedSeats = refundedSeats; self.exchangedSeats = exchangedSeats; self.came = came
        }
    }
    public struct Sum: Sendable {
        public var currency: String
        public var shows: Int, seats: Int, sold: Int
        public var gross: String, refunded: String, net: String
        public var came: Int
        public init(currency: String, shows: Int, seats: Int, sold: Int, gross: String, refunded: String, net: String, came: Int = 0) {
            self.currency = currency; self.shows = shows; self.seats = seats; self.sold = sold; self.gross = gross; self.refunded = refunded
            self.net = net; self.came = came
        }
    }

    public var from: String, to: String
    public var shows: [ShowRow]
    /// Per day (the show's own date as its start is written), per currency.
    public var days: [(date: String, sum: Sum)]
    public var totals: [Sum]

    public init(from: String, to: String, shows: [ShowRow], days: [(date: String, sum: Sum)], totals: [Sum]) {
        self.from = from; self.to = to; self.shows = shows; self.days = days; self.totals = totals
    }

    public func write(into w: inout JSONWriter) {
        func sum(_ s: Sum, first: Bool) {
            w.key("currency", first: first); w.string(s.currency); w.key("shows"); w.number(s.shows); w.key("seats"); w.number(s.seats)
            w.key("sold"); w.number(s.sold); w.key("gross"); w.string(s.gross); w.key("refunded"); w.string(s.refunded); w.key("net"); w.string(s.net)
            w.key("came"); w.number(s.came)
        }
        w.raw("{"); w.key("from", first: true); w.string(from); w.key("to"); w.string(to); w.key("shows"); w.raw("[")
        for (k, row) in shows.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("showId", first: true); w.string(row.showID); w.key("startsAt"); w.string(row.startsAt)
            w.key("currency"); w.string(row.currency); w.key("seats"); w.number(row.seats); w.key("sold"); w.number(row.sold)
            w.key("orders"); w.number(row.orders); w.key("gross"); w.string(row.gross); w.key("refunded"); w.string(row.refunded)
            w.key("net"); w.string(row.net); w.key("refundedSeats"); w.number(row.refundedSeats); w.key("exchangedSeats"); w.number(row.exchangedSeats)
            w.key("came"); w.number(row.came); w.raw("}")
        }
        w.raw("]"); w.key("days"); w.raw("[")
        for (k, day) in days.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("date", first: true); w.string(day.date); sum(day.sum, first: false); w.raw("}")
        }
        w.raw("]"); w.key("totals"); w.raw("[")
        for (k, s) in totals.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); sum(s, first: true); w.raw("}")
        }
        w.raw("]}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        func sum(_ s: JSONObject) -> Sum {
            Sum(
                currency: s.text("currency"), shows: s.whole("shows"), seats: s.whole("seats"), sold: s.whole("sold"), gross: s.text("gross"),
                refunded: s.text("refunded"), net: s.text("net"), came: s.whole("came"))
        }
        self.init(
            from: o.text("from"), to: o.text("to"),
            shows: o.objects("shows").map {
                ShowRow(
                    showID: $0.text("showId"), startsAt: $0.text("startsAt"), currency: $0.text("currency"), seats: $0.whole("seats"),
                    sold: $0.whole("sold"), orders: $0.whole("orders"), gross: $0.text("gross"), refunded: $0.text("refunded"), net: $0.text("net"),
                    refundedSeats: $0.whole("refundedSeats"), exchangedSeats: $0.whole("exchangedSeats"), came: $0.whole("came"))
            }, days: o.objects("days").map { ($0.text("date"), sum($0)) }, totals: o.objects("totals").map(sum))
    }
}

extension SalesReportResource: WireBody, WireWritable {
    public static let schemaName = "SalesReport"
    public static let schema: JSONSchema = {
        let sum: JSONSchema = .object(
            [
                "currency": .string(pattern: "^[A-Z]{3}$"), "shows": .integer(minimum: 0), "seats": .integer(minimum: 0), "sold": .integer(minimum: 0),
                "gross": WireMoney.schema, "refunded": WireMoney.schema, "net": WireMoney.schema,
                "came": .integer(minimum: 0).described("tickets scanned in at the door at least once"),
            ], required: ["currency", "shows", "seats", "sold", "gross", "refunded", "net", "came"])
        var day = sum
        day.properties.insert(.init(name: "date", schema: .string(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$")), at: 0)
        day.required.insert("date", at: 0)
        return .object(
            [
                "from": .string(format: "date-time"),
                "to": .string(format: "date-time"),
                "shows": .array(
                    .object(
                        [
                            "showId": .string(), "startsAt": .string(format: "date-time"), "currency": .string(pattern: "^[A-Z]{3}$"),
                            "seats": .integer(minimum: 0), "sold": .integer(minimum: 0), "orders": .integer(minimum: 0), "gross": WireMoney.schema,
                            "refunded": WireMoney.schema, "net": WireMoney.schema, "refundedSeats": .integer(minimum: 0),
                            "exchangedSeats": .integer(minimum: 0).described("of the refunded seats, those given back in an exchange"),
                            "came": .integer(minimum: 0).described("tickets scanned in at the door at least once"),
                        ],
                        required: [
                            "showId", "startsAt", "currency", "seats", "sold", "orders", "gross", "refunded", "net", "refundedSeats", "exchangedSeats", "came",
                        ])),
                "days": .array(day),
                "totals": .array(sum),
            ], required: ["from", "to", "shows", "days", "totals"])
    }()
}
