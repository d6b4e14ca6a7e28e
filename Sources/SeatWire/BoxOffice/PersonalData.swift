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
