import Foundation
import SeatJSON
import SeatMap

/// `POST /v1/orders/{orderRef}/exchange`: seats of an order given back and others sold in their place,
/// in one step (both or neither), at the box office or by the buyer with the order's code.
public struct ExchangeRequest: Sendable, Hashable {
    public enum Target: Sendable, Hashable {
        /// These seats of the new show.
        case seats([String])
        /// The best `n` free seats together (n is the number of seats given back).
        case best(Int)
    }

    /// The seats given back (nil: every seat the order still has).
    public var seats: [String]?
    /// The show the new seats are in (the same show moves seats).
    public var show: String
    public var target: Target
    /// How the difference is settled at the counter (cash, card, …); a buyer's is `online`.
    public var payment: String?
    public var reason: String?
    /// Sell past the new show's seat rules (box office only; recorded).
    public var force: Bool
    /// The order's code (the buyer's receipt link), for a buyer acting without the box office.
    public var code: String?
    /// The show whose seats are given back, in an order of several (a season's night: the same seat id is
    /// in every show of it); nil: the order's first show that has them.
    public var fromShow: String?

    public init(
        seats: [String]? = nil, show: String, target: Target, payment: String? = nil, reason: String? = nil, force: Bool = false, code: String? = nil,
        fromShow: String? = nil
    ) {
        self.seats = seats; self.show = show; self.target = target; self.payment = payment; self.reason = reason; self.force = force
        self.code = code; self.fromShow = fromShow
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("to", first: true); w.raw("{"); w.key("show", first: true); w.string(show)
        switch target {
        case .seats(let list): w.key("seats"); w.strings(list)
        case .best(let n): w.key("best"); w.number(n)
        }
        w.raw("}")
        if let seats { w.key("seats"); w.strings(seats) }
        if let payment { w.key("payment"); w.string(payment) }
        if let reason { w.key("reason"); w.string(reason) }
        if force { w.key("force"); w.raw("true") }
        if let code { w.key("code"); w.string(code) }
        if let fromShow { w.key("fromShow"); w.string(fromShow) }
        w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["seats", "to", "payment", "reason", "force", "code", "fromShow"], at: "", into: &log)
        var seats: [String]?
        if o["seats"] != nil {
            let list = o.seatIDs("seats", into: &log) ?? []
            if list.isEmpty { log.add("seats", "name at least one seat, or leave seats out to exchange the whole order") }
            if list.count > 1000 { log.add("seats", "at most 1000 seats in one request, got \(list.count)") }
            seats = list
        }
        var show: String?, target: Target?
        if let to = o.object("to", at: "", into: &log) {
            to.rejectUnknownKeys(["show", "seats", "best"], at: "to", into: &log)
            show = to.string("show", at: "to", into: &log)
            if let s = show, !WireIdentifier.isValid(s) { log.add("to.show", "a show id (letters, digits, - _ .; at most 64), got \"\(s)\"") }
            switch (to["seats"], to["best"]) {
            case (nil, nil): log.add("to", "give \"seats\" (the new seats) or \"best\": how many of the best free seats")
            case (.some, .some): log.add("to.best", "give seats or best, not both")
            case (.some, nil):
                var inner = ProblemLog()
                let list = to.seatIDs("seats", into: &inner) ?? []
                for p in inner.problems { log.add("to." + p.path, p.message) }
                if list.isEmpty && inner.isEmpty { log.add("to.seats", "name at least one seat") }
                if list.count > 1000 { log.add("to.seats", "at most 1000 seats in one request, got \(list.count)") }
                target = .seats(list)
            case (nil, .some(let v)):
                if let n = v.intValue, (1...1000).contains(n) { target = .best(n) } else { log.add("to.best", "1 to 1000 seats, got \(v.shortDescription)") }
            }
        }
        let payment = o.text("payment", into: &log, required: false)
        if let payment, !WirePayment.isValid(payment) {
            log.add("payment", "a word like cash, card, comp or voucher (a-z, 0-9, '-', '_'; at most 32), got \"\(payment)\"")
        }
        let reason = o["reason"] == nil ? nil : o.reason(into: &log, saying: "1 to 200 characters saying why")
        var force = false
        if let v = o["force"] {
            if case .bool(let b) = v { force = b } else { log.add("force", "expected true or false, got \(v.shortDescription)") }
        }
        let code = o.text("code", into: &log, required: false)
        if let code, code.isEmpty || code.utf8.count > 128 { log.add("code", "the order's code from the receipt link (1 to 128 characters)") }
        let fromShow = o.text("fromShow", into: &log, required: false)
        if let f = fromShow, !WireIdentifier.isValid(f) { log.add("fromShow", "a show id (letters, digits, - _ .; at most 64), got \"\(f.prefix(64))\"") }
        guard log.isEmpty, let show, let target else { throw .invalid(log.error) }
        self.init(seats: seats, show: show, target: target, payment: payment, reason: reason, force: force, code: code, fromShow: fromShow)
    }
}

