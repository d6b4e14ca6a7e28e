import Foundation
import SeatJSON
import SeatMap

/// `POST /v1/checkin` (the door): a scanned code, the gate, in or out, and the scan's nonce (a
/// scanner retrying sends the same one: one check-in), optionally the shows this gate admits.
public struct CheckInRequest: Sendable, Hashable {
    public var code: String
    public var gate: String
    /// `in` or `out`.
    public var direction: String
    public var nonce: String
    /// The shows this gate admits (empty: any show of this server).
    public var shows: [String]
    /// A real-name ticket's attendee's document, typed or read by an ID reader (a keyboard wedge): checked
    /// against the ticket; nil for the scan that asks what the ticket needs.
    public var idNumber: String?

    public init(code: String, gate: String, direction: String = "in", nonce: String, shows: [String] = [], idNumber: String? = nil) {
        self.code = code; self.gate = gate; self.direction = direction; self.nonce = nonce; self.shows = shows; self.idNumber = idNumber
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("code", first: true); w.string(code); w.key("gate"); w.string(gate); w.key("direction"); w.string(direction)
        w.key("nonce"); w.string(nonce)
        if !shows.isEmpty { w.key("shows"); w.strings(shows) }
        if let idNumber { w.key("idNumber"); w.string(idNumber) }
        w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["code", "gate", "direction", "nonce", "shows", "idNumber"], at: "", into: &log)
        // An ID reader is a keyboard wedge too: its Enter ends the number.
        // Null is no number (left out, it is none): as every optional member of this reader.
        if let v = o["idNumber"], v.stringValue == nil { log.add("idNumber", "expected the document's number as text, got \(v.shortDescription)") }
        let rawNumber = o.string("idNumber", at: "", into: &log, required: false)
        var idNumber = rawNumber?.trimmingCharacters(in: .whitespacesAndNewlines)
        // The schema's 40 characters, spaces and line ends included: the number within them at most 32.
        if let n = idNumber,
            n.isEmpty || n.unicodeScalars.count > 32 || (rawNumber?.unicodeScalars.count ?? 0) > 40
                || WireText.controlCharacter(in: n) != nil
        {
            log.add("idNumber", "the document's number, 1 to 32 characters besides spaces and line ends")
            idNumber = nil
        }
        // Scanners end what they read with a newline (a keyboard wedge's Enter), and a pasted code may
        // carry spaces: the code is what stands between them.
        var code = o.string("code", at: "", into: &log)?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let c = code, c.isEmpty || c.utf8.count > 400 {
            log.add("code", "the scanned code: 1 to 400 characters besides spaces and line ends")
            code = nil
        } else if let c = code, let bad = WireText.controlCharacter(in: c) {
            log.add("code", bad)
            code = nil
        }
        let gate = o.text("gate", into: &log)
        if let gate, gate.trimmingCharacters(in: .whitespaces).isEmpty || gate.unicodeScalars.count > 64 {
            log.add("gate", "the gate's name: 1 to 64 characters, not only spaces")
        }
        // Left out it is in; given, it is "in" or "out" (null is neither).
        var direction = "in"
        if let given = o["direction"] {
            if let s = given.stringValue, s == "in" || s == "out" { direction = s } else { log.add("direction", "in or out, not \(given.shortDescription)") }
        }
        let nonce = o.text("nonce", into: &log)
        if let nonce, !(8...128).contains(nonce.utf8.count) || !nonce.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) {
            log.add("nonce", "the scan's own id, 8 to 128 printable ASCII characters (a retry of the scan sends the same)")
        }
        var shows: [String] = []
        if o["shows"] != nil, let list = o.array("shows", at: "", into: &log) {
            if list.count > 100 { log.add("shows", "at most 100 shows a gate, got \(list.count)") }
            for (k, v) in list.prefix(100).enumerated() {
                if let s = v.stringValue, WireIdentifier.isValid(s) { shows.append(s) } else { log.add("shows[\(k)]", "a show id, got \(v.shortDescription)") }
            }
        }
        guard log.isEmpty, let code, let gate, let nonce else { throw .invalid(log.error) }
        self.init(code: code, gate: gate, direction: direction, nonce: nonce, shows: shows, idNumber: idNumber)
    }
}

