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
    func createReservation(_ show: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let who = try requireOperator(r, .boxoffice, to: "reserve seats")
        let new = try RequestBody.reservationRequest(r)
        let idem = try Self.idempotency(r, scope: "reserve:\(show)") { (v: ReservationView) in (201, Render.reservation(v).bytes) }
        let (answer, ticket) = try inventory.beginCreateReservation(show: show, new, by: who.name, idempotency: idem)
        return afterCommit(ticket, trace: trace) {
            Self.respond(answer) { view in .json(201, Render.reservation(view), headers: [("Location", "/v1/reservations/\(view.id)")]) }
        }
    }

    func listReservations(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        try requireOperator(r, .boxoffice, to: "see reservations")
        var w = JSONWriter()
        w.raw("[")
        for (k, v) in try inventory.reservations(show: show).enumerated() {
            if k > 0 { w.raw(",") }
            w.raw(Render.reservation(v).text)
        }
        w.raw("]")
        return .json(200, w)
    }

    func getReservation(_ id: String, _ r: HTTPRequest) throws -> HTTPResponse {
        try requireOperator(r, .boxoffice, to: "see reservations")
        return .json(200, Render.reservation(try inventory.reservation(id: id)))
    }

    func releaseReservation(_ id: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let who = try requireOperator(r, .boxoffice, to: "release reservations")
        return afterCommit(try inventory.beginReleaseReservation(id: id, by: who.name), trace: trace) { .empty(204) }
    }

    func modifyReservation(_ id: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let who = try requireOperator(r, .boxoffice, to: "change reservations")
        let (add, remove) = try RequestBody.modifyRequest(r)
        let (view, ticket) = try inventory.beginModifyReservation(id: id, add: add, remove: remove, by: who.name)
        return afterCommit(ticket, trace: trace) { .json(200, Render.reservation(view)) }
    }
}

extension RequestBody {
    /// `{"kind":"blocked"|"house","seats":[ids],"reason":"…","releaseAt":"2026-12-01T19:00:00+08:00" | "30 minutes before start"}`.
    static func reservationRequest(_ request: HTTPRequest) throws(Problem) -> Inventory.NewReservation {
        let o = try object(request)
        var log = ProblemLog()
        o.rejectUnknownKeys(["kind", "seats", "reason", "releaseAt"], at: "", into: &log)
        let kindName = o.text("kind", into: &log)
        let kind = kindName.flatMap { HoldKind(rawValue: $0) }.flatMap { $0 == .buyer ? nil : $0 }
        if let kindName, kind == nil { log.add("kind", "blocked or house, not \"\(kindName)\"") }
        let seats = o.seatIDs("seats", into: &log) ?? []
        if seats.count > 1000 { log.add("seats", "at most 1000 seats in one request, got \(seats.count)") }
        let reason = o.text("reason", into: &log)
        if let reason, reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || reason.unicodeScalars.count > 200 {
            log.add("reason", "1 to 200 characters saying why (it goes in the log, never to buyers)")
        }
        var release: Inventory.ReleaseTime?
        if let text = o.text("releaseAt", into: &log, required: false) {
            if let ms = Self.milliseconds(ofTimestamp: text) {
                release = .at(ms)
            } else if let minutes = Self.minutesBeforeStart(text) {
                release = .minutesBeforeStart(minutes)
            } else {
                log.add("releaseAt", "an ISO 8601 time like 2026-12-01T19:00:00+08:00, or \"30 minutes before start\"; got \"\(text)\"")
            }
        }
        try check(log)
        return Inventory.NewReservation(kind: kind!, seatIDs: seats, reason: reason!, release: release)
    }

    /// `"30 minutes before start"` → 30 (0 to 10,080: a week).
    static func minutesBeforeStart(_ text: String) -> Int? {
        let words = text.split(separator: " ")
        guard words.count == 4, words[1] == "minutes" || words[1] == "minute", words[2] == "before", words[3] == "start",
            let n = Int(words[0]), (0...10_080).contains(n)
        else { return nil }
        return n
    }

}

extension Render {
    static func reservation(_ v: ReservationView) -> JSONWriter {
        var w = JSONWriter()
        w.raw("{"); w.key("id", first: true); w.string(v.id); w.key("showId"); w.string(v.showID); w.key("kind"); w.string(v.kind.rawValue)
        w.key("seats"); w.raw("[" + v.seatIDs.map { JSONWriter.quoted($0) }.joined(separator: ",") + "]")
        w.key("reason"); w.string(v.reason)
        w.key("releaseAt"); if let at = v.releaseAt { w.string(iso(at)) } else { w.raw("null") }
        w.key("operator"); w.string(v.operatorName); w.key("createdAt"); w.string(iso(v.createdAt)); w.key("version"); w.number(Int(v.version))
        w.raw("}")
        return w
    }
}
