import SeatJSON

/// A show as `GET /v1/shows/{id}` and the `show` event give it.
public struct ShowResource: Sendable, Hashable {
    public var id: String
    public var venueID: String
    /// As the manager wrote it (ISO 8601 with its offset).
    public var startsAt: String
    /// Whether holds are taken now.
    public var onSale: Bool
    /// The manager's on-sale switch.
    public var salesSwitch: Bool
    /// RFC 3339 UTC with milliseconds, when cancelled.
    public var cancelledAt: String?
    public var details: RawJSON
    public var holdSeconds: Int
    public var policy: RawJSON
    public var prices: RawJSON
    public var priceRevision: Int
    public var version: UInt64
    public var seats: SeatCounts
    /// The shard the show is kept on, in a deployment of several (absent otherwise).
    public var shard: String?

    public init(
        id: String, venueID: String, startsAt: String, onSale: Bool, salesSwitch: Bool, cancelledAt: String?, details: RawJSON,
        holdSeconds: Int, policy: RawJSON, prices: RawJSON, priceRevision: Int, version: UInt64, seats: SeatCounts, shard: String? = nil
    ) {
        self.shard = shard
        self.id = id; self.venueID = venueID; self.startsAt = startsAt; self.onSale = onSale; self.salesSwitch = salesSwitch
        self.cancelledAt = cancelledAt; self.details = details; self.holdSeconds = holdSeconds; self.policy = policy; self.prices = prices
        self.priceRevision = priceRevision; self.version = version; self.seats = seats
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("id", first: true); w.string(id)
        w.key("venueId"); w.string(venueID)
        w.key("startsAt"); w.string(startsAt)
        w.key("onSale"); w.raw(onSale ? "true" : "false")
        w.key("salesSwitch"); w.raw(salesSwitch ? "true" : "false")
        w.key("cancelledAt"); if let cancelledAt { w.string(cancelledAt) } else { w.raw("null") }
        w.key("details"); w.raw(details.text)
        w.key("holdSeconds"); w.number(holdSeconds)
        w.key("policy"); w.raw(policy.text)
        w.key("prices"); w.raw(prices.text)
        w.key("priceRevision"); w.number(priceRevision)
        w.key("version"); w.number(Int(version))
        w.key("seats"); seats.write(into: &w)
        if let shard { w.key("shard"); w.string(shard) }
        w.raw("}")
    }

    public var json: String { var w = JSONWriter(); write(into: &w); return w.text }

    public init(json bytes: [UInt8]) throws(WireError) { self.init(try Self.conformingObject(bytes)) }

    /// From an object that conforms to the schema.
    public init(_ o: JSONObject) {
        self.init(
            id: o.text("id"), venueID: o.text("venueId"), startsAt: o.text("startsAt"), onSale: o.flag("onSale"),
            salesSwitch: o.flag("salesSwitch"), cancelledAt: o.optionalText("cancelledAt"), details: RawJSON(o["details"]),
            holdSeconds: o.whole("holdSeconds"), policy: RawJSON(o["policy"]), prices: RawJSON(o["prices"]),
            priceRevision: o.whole("priceRevision"), version: UInt64(o.whole("version")), seats: SeatCounts(o.object("seats")),
            shard: o.optionalText("shard"))
    }
}

