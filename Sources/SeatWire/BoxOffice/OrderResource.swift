import Foundation
import SeatMap
import SeatJSON

/// An order as the API returns it.
public struct OrderResource: Sendable {
    /// One confirmed hold under the reference: online (a buyer's) or at the counter.
    public struct Part: Sendable {
        public var holdID: String
        public var showID: String
        /// `online` or `counter`.
        public var channel: String
        public var payment: String
        public var operatorName: String?
        /// Each seat with the price it sold at (exact decimal text).
        public var seats: [(seat: String, price: String)]
        public var total: String
        public var currency: String
        public var soldAt: String
        /// The rules the operator sold past with `force`.
        public var overridden: String?
        /// For a part an exchange made: the sale (`holdId`) whose seats it replaced, and the exchange fee paid.
        public var exchangedFrom: String?
        public var fee: String?

        public init(
            holdID: String, showID: String, channel: String, payment: String, operatorName: String?, seats: [(seat: String, price: String)],
            total: String, currency: String, soldAt: String, overridden: String?, exchangedFrom: String? = nil, fee: String? = nil
        ) {
            self.holdID = holdID; self.showID = showID; self.channel = channel; self.payment = payment; self.operatorName = operatorName
            self.seats = seats; self.total = total; self.currency = currency; self.soldAt = soldAt; self.overridden = overridden
            self.exchangedFrom = exchangedFrom; self.fee = fee
        }
    }

    public struct Refund: Sendable {
        public var seat: String
        public var price: String
        public var refundedAt: String
        public var reason: String
        public var operatorName: String
        /// The reservation the seat went back to.
        public var returnedTo: String?
        /// The sale (a part's `holdId`) an exchange replaced the seat with.
        public var exchangedTo: String?
        /// What the buyer's refund of the seat cost (the show's refund tiers); nil: nothing.
        public var fee: String?

        public init(
            seat: String, price: String, refundedAt: String, reason: String, operatorName: String, returnedTo: String?, exchangedTo: String? = nil,
            fee: String? = nil
        ) {
            self.seat = seat; self.price = price; self.refundedAt = refundedAt; self.reason = reason; self.operatorName = operatorName
            self.returnedTo = returnedTo; self.exchangedTo = exchangedTo; self.fee = fee
        }
    }

    /// What the buyer may still do on one show of their order (the show's `afterSale` policy, as of now).
    public struct Terms: Sendable {
        public var showID: String
        public var exchangesLeft: Int
        public var exchangeUntil: String?
        public var exchangeFee: String
        /// Nil: refunds are the box office's only.
        public var refundUntil: String?
        /// A refund's fee now (`20%`, `10.00` a seat); nil: free.
        public var refundFee: String?
        /// The show's fee tiers, each with when it ends.
        public var refundTiers: [(until: String, fee: String)] = []
        /// Each seat the buyer may refund now: its price, fee and what it gives back (the page shows them
        /// before the buyer confirms, and never works a fee out itself).
        public var refundSeats: [(seat: String, price: String, fee: String, back: String)] = []
        public var oneRefundPerBuyer = false
        /// When seats refunded before it go back on sale together.
        public var refundRelease: String?
        public init(showID: String, exchangesLeft: Int, exchangeUntil: String?, exchangeFee: String, refundUntil: String?) {
            self.showID = showID; self.exchangesLeft = exchangesLeft; self.exchangeUntil = exchangeUntil; self.exchangeFee = exchangeFee
            self.refundUntil = refundUntil
        }
    }

    /// Money given back through the provider that took it (a refund of seats paid online).
    public struct MoneyBack: Sendable, Hashable {
        public var id: String
        public var payment: String
        public var provider: String
        public var amount: String
        public var currency: String
        /// `pending` until the provider takes it, `succeeded`, or `failed` with the provider's reason.
        public var state: String
        public var providerRefundID: String?
        public var reason: String
        public var outcome: String?
        public init(
            id: String, payment: String, provider: String, amount: String, currency: String, state: String, providerRefundID: String?, reason: String,
            outcome: String?
        ) {
            self.id = id; self.payment = payment; self.provider = provider; self.amount = amount; self.currency = currency; self.state = state
            self.providerRefundID = providerRefundID; self.reason = reason; self.outcome = outcome
        }
    }