extension ExchangeRequest: WireBody {
    public static let schemaName = "ExchangeRequest"
    public static let schema: JSONSchema = .object(
        [
            "seats": .array(.ref(WireSeatID.self), minItems: 1, maxItems: 1000).described("the seats given back (default: all the order has)"),
            "to": .object(
                [
                    "show": .string(pattern: WireIdentifier.pattern),
                    "seats": .array(.ref(WireSeatID.self), minItems: 1, maxItems: 1000),
                    "best": .integer(minimum: 1, maximum: 1000).described("the best free seats together, as many as are given back"),
                ], required: ["show"], closed: true
            ).with {
                $0.oneOf = [
                    .constraint(required: ["seats"]).with { $0.not = [.constraint(required: ["best"])] },
                    .constraint(required: ["best"]).with { $0.not = [.constraint(required: ["seats"])] },
                ]
            },
            "payment": .string(pattern: "^[a-z0-9_-]{1,32}$").described("how the difference is settled at the counter"),
            "reason": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 200),
            "force": .boolean.described("sell past the new show's seat rules (box office; recorded)"),
            "code": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 128).described(
                "the order's code from the receipt link: a buyer's own exchange, within the show's afterSale policy"),
            "fromShow": .string(pattern: WireIdentifier.pattern).described(
                "the show whose seats are given back, in an order of several shows (a season's night)"),
        ], required: ["to"], closed: true
    ).example(#"{"seats":["5-1","5-2"],"to":{"show":"evening-2030","seats":["7-5","7-6"]},"payment":"cash"}"#)
}

/// What an exchange did: the seats given back, the seats sold in their place, the fee and the
/// difference to pay (negative: to give back), and the order as it is now.
public struct ExchangeResource: Sendable {
    public struct Side: Sendable {
        public var holdID: String
        public var showID: String
        public var seats: [(seat: String, price: String)]
        public var total: String
        public init(holdID: String, showID: String, seats: [(seat: String, price: String)], total: String) {
            self.holdID = holdID; self.showID = showID; self.seats = seats; self.total = total
        }
    }

    public var from: Side
    public var to: Side
    public var fee: String
    /// The new seats' total plus the fee, less the old seats' (what the buyer pays; negative: gets back).
    public var difference: String
    public var currency: String
    public var order: OrderResource

    public init(from: Side, to: Side, fee: String, difference: String, currency: String, order: OrderResource) {
        self.from = from; self.to = to; self.fee = fee; self.difference = difference; self.currency = currency; self.order = order
    }

    public func write(into w: inout JSONWriter) {
        func side(_ s: Side) {
            w.raw("{"); w.key("holdId", first: true); w.string(s.holdID); w.key("showId"); w.string(s.showID); w.key("seats"); w.raw("[")
            for (k, seat) in s.seats.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("seat", first: true); w.string(seat.seat); w.key("price"); w.string(seat.price); w.raw("}")
            }
            w.raw("]"); w.key("total"); w.string(s.total); w.raw("}")
        }
        w.raw("{"); w.key("from", first: true); side(from); w.key("to"); side(to)
        w.key("fee"); w.string(fee); w.key("difference"); w.string(difference); w.key("currency"); w.string(currency)
        w.key("order"); order.write(into: &w); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        func side(_ s: JSONObject) -> Side {
            Side(
                holdID: s.text("holdId"), showID: s.text("showId"), seats: s.objects("seats").map { ($0.text("seat"), $0.text("price")) },
                total: s.text("total"))
        }
        let order = o["order"]?.objectValue.map(OrderResource.init) ?? OrderResource(orderRef: "", parts: [], refunds: [])
        self.init(
            from: side(o["from"]?.objectValue ?? JSONObject()), to: side(o["to"]?.objectValue ?? JSONObject()), fee: o.text("fee"),
            difference: o.text("difference"), currency: o.text("currency"), order: order)
    }
}

extension ExchangeResource: WireBody, WireWritable {
    public static let schemaName = "Exchange"
    static let side: JSONSchema = .object(
        [
            "holdId": .string(), "showId": .string(),
            "seats": .array(.object(["seat": .string(), "price": WireMoney.schema], required: ["seat", "price"])),
            "total": WireMoney.schema,
        ], required: ["holdId", "showId", "seats", "total"])
    public static let schema: JSONSchema = .object(
        [
            "from": side, "to": side,
            "fee": WireMoney.schema.described("the exchange fee (the show's afterSale policy; none at the box office)"),
            "difference": WireMoney.schema.described("the new seats' total and the fee, less the old seats': to pay, or to give back when negative"),
            "currency": .string(),
            "order": .ref(OrderResource.self),
        ], required: ["from", "to", "fee", "difference", "currency", "order"])
}

/// A payment word: `cash`, `card`, `comp`, `voucher`… (a-z, 0-9, `-`, `_`; 1 to 32).
public enum WirePayment {
    public static func isValid(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 32 && s.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 }
    }
}