extension ShowResource: WireBody, WireWritable {
    public static let schemaName = "Show"
    public static let schema: JSONSchema = .object(
        [
            "id": .string(),
            "venueId": .string(),
            "startsAt": .string(format: "date-time"),
            "onSale": .boolean.described(
                "whether holds are taken now: false once the show has started, while the manager's switch is off, and after a cancellation"),
            "salesSwitch": .boolean.described("the manager's on-sale switch"),
            "cancelledAt": .string(format: "date-time").orNull,
            "details": .ref(ShowDetails.self),
            "holdSeconds": .integer(minimum: 30, maximum: 3600),
            "policy": .ref(SelectionPolicyBody.self),
            "prices": .ref(PriceTableBody.self),
            "priceRevision": .integer(minimum: 0).described("how many times the prices changed; holds keep the revision they were made at"),
            "version": .integer(minimum: 0),
            "seats": .ref(SeatCounts.self),
            "shard": .string(pattern: "^[a-z][a-z0-9]{0,11}$").described("the shard the show is kept on (a deployment with shards only)"),
        ],
        required: [
            "id", "venueId", "startsAt", "onSale", "salesSwitch", "cancelledAt", "details", "holdSeconds", "policy", "prices", "priceRevision",
            "version", "seats",
        ])
}

/// A show's seats by status.
public struct SeatCounts: Sendable, Hashable {
    public var total: Int
    public var available: Int
    public var held: Int
    public var sold: Int
    public var blocked: Int

    public init(total: Int, available: Int, held: Int, sold: Int, blocked: Int) {
        self.total = total; self.available = available; self.held = held; self.sold = sold; self.blocked = blocked
    }

    init(_ o: JSONObject) {
        self.init(total: o.whole("total"), available: o.whole("available"), held: o.whole("held"), sold: o.whole("sold"), blocked: o.whole("blocked"))
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("total", first: true); w.number(total); w.key("available"); w.number(available)
        w.key("held"); w.number(held); w.key("sold"); w.number(sold); w.key("blocked"); w.number(blocked); w.raw("}")
    }
}

extension SeatCounts: WireBody {
    public static let schemaName = "SeatCounts"
    public static let schema: JSONSchema = .object(
        [
            "total": .integer(minimum: 0), "available": .integer(minimum: 0), "held": .integer(minimum: 0), "sold": .integer(minimum: 0),
            "blocked": .integer(minimum: 0),
        ],
        required: ["total", "available", "held", "sold", "blocked"], closed: true)
}

/// What cancelling a show did: the holds and reservations released and the orders to refund.
public struct Cancellation: Sendable {
    public var showID: String
    public var releasedHolds: Int
    public var releasedReservations: Int
    public var toRefund: [OrderResource]

    public init(showID: String, releasedHolds: Int, releasedReservations: Int, toRefund: [OrderResource]) {
        self.showID = showID; self.releasedHolds = releasedHolds; self.releasedReservations = releasedReservations; self.toRefund = toRefund
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("showId", first: true); w.string(showID); w.key("releasedHolds"); w.number(releasedHolds)
        w.key("releasedReservations"); w.number(releasedReservations); w.key("toRefund"); w.raw("[")
        for (k, o) in toRefund.enumerated() { if k > 0 { w.raw(",") }; o.write(into: &w) }
        w.raw("]}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            showID: o.text("showId"), releasedHolds: o.whole("releasedHolds"), releasedReservations: o.whole("releasedReservations"),
            toRefund: o.objects("toRefund").map(OrderResource.init))
    }
}

extension Cancellation: WireBody, WireWritable {
    public static let schemaName = "Cancellation"
    public static let schema: JSONSchema = .object(
        [
            "showId": .string(),
            "releasedHolds": .integer(minimum: 0),
            "releasedReservations": .integer(minimum: 0),
            "toRefund": .array(.ref(OrderResource.self)),
        ], required: ["showId", "releasedHolds", "releasedReservations", "toRefund"])
}

/// A show's selection rules (docs/formats/prices-and-policy.md), as `SelectionPolicy` reads them.
public enum SelectionPolicyBody: WireBody {
    public static let schemaName = "SelectionPolicy"
    public static let schema: JSONSchema = .object(
        [
            "maxSeats": .integer(minimum: 1, maximum: 1000),
            "couplesTogether": .boolean,
            "noLoneSeat": .boolean,
            "wheelchairOnRequest": .boolean,
            "companionWithWheelchair": .boolean,
        ], closed: true
    ).described("see docs/formats/prices-and-policy.md")
}