    /// A payment that sold part of the order, as its provider knows it (the operators' view only).
    public struct Payment: Sendable, Hashable {
        public var id: String
        public var provider: String
        /// The provider's own id: Stripe's PaymentIntent, WeChat Pay's transaction_id, Alipay's trade_no.
        public var providerID: String?
        public var state: String
        public var amount: String
        public var currency: String
        public var createdAt: String
        public var outcome: String?
        public init(
            id: String, provider: String, providerID: String?, state: String, amount: String, currency: String, createdAt: String, outcome: String?
        ) {
            self.id = id; self.provider = provider; self.providerID = providerID; self.state = state; self.amount = amount; self.currency = currency
            self.createdAt = createdAt; self.outcome = outcome
        }
    }

    public var orderRef: String
    public var parts: [Part]
    public var refunds: [Refund]
    /// The payments that sold the order's parts (operators only; none for a counter sale).
    public var payments: [Payment] = []
    /// In the buyer's view of their order (with its code) only.
    public var afterSale: [Terms]?
    /// The order's refunds through payment providers (none for an order paid at the counter).
    public var moneyBack: [MoneyBack] = []

    public init(orderRef: String, parts: [Part], refunds: [Refund], afterSale: [Terms]? = nil) {
        self.orderRef = orderRef; self.parts = parts; self.refunds = refunds; self.afterSale = afterSale
    }

