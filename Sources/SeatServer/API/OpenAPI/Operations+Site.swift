import SeatWire

/// The operations of the page, health, metrics and the document.
extension APIOperation {
    /// `GET /healthz`
    static let health = APIOperation(
        "health",
        "Liveness",
        answers: [
            .media(200, "ok", "text/plain")
        ])

    /// `GET /metrics`
    static let metrics = APIOperation(
        "metrics",
        "Prometheus metrics",
        answers: [
            .media(200, "metrics", "text/plain")
        ])

    /// `GET /`
    static let pickerPage = APIOperation(
        "pickerPage",
        "The web seat picker (the show list)",
        answers: [
            .media(200, "the web seat picker's page", "text/html"),
            .problem(503, "the page's files were not found (set SEATKIT_WEB_ROOT)"),
        ],
        problems: [404])

    /// `GET /console`
    static let consolePage = APIOperation(
        "consolePage",
        "The operator console (its data needs an operator key)",
        answers: [
            .media(200, "the console's page", "text/html"),
            .problem(503, "the page's files were not found (set SEATKIT_WEB_ROOT)"),
        ],
        problems: [404])

    /// `GET /door`
    static let doorPage = APIOperation(
        "doorPage",
        "The door's ticket scanner (scanning needs a door operator's key; it checks codes offline when the server cannot be reached)",
        answers: [
            .media(200, "the scanner's page", "text/html"),
            .problem(503, "the page's files were not found (set SEATKIT_WEB_ROOT)"),
        ],
        problems: [404])

    /// `GET /orders/{orderRef}`
    static let orderPage = APIOperation(
        "orderPage",
        "The buyer's order page (the receipt's link, with ?code=, which the page reads itself and sends to the order's operations): ticket stubs, QR codes, change of showing and refund within the show's policy, add to calendar",
        parameters: [.orderRef],
        answers: [
            .media(200, "the order's page", "text/html"),
            .media(404, "the page, saying the order cannot be found (no order with this code; the page tells the buyer in their language)", "text/html"),
            .problem(503, "the page's files were not found (set SEATKIT_WEB_ROOT)"),
        ],
        problems: [404])

    /// `GET /shows/{id}`
    static let pickerShowPage = APIOperation(
        "pickerShowPage",
        "The web seat picker for a show (the page routes itself)",
        parameters: [.showId],
        answers: [
            .media(200, "the web seat picker's page", "text/html"),
            .problem(503, "the page's files were not found (set SEATKIT_WEB_ROOT)"),
        ],
        problems: [404])

    /// `GET /web/{file}`
    static let pageFile = APIOperation(
        "pageFile",
        "The page's files",
        parameters: [.path("file", .string(pattern: "^[A-Za-z0-9._-]{1,64}$"), example: #""app.css""#)],
        answers: [
            .media(200, "a file of the page (strong ETag)", "*/*"),
            .empty(304, "not modified"),
        ],
        problems: [404, 503])

    /// `GET /web/js/{file}`
    static let pageScript = APIOperation(
        "pageScript",
        "The page's scripts",
        parameters: [.path("file", .string(pattern: "^[A-Za-z0-9._-]{1,64}$"), example: #""app.js""#)],
        answers: [
            .media(200, "a file of the page (strong ETag)", "*/*"),
            .empty(304, "not modified"),
        ],
        problems: [404, 503])

    /// `GET /openapi.json`
    static let openapi = APIOperation(
        "openapi",
        "This document",
        answers: [
            .media(200, "OpenAPI 3.1", "application/json")
        ])
}

/// Path and header parameters several operations share.
extension APIOperation.Parameter {
    static let token = Self.path("token", .string(pattern: "^([a-z][a-z0-9]{0,11}\\.)?[0-9a-f]{44}$"))
    static let showId = Self.path("id", .string(pattern: "^[A-Za-z0-9._-]{1,64}$"), example: #""hall3-1930""#)
    static let idempotencyKey = Self.header(
        "Idempotency-Key", .string(pattern: "^[A-Za-z0-9_.~+/=-]{32,200}$"),
        description: "32 to 200 characters carrying at least 128 random bits (a UUID will do): a secret of the client's")
    static let reservationId = Self.path("id", .string(pattern: "^[A-Za-z0-9._-]+$", minLength: 1, maxLength: 64))
    static let orderRef = Self.path("orderRef", .string(pattern: "^[A-Za-z0-9._~-]+$", minLength: 1, maxLength: 128))
    /// The buyer's credential for their own order: the code in the receipt's link.
    static let orderCode = Self.query(
        "code", .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 128),
        description: "the order's code from the receipt link (the buyer's own order, without an operator key)")
    static let venueId = Self.path("id", .string(pattern: "^[A-Za-z0-9._-]{1,64}$"), example: #""cinema-hall-3""#)
}
