import SeatSecrets
import Foundation
import SeatDomain
import SeatHTTP
import SeatInventory
import SeatTickets
import SeatWire

extension SeatAPI {
    /// `POST /v1/checkin` (the door): a scanned code decided green or red by the door's rules
    /// (`DoorDesk`), written out. Always 200 for a scan (the answer is the scanner's to show); 422 for a
    /// request that is not one.
    func checkIn(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let body = try RequestBody.decode(r, CheckInRequest.init(json:))
        let verdict = try DoorDesk(inventory: inventory, tickets: tickets).decide(
            code: body.code, direction: body.direction == "out" ? .out : .in, gate: body.gate, nonce: body.nonce, shows: body.shows,
            operatorName: who.name, now: Int64(Date().timeIntervalSince1970 * 1000), document: body.idNumber,
            outside: { [inventory, staff] show in
                // Door staff of some cinemas admit their cinemas' shows only: a ticket of another is refused
                // at the gate (naming its cinema), not let in.
                let cinema = inventory.venueID(show: show).flatMap(staff.cinema(ofVenue:))
                guard !who.actsFor(cinema: cinema) else { return nil }
                return "a ticket of \(cinema.flatMap { staff.cinema($0)?.name } ?? "another cinema"), not of \(who.name)'s"
            })
        if case .passed = verdict.outcome {} else { inventory.metrics.count("checkins_refused") }
        return .json(200, Self.checkInResult(verdict))
    }

    /// A verdict as the wire says it (`CheckInResult`): the family, the reason, the seat as printed, the
    /// earlier scan, and a sentence a door attendant reads.
    static func checkInResult(_ v: DoorVerdict) -> CheckInResult {
        func earlier(_ s: CheckInScan) -> CheckInResult.Scan {
            CheckInResult.Scan(at: Render.iso(s.at), gate: s.gate, operatorName: s.operatorName, direction: s.direction.rawValue)
        }
        let seatID = v.seat?.seatID
        var result = CheckInResult(
            result: "ok", direction: v.direction.rawValue, showID: v.showID, seat: seatID, ticketID: v.ticketID, detail: "",
            row: v.seat?.rowLabel, number: v.seat?.seatLabel)
        result.attendee = v.attendee
        switch v.outcome {
        case .passed(_, let replay):
            result.replay = replay
            result.detail = v.direction == .in ? "welcome: seat \(seatID ?? "")" : "out: may come back in with the same ticket"
        case .refused(let why, let detail):
            result.result = why.result
            result.reason = why.rawValue
            result.detail = v.opensAt.map { "\(detail), at \(Render.iso($0))" } ?? detail
            result.opensAt = v.opensAt.map(Render.iso)
            if why == .idRequired || why == .wrongPerson { result.reason = why.rawValue }
        case .alreadyIn(let first):
            result.result = "already_in"
            result.earlier = earlier(first)
            result.detail = "already in: at \(Render.iso(first.at)) through \(first.gate), scanned by \(first.operatorName)"
        case .notInside(let last):
            result.result = "not_in"
            result.earlier = last.map(earlier)
            result.reason = last == nil ? "neverIn" : "wentOut"
            result.detail = last.map { "not inside: it went out at \(Render.iso($0.at)) through \($0.gate)" } ?? "never scanned in"
        }
        return result
    }

    /// `GET /v1/shows/{id}/checkin` (the door): scans by gate, and how many are inside.
    func checkInCounts(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        let limit = r.query["scans"].map { Int($0) }
        if let limit, limit == nil || !(0...500).contains(limit!) { throw Problem.badRequest("scans must be a whole number from 0 to 500") }
        let counts = try inventory.checkInCounts(show: show)
        var resource = CheckInCountsResource(showID: show, inside: counts.inside, gates: counts.gates)
        if let limit = limit ?? nil {
            resource.scans = try inventory.recentScans(show: show, limit: limit).map { s in
                (s.scan.ticketID, s.seatID, s.scan.direction.rawValue, s.scan.gate, s.scan.operatorName, Render.iso(s.scan.at))
            }
        }
        return .json(200, resource)
    }
}