    public func write(into w: inout JSONWriter) {
        func optional(_ s: String?) { if let s { w.string(s) } else { w.raw("null") } }
        w.raw("{"); w.key("orderRef", first: true); w.string(orderRef); w.key("parts"); w.raw("[")
        for (k, p) in parts.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("holdId", first: true); w.string(p.holdID); w.key("showId"); w.string(p.showID)
            w.key("channel"); w.string(p.channel); w.key("payment"); w.string(p.payment)
            w.key("operator"); optional(p.operatorName)
            w.key("seats"); w.raw("[")
            for (j, s) in p.seats.enumerated() {
                if j > 0 { w.raw(",") }
                w.raw("{"); w.key("seat", first: true); w.string(s.seat); w.key("price"); w.string(s.price); w.raw("}")
            }
            w.raw("]")
            w.key("total"); w.string(p.total); w.key("currency"); w.string(p.currency); w.key("soldAt"); w.string(p.soldAt)
            w.key("overridden"); optional(p.overridden)
            if let from = p.exchangedFrom { w.key("exchangedFrom"); w.string(from); w.key("fee"); optional(p.fee) }
            w.raw("}")
        }
        w.raw("]"); w.key("refunds"); w.raw("[")
        for (k, r) in refunds.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("seat", first: true); w.string(r.seat); w.key("price"); w.string(r.price); w.key("refundedAt"); w.string(r.refundedAt)
            w.key("reason"); w.string(r.reason); w.key("operator"); w.string(r.operatorName)
            w.key("returnedTo"); optional(r.returnedTo)
            if let to = r.exchangedTo { w.key("exchangedTo"); w.string(to) }
            if let fee = r.fee { w.key("fee"); w.string(fee) }
            w.raw("}")
        }
        w.raw("]")
        if let afterSale {
            w.key("afterSale"); w.raw("[")
            for (k, t) in afterSale.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("showId", first: true); w.string(t.showID); w.key("exchangesLeft"); w.number(t.exchangesLeft)
                w.key("exchangeUntil"); optional(t.exchangeUntil); w.key("exchangeFee"); w.string(t.exchangeFee)
                w.key("refundUntil"); optional(t.refundUntil); w.key("refundFee"); optional(t.refundFee)
                w.key("refundTiers"); w.raw("[")
                for (j, tier) in t.refundTiers.enumerated() {
                    if j > 0 { w.raw(",") }
                    w.raw("{"); w.key("until", first: true); w.string(tier.until); w.key("fee"); w.string(tier.fee); w.raw("}")
                }
                w.raw("]"); w.key("refundSeats"); w.raw("[")
                for (j, seat) in t.refundSeats.enumerated() {
                    if j > 0 { w.raw(",") }
                    w.raw("{"); w.key("seat", first: true); w.string(seat.seat); w.key("price"); w.string(seat.price)
                    w.key("fee"); w.string(seat.fee); w.key("back"); w.string(seat.back); w.raw("}")
                }
                w.raw("]"); w.key("oneRefundPerBuyer"); w.raw(t.oneRefundPerBuyer ? "true" : "false")
                w.key("refundRelease"); optional(t.refundRelease); w.raw("}")
            }
            w.raw("]")
        }
        if !payments.isEmpty {
            w.key("payments"); w.raw("[")
            for (k, p) in payments.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("id", first: true); w.string(p.id); w.key("provider"); w.string(p.provider)
                w.key("providerId"); optional(p.providerID); w.key("state"); w.string(p.state); w.key("amount"); w.string(p.amount)
                w.key("currency"); w.string(p.currency); w.key("createdAt"); w.string(p.createdAt); w.key("outcome"); optional(p.outcome)
                w.raw("}")
            }
            w.raw("]")
        }
        if !moneyBack.isEmpty {
            w.key("moneyBack"); w.raw("[")
            for (k, b) in moneyBack.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("id", first: true); w.string(b.id); w.key("payment"); w.string(b.payment); w.key("provider"); w.string(b.provider)
                w.key("amount"); w.string(b.amount); w.key("currency"); w.string(b.currency); w.key("state"); w.string(b.state)
                w.key("providerRefundId"); optional(b.providerRefundID); w.key("reason"); w.string(b.reason); w.key("outcome"); optional(b.outcome)
                w.raw("}")
            }
            w.raw("]")
        }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) { self.init(try Self.conformingObject(bytes)) }

    /// From an object that conforms to the schema.
    public init(_ o: JSONObject) {
        let parts = o.objects("parts").map { p in
            Part(
                holdID: p.text("holdId"), showID: p.text("showId"), channel: p.text("channel"), payment: p.text("payment"),
                operatorName: p.optionalText("operator"), seats: p.objects("seats").map { ($0.text("seat"), $0.text("price")) },
                total: p.text("total"), currency: p.text("currency"), soldAt: p.text("soldAt"), overridden: p.optionalText("overridden"),
                exchangedFrom: p.optionalText("exchangedFrom"), fee: p.optionalText("fee"))
        }
        let refunds = o.objects("refunds").map { r in
            Refund(
                seat: r.text("seat"), price: r.text("price"), refundedAt: r.text("refundedAt"), reason: r.text("reason"),
                operatorName: r.text("operator"), returnedTo: r.optionalText("returnedTo"), exchangedTo: r.optionalText("exchangedTo"),
                fee: r.optionalText("fee"))
        }
        let terms = o["afterSale"].map { _ in
            o.objects("afterSale").map { t in
                var terms = Terms(
                    showID: t.text("showId"), exchangesLeft: t["exchangesLeft"]?.intValue ?? 0, exchangeUntil: t.optionalText("exchangeUntil"),
                    exchangeFee: t.text("exchangeFee"), refundUntil: t.optionalText("refundUntil"))
                terms.refundFee = t.optionalText("refundFee")
                terms.refundTiers = t.objects("refundTiers").map { ($0.text("until"), $0.text("fee")) }
                terms.refundSeats = t.objects("refundSeats").map { ($0.text("seat"), $0.text("price"), $0.text("fee"), $0.text("back")) }
                terms.oneRefundPerBuyer = t["oneRefundPerBuyer"]?.boolValue ?? false
                terms.refundRelease = t.optionalText("refundRelease")
                return terms
            }
        }
        self.init(orderRef: o.text("orderRef"), parts: parts, refunds: refunds, afterSale: terms)
        payments = o.objects("payments").map { p in
            Payment(
                id: p.text("id"), provider: p.text("provider"), providerID: p.optionalText("providerId"), state: p.text("state"), amount: p.text("amount"),
                currency: p.text("currency"), createdAt: p.text("createdAt"), outcome: p.optionalText("outcome"))
        }
        moneyBack =
            o["moneyBack"] == nil
            ? []
            : o.objects("moneyBack").map { b in
                MoneyBack(
                    id: b.text("id"), payment: b.text("payment"), provider: b.text("provider"), amount: b.text("amount"), currency: b.text("currency"),
                    state: b.text("state"), providerRefundID: b.optionalText("providerRefundId"), reason: b.text("reason"), outcome: b.optionalText("outcome"))
            }
    }
}

