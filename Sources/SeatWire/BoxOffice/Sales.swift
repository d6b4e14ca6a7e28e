import Foundation
import SeatMap
import SeatJSON

/// `POST /v1/shows/{id}/sales` (the box office): seats, or a reservation whole, sold at once.
public struct SaleRequest: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// Seats by id and standing places by count (`"areas":{"floor":3}`: the server picks which).
        case seats([String], areas: [AreaCount] = [])
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
        case .seats(let seats, let areas):
            w.key("seats", first: true); w.strings(seats)
            if !areas.isEmpty { w.key("areas"); AreaCount.write(areas, into: &w) }
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
        o.rejectUnknownKeys(["seats", "areas", "reservation", "orderRef", "payment", "force", "prices", "buyer"], at: "", into: &log)
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
        let prices = o.amounts("prices", example: "38.00", limit: 1000, of: "seats", into: &log)
        var source: Source?
        // Standing places by count, beside the seats (or alone).
        let areas = AreaCount.read(o["areas"], at: "areas", into: &log)
        if o["reservation"] != nil && o["areas"] != nil { log.add("areas", "give seats and places, or a reservation, not both") }
        switch (o["seats"] ?? (o["areas"] != nil ? .array([]) : nil), o["reservation"]) {
        case (nil, nil): log.add("seats", "give the seats to sell (or \"areas\": places by count), or \"reservation\": the id of one to sell whole")
        case (.some, .some): log.add("reservation", "give seats or a reservation, not both")
        case (.some, nil):
            let seats = o["seats"] == nil ? [] : o.seatIDs("seats", into: &log) ?? []
            if seats.count > 1000 { log.add("seats", "at most 1000 seats in one request, got \(seats.count)") }
            source = .seats(seats, areas: areas)
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
            "areas": AreaCount.schema.described("standing places by count beside the seats, or alone (`{\"floor\":3}`): the server picks which"),
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
            .constraint(required: ["areas"]).with {
                $0.not = [JSONSchema().with { $0.anyOf = [.constraint(required: ["seats"]), .constraint(required: ["reservation"])] }]
            },
            .constraint(required: ["reservation"]).with {
                $0.not = [JSONSchema().with { $0.anyOf = [.constraint(required: ["seats"]), .constraint(required: ["areas"])] }]
            },
        ]
    }.example(#"{"seats":["5-1","5-2"],"orderRef":"BOX-1","payment":"cash"}"#)
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
