import Foundation
import SeatDomain
import SeatHTTP
import SeatInventory
import SeatJSON
import SeatMap
import SeatSecrets
import SeatStorage
import SeatWire

/// Blocks and house seats for the box office (`docs/API.md`, Reservations): any operator may make,
/// change and release them; buyers see their seats as not for sale and never the reason or who.
extension SeatAPI {
    func createReservation(_ show: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator, idempotency: IdempotencyClaim?) throws -> HTTPResponse {
        let new = try RequestBody.reservationRequest(r)
        let idem = idempotency?.request { (v: ReservationView) in Render.reservation(v).jsonBytes }
        let (answer, ticket) = try inventory.beginCreateReservation(show: show, new, by: who.name, idempotency: idem)
        return afterCommit(ticket, trace: trace) {
            Self.respond(answer, 201) { view, status in .json(status, Render.reservation(view), headers: [("Location", "/v1/reservations/\(view.id)")]) }
        }
    }

    func listReservations(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        return .json(200, try inventory.reservations(show: show).map(Render.reservation))
    }

    func getReservation(_ id: String, _ r: HTTPRequest) throws -> HTTPResponse {
        try Self.notAChannel(id)
        return .json(200, Render.reservation(try inventory.reservation(id: id)))
    }

    func releaseReservation(_ id: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator) throws -> HTTPResponse {
        try Self.notAChannel(id)
        return afterCommit(try inventory.beginReleaseReservation(id: id, by: who.name), trace: trace) { .empty(204) }
    }

    func modifyReservation(_ id: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator) throws -> HTTPResponse {
        try Self.notAChannel(id)
        let (add, remove) = try RequestBody.modifyRequest(r)
        let (view, ticket) = try inventory.beginModifyReservation(id: id, add: add, remove: remove, by: who.name)
        return afterCommit(ticket, trace: trace) { .json(200, Render.reservation(view)) }
    }
}

extension SeatAPI {
    /// A channel is reached at /v1/channels/{id}, never as the box office's reservation.
    static func notAChannel(_ id: String) throws(Problem) {
        if id.hasPrefix("c_") { throw Problem(404, "not-found", "Not found", detail: "\(id) is a partner's channel: /v1/channels/\(id)") }
    }
}

extension RequestBody {
    /// `POST /v1/shows/{id}/reservations`.
    static func reservationRequest(_ request: HTTPRequest) throws(Problem) -> Inventory.NewReservation {
        let b = try decode(request, ReservationRequest.init(json:))
        let release: Inventory.ReleaseTime? =
            switch b.release {
            case .at(let ms)?: .at(ms)
            case .minutesBeforeStart(let n)?: .minutesBeforeStart(n)
            case nil: nil
            }
        return Inventory.NewReservation(kind: b.kind == .house ? .house : .blocked, seatIDs: b.seats, reason: b.reason, release: release)
    }
}

extension Render {
    static func reservation(_ v: ReservationView) -> ReservationResource {
        ReservationResource(
            id: v.id, showID: v.showID, kind: v.kind == .house ? .house : .blocked, seats: v.seatIDs, reason: v.reason,
            releaseAt: v.releaseAt.map(iso), operatorName: v.operatorName, createdAt: iso(v.createdAt), version: v.version)
    }
}
