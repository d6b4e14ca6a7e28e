import SeatWire

/// The operations of buying: availability, holds and their seats.
extension APIOperation {
    /// `GET /v1/shows/{id}/availability`
    static let getAvailability = APIOperation(
        "getAvailability",
        "Availability in the compact encoding (ska1), or the delta since a version (skd1)",
        parameters: [
            .showId, .query("since", .integer(minimum: 0, maximum: 9007199254740991)), .header("If-None-Match", .string()),
            .header("Seat-Channel", .string(maxLength: 200), description: "a partner's channel key: its seats and places free, every other seat not"),
        ],
        answers: [
            .media(200, "encoding", "text/plain"),
            .empty(304, "not modified"),
        ],
        problems: [403, 404, 409, 410, 422, 429, 503])

    /// `GET /v1/shows/{id}/events`
    static let showEvents = APIOperation(
        "showEvents",
        "Server-Sent Events, one per committed version",
        parameters: [
            .showId, .header("Last-Event-ID", .string(pattern: "^[0-9]{1,19}$")), .query("lastEventId", .integer(minimum: 0, maximum: 9007199254740991)),
        ],
        answers: [
            .media(200, "event stream", "text/event-stream")
        ],
        problems: [404, 503])

    /// `GET /v1/shows/{id}/seatmap.svg`
    static let getSeatMap = APIOperation(
        "getSeatMap",
        "The seat map as SVG (SeatCanvas): every seat a group with its id, index, status, accessible name and label parts; the root carries zoom limits, row positions, zones with prices and status words",
        parameters: [.showId, .query("lang", .oneOf(["zh", "en"])), .header("If-None-Match", .string())],
        answers: [
            .media(200, "SVG", "image/svg+xml"),
            .empty(304, "not modified"),
        ],
        problems: [404, 503])

    /// `GET /v1/shows/{id}/seat-prices`
    static let getSeatPrices = APIOperation(
        "getSeatPrices",
        "Each seat's current price for a page that draws the map itself: the distinct prices formatted, runs of [length, price index] in seat order, the zones with their price ranges",
        parameters: [.showId, .query("lang", .oneOf(["zh", "en"])), .header("If-None-Match", .string())],
        answers: [
            .json(
                200, "the seat prices",
                .object(
                    [
                        "show": .string(),
                        "priceRevision": .integer(),
                        "currency": .string(),
                        "language": .oneOf(["zh", "en"]),
                        "prices": .array(.string()),
                        "runs": .array(.integer(minimum: 0)),
                        "zones": .array(),
                    ], required: ["show", "priceRevision", "currency", "prices", "runs", "zones"])),
            .empty(304, "not modified"),
        ],
        problems: [404, 503])

    /// `GET /v1/shows/{id}/best`
    static let getBestSeats = APIOperation(
        "getBestSeats",
        "The best N free seats side by side under the show's rules (nothing is held)",
        parameters: [
            .showId,
            .query("count", .integer(minimum: 1, maximum: 1000), required: true, description: "at most the show's own limit (policy.maxSeats): more is 422"),
            .query("zone", .string()), .query("wheelchair", .boolean),
            .header("Seat-Channel", .string(maxLength: 200), description: "a partner's channel key: the best in its channel's allocation"),
        ],
        answers: [
            .json(200, "the seats and their total (nothing is held)", BestSeats.self)
        ],
        problems: [403, 404, 409, 422, 503])

    /// `GET /v1/shows/{id}/free-seats`
    static let getFreeSeats = APIOperation(
        "getFreeSeats",
        "List mode: zone, row, runs of free seats side by side, with spoken summaries",
        parameters: [.showId, .query("lang", .oneOf(["zh", "en"]))],
        answers: [
            .json(200, "zone → row → runs of free seats side by side", FreeSeatList.self)
        ],
        problems: [404, 503])

    /// `GET /v1/shows/{id}/areas`
    static let getAreaCounts = APIOperation(
        "getAreaCounts",
        "The show's general-admission areas: capacity, free, held and sold places, at the show's version",
        parameters: [.showId],
        answers: [.json(200, "each area's counts", .ref(AreaCountsResource.self))],
        problems: [404, 503])

