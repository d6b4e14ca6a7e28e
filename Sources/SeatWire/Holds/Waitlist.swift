import Foundation
import SeatJSON
import SeatMap

/// `POST /v1/shows/{id}/waitlist`: a buyer in line (候补) for `count` seats of a price category
/// (`price`), of a zone, or of any kind.
public struct WaitlistRequest: Sendable, Hashable {
    public var price: String?
    public var zone: String?
    public var count: Int
    /// A real-name show: who will sit in the seats offered (one a seat, or the buyer's one document for a
    /// per-order show), checked now and named on the offer's hold; without a seat (the seats are not known yet).
    public var attendees: [HoldAttendee]
    /// A show whose waitlist prepays: how the buyer pays now (the provider, its method, a WeChat payer).
    public var prepay: CheckoutRequest?

    public init(price: String? = nil, zone: String? = nil, count: Int, attendees: [HoldAttendee] = [], prepay: CheckoutRequest? = nil) {
        self.price = price; self.zone = zone; self.count = count; self.attendees = attendees; self.prepay = prepay
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["price", "zone", "count", "attendees", "prepay"], at: "", into: &log)
        var prepay: CheckoutRequest?
        if let value = o["prepay"] {
            if let object = value.objectValue {
                prepay = CheckoutRequest(object: object, at: "prepay", into: &log)
                if prepay?.orderRef != nil { log.add("prepay.orderRef", "a waitlist entry's payment takes no order reference") }
            } else {
                log.add("prepay", "how the entry is paid: {\"provider\": \"wechatpay\"|\"alipay\"|\"stripe\", \"method\": …}")
            }
        }
        let attendees = HoldAttendee.read(o["attendees"], at: "attendees", into: &log)
        for (k, a) in attendees.enumerated() {
            if a.seat != nil { log.add("attendees[\(k)].seat", "the offer's seats are not known yet: leave the seat out") }
            if a.saved != nil { log.add("attendees[\(k)].saved", "give the attendee's name and document") }
        }
        func name(_ key: String) -> String? {
            guard let text = o.string(key, at: key, into: &log, required: false) else { return nil }
            if text.isEmpty || text.unicodeScalars.count > 64 { log.add(key, "1 to 64 characters, got \(text.unicodeScalars.count)") }
            if let bad = WireText.controlCharacter(in: text) { log.add(key, bad) }
            return text
        }
        let price = name("price"), zone = name("zone")
        if price != nil && zone != nil { log.add("zone", "give a price category or a zone, not both") }
        let count = o.integer("count", at: "count", into: &log)
        if let count, !(1...50).contains(count) { log.add("count", "1 to 50 seats, got \(count)") }
        guard log.isEmpty, let count else { throw .invalid(log.error) }
        self.init(price: price, zone: zone, count: count, attendees: attendees, prepay: prepay)
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{")
        var first = true
        if let price { w.key("price", first: first); w.string(price); first = false }
        if let zone { w.key("zone", first: first); w.string(zone); first = false }
        w.key("count", first: first); w.number(count)
        if !attendees.isEmpty { w.key("attendees"); HoldAttendee.write(attendees, into: &w) }
        if let prepay { w.key("prepay"); w.raw(String(decoding: prepay.jsonBytes(), as: UTF8.self)) }
        w.raw("}")
        return w.bytes
    }
}

extension WaitlistRequest: WireBody {
    public static let schemaName = "WaitlistRequest"
    public static let schema: JSONSchema = JSONSchema.object(
        [
            "price": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]{1,64}$"#).described("a price category of the show (vip, standard…)"),
            "zone": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]{1,64}$"#).described("a zone of the venue; leave both out for any seat"),
            "count": .integer(minimum: 1, maximum: 50).described("seats wanted together in one offer (at most the show's limit)"),
            "attendees": .array(
                .object(
                    [
                        "name": .string(), "idType": .oneOf(["idCard", "passport", "hkMacauPermit", "taiwanPermit", "militaryID"]),
                        "idNumber": .string(), "phone": .string(),
                    ], required: ["name", "idType", "idNumber"], closed: true), maxItems: 50
            ).described("a real-name show: who sits in the seats offered (one a seat; per-order: the buyer's one), named on the offer's hold"),
            "prepay": .object(
                [
                    "provider": .oneOf(CheckoutRequest.providers), "method": .oneOf(CheckoutRequest.methods),
                    "payer": .string(minLength: 1, maxLength: 128),
                ], required: ["provider"], closed: true
            ).described("a show whose waitlist prepays: the entry is paid now, the most its seats can cost; back in full when nothing comes"),
        ], required: ["count"], closed: true
    ).with { $0.not = [.constraint(required: ["price", "zone"])] }.example(#"{"price":"vip","count":2}"#)
}

/// A waitlist entry as its holder sees it (`GET /v1/waitlist/{entry}`).
public struct WaitlistResource: Sendable, Hashable, WireWritable {
    public struct Offer: Sendable, Hashable {
        /// The offer's hold: pay through `POST /v1/holds/{token}/checkout` before `expiresAt`.
        public var token: String
        public var expiresAt: String
        public var seats: [String]
        public init(token: String, expiresAt: String, seats: [String]) { self.token = token; self.expiresAt = expiresAt; self.seats = seats }
    }

