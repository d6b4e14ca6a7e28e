import Foundation
import SeatJSON
import SeatMap

/// The v1 API's JSON shapes are defined once, here, and used by both the server (to write and read
/// them) and the client (to read and write them). Foundation only, so they build for iOS and macOS.

/// `POST /v1/shows/{id}/holds`.
public struct HoldRequest: Sendable, Hashable {
    public var seats: [String]
    public var wheelchair: Bool
    /// Places of general-admission areas by count (`{"floor": 3}`), held with the seats, all or none;
    /// in the areas' ids' order.
    public var areas: [AreaCount]
    /// A real-name show's attendees of the seats (they may also come later, by the confirm or checkout).
    public var attendees: [HoldAttendee]
    /// The buyer's attendee book, when attendees are saved ones.
    public var book: String?
    public init(seats: [String], wheelchair: Bool = false, areas: [AreaCount] = [], attendees: [HoldAttendee] = [], book: String? = nil) {
        self.seats = seats; self.wheelchair = wheelchair; self.areas = areas; self.attendees = attendees; self.book = book
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("seats", first: true); w.strings(seats)
        if wheelchair { w.key("wheelchair"); w.raw("true") }
        if !areas.isEmpty { w.key("areas"); AreaCount.write(areas, into: &w) }
        if !attendees.isEmpty { w.key("attendees"); HoldAttendee.write(attendees, into: &w) }
        if let book { w.key("book"); w.string(book) }
        w.raw("}")
        return w.bytes
    }

    /// Strict: unknown members, wrong types and too many seats are problems with their paths.
    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["seats", "wheelchair", "areas", "attendees", "book"], at: "", into: &log)
        let book = o.text("book", into: &log, required: false)
        let seats = o["seats"] == nil && o["areas"] != nil ? [] : WireError.stringList(o, "seats", &log) ?? []
        var wheelchair = false
        if let v = o["wheelchair"] {
            if let b = v.boolValue { wheelchair = b } else { log.add("wheelchair", "expected true or false, got \(v.shortDescription)") }
        }
        let areas = AreaCount.read(o["areas"], at: "areas", into: &log)
        let attendees = HoldAttendee.read(o["attendees"], at: "attendees", into: &log)
        if !log.isEmpty { throw .invalid(log.error) }
        self.init(seats: seats, wheelchair: wheelchair, areas: areas, attendees: attendees, book: book)
    }
}

/// How many places of one general-admission area a request asks for.
public struct AreaCount: Sendable, Hashable {
    public var area: String
    public var count: Int
    public init(area: String, count: Int) { self.area = area; self.count = count }

    /// The most places one request asks for, of one area: what a hold may have of seats.
    public static let limit = 1000

    static func write(_ list: [AreaCount], into w: inout JSONWriter) {
        w.raw("{")
        for (k, a) in list.enumerated() { w.key(a.area, first: k == 0); w.number(a.count) }
        w.raw("}")
    }

    /// `{"floor": 3, "box-a": 1}`, each a whole number `minimum` to `limit`; nil: none asked.
    static func read(_ value: JSONValue?, at path: String, minimum: Int = 1, into log: inout ProblemLog) -> [AreaCount] {
        guard let value else { return [] }
        guard let o = value.objectValue else { log.add(path, "expected an object of area ids and counts, got \(value.shortDescription)"); return [] }
        var out: [AreaCount] = []
        for (key, v) in zip(o.keys, o.values) {
            guard let n = v.intValue, n >= minimum, n <= limit else {
                log.add(path + "." + key, "expected a whole number of places, \(minimum) to \(limit), got \(v.shortDescription)")
                continue
            }
            out.append(AreaCount(area: key, count: n))
        }
        if o.keys.isEmpty { log.add(path, "no area named (leave it out, or name an area and a count)") }
        return out.sorted { $0.area < $1.area }
    }

    public static let schema: JSONSchema = .map(.integer(minimum: 1, maximum: limit), maxProperties: 100, minProperties: 1)
    /// A hold's change: each area's places the hold is to have, 0 for none.
    public static let targetSchema: JSONSchema = .map(.integer(minimum: 0, maximum: limit), maxProperties: 100, minProperties: 1)
}