extension CheckInRequest: WireBody {
    public static let schemaName = "CheckInRequest"
    public static let schema: JSONSchema = .object(
        [
            "code": .string(minLength: 1, maxLength: 400).described("what the ticket's QR code carries (SK1…), as scanned, typed or pasted"),
            "gate": .string(minLength: 1, maxLength: 64),
            "direction": .oneOf(["in", "out"]).described("in (the default) or out"),
            "nonce": .string(pattern: "^[!-~]{8,128}$").described(
                "the scan's own id: a scanner retrying the same scan sends the same nonce, and it counts once"),
            "shows": .array(.string(pattern: WireIdentifier.pattern), maxItems: 100).described(
                "the shows this gate admits: another show's ticket is wrong_show"),
            "idNumber": .string(pattern: #"^\s*\S[^\u0000-\u001f]{0,31}\s*$"#, maxLength: 40).described(
                "a real-name ticket's attendee's document, typed or read: checked against the ticket (id_required without it)"),
        ], required: ["code", "gate", "nonce"], closed: true
    ).example(#"{"code":"SK1AEB…","gate":"Hall 3 door","direction":"in","nonce":"scan-7f3e2a91"}"#)
}

/// The door's answer to a scan: green or red, and why.
public struct CheckInResult: Sendable {
    /// A scan before this one: when, at which gate, by whom.
    public struct Scan: Sendable {
        public var at: String
        public var gate: String
        public var operatorName: String
        public var direction: String
        public init(at: String, gate: String, operatorName: String, direction: String) {
            self.at = at; self.gate = gate; self.operatorName = operatorName; self.direction = direction
        }
    }

    /// `ok`, `already_in`, `not_in` (out without being in), `revoked`, `wrong_show`, `too_early`, `invalid`.
    public var result: String
    public var ok: Bool { result == "ok" }
    public var direction: String
    public var showID: String?
    public var seat: String?
    public var ticketID: String?
    /// This scan was recorded before (the same nonce): it counted once.
    public var replay: Bool
    /// For `already_in`: the scan that let the ticket in; for `not_in`: the last scan, if any.
    public var earlier: Scan?
    /// Why, in words for the person at the gate (English; a page says it in its own language from `reason`).
    public var detail: String
    /// Why, as a word a page translates: see `CheckInResult.reasons`.
    public var reason: String?
    /// The seat's row and number as printed on it (3排10座, Row 3 Seat 10).
    public var row: String?
    public var number: String?
    /// For `too_early`: when the doors open.
    public var opensAt: String?
    /// A real-name ticket's attendee, masked (`王*明`): whom the attendant compares with the document.
    public var attendee: String?

    /// Every `reason`: a red scan's cause, the same words the door's offline check uses.
    public static let reasons = [
        "notATicket", "truncated", "unknownFormat", "signature", "unknownShow", "cancelled", "refunded", "exchanged", "resold", "wrongShow",
        "tooEarly", "neverIn", "wentOut", "transferred", "idRequired", "wrongPerson", "unbound",
    ]

    public init(
        result: String, direction: String, showID: String?, seat: String?, ticketID: String?, replay: Bool = false, earlier: Scan? = nil,
        detail: String, reason: String? = nil, row: String? = nil, number: String? = nil, opensAt: String? = nil
    ) {
        self.result = result; self.direction = direction; self.showID = showID; self.seat = seat; self.ticketID = ticketID; self.replay = replay
        self.earlier = earlier; self.detail = detail; self.reason = reason; self.row = row; self.number = number; self.opensAt = opensAt
    }

