import Foundation
import SeatJSON
import SeatMap

/// A real-name show's attendee as a buyer gives one (`attendees` of a hold, its change, its confirm,
/// `PUT /v1/holds/{token}/attendees`). The server checks the document (its check digit, its shape, the
/// show's types) and answers 422 naming the member; here only the JSON's shape is checked.
public struct HoldAttendee: Sendable, Hashable {
    /// The seat or place the attendee sits in (a per-order show's one document may leave it out).
    public var seat: String?
    public var name: String
    /// `idCard`, `passport`, `hkMacauPermit`, `taiwanPermit` or `militaryID`.
    public var idType: String
    public var idNumber: String
    public var phone: String?
    /// An attendee saved in the buyer's attendee book (`at_…`, with the request's `book`): name and
    /// document are the book's, the others left out.
    public var saved: String?

    public init(seat: String?, name: String, idType: String, idNumber: String, phone: String? = nil, saved: String? = nil) {
        self.seat = seat; self.name = name; self.idType = idType; self.idNumber = idNumber; self.phone = phone; self.saved = saved
    }

    /// A saved attendee of the book for `seat`.
    public static func saved(_ id: String, seat: String?) -> HoldAttendee { HoldAttendee(seat: seat, name: "", idType: "", idNumber: "", saved: id) }

    /// The most attendees one request gives: a hold's seats.
    public static let limit = 1000

    public func write(into w: inout JSONWriter) {
        w.raw("{")
        var first = true
        if let seat { w.key("seat", first: true); w.string(seat); first = false }
        if let saved {
            w.key("saved", first: first); w.string(saved)
        } else {
            w.key("name", first: first); w.string(name); w.key("idType"); w.string(idType); w.key("idNumber"); w.string(idNumber)
            if let phone { w.key("phone"); w.string(phone) }
        }
        w.raw("}")
    }

    static func write(_ list: [HoldAttendee], into w: inout JSONWriter) {
        w.raw("[")
        for (k, a) in list.enumerated() {
            if k > 0 { w.raw(",") }
            a.write(into: &w)
        }
        w.raw("]")
    }

    /// The list at `path`, each problem with its member's path; nil when absent.
    static func read(_ value: JSONValue?, at path: String, into log: inout ProblemLog) -> [HoldAttendee] {
        guard let value else { return [] }
        guard let items = value.arrayValue, items.count <= limit else {
            log.add(path, "expected a list of at most \(limit) attendees, got \(value.shortDescription)")
            return []
        }
        var out: [HoldAttendee] = []
        for (k, item) in items.enumerated() {
            let at = "\(path)[\(k)]"
            guard let o = item.object(at: at, into: &log) else { continue }
            o.rejectUnknownKeys(["seat", "name", "idType", "idNumber", "phone", "saved"], at: at, into: &log)
            func text(_ key: String, _ most: Int, required: Bool = true) -> String? {
                guard let v = o[key] else {
                    if required { log.add("\(at).\(key)", "missing") }
                    return nil
                }
                guard let s = v.stringValue, (1...most).contains(s.unicodeScalars.count) else {
                    log.add("\(at).\(key)", "expected a text of 1 to \(most) characters, got \(v.shortDescription)")
                    return nil
                }
                return s
            }
            let seat = text("seat", 64, required: false)
            if let saved = text("saved", 64, required: false) {
                for key in ["name", "idType", "idNumber", "phone"] where o[key] != nil {
                    log.add("\(at).\(key)", "a saved attendee's comes from the book: leave it out")
                }
                out.append(.saved(saved, seat: seat))
                continue
            }
            let name = text("name", 64), idType = text("idType", 32), number = text("idNumber", 32)
            let phone = text("phone", 32, required: false)
            if let name, let idType, let number { out.append(HoldAttendee(seat: seat, name: name, idType: idType, idNumber: number, phone: phone)) }
        }
        return out
    }
}

