import SeatWire

/// The operations of seasons: shows sold together, the same seat in each (#53).
extension APIOperation {
    /// `GET /v1/seasons`
    static let listSeasons = APIOperation(
        "listSeasons", "Every season, oldest first (box office)", access: .role(.boxoffice, "see seasons"),
        answers: [.json(200, "seasons", .array(.ref(SeasonResource.self)))], problems: [401, 403, 503])

    /// `POST /v1/seasons`
    static let createSeason = APIOperation(
        "createSeason",
        "Make a season (managers): two shows or more of one venue and currency (`parent`: a partial season of some of another's shows)",
        access: .role(.manager, "make seasons"), body: .ref(SeasonRequest.self),
        answers: [.json(201, "made", .ref(SeasonResource.self))], problems: [401, 403, 409, 413, 422, 503])

    /// `GET /v1/seasons/{id}`
    static let getSeason = APIOperation(
        "getSeason", "A season: its shows, earliest first, venue and currency", parameters: [.seasonId],
        answers: [.json(200, "season", .ref(SeasonResource.self))], problems: [404, 503])

    /// `GET /v1/seasons/{id}/report`
    static let seasonReport = APIOperation(
        "seasonReport", "What a season sold (box office): each night's season seats, nights released and resold, its orders and takings",
        access: .role(.boxoffice, "see reports"), parameters: [.seasonId],
        answers: [.json(200, "report", .ref(SeasonReportResource.self))], problems: [401, 403, 404, 503])

    /// `POST /v1/seasons/{id}/holds`
    static let createSeasonHold = APIOperation(
        "createSeasonHold",
        "Hold the same seats and places in every show of the season still to come: all shows or none, one token",
        limit: .holds, parameters: [.seasonId], body: .ref(HoldRequest.self),
        answers: [.json(201, "held", .ref(SeasonHoldResource.self))], problems: [404, 409, 413, 422, 429, 503])

    /// `GET /v1/seasons/{id}/holds/{token}`
    static let getSeasonHold = APIOperation(
        "getSeasonHold", "A season hold: each show's part", parameters: [.seasonId, .seasonToken],
        answers: [.json(200, "hold", .ref(SeasonHoldResource.self))], problems: [404, 410, 503])

    /// `DELETE /v1/seasons/{id}/holds/{token}`
    static let releaseSeasonHold = APIOperation(
        "releaseSeasonHold", "Let a season hold go: every show's part", parameters: [.seasonId, .seasonToken],
        answers: [.empty(204, "released")], problems: [404, 409, 410, 503])

    /// `POST /v1/seasons/{id}/holds/{token}/confirm`
    static let confirmSeasonHold = APIOperation(
        "confirmSeasonHold", "Confirm a season hold: every show's seats sold under one order, together",
        description: "With online payments configured, a season that costs anything is paid at the box office: 402 payment-required.",
        parameters: [.seasonId, .seasonToken], body: .ref(ConfirmRequest.self),
        answers: [.json(200, "confirmed", .ref(SeasonHoldResource.self))], problems: [402, 404, 409, 410, 413, 422, 503])

    /// `POST /v1/seasons/{id}/sales`
    static let sellSeason = APIOperation(
        "sellSeason",
        "Sell a season at the counter (box office): the same seats and places in every show still to come, one order, all or none",
        access: .role(.boxoffice, "sell at the counter"), parameters: [.seasonId], body: .ref(SaleRequest.self),
        answers: [.json(201, "sold", .ref(OrderResource.self))], problems: [401, 403, 404, 409, 413, 422, 503])

    /// `POST /v1/seasons/{id}/seats/{seat}/release`
    static let releaseSeasonNight = APIOperation(
        "releaseSeasonNight",
        "Offer one night of a season seat for sale (box office; or the season's buyer with their code): the seat of that show returns to sale, no money moves",
        access: .operatorKeyOrCode, parameters: [.seasonId, .seatId], body: .ref(SeasonNightRequest.self),
        answers: [.empty(204, "released")], problems: [401, 403, 404, 409, 413, 422, 503])

    /// `POST /v1/seasons/{id}/seats/{seat}/reclaim`
    static let reclaimSeasonNight = APIOperation(
        "reclaimSeasonNight", "Take a released night back while nobody bought it (box office; or the season's buyer with their code)",
        access: .operatorKeyOrCode, parameters: [.seasonId, .seatId], body: .ref(SeasonNightRequest.self),
        answers: [.empty(204, "reclaimed")], problems: [401, 403, 404, 409, 413, 422, 503])
}

extension APIOperation.Parameter {
    static let seasonId = Self.path("id", .string(pattern: "^se_[A-Za-z0-9._-]{1,80}$"))
    static let seasonToken = Self.path("token", .string(pattern: "^[0-9a-f]{44}$"))
    static let seatId = Self.path("seat", .string(minLength: 1, maxLength: 64))
}
