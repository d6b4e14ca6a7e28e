import SeatWire

/// The operations of shows (what buyers see and managers change).
extension APIOperation {
    /// `GET /v1/shows`
    static let listShows = APIOperation(
        "listShows",
        "List shows (`cinema`: one cinema's; an operator of some cinemas sees theirs only)",
        parameters: [.cinemaFilter],
        answers: [
            .json(200, "shows", .array(.ref(ShowResource.self)))
        ],
        problems: [403, 422, 503])

    /// `POST /v1/shows`
    static let createShow = APIOperation(
        "createShow",
        "Create a show (manager)",
        access: .role(.manager, "create shows"),
        body: .ref(ShowRequest.self),
        answers: [
            .json(
                201, "created", .ref(ShowResource.self),
                links: [
                    .init(name: "GetShow", operationID: "getShow", parameter: "id", expression: "$response.body#/id"),
                    .init(name: "HoldOnShow", operationID: "createHold", parameter: "id", expression: "$response.body#/id"),
                    .init(name: "EditShow", operationID: "editShow", parameter: "id", expression: "$response.body#/id"),
                    .init(name: "ChangePrices", operationID: "changePrices", parameter: "id", expression: "$response.body#/id"),
                    .init(name: "ShowLog", operationID: "showLog", parameter: "id", expression: "$response.body#/id"),
                    .init(name: "CancelShow", operationID: "cancelShow", parameter: "id", expression: "$response.body#/id"),
                ])
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `GET /v1/shows/{id}`
    static let getShow = APIOperation(
        "getShow",
        "A show",
        parameters: [.showId],
        answers: [
            .json(200, "show", .ref(ShowResource.self))
        ],
        problems: [404, 503])

    /// `PATCH /v1/shows/{id}`
    static let editShow = APIOperation(
        "editShow",
        "Change the show's start, hold time, display fields or on-sale switch (managers): a version on its stream, an event: show to every picker",
        access: .role(.manager, "edit shows"),
        parameters: [.showId],
        body: .ref(ShowEdit.self),
        answers: [
            .json(200, "the show", .ref(ShowResource.self))
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `PUT /v1/shows/{id}/prices`
    static let changePrices = APIOperation(
        "changePrices",
        "New prices for new holds and sales (managers); live holds and sales keep theirs; an event: show to every picker",
        access: .role(.manager, "change prices"),
        parameters: [.showId],
        body: .ref(PriceTableBody.self),
        answers: [
            .json(200, "the show", .ref(ShowResource.self))
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `POST /v1/shows/{id}/cancel`
    static let cancelShow = APIOperation(
        "cancelShow",
        "Cancel the show (managers): holds and reservations released, sales stop, the orders to refund listed",
        access: .role(.manager, "cancel shows"),
        idempotency: "cancel",
        parameters: [.showId],
        body: .ref(CancelRequest.self),
        answers: [
            .json(200, "what was released and what to refund", .ref(Cancellation.self))
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `POST /v1/shows/{id}/move`
    static let moveShow = APIOperation(
        "moveShow",
        "Move the show to another shard (managers; a deployment with shards): off sale only; its holds, sales, log and scans go with it",
        access: .role(.manager, "move shows"),
        parameters: [.showId],
        body: .ref(MoveRequest.self),
        answers: [
            .json(200, "the show, on its new shard", .ref(ShowResource.self))
        ],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `GET /v1/shards`
    static let listShards = APIOperation(
        "listShards",
        "The deployment's shards as this instance sees them: whether each answers, its shows (managers; empty with one store)",
        access: .role(.manager, "see the shards"),
        answers: [
            .json(200, "the shards", ShardsResource.self)
        ],
        problems: [401, 403, 503])

    /// `GET /v1/shows/{id}/log`
    static let showLog = APIOperation(
        "showLog",
        "Every change of the show's seats and of the show, by whom, when, why, under which order (box office); CSV with Accept: text/csv",
        access: .role(.boxoffice, "read the log"),
        parameters: [.showId, .query("since", .integer(minimum: 0, maximum: 9007199254740991)), .query("limit", .integer(minimum: 1, maximum: 1000))],
        answers: [
            .init(status: 200, description: "the log", content: [("application/json", .ref(ShowLog.self)), ("text/csv", nil)])
        ],
        problems: [401, 403, 404, 503])
}