    public func write(into w: inout JSONWriter) {
        func optional(_ s: String?) { if let s { w.string(s) } else { w.raw("null") } }
        w.raw("{"); w.key("result", first: true); w.string(result); w.key("ok"); w.raw(ok ? "true" : "false")
        w.key("direction"); w.string(direction); w.key("showId"); optional(showID); w.key("seat"); optional(seat)
        w.key("ticketId"); optional(ticketID); w.key("replay"); w.raw(replay ? "true" : "false"); w.key("earlier")
        if let e = earlier {
            w.raw("{"); w.key("at", first: true); w.string(e.at); w.key("gate"); w.string(e.gate); w.key("operator"); w.string(e.operatorName)
            w.key("direction"); w.string(e.direction); w.raw("}")
        } else {
            w.raw("null")
        }
        w.key("detail"); w.string(detail)
        if let reason { w.key("reason"); w.string(reason) }
        if let row { w.key("row"); w.string(row) }
        if let number { w.key("number"); w.string(number) }
        if let opensAt { w.key("opensAt"); w.string(opensAt) }
        if let attendee { w.key("attendee"); w.string(attendee) }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        let e = o["earlier"]?.objectValue
        self.init(
            result: o.text("result"), direction: o.text("direction"), showID: o.optionalText("showId"), seat: o.optionalText("seat"),
            ticketID: o.optionalText("ticketId"), replay: o["replay"]?.boolValue ?? false,
            earlier: e.map { Scan(at: $0.text("at"), gate: $0.text("gate"), operatorName: $0.text("operator"), direction: $0.text("direction")) },
            detail: o.text("detail"), reason: o.optionalText("reason"), row: o.optionalText("row"), number: o.optionalText("number"),
            opensAt: o.optionalText("opensAt"))
        attendee = o.optionalText("attendee")
    }
}

extension CheckInResult: WireBody, WireWritable {
    public static let schemaName = "CheckInResult"
    public static let schema: JSONSchema = .object(
        [
            "result": .oneOf(["ok", "already_in", "not_in", "revoked", "wrong_show", "too_early", "invalid", "id_required", "wrong_person", "unbound"]),
            "ok": .boolean.described("green: let them through"),
            "direction": .oneOf(["in", "out"]),
            "showId": .string().orNull,
            "seat": .string().orNull.described("the seat's printed name"),
            "ticketId": .string(pattern: "^[0-9a-f]{16}$").orNull,
            "replay": .boolean.described("this nonce was scanned before: the same answer, counted once"),
            "earlier": .object(
                [
                    "at": .string(format: "date-time"), "gate": .string(), "operator": .string(), "direction": .oneOf(["in", "out"]),
                ], required: ["at", "gate", "operator", "direction"]
            ).orNull.described("already_in: the scan that let the ticket in; not_in: the last scan"),
            "detail": .string().described("why, in English words for the person at the gate"),
            "reason": .oneOf(reasons).described("why, as a word the door page says in its own language"),
            "row": .string().described("the seat's row as printed on it"),
            "number": .string().described("the seat's number as printed on it"),
            "opensAt": .string(format: "date-time").described("too_early: when the doors open"),
            "attendee": .string().described("a real-name ticket's attendee, masked (王*明)"),
        ], required: ["result", "ok", "direction", "showId", "seat", "ticketId", "replay", "earlier", "detail"])
}

/// `GET /v1/shows/{id}/checkin` (the door): scans counted by gate, never twice.
public struct CheckInCountsResource: Sendable {
    public var showID: String
    public var inside: Int
    public var gates: [(gate: String, entered: Int, left: Int)]
    /// Asked for with `?scans=N`: the last scans, newest first (the door's audit), else nil.
    public var scans: [(ticketID: String, seat: String, direction: String, gate: String, operatorName: String, at: String)]?

    public init(
        showID: String, inside: Int, gates: [(gate: String, entered: Int, left: Int)],
        scans: [(ticketID: String, seat: String, direction: String, gate: String, operatorName: String, at: String)]? = nil
    ) {
        self.showID = showID; self.inside = inside; self.gates = gates; self.scans = scans
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("showId", first: true); w.string(showID); w.key("inside"); w.number(inside); w.key("gates"); w.raw("[")
        for (k, g) in gates.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("gate", first: true); w.string(g.gate); w.key("in"); w.number(g.entered); w.key("out"); w.number(g.left); w.raw("}")
        }
        w.raw("]")
        if let scans {
            w.key("scans"); w.raw("[")
            for (k, s) in scans.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("ticketId", first: true); w.string(s.ticketID); w.key("seat"); w.string(s.seat); w.key("direction"); w.string(s.direction)
                w.key("gate"); w.string(s.gate); w.key("operator"); w.string(s.operatorName); w.key("at"); w.string(s.at); w.raw("}")
            }
            w.raw("]")
        }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            showID: o.text("showId"), inside: o["inside"]?.intValue ?? 0,
            gates: o.objects("gates").map { ($0.text("gate"), $0["in"]?.intValue ?? 0, $0["out"]?.intValue ?? 0) },
            scans: o["scans"] == nil
                ? nil
                : o.objects("scans").map {
                    ($0.text("ticketId"), $0.text("seat"), $0.text("direction"), $0.text("gate"), $0.text("operator"), $0.text("at"))
                })
    }
}

extension CheckInCountsResource: WireBody, WireWritable {
    public static let schemaName = "CheckInCounts"
    public static let schema: JSONSchema = .object(
        [
            "showId": .string(),
            "inside": .integer(minimum: 0).described("tickets inside now"),
            "gates": .array(
                .object(["gate": .string(), "in": .integer(minimum: 0), "out": .integer(minimum: 0)], required: ["gate", "in", "out"])),
            "scans": .array(
                .object(
                    [
                        "ticketId": .string(pattern: "^[0-9a-f]{16}$"), "seat": .string(), "direction": .oneOf(["in", "out"]), "gate": .string(),
                        "operator": .string(), "at": .string(format: "date-time"),
                    ], required: ["ticketId", "seat", "direction", "gate", "operator", "at"])
            ).described("with ?scans=N: the last N recorded scans, newest first (who let which ticket in or out, where, when)"),
        ], required: ["showId", "inside", "gates"])
}
