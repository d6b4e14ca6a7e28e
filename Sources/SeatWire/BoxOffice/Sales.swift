import Foundation
import SeatMap
import SeatJSON

/// `POST /v1/shows/{id}/sales` (the box office): seats, or a reservation whole, sold at once.
public struct SaleRequest: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        case seats([String])
        /// A reservation's id: its seats sell whole (house seats to their guest).
        case reservation(String)
    }

    public var source: Source
    public var orderRef: String
    /// A word like cash, card, comp or voucher.
    public var payment: String
    /// Sell past the show's rules (recorded with the sale).
    public var force: Bool
    /// The operator's own price for seats of this sale, instead of the show's.
    public var prices: [String: Decimal]
    /// The buyer's name and phone, if they gave them (to find the order again); the phone as digits.
    public var buyerName: String?
    public var buyerPhone: String?

    public init(
        source: Source, orderRef: String, payment: String, force: Bool = false, prices: [String: Decimal] = [:], buyerName: String? = nil,
        buyerPhone: String? = nil
    ) {
        self.source = source; self.orderRef = orderRef; self.payment = payment; self.force = force; self.prices = prices
        self.buyerName = buyerName; self.buyerPhone = buyerPhone
    }

    /// A phone number as its digits: spaces, `+`, `-`, dots and brackets dropped; nil when anything else is in
    /// it or it has not 5 to 20 digits.
    public static func phoneDigits(_ text: String) -> String? {
        var digits = ""
        for c in text.unicodeScalars {
            if ("0"..."9").contains(c) { digits.unicodeScalars.append(c) } else if !" +-.()".unicodeScalars.contains(c) { return nil }
        }
        return (5...20).contains(digits.count) ? digits : nil
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{")
        switch source {
        case .seats(let seats):
            w.key("seats", first: true); w.strings(seats)
        case .reservation(let id): w.key("reservation", first: true); w.string(id)
        }
        w.key("orderRef"); w.string(orderRef); w.key("payment"); w.string(payment)
        if force { w.key("force"); w.raw("true") }
        if !prices.isEmpty {
            w.key("prices"); w.raw("{")
            for (k, (seat, amount)) in prices.sorted(by: { $0.key < $1.key }).enumerated() { w.key(seat, first: k == 0); w.string("\(amount)") }
            w.raw("}")
        }
        if buyerName != nil || buyerPhone != nil {
            w.key("buyer"); w.raw("{")
            if let buyerName { w.key("name", first: true); w.string(buyerName) }
            if let buyerPhone { w.key("phone", first: buyerName == nil); w.string(buyerPhone) }
            w.raw("}")
        }
        w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["seats", "reservation", "orderRef", "payment", "force", "prices", "buyer"], at: "", into: &log)
        var buyerName: String?, buyerPhone: String?
        if let b = o.object("buyer", at: "", into: &log, required: false) {
            b.rejectUnknownKeys(["name", "phone"], at: "buyer", into: &log)
            if let name = b.text("name", into: &log, required: false) {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.unicodeScalars.count > 64 {
                    log.add("buyer.name", "a name of 1 to 64 characters, got \(trimmed.unicodeScalars.count)")
                } else {
                    buyerName = trimmed
                }
            }
            if let phone = b.text("phone", into: &log, required: false) {
                if let digits = Self.phoneDigits(phone) {
                    buyerPhone = digits
                } else {
                    log.add("buyer.phone", "a phone number of 5 to 20 digits (spaces, +, -, dots and brackets allowed), got \"\(phone.prefix(40))\"")
                }
            }
        }
        var prices: [String: Decimal] = [:]
        if let p = o.object("prices", at: "", into: &log, required: false) {
            for key in p.keys {
                guard case .string(let text)? = p[key], let amount = PriceTable.parseDecimal(text), amount >= 0 else {
                    log.add("prices.\(key)", "expected an amount like \"38.00\" (0 or more), got \(p[key]!.shortDescription)")
                    continue
                }
                prices[key] = amount
            }
            if p.keys.count > 1000 { log.add("prices", "at most 1000 seats") }
        }
        var source: Source?
        switch (o["seats"], o["reservation"]) {
        case (nil, nil): log.add("seats", "give the seats to sell, or \"reservation\": the id of one to sell whole")
        case (.some, .some): log.add("reservation", "give seats or a reservation, not both")
        case (.some, nil):
            let seats = o.seatIDs("seats", into: &log) ?? []
            if seats.count > 1000 { log.add("seats", "at most 1000 seats in one request, got \(seats.count)") }
            source = .seats(seats)
        case (nil, .some):
            if let rid = o.text("reservation", into: &log) { source = .reservation(rid) }
        }
        let orderRef = o.text("orderRef", into: &log)
        if let orderRef, let problem = WireOrderRef.problem(orderRef) { log.add("orderRef", problem) }
        let payment = o.text("payment", into: &log)
        if let payment,
            payment.isEmpty || payment.utf8.count > 32
                || !payment.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 })
        {
            log.add("payment", "a word like cash, card, comp or voucher (a-z, 0-9, '-', '_'; at most 32), got \"\(payment)\"")
        }
        var force = false
        if let v = o["force"] {
            if case .bool(let b) = v { force = b } else { log.add("force", "expected true or false, got \(v.shortDescription)") }
        }
        guard log.isEmpty, let source, let orderRef, let payment else { throw .invalid(log.error) }
        self.init(
            source: source, orderRef: orderRef, payment: payment, force: force, prices: prices, buyerName: buyerName, buyerPhone: buyerPhone)
    }
}

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
            "buyer": .object(
                [
                    "name": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 64),
                    "phone": .string(pattern: #"^[ +().-]*([0-9][ +().-]*){5,20}$"#, minLength: 5, maxLength: 40).described(
                        "5 to 20 digits; spaces, +, -, dots and brackets are dropped"),
                ], closed: true
            ).described("the buyer's name and phone, if given: the box office finds the order by either (GET /v1/orders?q=)"),
        ], required: ["orderRef", "payment"], closed: true
    ).with {
        $0.oneOf = [
            .constraint(required: ["seats"]).with { $0.not = [.constraint(required: ["reservation"])] },
            .constraint(required: ["reservation"]).with { $0.not = [.constraint(required: ["seats"])] },
        ]
    }.example(#"{"seats":["5-1","5-2"],"orderRef":"BOX-1","payment":"cash"}"#)
}

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

        public init(
            seat: String, price: String, refundedAt: String, reason: String, operatorName: String, returnedTo: String?, exchangedTo: String? = nil
        ) {
            self.seat = seat; self.price = price; self.refundedAt = refundedAt; self.reason = reason; self.operatorName = operatorName
            self.returnedTo = returnedTo; self.exchangedTo = exchangedTo
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
            w.raw("}")
        }
        w.raw("]")
        if let afterSale {
            w.key("afterSale"); w.raw("[")
            for (k, t) in afterSale.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("showId", first: true); w.string(t.showID); w.key("exchangesLeft"); w.number(t.exchangesLeft)
                w.key("exchangeUntil"); optional(t.exchangeUntil); w.key("exchangeFee"); w.string(t.exchangeFee)
                w.key("refundUntil"); optional(t.refundUntil); w.raw("}")
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
                operatorName: r.text("operator"), returnedTo: r.optionalText("returnedTo"), exchangedTo: r.optionalText("exchangedTo"))
        }
        let terms = o["afterSale"].map { _ in
            o.objects("afterSale").map { t in
                Terms(
                    showID: t.text("showId"), exchangesLeft: t["exchangesLeft"]?.intValue ?? 0, exchangeUntil: t.optionalText("exchangeUntil"),
                    exchangeFee: t.text("exchangeFee"), refundUntil: t.optionalText("refundUntil"))
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

/// `POST /v1/orders/{orderRef}/refund` (the box office): some seats of the order, or all, and why.
public struct RefundRequest: Sendable, Hashable {
    /// Nil: the whole order.
    public var seats: [String]?
    /// Why (the box office must say; a buyer's own refund may leave it out).
    public var reason: String?
    /// A sold reservation's seats go on sale instead of back to a reservation like it.
    public var toSale: Bool
    /// The order's code (the buyer's receipt link), for a buyer refunding within the show's policy.
    public var code: String?

    public init(seats: [String]? = nil, reason: String?, toSale: Bool = false, code: String? = nil) {
        self.seats = seats; self.reason = reason; self.toSale = toSale; self.code = code
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        var first = true
        func key(_ k: String) { w.key(k, first: first); first = false }
        w.raw("{")
        if let reason { key("reason"); w.string(reason) }
        if let seats { key("seats"); w.strings(seats) }
        if toSale { key("returnTo"); w.string("sale") }
        if let code { key("code"); w.string(code) }
        w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["seats", "reason", "returnTo", "code"], at: "", into: &log)
        var toSale = false
        if let to = o.text("returnTo", into: &log, required: false) {
            if to == "sale" { toSale = true } else if to != "reservation" { log.add("returnTo", "reservation or sale, not \"\(to)\"") }
        }
        var seats: [String]?
        if o["seats"] != nil {
            let list = o.seatIDs("seats", into: &log) ?? []
            if list.isEmpty { log.add("seats", "name at least one seat, or leave seats out to refund the whole order") }
            seats = list
        }
        let reason = o["reason"] == nil ? nil : o.reason(into: &log, saying: "1 to 200 characters saying why")
        let code = o.text("code", into: &log, required: false)
        if let code, code.isEmpty || code.utf8.count > 128 { log.add("code", "the order's code from the receipt link (1 to 128 characters)") }
        guard log.isEmpty else { throw .invalid(log.error) }
        self.init(seats: seats, reason: reason, toSale: toSale, code: code)
    }
}

extension RefundRequest: WireBody {
    public static let schemaName = "RefundRequest"
    public static let schema: JSONSchema = .object(
        [
            "seats": .array(.ref(WireSeatID.self), minItems: 1, maxItems: 1000),
            "reason": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 200),
            "returnTo": .oneOf(["reservation", "sale"]).described(
                "where a sold reservation's seats go: back to a reservation like it (the default while its release time is ahead) or on sale"),
            "code": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 128).described(
                "the order's code from the receipt link: a buyer's own refund, within the show's afterSale policy (then reason may be left out)"),
        ], closed: true
    ).example(#"{"seats":["5-1"],"reason":"customer could not come"}"#)
}