    /// The entry's token: in the answer that made it only.
    public var entry: String?
    public var show: String
    /// `waiting`, `offered`, `bought`, `lapsed` or `cancelled`.
    public var state: String
    /// While waiting: 1 is next.
    public var position: Int?
    public var price: String?
    public var zone: String?
    public var count: Int
    public var offer: Offer?
    public var createdAt: String
    /// A prepaid entry's payment as it stands (with what the page pays with, in the answer that made it).
    public var prepayment: PaymentResource?
    /// What went back of the prepayment, exact decimal text ("0.00" none).
    public var refunded: String?
    /// Why a closed entry closed.
    public var outcome: String?
    /// Bought: the order, read with `GET /v1/orders/{ref}?code={code}` (its tickets there).
    public var order: Order?

    public struct Order: Sendable, Hashable {
        public var ref: String
        public var code: String
        public var seats: [String]
        public init(ref: String, code: String, seats: [String]) { self.ref = ref; self.code = code; self.seats = seats }
    }

    public init(
        entry: String?, show: String, state: String, position: Int?, price: String?, zone: String?, count: Int, offer: Offer?, createdAt: String,
        prepayment: PaymentResource? = nil, refunded: String? = nil, outcome: String? = nil, order: Order? = nil
    ) {
        self.entry = entry; self.show = show; self.state = state; self.position = position; self.price = price; self.zone = zone
        self.count = count; self.offer = offer; self.createdAt = createdAt; self.prepayment = prepayment; self.refunded = refunded
        self.outcome = outcome; self.order = order
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{")
        var first = true
        if let entry { w.key("entry", first: true); w.string(entry); first = false }
        w.key("show", first: first); w.string(show); w.key("state"); w.string(state)
        w.key("position"); if let position { w.number(position) } else { w.raw("null") }
        w.key("price"); if let price { w.string(price) } else { w.raw("null") }
        w.key("zone"); if let zone { w.string(zone) } else { w.raw("null") }
        w.key("count"); w.number(count)
        w.key("offer")
        if let offer {
            w.raw("{"); w.key("token", first: true); w.string(offer.token); w.key("expiresAt"); w.string(offer.expiresAt)
            w.key("seats"); w.raw("["); w.raw(offer.seats.map { JSONWriter.quoted($0) }.joined(separator: ",")); w.raw("]}")
        } else {
            w.raw("null")
        }
        w.key("createdAt"); w.string(createdAt)
        if let prepayment { w.key("prepayment"); prepayment.write(into: &w) }
        if let refunded { w.key("refunded"); w.string(refunded) }
        if let outcome { w.key("outcome"); w.string(outcome) }
        if let order {
            w.key("order"); w.raw("{"); w.key("ref", first: true); w.string(order.ref); w.key("code"); w.string(order.code)
            w.key("seats"); w.raw("["); w.raw(order.seats.map { JSONWriter.quoted($0) }.joined(separator: ",")); w.raw("]}")
        }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        let offer = o["offer"]?.objectValue.map { Offer(token: $0.text("token"), expiresAt: $0.text("expiresAt"), seats: $0.texts("seats")) }
        self.init(
            entry: o.optionalText("entry"), show: o.text("show"), state: o.text("state"), position: o["position"]?.intValue,
            price: o.optionalText("price"), zone: o.optionalText("zone"), count: o.whole("count"), offer: offer, createdAt: o.text("createdAt"),
            prepayment: try o["prepayment"]?.objectValue.map { (p: JSONObject) throws(WireError) in try PaymentResource(object: p) },
            refunded: o.optionalText("refunded"), outcome: o.optionalText("outcome"),
            order: o["order"]?.objectValue.map { Order(ref: $0.text("ref"), code: $0.text("code"), seats: $0.texts("seats")) })
    }
}

extension WaitlistResource: WireBody {
    public static let schemaName = "WaitlistEntry"
    public static let schema: JSONSchema = .object(
        [
            "entry": .string(pattern: "^wl_").described("the entry's token (given once): keep it to see the place and the offer"),
            "show": .string(),
            "state": .oneOf(["waiting", "offered", "bought", "lapsed", "cancelled"]),
            "position": .integer(minimum: 1).orNull.described("while waiting: 1 is next"),
            "price": .string().orNull, "zone": .string().orNull, "count": .integer(minimum: 1),
            "offer": .object(
                ["token": .string(), "expiresAt": .string(format: "date-time"), "seats": .array(.string())], required: ["token", "expiresAt", "seats"]
            ).orNull.described("offered: seats held for this entry until expiresAt (pay through the hold's checkout)"),
            "createdAt": .string(format: "date-time"),
            "prepayment": .ref(PaymentResource.self).described("a prepaid entry's payment: pending until paid (offered nothing before)"),
            "refunded": .string(pattern: #"^[0-9]+(\.[0-9]+)?$"#).described("what went back of the prepayment"),
            "outcome": .string().described("why a closed entry closed"),
            "order": .object(["ref": .string(), "code": .string(), "seats": .array(.string())], required: ["ref", "code", "seats"], closed: true).described(
                "bought: the order, read with GET /v1/orders/{ref}?code={code} (its tickets there)"),
        ], required: ["show", "state", "position", "price", "zone", "count", "offer", "createdAt"])
}
