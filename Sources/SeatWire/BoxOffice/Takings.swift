import SeatJSON

/// `GET /v1/reports/takings`: the money that moved in a period, each sale when it was made and each
/// refund when it was given: every entry, then sums by show, payment and clerk, and totals, each
/// currency apart. A cash-up is this for one clerk (`clerk`).
public struct TakingsResource: Sendable {
    public struct Entry: Sendable {
        public var at: String, kind: String, showID: String, orderRef: String?, payment: String, clerk: String
        /// `online`, `counter`, `partner:NAME` or `season:NAME` (a refund: its sale's).
        public var channel: String
        public var seats: Int, amount: String, currency: String
        /// An exchange's: the show its seats came from, and what they had been sold for.
        public var fromShowID: String?, givenBack: String?
        public init(
            at: String, kind: String, showID: String, orderRef: String?, payment: String, clerk: String, channel: String = "counter", seats: Int,
            amount: String, currency: String, fromShowID: String? = nil, givenBack: String? = nil
        ) {
            self.at = at; self.kind = kind; self.showID = showID; self.orderRef = orderRef; self.payment = payment; self.clerk = clerk
            self.channel = channel
            self.seats = seats; self.amount = amount; self.currency = currency; self.fromShowID = fromShowID; self.givenBack = givenBack
        }
    }
    /// Taken, given back and kept, of one currency, for one show, payment, clerk or in all.
    public struct Sum: Sendable {
        public var key: String?, currency: String, taken: String, refunded: String, net: String, seatsSold: Int, seatsRefunded: Int
        public init(key: String?, currency: String, taken: String, refunded: String, net: String, seatsSold: Int, seatsRefunded: Int) {
            self.key = key; self.currency = currency; self.taken = taken; self.refunded = refunded; self.net = net
            self.seatsSold = seatsSold; self.seatsRefunded = seatsRefunded
        }
    }

    public var from: String, to: String, clerk: String?
    public var entries: [Entry]
    public var byShow: [Sum], byPayment: [Sum], byClerk: [Sum], byChannel: [Sum], totals: [Sum]

    public init(
        from: String, to: String, clerk: String?, entries: [Entry], byShow: [Sum], byPayment: [Sum], byClerk: [Sum], byChannel: [Sum] = [],
        totals: [Sum]
    ) {
        self.from = from; self.to = to; self.clerk = clerk; self.entries = entries
        self.byShow = byShow; self.byPayment = byPayment; self.byClerk = byClerk; self.byChannel = byChannel; self.totals = totals
    }

    static let keyNames = ["byShow": "showId", "byPayment": "payment", "byClerk": "clerk", "byChannel": "channel"]

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("from", first: true); w.string(from); w.key("to"); w.string(to)
        if let clerk { w.key("clerk"); w.string(clerk) }
        w.key("entries"); w.raw("[")
        for (k, e) in entries.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("at", first: true); w.string(e.at); w.key("kind"); w.string(e.kind); w.key("showId"); w.string(e.showID)
            if let ref = e.orderRef { w.key("orderRef"); w.string(ref) }
            w.key("payment"); w.string(e.payment); w.key("clerk"); w.string(e.clerk); w.key("channel"); w.string(e.channel)
            w.key("seats"); w.number(e.seats)
            w.key("amount"); w.string(e.amount); w.key("currency"); w.string(e.currency)
            if let from = e.fromShowID { w.key("fromShowId"); w.string(from) }
            if let back = e.givenBack { w.key("givenBack"); w.string(back) }
            w.raw("}")
        }
        w.raw("]")
        for (name, sums) in [("byShow", byShow), ("byPayment", byPayment), ("byClerk", byClerk), ("byChannel", byChannel), ("totals", totals)] {
            w.key(name); w.raw("[")
            for (k, s) in sums.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{")
                if let key = s.key, let keyName = Self.keyNames[name] {
                    w.key(keyName, first: true); w.string(key); w.key("currency")
                } else {
                    w.key("currency", first: true)
                }
                w.string(s.currency); w.key("taken"); w.string(s.taken); w.key("refunded"); w.string(s.refunded); w.key("net"); w.string(s.net)
                w.key("seatsSold"); w.number(s.seatsSold); w.key("seatsRefunded"); w.number(s.seatsRefunded); w.raw("}")
            }
            w.raw("]")
        }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        func sums(_ name: String) -> [Sum] {
            o.objects(name).map {
                Sum(
                    key: Self.keyNames[name].flatMap($0.optionalText), currency: $0.text("currency"), taken: $0.text("taken"),
                    refunded: $0.text("refunded"), net: $0.text("net"), seatsSold: $0.whole("seatsSold"), seatsRefunded: $0.whole("seatsRefunded"))
            }
        }
        self.init(
            from: o.text("from"), to: o.text("to"), clerk: o.optionalText("clerk"),
            entries: o.objects("entries").map {
                Entry(
                    at: $0.text("at"), kind: $0.text("kind"), showID: $0.text("showId"), orderRef: $0.optionalText("orderRef"),
                    payment: $0.text("payment"), clerk: $0.text("clerk"), channel: $0.text("channel"), seats: $0.whole("seats"), amount: $0.text("amount"),
                    currency: $0.text("currency"), fromShowID: $0.optionalText("fromShowId"), givenBack: $0.optionalText("givenBack"))
            }, byShow: sums("byShow"), byPayment: sums("byPayment"), byClerk: sums("byClerk"), byChannel: sums("byChannel"), totals: sums("totals"))
    }
}

