import SeatWire

/// The operations of venues.
extension APIOperation {
    /// `GET /v1/venues`
    static let listVenues = APIOperation(
        "listVenues",
        "List venues",
        answers: [
            .json(200, "venues", .array(.ref(VenueSummary.self)))
        ],
        problems: [503])

    /// `POST /v1/venues`
    static let createVenue = APIOperation(
        "createVenue",
        "Create a venue (manager)",
        description: "SeatKit layout JSON or any importer format (detected, or ?format=); up to 64 MiB with the admin key, plain or Content-Encoding: gzip",
        access: .role(.manager, "upload venues"),
        parameters: [
            .query("format", .oneOf(["seatkit", "seed", "cinema-grid", "pretix", "reseller", "seatsio"])),
            .query("id", .string(pattern: "^[A-Za-z0-9._-]{1,64}$"), description: "the venue's id when the format carries none"),
        ],
        body: JSONSchema().with { $0.types = ["object", "array"] },
        answers: [
            .json(201, "created", VenueSummary.self)
        ],
        problems: [401, 403, 409, 413, 415, 422, 503])

    /// `GET /v1/venues/{id}`
    static let getVenue = APIOperation(
        "getVenue",
        "Venue layout (SeatKit layout JSON, immutable, strong ETag)",
        parameters: [.venueId],
        answers: [
            .media(200, "layout", "application/json"),
            .empty(304, "not modified"),
        ],
        problems: [404, 503])

    /// `GET /v1/venues/{id}/geometry`
    /// `GET /v1/venues/{id}/views/{seat}`
    static let getSeatView = APIOperation(
        "getSeatView",
        "View from the seat: what it sees of the screen or stage, from the plan (the angle the screen fills, distance in screen widths, how far off the centre line) and a verdict in words from the cinema-design guidance (SMPTE EG-18, THX); {seat}.svg is a small perspective picture",
        parameters: [
            .venueId, .path("seat", .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 68)), .query("lang", .oneOf(["zh", "en"])),
        ],
        answers: [
            .init(
                status: 200, description: "the view as JSON, or for {seat}.svg the picture",
                content: [("application/json", .ref(SeatViewResource.self)), ("image/svg+xml", nil)])
        ],
        problems: [404])

    static let getVenueGeometry = APIOperation(
        "getVenueGeometry",
        "What a picker that draws by itself needs of the venue (SeatCanvas.pickerGeometry, docs/formats/geometry.md): the engine's rules and drawing proportions, every seat's centre, id, number, row, zone, marks and label parts, the name template, the rows for the gutter, the blocks, the zones with outline, colour and ink, the stage, the palette; immutable for the layout",
        parameters: [.venueId, .query("lang", .oneOf(["zh", "en"])), .header("If-None-Match", .string())],
        answers: [
            .json(
                200, "the geometry document (format seatkit-picker-geometry/1)",
                .object(
                    [
                        "format": JSONSchema().with { $0.const = "seatkit-picker-geometry/2" },
                        "venue": .string(),
                        "rules": .object(),
                        "seats": .object(),
                        "rows": .array(),
                        "blocks": .array(),
                        "zones": .array(),
                    ], required: ["format", "venue", "rules", "seats", "rows", "blocks", "zones"])),
            .empty(304, "not modified"),
        ],
        problems: [404, 503])

    /// `GET /v1/venues/{id}/heatmap`
    static let getHeatmap = APIOperation(
        "getHeatmap",
        "Per-seat share of past shows in which the seat sold; shape=levels: the overlay a page draws (per seat a level 0-100 or -1, the engine's 101 colours and inks, row and zone averages)",
        parameters: [.venueId, .query("days", .integer(minimum: 1, maximum: 3650)), .query("shape", .oneOf(["seats", "levels"]))],
        answers: [
            .media(200, "{seatId: share}, or the overlay document", "application/json")
        ],
        problems: [404, 503])
}
