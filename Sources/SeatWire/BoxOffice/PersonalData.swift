import Foundation
import SeatJSON
import SeatMap

/// `POST /v1/shows/{id}/attendees/reveal` (managers): one seat's attendee in the clear, with why; the
/// show's log keeps who asked and the reason before the answer is given.
public struct RevealRequest: Sendable, Hashable {
    public var seat: String
    public var reason: String
    public init(seat: String, reason: String) { self.seat = seat; self.reason = reason }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["seat", "reason"], at: "", into: &log)
        let seat = o.text("seat", into: &log), reason = o.text("reason", into: &log)
        if let reason, reason.trimmingCharacters(in: .whitespaces).isEmpty || reason.unicodeScalars.count > 200 {
            log.add("reason", "why the attendee is revealed (the show's log keeps it), 1 to 200 characters")
        }
        guard log.isEmpty, let seat, let reason else { throw .invalid(log.error) }
        self.init(seat: seat, reason: reason)
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("seat", first: true); w.string(seat); w.key("reason"); w.string(reason); w.raw("}")
        return w.bytes
    }
}

extension RevealRequest: WireBody {
    public static let schemaName = "RevealRequest"
    public static let schema: JSONSchema = .object(
        [
            "seat": .ref(WireSeatID.self),
            "reason": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 200),
        ], required: ["seat", "reason"], closed: true
    ).example(#"{"seat":"7-1","reason":"police request 2026-118"}"#)
}

/// An attendee in the clear (a manager's reveal).
public struct RevealedAttendeeResource: Sendable, Hashable, WireWritable {
    public var seat: String
    public var name: String
    public var idType: String
    public var idNumber: String
    public var phone: String?
    public init(seat: String, name: String, idType: String, idNumber: String, phone: String?) {
        self.seat = seat; self.name = name; self.idType = idType; self.idNumber = idNumber; self.phone = phone
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("seat", first: true); w.string(seat); w.key("name"); w.string(name); w.key("idType"); w.string(idType)
        w.key("idNumber"); w.string(idNumber)
        if let phone { w.key("phone"); w.string(phone) }
        w.raw("}")
    }
}

extension RevealedAttendeeResource: WireBody {
    public static let schemaName = "RevealedAttendee"
    public static let schema: JSONSchema = .object(
        ["seat": .string(), "name": .string(), "idType": .string(), "idNumber": .string(), "phone": .string()],
        required: ["seat", "name", "idType", "idNumber"])
}

/// `DELETE /v1/shows/{id}/personal-data` (managers, once the show is over): what was erased.
public struct ErasureResource: Sendable, Hashable, WireWritable {
    public var show: String
    public var attendees: Int
    public var contacts: Int
    public init(show: String, attendees: Int, contacts: Int) { self.show = show; self.attendees = attendees; self.contacts = contacts }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("show", first: true); w.string(show); w.key("attendees"); w.number(attendees)
        w.key("contacts"); w.number(contacts); w.raw("}")
    }
}

extension ErasureResource: WireBody {
    public static let schemaName = "Erasure"
    public static let schema: JSONSchema = .object(
        ["show": .string(), "attendees": .integer(minimum: 0), "contacts": .integer(minimum: 0)], required: ["show", "attendees", "contacts"])
}

/// `POST /v1/tickets/{code}/transfer`: a real-name ticket to another person (or a ticket sold without a
/// name bound to its first), by the box office or by the buyer with their order's code.
public struct TransferRequest: Sendable, Hashable {
    public var to: HoldAttendee
    /// The buyer's order code (the hold token it was bought with); none for the box office.
    public var code: String?
    public init(to: HoldAttendee, code: String? = nil) { self.to = to; self.code = code }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["to", "code"], at: "", into: &log)
        if let to = o["to"], to.objectValue?["seat"] != nil { log.add("to.seat", "the ticket says the seat: leave it out") }
        let people = o["to"].map { HoldAttendee.read(.array([$0]), at: "to", into: &log) } ?? []
        if o["to"] == nil { log.add("to", "missing: the person the ticket goes to, {\"name\",\"idType\",\"idNumber\"}") }
        let code = o.text("code", into: &log, required: false)
        guard log.isEmpty, let to = people.first else { throw .invalid(log.error) }
        self.init(to: to, code: code)
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("to", first: true); to.write(into: &w)
        if let code { w.key("code"); w.string(code) }
        w.raw("}")
        return w.bytes
    }
}

extension TransferRequest: WireBody {
    public static let schemaName = "TransferRequest"
    public static let schema: JSONSchema = .object(
        [
            "to": .object(
                [
                    "name": .string(minLength: 1, maxLength: 64), "idType": .string(minLength: 1, maxLength: 32),
                    "idNumber": .string(minLength: 1, maxLength: 32), "phone": .string(minLength: 1, maxLength: 32),
                ], required: ["name", "idType", "idNumber"], closed: true),
            "code": .string(minLength: 1, maxLength: 128).described("the buyer's order code; the box office needs none"),
        ], required: ["to"], closed: true
    ).example(#"{"to":{"name":"李雷","idType":"idCard","idNumber":"11010519491231002X"},"code":"01a2…"}"#)
}

/// A buyer's attendee book (`GET /v1/attendee-books/{book}`): the saved attendees, masked.
public struct AttendeeBookResource: Sendable, Hashable, WireWritable {
    public struct Entry: Sendable, Hashable {
        public var id: String
        public var name: String
        public var idType: String
        public var idNumber: String
        public init(id: String, name: String, idType: String, idNumber: String) {
            self.id = id; self.name = name; self.idType = idType; self.idNumber = idNumber
        }