extension TakingsResource: WireBody, WireWritable {
    public static let schemaName = "Takings"
    public static let schema: JSONSchema = {
        func sum(_ key: String?) -> JSONSchema {
            var s: JSONSchema = .object(
                [
                    "currency": .string(pattern: "^[A-Z]{3}$"), "taken": WireMoney.schema, "refunded": WireMoney.schema,
                    "net": WireMoney.schema.described("taken less refunded"), "seatsSold": .integer(minimum: 0), "seatsRefunded": .integer(minimum: 0),
                ], required: ["currency", "taken", "refunded", "net", "seatsSold", "seatsRefunded"])
            if let key {
                s.properties.insert(.init(name: key, schema: .string()), at: 0)
                s.required.insert(key, at: 0)
            }
            return s
        }
        return .object(
            [
                "from": .string(format: "date-time"), "to": .string(format: "date-time"),
                "clerk": .string().described("only this clerk's sales and refunds (a cash-up)"),
                "entries": .array(
                    .object(
                        [
                            "at": .string(format: "date-time"),
                            "kind": .oneOf(["sale", "refund", "exchange"]).described("exchange: seats moved, one entry of the difference and the fee"),
                            "showId": .string(), "orderRef": .string(),
                            "payment": .string().described("how the sale was paid (a refund: how the sale it gives back was paid); online for buyers"),
                            "clerk": .string().described("the operator who took or gave the money; online for a buyer's own purchase, refund or exchange"),
                            "channel": .string(pattern: "^(online|counter|partner:.+|season:.+)$").described(
                                "how the sale came (a refund: its sale's): online, counter, partner:NAME or season:NAME"),
                            "seats": .integer(minimum: 0),
                            "amount": WireMoney.schema.described("paid, or given back; an exchange's difference and fee (negative: given back)"),
                            "currency": .string(pattern: "^[A-Z]{3}$"), "fromShowId": .string().described("an exchange's: the show its seats came from"),
                            "givenBack": WireMoney.schema.described("an exchange's: what the seats given back had been sold for"),
                        ], required: ["at", "kind", "showId", "payment", "clerk", "channel", "seats", "amount", "currency"])),
                "byShow": .array(sum("showId")), "byPayment": .array(sum("payment")), "byClerk": .array(sum("clerk")),
                "byChannel": .array(sum("channel")), "totals": .array(sum(nil)),
            ], required: ["from", "to", "entries", "byShow", "byPayment", "byClerk", "byChannel", "totals"])
    }()
}

/// `GET /v1/orders?q=`: the orders found, each with how it matched and the buyer's name and phone if given.
public struct OrderSearchResource: Sendable {
    public struct Found: Sendable {
        public var orderRef: String, showID: String, matched: String, name: String?, phone: String?
        public init(orderRef: String, showID: String, matched: String, name: String?, phone: String?) {
            self.orderRef = orderRef; self.showID = showID; self.matched = matched; self.name = name; self.phone = phone
        }
    }
    public var query: String
    public var orders: [Found]
    public init(query: String, orders: [Found]) { self.query = query; self.orders = orders }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("query", first: true); w.string(query); w.key("orders"); w.raw("[")
        for (k, o) in orders.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("orderRef", first: true); w.string(o.orderRef); w.key("showId"); w.string(o.showID); w.key("matched"); w.string(o.matched)
            if let name = o.name { w.key("name"); w.string(name) }
            if let phone = o.phone { w.key("phone"); w.string(phone) }
            w.raw("}")
        }
        w.raw("]}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            query: o.text("query"),
            orders: o.objects("orders").map {
                Found(
                    orderRef: $0.text("orderRef"), showID: $0.text("showId"), matched: $0.text("matched"), name: $0.optionalText("name"),
                    phone: $0.optionalText("phone"))
            })
    }
}

extension OrderSearchResource: WireBody, WireWritable {
    public static let schemaName = "OrderSearch"
    public static let schema: JSONSchema = .object(
        [
            "query": .string(),
            "orders": .array(
                .object(
                    [
                        "orderRef": .string(), "showId": .string(), "matched": .oneOf(["order", "seat", "phone", "name"]),
                        "name": .string().described("the buyer's name, as given at the counter"),
                        "phone": .string(pattern: "^[0-9]{5,20}$").described("the buyer's phone as digits, as given at the counter"),
                    ], required: ["orderRef", "showId", "matched"])),
        ], required: ["query", "orders"])
}