/// `POST /v1/holds/{token}/seats`.
public struct ModifyHoldRequest: Sendable, Hashable {
    public var add: [String]
    public var remove: [String]
    /// Each area's places the hold is to have after the change (`{"floor": 2}`; 0: none of it): the
    /// server adds or lets go of places to get there.
    public var areas: [AreaCount]
    /// Attendees of seats of the changed hold (added ones, or others whose attendee changes).
    public var attendees: [HoldAttendee]
    public init(add: [String] = [], remove: [String] = [], areas: [AreaCount] = [], attendees: [HoldAttendee] = []) {
        self.add = add; self.remove = remove; self.areas = areas; self.attendees = attendees
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("add", first: true); w.strings(add)
        w.key("remove"); w.strings(remove)
        if !areas.isEmpty { w.key("areas"); AreaCount.write(areas, into: &w) }
        if !attendees.isEmpty { w.key("attendees"); HoldAttendee.write(attendees, into: &w) }
        w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["add", "remove", "areas", "attendees"], at: "", into: &log)
        let add = o["add"] == nil ? [] : (WireError.stringList(o, "add", &log) ?? [])
        let remove = o["remove"] == nil ? [] : (WireError.stringList(o, "remove", &log) ?? [])
        let areas = AreaCount.read(o["areas"], at: "areas", minimum: 0, into: &log)
        let attendees = HoldAttendee.read(o["attendees"], at: "attendees", into: &log)
        if !log.isEmpty { throw .invalid(log.error) }
        self.init(add: add, remove: remove, areas: areas, attendees: attendees)
    }
}

/// `POST /v1/holds/{token}/confirm`. With `payment`, an operator's own checkout (a `checkout` key)
/// sells the hold against a payment it took itself: its reference at the provider and the amount.
public struct ConfirmRequest: Sendable, Hashable {
    public struct ExternalPayment: Sendable, Hashable {
        /// The payment's reference in the checkout's own system (one sale a reference).
        public var reference: String
        /// Exact decimal text: the hold's total, e.g. "116.00".
        public var amount: String
        public init(reference: String, amount: String) { self.reference = reference; self.amount = amount }
    }

