import SeatJSON

/// `GET /v1/orders/{orderRef}/tickets` and `GET /v1/holds/{token}/tickets`: a ticket for every seat
/// the order sold, each with the code its QR carries; a refunded seat's ticket is listed as revoked,
/// without a code.
public struct TicketsResource: Sendable {
    public struct Ticket: Sendable {
        /// 16 hex digits: from the sale and the seat, so a seat sold again has a new ticket.
        public var ticketID: String
        public var showID: String
        public var seat: String
        public var price: String
        public var currency: String
        /// `valid` or `revoked` (refunded, exchanged, or the show cancelled).
        public var status: String
        public var revokedAt: String?
        /// What the QR code carries (`SK1…`, letters and digits): the ticket signed by the show's issuer key.
        public var code: String?
        /// The seat's row and number as printed on it (a stub reads 3排10座, Row 3 Seat 10, not "3-10").
        public var row: String?
        public var number: String?
        /// A real-name ticket's attendee, masked (`王*明`).
        public var attendee: String?

        public init(
            ticketID: String, showID: String, seat: String, price: String, currency: String, status: String, revokedAt: String?, code: String?,
            row: String? = nil, number: String? = nil, attendee: String? = nil
        ) {
            self.ticketID = ticketID; self.showID = showID; self.seat = seat; self.price = price; self.currency = currency
            self.status = status; self.revokedAt = revokedAt; self.code = code; self.row = row; self.number = number; self.attendee = attendee
        }
    }

    public var orderRef: String
    public var tickets: [Ticket]

    public init(orderRef: String, tickets: [Ticket]) { self.orderRef = orderRef; self.tickets = tickets }

    public func write(into w: inout JSONWriter) {
        func optional(_ s: String?) { if let s { w.string(s) } else { w.raw("null") } }
        w.raw("{"); w.key("orderRef", first: true); w.string(orderRef); w.key("tickets"); w.raw("[")
        for (k, t) in tickets.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("ticketId", first: true); w.string(t.ticketID); w.key("showId"); w.string(t.showID); w.key("seat"); w.string(t.seat)
            w.key("price"); w.string(t.price); w.key("currency"); w.string(t.currency); w.key("status"); w.string(t.status)
            w.key("revokedAt"); optional(t.revokedAt); w.key("code"); optional(t.code)
            if let row = t.row { w.key("row"); w.string(row) }
            if let number = t.number { w.key("number"); w.string(number) }
            if let attendee = t.attendee { w.key("attendee"); w.string(attendee) }
            w.raw("}")
        }
        w.raw("]}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            orderRef: o.text("orderRef"),
            tickets: o.objects("tickets").map { t in
                Ticket(
                    ticketID: t.text("ticketId"), showID: t.text("showId"), seat: t.text("seat"), price: t.text("price"), currency: t.text("currency"),
                    status: t.text("status"), revokedAt: t.optionalText("revokedAt"), code: t.optionalText("code"), row: t.optionalText("row"),
                    number: t.optionalText("number"), attendee: t.optionalText("attendee"))
            })
    }
}

extension TicketsResource: WireBody, WireWritable {
    public static let schemaName = "Tickets"
    public static let schema: JSONSchema = .object(
        [
            "orderRef": .string(),
            "tickets": .array(
                .object(
                    [
                        "ticketId": .string(pattern: "^[0-9a-f]{16}$"),
                        "showId": .string(),
                        "seat": .string(),
                        "price": .string(pattern: WireMoney.pattern),
                        "currency": .string(),
                        "status": .oneOf(["valid", "revoked"]),
                        "row": .string().described("the seat's row as printed on it"), "number": .string().described("the seat's number as printed on it"),
                        "revokedAt": .string(format: "date-time").orNull.described(
                            "when the ticket was revoked: the seat refunded or exchanged, or the show cancelled"),
                        "attendee": .string().described("a real-name ticket's attendee, masked (王*明)"),
                        "code": .string(pattern: "^SK1[A-Z2-7]+$").orNull.described(
                            "what the ticket's QR code carries: the ticket signed with the show's Ed25519 issuer key (null when revoked)"),
                    ], required: ["ticketId", "showId", "seat", "price", "currency", "status", "revokedAt", "code"])),
        ], required: ["orderRef", "tickets"])
}

/// `GET /v1/shows/{id}/issuer` (the door): what a scanner needs to check the show's tickets offline.
public struct TicketIssuerResource: Sendable {
    public var showID: String
    /// The Ed25519 public key, 64 hex digits.
    public var publicKey: String
    /// The ids of the show's tickets revoked so far (refunded, exchanged; all of them once the show is cancelled).
    public var revoked: [String]
    /// A real-name show's door key (64 hex digits): HMAC-SHA-256 under it of `seatkit-door-id\u{1F}` and
    /// a document (`idCard:110…`) gives a ticket's binding, so a door checks a document offline.
    public var doorKey: String?

    public init(showID: String, publicKey: String, revoked: [String], doorKey: String? = nil) {
        self.showID = showID; self.publicKey = publicKey; self.revoked = revoked; self.doorKey = doorKey
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("showId", first: true); w.string(showID); w.key("algorithm"); w.string("Ed25519")
        w.key("publicKey"); w.string(publicKey); w.key("revoked"); w.strings(revoked)
        if let doorKey { w.key("doorKey"); w.string(doorKey) }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(showID: o.text("showId"), publicKey: o.text("publicKey"), revoked: o.texts("revoked"), doorKey: o.optionalText("doorKey"))
    }
}

extension TicketIssuerResource: WireBody, WireWritable {
    public static let schemaName = "TicketIssuer"
    public static let schema: JSONSchema = .object(
        [
            "showId": .string(),
            "algorithm": .oneOf(["Ed25519"]),
            "publicKey": .string(pattern: "^[0-9a-f]{64}$").described(
                "the show's Ed25519 public key: a ticket's signature covers \"seatkit-ticket\\u001f\" and its payload"),
            "revoked": .array(.string(pattern: "^[0-9a-f]{16}$")).described(
                "the tickets revoked so far (refunded, exchanged or transferred; every ticket once the show is cancelled): a scanner offline refuses these"),
            "doorKey": .string(pattern: "^[0-9a-f]{64}$").described(
                "a real-name show's: a ticket's binding is the first 8 bytes of HMAC-SHA-256 under it of \"seatkit-door-id\\u001f\" and the document (idCard:…)"
            ),
        ], required: ["showId", "algorithm", "publicKey", "revoked"])
}