extension OrderResource: WireBody, WireWritable {
    public static let schemaName = "Order"
    public static let schema: JSONSchema = .object(
        [
            "orderRef": .string(),
            "refunds": .array(
                .object(
                    [
                        "seat": .string(),
                        "price": .string(pattern: WireMoney.pattern),
                        "refundedAt": .string(format: "date-time"),
                        "reason": .string(),
                        "operator": .string(),
                        "returnedTo": .string().orNull.described("the reservation the seat went back to"),
                        "exchangedTo": .string().described("the part (its holdId) an exchange replaced the seat with"),
                        "fee": .string(pattern: WireMoney.pattern).described("what the buyer's refund of the seat cost (the show's refundTiers)"),
                    ], required: ["seat", "price", "refundedAt", "reason", "operator"])),
            "parts": .array(
                .object(
                    [
                        "holdId": .string(),
                        "showId": .string(),
                        "channel": .string(pattern: "^(online|counter|partner:.+|season:.+)$").described(
                            "online, counter, partner:NAME (a channel's) or season:NAME"),
                        "payment": .string(),
                        "operator": .string().orNull,
                        "seats": .array(
                            .object(
                                [
                                    "seat": .string(),
                                    "price": .string(pattern: WireMoney.pattern),
                                ], required: ["seat", "price"])),
                        "total": .string(pattern: WireMoney.pattern),
                        "currency": .string(),
                        "soldAt": .string(format: "date-time"),
                        "overridden": .string().orNull.described("the rules the operator sold past with force"),
                        "exchangedFrom": .string().described("for a part an exchange made: the part (holdId) whose seats it replaced"),
                        "fee": WireMoney.schema.orNull.described("the exchange fee paid with this part"),
                    ], required: ["holdId", "showId", "channel", "payment", "operator", "seats", "total", "currency", "soldAt", "overridden"])),
            "afterSale": .array(
                .object(
                    [
                        "showId": .string(),
                        "exchangesLeft": .integer(minimum: 0),
                        "exchangeUntil": .string(format: "date-time").orNull,
                        "exchangeFee": WireMoney.schema.described("per seat exchanged"),
                        "refundUntil": .string(format: "date-time").orNull.described("null: refunds are the box office's only"),
                        "refundFee": .string().orNull.described("what a refund costs now (the show's refundTiers: \"20%\", \"10.00\" a seat); null: free"),
                        "refundTiers": .array(
                            .object(["until": .string(format: "date-time"), "fee": .string()], required: ["until", "fee"])
                        ).described("the show's refund fees, each up to its time"),
                        "refundSeats": .array(
                            .object(
                                [
                                    "seat": .string(), "price": .string(pattern: WireMoney.pattern), "fee": .string(pattern: WireMoney.pattern),
                                    "back": .string(pattern: WireMoney.pattern),
                                ], required: ["seat", "price", "fee", "back"])
                        ).described("each seat the buyer may refund now, with its fee and what it gives back (empty: none may be)"),
                        "oneRefundPerBuyer": .boolean.described("a buyer refunds their part of this show once"),
                        "refundRelease": .string(format: "date-time").orNull.described("seats refunded before then go back on sale together then"),
                    ], required: ["showId", "exchangesLeft", "exchangeUntil", "exchangeFee", "refundUntil"])
            ).described("the buyer's view (with the order's code) only: what they may still do on each show of the order"),
            "payments": .array(
                .object(
                    [
                        "id": .string(),
                        "provider": .oneOf(["stripe", "wechatpay", "alipay", "external"]),
                        "providerId": .string().orNull,
                        "state": .oneOf(["pending", "succeeded", "failed", "canceled", "refunded"]),
                        "amount": .string(pattern: WireMoney.pattern),
                        "currency": .string(),
                        "createdAt": .string(format: "date-time"),
                        "outcome": .string().orNull,
                    ], required: ["id", "provider", "providerId", "state", "amount", "currency", "createdAt", "outcome"])
            ).described("the operators' view only: the payments that sold the order, with the providers' own ids"),
            "moneyBack": .array(
                .object(
                    [
                        "id": .string(),
                        "payment": .string(),
                        "provider": .oneOf(["stripe", "wechatpay", "alipay"]),
                        "amount": .string(pattern: WireMoney.pattern),
                        "currency": .string(),
                        "state": .oneOf(["pending", "succeeded", "failed"]),
                        "providerRefundId": .string().orNull,
                        "reason": .string(),
                        "outcome": .string().orNull.described("the provider's words: its reason for a failure"),
                    ], required: ["id", "payment", "provider", "amount", "currency", "state", "providerRefundId", "reason", "outcome"])
            ).described("refunds through the payment provider that took the money: pending until it takes them"),
        ], required: ["orderRef", "parts", "refunds"])
}