extension HoldAttendee: WireBody {
    public static let schemaName = "Attendee"
    public static let schema: JSONSchema = .object(
        [
            "seat": .string(minLength: 1, maxLength: 64).described("the seat or place the attendee sits in"),
            "name": .string(minLength: 1, maxLength: 64),
            "idType": .string(minLength: 1, maxLength: 32).described("idCard, passport, hkMacauPermit, taiwanPermit or militaryID"),
            "idNumber": .string(minLength: 1, maxLength: 32).described("checked by the server: an ID card's check character, others' shape"),
            "phone": .string(minLength: 1, maxLength: 32),
            "saved": .string(minLength: 1, maxLength: 64).described("an attendee saved in the buyer's attendee book (the request's book)"),
        ], closed: true
    ).with {
        $0.oneOf = [
            .constraint(required: ["name", "idType", "idNumber"]).with { $0.not = [.constraint(required: ["saved"])] },
            .constraint(required: ["saved"]).with { $0.not = [.constraint(required: ["name"])] },
        ]
    }.example(#"{"seat":"7-1","name":"王小明","idType":"idCard","idNumber":"11010519491231002X"}"#)
}

/// An attendee as anyone but a manager revealing it sees one: masked.
public struct ShownAttendee: Sendable, Hashable {
    public var seat: String
    /// `王*明`.
    public var name: String
    public var idType: String
    /// `110***********1234`.
    public var idNumber: String
    public init(seat: String, name: String, idType: String, idNumber: String) {
        self.seat = seat; self.name = name; self.idType = idType; self.idNumber = idNumber
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("seat", first: true); w.string(seat); w.key("name"); w.string(name)
        w.key("idType"); w.string(idType); w.key("idNumber"); w.string(idNumber); w.raw("}")
    }

    static func read(_ value: JSONValue?, at path: String, into log: inout ProblemLog) -> [ShownAttendee] {
        guard let items = value?.arrayValue else { return [] }
        return items.enumerated().compactMap { k, item in
            guard let o = item.object(at: "\(path)[\(k)]", into: &log) else { return nil }
            guard let seat = o["seat"]?.stringValue, let name = o["name"]?.stringValue, let type = o["idType"]?.stringValue,
                let number = o["idNumber"]?.stringValue
            else {
                log.add("\(path)[\(k)]", "expected seat, name, idType and idNumber")
                return nil
            }
            return ShownAttendee(seat: seat, name: name, idType: type, idNumber: number)
        }
    }

    public static let schema: JSONSchema = .object(
        ["seat": .string(), "name": .string(), "idType": .string(), "idNumber": .string()], required: ["seat", "name", "idType", "idNumber"])
}

/// `PUT /v1/holds/{token}/attendees`: the attendees of a live hold's seats.
public struct AttendeesRequest: Sendable, Hashable {
    public var attendees: [HoldAttendee]
    /// The buyer's attendee book, when attendees are saved ones.
    public var book: String?
    public init(attendees: [HoldAttendee], book: String? = nil) { self.attendees = attendees; self.book = book }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("attendees", first: true); HoldAttendee.write(attendees, into: &w)
        if let book { w.key("book"); w.string(book) }
        w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["attendees", "book"], at: "", into: &log)
        if o["attendees"] == nil { log.add("attendees", "missing") }
        let list = HoldAttendee.read(o["attendees"], at: "attendees", into: &log)
        let book = o.text("book", into: &log, required: false)
        if !log.isEmpty { throw .invalid(log.error) }
        self.init(attendees: list, book: book)
    }
}

extension AttendeesRequest: WireBody {
    public static let schemaName = "AttendeesRequest"
    public static let schema: JSONSchema = .object(
        [
            "attendees": .array(.ref(HoldAttendee.self), minItems: 1, maxItems: HoldAttendee.limit),
            "book": .string(minLength: 1, maxLength: 128).described("the buyer's attendee book, for attendees saved in it"),
        ], required: ["attendees"], closed: true
    ).example(#"{"attendees":[{"seat":"7-1","name":"王小明","idType":"idCard","idNumber":"11010519491231002X"}]}"#)
}
