import SeatHTTP
import SeatInventory
import SeatSecrets
import SeatWire

/// Seasons (`docs/API.md`, Seasons): a manager makes one of some shows; the box office sells it at the
/// counter and a buyer holds and confirms it, the same seats in every show, all or none; a season's
/// night is offered for sale and taken back.
extension SeatAPI {
    func createSeason(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let b = try RequestBody.decode(r, SeasonRequest.init(json:))
        let view = try inventory.createSeason(Inventory.NewSeason(name: b.name, shows: b.shows, parent: b.parent), by: who.name)
        return .json(201, Render.season(view), headers: [("Location", "/v1/seasons/\(view.record.id)")])
    }

    func listSeasons() throws -> HTTPResponse { .json(200, try inventory.seasonList().map(Render.season)) }

    func season(_ id: String) throws -> HTTPResponse { .json(200, Render.season(try inventory.seasonView(id: id))) }

    func seasonReport(_ id: String) throws -> HTTPResponse {
        let report = try inventory.seasonReport(season: id)
        return .json(
            200,
            SeasonReportResource(
                season: Render.season(report.season), orders: report.orders,
                nights: report.nights.map {
                    .init(
                        showID: $0.showID, startsAt: $0.startsAt, seasonSeats: $0.seasonSeats, released: $0.released, resold: $0.resold,
                        taken: $0.taken.description)
                }, taken: report.taken.description))
    }

    func createSeasonHold(_ id: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let body = try RequestBody.holdRequest(r)
        let (view, tickets) = try inventory.beginSeasonHold(
            season: id, Inventory.SeasonSeats(seatIDs: body.seats, places: body.areas.map { ($0.area, $0.count) }))
        return afterCommit(tickets.last, trace: trace) {
            .json(201, Render.seasonHold(view), headers: [("Location", "/v1/seasons/\(id)/holds/\(view.token ?? "")")])
        }
    }

    func seasonHold(_ id: String, token: String) throws -> HTTPResponse { .json(200, Render.seasonHold(try inventory.seasonHold(season: id, token: token))) }

    func releaseSeasonHold(_ id: String, token: String, trace: RequestTrace) throws -> HTTPResponse {
        afterCommit(try inventory.beginReleaseSeasonHold(season: id, token: token).last, trace: trace) { .empty(204) }
    }

    func confirmSeasonHold(_ id: String, token: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let body = try RequestBody.confirmRequest(r)
        if body.externalOrderId != nil || body.payment != nil {
            throw Problem(422, "invalid-body", "The request body is not valid", detail: "a season hold is confirmed with an orderRef only")
        }
        if payments.takesMoneyOnline, try inventory.seasonHold(season: id, token: token).total.amount != 0 {
            // One payment pays one show's hold; a season's is taken at the box office until a checkout spans shows.
            throw Problem(
                402, "payment-required", "Payment required",
                detail: "a season is paid at the box office (POST /v1/seasons/\(id)/sales); this hold keeps its seats until it expires")
        }
        let (view, tickets) = try inventory.beginConfirmSeasonHold(season: id, token: token, orderRef: body.orderRef)
        return afterCommit(tickets.last, trace: trace) { .json(200, Render.seasonHold(view)) }
    }

    func sellSeason(_ id: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator) throws -> HTTPResponse {
        let (sale, buyer) = try RequestBody.saleRequest(r)
        guard case .seats(let seats, let places) = sale.source else {
            throw Problem(422, "invalid-body", "The request body is not valid", detail: "reservation: a season sells seats and places, not a reservation")
        }
        if !sale.prices.isEmpty {
            throw Problem(422, "invalid-body", "The request body is not valid", detail: "prices: a season sells at each show's prices")
        }
        let (view, tickets) = try inventory.beginSellSeason(
            season: id, Inventory.SeasonSeats(seatIDs: seats, places: places), orderRef: sale.orderRef, payment: sale.payment, force: sale.force,
            by: who.name)
        return afterCommit(tickets.last, trace: trace) { [inventory] in
            var headers = [("Location", "/v1/orders/\(Render.pathSegment(view.orderRef))")]
            if buyer.name != nil || buyer.phone != nil, let show = view.parts.first?.showID,
                (try? inventory.saveContact(orderRef: view.orderRef, show: show, name: buyer.name, phone: buyer.phone)) == nil
            {
                headers.append(("Warning", "199 seatkit \"the buyer's name and phone were not kept; the sale stands\""))
            }
            return .json(201, Render.order(view), headers: headers)
        }
    }

    /// `…/release` or `…/reclaim` of one night.
    func seasonNight(_ id: String, seat: String, _ r: HTTPRequest, reclaim: Bool, trace: RequestTrace) throws -> HTTPResponse {
        let body = try RequestBody.decode(r, SeasonNightRequest.init(json:))
        let actor = try orderActor(r, code: body.code, to: reclaim ? "take season nights back" : "offer season nights for sale")
        let ticket =
            reclaim
            ? try inventory.beginReclaimSeasonNight(season: id, seat: seat, show: body.show, as: actor)
            : try inventory.beginReleaseSeasonNight(season: id, seat: seat, show: body.show, as: actor)
        return afterCommit(ticket, trace: trace) { .empty(204) }
    }
}

extension Render {
    static func season(_ v: Inventory.SeasonView) -> SeasonResource {
        SeasonResource(
            id: v.record.id, name: v.record.name, shows: v.record.shows, startsAt: v.startsAt, parent: v.record.parent, venueID: v.venueID,
            currency: v.currency, operatorName: v.record.operatorName, createdAt: iso(v.record.createdAt))
    }

    static func seasonHold(_ v: Inventory.SeasonHoldView) -> SeasonHoldResource {
        SeasonHoldResource(
            seasonID: v.seasonID, token: v.token ?? "", state: HoldResource.State(rawValue: v.state.rawValue) ?? .active,
            parts: v.parts.map(holdResource), total: v.total.description, currency: v.total.currency, expiresAt: iso(v.expiresAt),
            orderRef: v.orderRef)
    }
}