    /// `POST /v1/shows/{id}/holds`
    static let createHold = APIOperation(
        "createHold",
        "Hold seats and general-admission places (all or none: `areas` asks for places by count, the server picks which); while the show's waiting room is on, with the admission it gave (Seat-Admission)",
        limit: .holds,
        idempotency: "hold",
        parameters: [
            .showId,
            .header("Seat-Admission", .string(maxLength: 400), description: "the admission from GET /v1/queue/{entry}, while the waiting room is on"),
            .header("Seat-Channel", .string(maxLength: 200), description: "a partner's channel key: the seats and places come from its channel"),
        ],
        body: .ref(HoldRequest.self),
        answers: [
            .json(
                201, "held", .ref(HoldResource.self),
                links: [
                    .init(name: "GetHold", operationID: "getHold", parameter: "token", expression: "$response.body#/token"),
                    .init(name: "ModifyHold", operationID: "modifyHold", parameter: "token", expression: "$response.body#/token"),
                    .init(name: "ExtendHold", operationID: "extendHold", parameter: "token", expression: "$response.body#/token"),
                    .init(name: "ConfirmHold", operationID: "confirmHold", parameter: "token", expression: "$response.body#/token"),
                    .init(name: "ReleaseHold", operationID: "releaseHold", parameter: "token", expression: "$response.body#/token"),
                ])
        ],
        problems: [403, 404, 409, 413, 422, 429, 503])

    /// `GET /v1/holds/{token}`
    static let getHold = APIOperation(
        "getHold",
        "A live hold",
        parameters: [.token],
        answers: [
            .json(200, "hold", .ref(HoldResource.self))
        ],
        problems: [404, 409, 410, 503])

    /// `GET /v1/holds/{token}/tickets`
    static let getHoldTickets = APIOperation(
        "getHoldTickets",
        "The tickets of a confirmed hold, by its token (the buyer's): each seat's signed code for its QR",
        parameters: [.token],
        answers: [
            .json(200, "the tickets", .ref(TicketsResource.self))
        ],
        problems: [404, 409, 503])

    /// `GET /v1/tickets/{ticket}` (`{code}.svg` or `{code}.png`)
    static let getTicketPicture = APIOperation(
        "getTicketPicture",
        "A ticket's QR code as SVG or PNG: the path's last segment is the ticket's code and .svg or .png (only a code this server signed is drawn)",
        parameters: [.path("ticket", .string(pattern: "^SK1[A-Za-z2-7]+\\.(svg|png)$"))],
        answers: [
            .init(
                status: 200, description: "the QR code (error correction M, a quiet zone of 4 modules; the PNG 8 pixels a module, 1-bit)",
                content: [("image/svg+xml", nil), ("image/png", nil)])
        ],
        problems: [404])

    /// `DELETE /v1/holds/{token}`
    static let releaseHold = APIOperation(
        "releaseHold",
        "Release",
        parameters: [.token],
        answers: [
            .empty(204, "released")
        ],
        problems: [404, 409, 410, 503])

    /// `POST /v1/holds/{token}/seats`
    static let modifyHold = APIOperation(
        "modifyHold",
        "Add and remove seats atomically",
        parameters: [.token],
        body: .ref(ModifyHoldRequest.self),
        answers: [
            .json(200, "hold", .ref(HoldResource.self))
        ],
        problems: [404, 409, 410, 413, 422, 503])

    /// `PUT /v1/holds/{token}/attendees`
    static let setAttendees = APIOperation(
        "setAttendees",
        "Name the attendees of a real-name show's hold",
        description:
            "Each attendee binds its seat (a perOrder show's one document binds the order). Documents are checked (an ID card's check character, the show's types) and used once a show: a document with a ticket or a held seat elsewhere in the show is 409 id-already-used, naming the seat. Answers the hold with its attendees masked.",
        parameters: [.token],
        body: .ref(AttendeesRequest.self),
        answers: [
            .json(200, "hold", .ref(HoldResource.self))
        ],
        problems: [404, 409, 410, 413, 422, 503])

    /// `POST /v1/holds/{token}/extend`
    static let extendHold = APIOperation(
        "extendHold",
        "Extend once",
        parameters: [.token],
        answers: [
            .json(200, "hold", .ref(HoldResource.self))
        ],
        problems: [404, 409, 410, 413, 503])

    /// `POST /v1/holds/{token}/confirm`
    static let confirmHold = APIOperation(
        "confirmHold",
        "Confirm: the seats are sold",
        description:
            "With a payment provider configured (`--payments`), a buyer's hold that costs anything is sold by its payment: confirm answers 402 payment-required.",
        idempotency: "confirm",
        parameters: [.token],
        body: .ref(ConfirmRequest.self),
        answers: [
            .json(200, "confirmed", .ref(HoldResource.self))
        ],
        problems: [402, 404, 409, 410, 413, 422, 503])
}