        public func write(into w: inout JSONWriter) {
            w.raw("{"); w.key("id", first: true); w.string(id); w.key("name"); w.string(name); w.key("idType"); w.string(idType)
            w.key("idNumber"); w.string(idNumber); w.raw("}")
        }
    }

    public var book: String
    public var attendees: [Entry]
    public init(book: String, attendees: [Entry]) { self.book = book; self.attendees = attendees }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("book", first: true); w.string(book); w.key("attendees"); w.raw("[")
        for (k, a) in attendees.enumerated() {
            if k > 0 { w.raw(",") }
            a.write(into: &w)
        }
        w.raw("]}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            book: o.text("book"),
            attendees: o.objects("attendees").map { Entry(id: $0.text("id"), name: $0.text("name"), idType: $0.text("idType"), idNumber: $0.text("idNumber")) })
    }
}

extension AttendeeBookResource: WireBody {
    public static let schemaName = "AttendeeBook"
    static let entry: JSONSchema = .object(
        ["id": .string(pattern: "^at_"), "name": .string(), "idType": .string(), "idNumber": .string()], required: ["id", "name", "idType", "idNumber"])
    public static let schema: JSONSchema = .object(
        ["book": .string(pattern: "^ab_"), "attendees": .array(entry)], required: ["book", "attendees"]
    ).described("a buyer's saved attendees (常用观演人), masked: a hold names one with {\"seat\",\"saved\":id} and the book")
}

/// `POST /v1/attendee-books/{book}/attendees`: an attendee to save (checked as a hold's).
public struct BookEntryRequest: Sendable, Hashable {
    public var attendee: HoldAttendee

    public init(attendee: HoldAttendee) { self.attendee = attendee }

    public init(json bytes: [UInt8]) throws(WireError) {
        var log = ProblemLog()
        let o = try WireError.object(bytes)
        if o["seat"] != nil || o["saved"] != nil {
            log.add(o["seat"] != nil ? "seat" : "saved", "a book's attendee has no seat and is no saved one: leave it out")
        }
        let list = HoldAttendee.read(.array([.object(o)]), at: "", into: &log)
        guard log.isEmpty, let first = list.first else { throw .invalid(Self.unindexed(log).error) }
        self.init(attendee: first)
    }

    /// Problems of the one attendee read as a list's first, named from the body's root.
    static func unindexed(_ log: ProblemLog) -> ProblemLog {
        var out = ProblemLog()
        for p in log.problems { out.add(p.path.hasPrefix("[0].") ? String(p.path.dropFirst(4)) : p.path == "[0]" ? "" : p.path, p.message) }
        return out
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        attendee.write(into: &w)
        return w.bytes
    }
}

extension BookEntryRequest: WireBody {
    public static let schemaName = "BookEntryRequest"
    public static let schema: JSONSchema = .object(
        [
            "name": .string(minLength: 1, maxLength: 64), "idType": .string(minLength: 1, maxLength: 32),
            "idNumber": .string(minLength: 1, maxLength: 32), "phone": .string(minLength: 1, maxLength: 32),
        ], required: ["name", "idType", "idNumber"], closed: true
    ).example(#"{"name":"王小明","idType":"idCard","idNumber":"11010519491231002X"}"#)
}

/// `GET /v1/shows/{id}/unbound` (the box office): a real-name show's tickets sold without a name, each to
/// be bound (`POST /v1/tickets/{code}/transfer`) before `bindBy`.
public struct UnboundTicketsResource: Sendable, Hashable, WireWritable {
    public struct Ticket: Sendable, Hashable {
        public var seat: String
        public var orderRef: String?
        public init(seat: String, orderRef: String?) { self.seat = seat; self.orderRef = orderRef }
    }

    public var show: String
    /// RFC 3339; nil when the show's start cannot be read.
    public var bindBy: String?
    public var tickets: [Ticket]
    public init(show: String, bindBy: String?, tickets: [Ticket]) { self.show = show; self.bindBy = bindBy; self.tickets = tickets }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("show", first: true); w.string(show); w.key("bindBy")
        if let bindBy { w.string(bindBy) } else { w.raw("null") }
        w.key("tickets"); w.raw("[")
        for (k, t) in tickets.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("seat", first: true); w.string(t.seat); w.key("orderRef")
            if let o = t.orderRef { w.string(o) } else { w.raw("null") }
            w.raw("}")
        }
        w.raw("]}")
    }
}

extension UnboundTicketsResource: WireBody {
    public static let schemaName = "UnboundTickets"
    public static let schema: JSONSchema = .object(
        [
            "show": .string(), "bindBy": .string(format: "date-time").orNull,
            "tickets": .array(.object(["seat": .string(), "orderRef": .string().orNull], required: ["seat", "orderRef"])),
        ], required: ["show", "bindBy", "tickets"]
    ).described("a real-name show's tickets sold without a name, to bind before bindBy")
}