    public var orderRef: String
    public var payment: ExternalPayment?
    /// A partner's own order number (a hold made with `Seat-Channel`), 1 to 64 characters: the order's
    /// reference, so the same number confirms the same hold once and names it in orders and reports.
    public var externalOrderId: String?
    /// A real-name show's attendees, at the latest here (with those given before, every seat's).
    public var attendees: [HoldAttendee]
    public init(orderRef: String, payment: ExternalPayment? = nil, externalOrderId: String? = nil, attendees: [HoldAttendee] = []) {
        self.orderRef = orderRef; self.payment = payment; self.externalOrderId = externalOrderId; self.attendees = attendees
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{")
        if let externalOrderId { w.key("externalOrderId", first: true); w.string(externalOrderId) } else { w.key("orderRef", first: true); w.string(orderRef) }
        if let payment {
            w.key("payment"); w.raw("{"); w.key("provider", first: true); w.string("external")
            w.key("reference"); w.string(payment.reference); w.key("amount"); w.string(payment.amount); w.raw("}")
        }
        if !attendees.isEmpty { w.key("attendees"); HoldAttendee.write(attendees, into: &w) }
        w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["orderRef", "payment", "externalOrderId", "attendees"], at: "", into: &log)
        let attendees = HoldAttendee.read(o["attendees"], at: "attendees", into: &log)
        // A partner's confirmation names its own order instead (the two are one reference).
        let external = o.text("externalOrderId", into: &log, required: false)
        if let external {
            if let problem = WireOrderRef.problem(external) { log.add("externalOrderId", problem) }
            if external.unicodeScalars.count > 64 { log.add("externalOrderId", "at most 64 characters, got \(external.unicodeScalars.count)") }
            if o["orderRef"] != nil { log.add("orderRef", "give orderRef or a partner's externalOrderId, not both") }
        }
        let ref = external ?? o.text("orderRef", into: &log)
        if external == nil, let ref, let problem = WireOrderRef.problem(ref) { log.add("orderRef", problem) }
        var payment: ExternalPayment?
        if let value = o["payment"] {
            if let p = value.objectValue {
                p.rejectUnknownKeys(["provider", "reference", "amount"], at: "payment", into: &log)
                if p["provider"]?.stringValue != "external" {
                    log.add("payment.provider", "expected \"external\" (a payment the operator's own checkout took)")
                }
                let reference = p["reference"]?.stringValue, amount = p["amount"]?.stringValue
                if reference == nil || reference!.isEmpty || reference!.unicodeScalars.count > 128 {
                    log.add("payment.reference", "the payment's reference, 1 to 128 characters")
                }
                if amount.map({ $0.range(of: #"^[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) == nil }) ?? true {
                    log.add("payment.amount", "the amount paid as exact decimal text, e.g. \"116.00\"")
                }
                if let reference, let amount { payment = ExternalPayment(reference: reference, amount: amount) }
            } else {
                log.add("payment", "an object: {\"provider\":\"external\",\"reference\":…,\"amount\":…}")
            }
        }
        if !log.isEmpty { throw .invalid(log.error) }
        self.init(orderRef: ref!, payment: payment, externalOrderId: external, attendees: attendees)
    }
}

extension HoldRequest: WireBody {
    public static let schemaName = "HoldRequest"
    public static let schema: JSONSchema = .object(
        [
            "seats": .array(.ref(WireSeatID.self), maxItems: 1000),
            "wheelchair": .boolean,
            "areas": AreaCount.schema,
            "attendees": .array(.ref(HoldAttendee.self), maxItems: HoldAttendee.limit),
            "book": .string(minLength: 1, maxLength: 128).described("the buyer's attendee book, for attendees saved in it"),
        ], required: [], closed: true
    ).example(#"{"seats":["7-1","7-2"]}"#)
}

extension ModifyHoldRequest: WireBody {
    public static let schemaName = "ModifyRequest"
    public static let schema: JSONSchema = .object(
        [
            "add": .array(.ref(WireSeatID.self), maxItems: 1000),
            "remove": .array(.ref(WireSeatID.self), maxItems: 1000),
            "areas": AreaCount.targetSchema,
            "attendees": .array(.ref(HoldAttendee.self), maxItems: HoldAttendee.limit),
        ], closed: true
    ).with {
        $0.anyOf = [
            .constraint(
                [
                    "add": JSONSchema().with { $0.minItems = 1 }
                ], required: ["add"]),
            .constraint(
                [
                    "remove": JSONSchema().with { $0.minItems = 1 }
                ], required: ["remove"]),
            .constraint(["areas": JSONSchema()], required: ["areas"]),
        ]
    }.described("at least one seat to add or remove, or an area's places to have").example(#"{"add":["7-3"],"remove":["7-2"]}"#)
}

extension ConfirmRequest: WireBody {
    public static let schemaName = "ConfirmRequest"
    public static let schema: JSONSchema = .object(
        [
            "orderRef": .string(pattern: #"^[^/?#%\\\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 128).described(
                #"any characters but control characters and / ? # % \\ (it is a segment of /v1/orders/{orderRef})"#),
            "payment": .object(
                [
                    "provider": .oneOf(["external"]), "reference": .string(minLength: 1, maxLength: 128),
                    "amount": .string(pattern: #"^[0-9]+(\.[0-9]+)?$"#),
                ], required: ["provider", "reference", "amount"], closed: true
            ).described("a payment an operator's own checkout took (a checkout key only)"),
            "externalOrderId": .string(pattern: #"^[^/?#%\\\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 64).described(
                "a partner's own order number, for a hold made with Seat-Channel: the order's reference (instead of orderRef)"),
            "attendees": .array(.ref(HoldAttendee.self), maxItems: HoldAttendee.limit).described(
                "a real-name show's attendees (with those given before, one for every seat; one document an order for perOrder)"),
        ], closed: true
    ).with {
        $0.oneOf = [
            .constraint(required: ["orderRef"]).with { $0.not = [.constraint(required: ["externalOrderId"])] },
            .constraint(required: ["externalOrderId"]).with { $0.not = [.constraint(required: ["orderRef"])] },
        ]
    }.example(#"{"orderRef":"A-1001"}"#)
}
