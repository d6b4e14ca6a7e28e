import SeatWire

/// The operations of the box office: reservations, sales, orders and reports.
extension APIOperation {
    /// `GET /v1/shows/{id}/reservations`
    static let listReservations = APIOperation(
        "listReservations",
        "The show's blocks and house seats (box office)",
        access: .role(.boxoffice, "see reservations"),
        parameters: [.showId],
        answers: [
            .json(200, "reservations", .array(.ref(ReservationResource.self)))
        ],
        problems: [401, 403, 404, 503])

    /// `POST /v1/shows/{id}/reservations`
    static let createReservation = APIOperation(
        "createReservation",
        "Block seats or keep house seats (box office): all or none",
        access: .role(.boxoffice, "reserve seats"),
        idempotency: "reserve",
        parameters: [.showId],
        body: .ref(ReservationRequest.self),
        answers: [
            .json(
                201, "reserved", .ref(ReservationResource.self),
                links: [
                    .init(name: "GetReservation", operationID: "getReservation", parameter: "id", expression: "$response.body#/id"),
                    .init(name: "ReleaseReservation", operationID: "releaseReservation", parameter: "id", expression: "$response.body#/id"),
                    .init(name: "ModifyReservation", operationID: "modifyReservation", parameter: "id", expression: "$response.body#/id"),
                ])
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `GET /v1/reservations/{id}`
    static let getReservation = APIOperation(
        "getReservation",
        "A live reservation (box office)",
        access: .role(.boxoffice, "see reservations"),
        parameters: [.reservationId],
        answers: [
            .json(200, "reservation", .ref(ReservationResource.self))
        ],
        problems: [401, 403, 404, 503])

    /// `DELETE /v1/reservations/{id}`
    static let releaseReservation = APIOperation(
        "releaseReservation",
        "Return the seats to sale (box office)",
        access: .role(.boxoffice, "release reservations"),
        parameters: [.reservationId],
        answers: [
            .empty(204, "released")
        ],
        problems: [401, 403, 404, 409, 503])

    /// `POST /v1/reservations/{id}/seats`
    static let modifyReservation = APIOperation(
        "modifyReservation",
        "Add and remove reserved seats atomically (box office)",
        access: .role(.boxoffice, "change reservations"),
        parameters: [.reservationId],
        body: .ref(ModifyHoldRequest.self),
        answers: [
            .json(200, "reservation", .ref(ReservationResource.self))
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `GET /v1/shows/{id}/channels`
    static let listChannels = APIOperation(
        "listChannels",
        "The show's partners' allocations (managers): what each still has and what its partner holds",
        access: .role(.manager, "see channels"),
        parameters: [.showId],
        answers: [
            .json(200, "channels", .array(.ref(ChannelResource.self)))
        ],
        problems: [401, 403, 404, 503])

    /// `POST /v1/shows/{id}/channels`
    static let createChannel = APIOperation(
        "createChannel",
        "Give a partner seats and standing places (managers): all or none; the answer has the partner's key (Seat-Channel), shown once",
        access: .role(.manager, "make channels"),
        parameters: [.showId],
        body: .ref(ChannelRequest.self),
        answers: [
            .json(201, "made", .ref(ChannelResource.self))
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `DELETE /v1/channels/{id}`
    static let releaseChannel = APIOperation(
        "releaseChannel",
        "End a channel (managers): what it still has returns to the public sale; its partner's holds and sales stand",
        access: .role(.manager, "release channels"),
        parameters: [.reservationId],
        answers: [
            .empty(204, "released")
        ],
        problems: [401, 403, 404, 503])

    /// `POST /v1/channels/{id}/seats`
    static let modifyChannel = APIOperation(
        "modifyChannel",
        "Move seats into or out of a channel, live (managers): a seat added must be free, one removed the channel's",
        access: .role(.manager, "change channels"),
        parameters: [.reservationId],
        body: .ref(ModifyHoldRequest.self),
        answers: [
            .json(200, "channel", .ref(ChannelResource.self))
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `POST /v1/shows/{id}/sales`
    static let sell = APIOperation(
        "sell",
        "Sell at the counter (box office): seats or a whole reservation, at once and durably; rules only as a warning the operator may override with force",
        access: .role(.boxoffice, "sell at the counter"),
        idempotency: "sell",
        parameters: [.showId],
        body: .ref(SaleRequest.self),
        answers: [
            .json(
                201, "sold", .ref(OrderResource.self),
                links: [
                    .init(name: "GetOrder", operationID: "getOrder", parameter: "orderRef", expression: "$response.body#/orderRef"),
                    .init(name: "Refund", operationID: "refund", parameter: "orderRef", expression: "$response.body#/orderRef"),
                ])
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `GET /v1/orders/{orderRef}`
    static let getOrder = APIOperation(
        "getOrder",
        "An order: every confirmed hold under the reference, online or at the counter (box office); with ?code= the buyer's own part of it and what they may still do (afterSale)",
        access: .operatorKeyOrCode,
        parameters: [.orderRef, .orderCode],
        answers: [
            .json(200, "order", .ref(OrderResource.self))
        ],
        problems: [401, 403, 404, 503])

    /// `GET /v1/orders/{orderRef}/tickets`
    static let getOrderTickets = APIOperation(
        "getOrderTickets",
        "An order's tickets (box office, or the buyer with ?code=): each sold seat's signed code for its QR; a refunded or exchanged seat's ticket revoked",
        access: .operatorKeyOrCode,
        parameters: [.orderRef, .orderCode],
        answers: [
            .json(200, "the tickets", .ref(TicketsResource.self))
        ],
        problems: [401, 403, 404, 503])

    /// `GET /v1/shows/{id}/issuer`
    static let getTicketIssuer = APIOperation(
        "getTicketIssuer",
        "What a scanner needs to check the show's tickets offline (door): its Ed25519 public key and the tickets revoked so far",
        access: .role(.door, "scan tickets"),
        parameters: [.showId],
        answers: [
            .json(200, "the issuer", .ref(TicketIssuerResource.self))
        ],
        problems: [401, 403, 404, 503])

    /// `POST /v1/checkin`
    static let checkIn = APIOperation(
        "checkIn",
        "A scanned ticket at a gate (door): 200 with green (ok) or red and why (already_in with when, where and by whom; not_in; revoked; wrong_show; too_early; invalid); the same nonce twice is one check-in",
        access: .role(.door, "scan tickets"),
        body: .ref(CheckInRequest.self),
        answers: [
            .json(200, "the scan's answer", .ref(CheckInResult.self))
        ],
        problems: [401, 403, 413, 422, 503])

    /// `GET /v1/shows/{id}/checkin`
    static let checkInCounts = APIOperation(
        "checkInCounts",
        "The show's check-ins by gate (door): in and out, each scan counted once, and how many are inside; ?scans=N adds the last N scans (the door's audit)",
        access: .role(.door, "see the door's counts"),
        parameters: [.showId, .query("scans", .integer(minimum: 0, maximum: 500))],
        answers: [
            .json(200, "the counts", .ref(CheckInCountsResource.self))
        ],
        problems: [400, 401, 403, 404, 503])

    /// `POST /v1/orders/{orderRef}/refund`
    static let refund = APIOperation(
        "refund",
        "Refund seats of an order, or all of it (box office; or the buyer with the order's code, within the show's afterSale policy): they return to sale live; a seat is refunded once",
        access: .operatorKeyOrCode,
        idempotency: "refund",
        parameters: [.orderRef],
        body: .ref(RefundRequest.self),
        answers: [
            .json(200, "the order after the refund", .ref(OrderResource.self))
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `POST /v1/orders/{orderRef}/exchange`
    static let exchange = APIOperation(
        "exchange",
        "Exchange seats of an order for others, in the same or another show (box office; or the buyer with the order's code, within the show's afterSale policy): the old seats given back and the new sold in one step, both or neither; the difference and fee stated, old tickets revoked, new ones issued",
        access: .operatorKeyOrCode,
        idempotency: "exchange",
        parameters: [.orderRef],
        body: .ref(ExchangeRequest.self),
        answers: [
            .json(200, "the exchange and the order after it", .ref(ExchangeResource.self))
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `GET /v1/orders/{orderRef}/calendar.ics`
    static let getOrderCalendar = APIOperation(
        "getOrderCalendar",
        "The order's shows as calendar events (RFC 5545) for \"add to calendar\" (the buyer with ?code=, or the box office)",
        access: .operatorKeyOrCode,
        parameters: [.orderRef, .orderCode, .query("lang", .oneOf(["zh", "en"]))],
        answers: [
            .init(status: 200, description: "an iCalendar file", content: [("text/calendar", nil)])
        ],
        problems: [401, 403, 404, 503])

    /// `GET /v1/shows/{id}/report`
    static let showReport = APIOperation(
        "showReport",
        "What the show sold (box office): seats by status and zone, revenue by category, channel and payment; one line a seat as CSV with Accept: text/csv",
        access: .role(.boxoffice, "see reports"),
        parameters: [.showId],
        answers: [
            .init(
                status: 200, description: "the report (JSON), or one line a seat (CSV)",
                content: [("application/json", .ref(ShowReportResource.self)), ("text/csv", nil)])
        ],
        problems: [401, 403, 404, 503])

    /// `GET /v1/operators/me`
    static let getSignedInOperator = APIOperation(
        "getSignedInOperator",
        "Who the key is: the operator's name, role and what the role may do (the console's sign-in)",
        access: .role(.door, "sign in"),
        answers: [
            .json(200, "the operator", OperatorIdentity.self)
        ],
        problems: [401, 503])

    /// `GET /v1/reports/sales`
    static let salesReport = APIOperation(
        "salesReport",
        "Sales across shows starting in [from, to) (box office): per show, per day and in total, each show's figures from its report",
        access: .role(.boxoffice, "see reports"),
        parameters: [
            .cinemaFilter,
            .query("from", .string(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), required: true, example: #""2026-12-01""#),
            .query("to", .string(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), required: true, example: #""2026-12-08""#),
        ],
        answers: [
            .json(200, "sales", SalesReportResource.self)
        ],
        problems: [401, 403, 422, 503])

    /// `GET /v1/reports/takings`
    static let takingsReport = APIOperation(
        "takingsReport",
        "The money that moved in [from, to) (box office): each sale when it was made and each refund when it was given, "
            + "by show, payment and clerk; with clerk, one clerk's (the cash-up of a shift)",
        access: .role(.boxoffice, "see reports"),
        parameters: [
            .cinemaFilter,
            .query("from", .string(), required: true, example: #""2026-12-01T00:00:00+08:00""#),
            .query("to", .string(), required: true, example: #""2026-12-02T00:00:00+08:00""#),
            .query("clerk", .string(minLength: 1, maxLength: 64), required: false, example: #""li.na""#),
        ],
        answers: [
            .json(200, "takings", TakingsResource.self)
        ],
        problems: [401, 403, 422, 503])

    /// `GET /v1/orders`
    static let searchOrders = APIOperation(
        "searchOrders",
        "Orders found by reference, by a seat of a show, or by the phone (4 or more of its last digits) or name given at the counter (box office)",
        access: .role(.boxoffice, "search orders"),
        parameters: [
            .cinemaFilter,
            .query("q", .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 2, maxLength: 64), required: true, example: #""8000""#),
            .query("show", .string(pattern: "^[A-Za-z0-9._-]{1,64}$"), required: false, example: #""hall3-1930""#),
        ],
        answers: [
            .json(200, "the orders found, newest first (at most 20)", OrderSearchResource.self)
        ],
        problems: [401, 403, 404, 422, 503])
}

/// A real-name show's personal data (docs/REALNAME.md).
extension APIOperation {
    /// `POST /v1/shows/{id}/attendees/reveal`
    static let revealAttendee = APIOperation(
        "revealAttendee",
        "One seat's attendee in the clear (managers): the show's log keeps who asked and why before the answer is given",
        access: .role(.manager, "reveal attendees"),
        parameters: [.showId],
        body: .ref(RevealRequest.self),
        answers: [
            .json(200, "the attendee", .ref(RevealedAttendeeResource.self))
        ],
        problems: [401, 403, 404, 413, 422, 503])

    /// `DELETE /v1/shows/{id}/personal-data`
    static let erasePersonalData = APIOperation(
        "erasePersonalData",
        "Erase a show's attendees and buyers' contacts once it is over (managers): the sales stay, the log says who erased",
        access: .role(.manager, "erase personal data"),
        parameters: [.showId],
        answers: [
            .json(200, "erased", .ref(ErasureResource.self))
        ],
        problems: [401, 403, 404, 409, 503])
}

extension APIOperation {
    /// `POST /v1/tickets/{ticket}/transfer`
    static let transferTicket = APIOperation(
        "transferTicket",
        "Give a real-name ticket to another person, or bind one sold without a name (the box office, or the buyer with the order's code): the old code is revoked",
        parameters: [.path("ticket", .string(pattern: "^SK[12][A-Za-z2-7]+$"))],
        body: .ref(TransferRequest.self),
        answers: [
            .json(200, "the ticket with its new code", .ref(TicketsResource.self))
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])
}

/// Attendee books (常用观演人): a buyer's saved attendees, a capability token each.
extension APIOperation {
    static let bookParameter = APIOperation.Parameter.path("book", .string(pattern: "^ab_[0-9a-f.]{20,77}$"))

    /// `POST /v1/attendee-books`
    static let createAttendeeBook = APIOperation(
        "createAttendeeBook", "A new attendee book: its token is the buyer's to keep (the store keeps its digest)",
        answers: [.json(201, "the book, empty", .ref(AttendeeBookResource.self))], problems: [503])

    /// `GET /v1/attendee-books/{book}`
    static let getAttendeeBook = APIOperation(
        "getAttendeeBook", "The book's saved attendees, masked", parameters: [bookParameter],
        answers: [.json(200, "the book", .ref(AttendeeBookResource.self))], problems: [404, 503])

    /// `POST /v1/attendee-books/{book}/attendees`
    static let addBookAttendee = APIOperation(
        "addBookAttendee", "Save an attendee (checked as a hold's: the document's check character, its shape); the same document again is the same entry",
        parameters: [bookParameter], body: .ref(BookEntryRequest.self),
        answers: [.json(201, "the saved attendee, masked", .ref(AttendeeBookResource.self))], problems: [404, 409, 413, 422, 503])

    /// `DELETE /v1/attendee-books/{book}/attendees/{entry}`
    static let removeBookAttendee = APIOperation(
        "removeBookAttendee", "Remove a saved attendee",
        parameters: [bookParameter, .path("entry", .string(pattern: "^at_"))], answers: [.empty(204, "removed")], problems: [404, 503])
}

extension APIOperation {
    /// `GET /v1/shows/{id}/unbound`
    static let unboundTickets = APIOperation(
        "unboundTickets", "A real-name show's tickets sold without a name (partners, the counter), to bind before bindBy (box office)",
        access: .role(.boxoffice, "see reports"), parameters: [.showId],
        answers: [.json(200, "the unbound tickets", .ref(UnboundTicketsResource.self))], problems: [401, 403, 404, 422, 503])
}

/// Waitlists for freed seats (候补): a buyer in line, their place, their offer.
extension APIOperation {
    static let waitlistParameter = APIOperation.Parameter.path("entry", .string(pattern: "^wl_[0-9a-f]{32}$"))

    /// `POST /v1/shows/{id}/waitlist`
    static let joinWaitlist = APIOperation(
        "joinWaitlist",
        "Join the show's waitlist (候补) for seats of a price category, a zone, or any: seats a refund frees go to the line in order before the public, held for the one offered (the show's details.waitlist turns it on). A prepaid waitlist (details.waitlist.prepay) takes the most the seats can cost through a payment provider now: the entry is offered seats once paid, sold them at once (the difference back), and given everything back when nothing comes",
        limit: .holds, parameters: [.showId], body: .ref(WaitlistRequest.self),
        answers: [
            .json(
                201, "the entry with its token (kept by the buyer; the store keeps its digest) and place; prepaid: its payment, with what the page pays with",
                .ref(WaitlistResource.self))
        ],
        problems: [404, 409, 413, 422, 429, 502, 503])

    /// `GET /v1/waitlist/{entry}`
    static let getWaitlistEntry = APIOperation(
        "getWaitlistEntry", "The entry's state: waiting (with its place), offered (with the offer's hold token and end), bought, lapsed or cancelled",
        parameters: [waitlistParameter], answers: [.json(200, "the entry", .ref(WaitlistResource.self))], problems: [404, 429, 503])

    /// `DELETE /v1/waitlist/{entry}`
    static let leaveWaitlist = APIOperation(
        "leaveWaitlist", "Leave the line (an offer held is let go to the next in line; a prepayment goes back in full, or is closed unpaid)",
        parameters: [waitlistParameter], answers: [.json(200, "the entry, cancelled", .ref(WaitlistResource.self))], problems: [404, 409, 429, 503])
}
