import Foundation
import SeatDomain
import SeatHTTP
import SeatInventory
import SeatTickets
import SeatWire

extension SeatAPI {
    /// Doors open this long before a show starts: a ticket scanned in earlier is `too_early` (Chinese
    /// cinemas let people in 15–30 minutes before; concerts an hour or two).
    static let doorsOpenMinutes: Int64 = 120

    /// `POST /v1/checkin` (the door): a scanned code decided green or red. Always 200 for a scan (the
    /// answer is the scanner's to show); 422 for a request that is not one.
    func checkIn(_ r: HTTPRequest) throws -> HTTPResponse {
        let who = try requireOperator(r, .door, to: "scan tickets")
        let body = try RequestBody.decode(r, CheckInRequest.init(json:))
        let direction: CheckInScan.Direction = body.direction == "out" ? .out : .in
        var facts: DoorShowFacts?
        func red(
            _ result: String, _ detail: String, reason: String, show: String? = nil, seat: String? = nil, ticket: String? = nil, opensAt: String? = nil
        ) -> HTTPResponse {
            inventory.metrics.count("checkins_refused")
            return .json(
                200,
                CheckInResult(
                    result: result, direction: direction.rawValue, showID: show, seat: seat, ticketID: ticket, detail: detail, reason: reason,
                    row: seat == nil ? nil : facts?.rowLabel, number: seat == nil ? nil : facts?.seatLabel, opensAt: opensAt))
        }
        let ticket: TicketCode
        do throws(TicketCodeError) {
            let (read, payload, signature) = try TicketCode.read(body.code)
            guard let found = inventory.doorFacts(show: read.show, seat: read.seat), found.seatID != nil else {
                return red("invalid", "not a ticket of this cinema's shows", reason: "unknownShow")
            }
            guard TicketCode.isSigned(payload, signature, by: tickets.key(show: read.show).publicKey) else {
                return red("invalid", "forged or altered: its signature is not the show's", reason: "signature")
            }
            (ticket, facts) = (read, found)
        } catch {
            let reason =
                switch error {
                case .notATicket: "notATicket"
                case .truncated: "truncated"
                case .unknownFormat: "unknownFormat"
                }
            return red("invalid", error.description, reason: reason)
        }
        guard let facts else { return red("invalid", "not a ticket of this cinema's shows", reason: "unknownShow") }
        let seat = facts.seatID, id = ticket.idHex
        if !body.shows.isEmpty && !body.shows.contains(ticket.show) {
            return red(
                "wrong_show", "a ticket for \(ticket.show), not for \(body.shows.joined(separator: ", "))", reason: "wrongShow", show: ticket.show,
                seat: seat, ticket: id)
        }
        // Cancelled before too early: a ticket of a cancelled show will never let anyone in.
        if facts.cancelled { return red("revoked", "the show was cancelled", reason: "cancelled", show: ticket.show, seat: seat, ticket: id) }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        if direction == .in, let starts = facts.startsAt, now < starts - Self.doorsOpenMinutes * 60_000 {
            let opens = Render.iso(starts - Self.doorsOpenMinutes * 60_000)
            return red(
                "too_early", "doors open \(Self.doorsOpenMinutes) minutes before the show, at \(opens)", reason: "tooEarly", show: ticket.show, seat: seat,
                ticket: id, opensAt: opens)
        }
        let sales = try inventory.seatSales(show: ticket.show, seat: ticket.seat)
        guard let sale = sales.current, TicketCode.id(sale: sale, seat: ticket.seat) == ticket.id else {
            let refunded = sales.refunded.first { TicketCode.id(sale: $0, seat: ticket.seat) == ticket.id }
            let (why, reason) =
                if let refunded {
                    try inventory.wasExchanged(sale: refunded, seat: ticket.seat)
                        ? ("the ticket was exchanged for another seat or showing: ask for the new ticket", "exchanged")
                        : ("the ticket was refunded", "refunded")
                } else { ("the seat was sold again since: this ticket no longer stands", "resold") }
            return red("revoked", why, reason: reason, show: ticket.show, seat: seat, ticket: id)
        }
        let scan = CheckInScan(
            showID: ticket.show, ticketID: id, seat: ticket.seat, direction: direction, gate: body.gate, operatorName: who.name, nonce: body.nonce, at: now)
        func earlier(_ s: CheckInScan) -> CheckInResult.Scan {
            CheckInResult.Scan(at: Render.iso(s.at), gate: s.gate, operatorName: s.operatorName, direction: s.direction.rawValue)
        }
        switch try inventory.checkIn(scan) {
        case .recorded(let done, let replay):
            guard done.ticketID == id, done.direction == direction else {
                throw Problem(422, "invalid-body", "Nonce used", detail: "nonce \(body.nonce) was another scan's: every scan needs its own")
            }
            return .json(
                200,
                CheckInResult(
                    result: "ok", direction: direction.rawValue, showID: ticket.show, seat: seat, ticketID: id, replay: replay,
                    detail: direction == .in ? "welcome: seat \(seat ?? "")" : "out: may come back in with the same ticket", row: facts.rowLabel,
                    number: facts.seatLabel))
        case .alreadyIn(let first):
            inventory.metrics.count("checkins_refused")
            return .json(
                200,
                CheckInResult(
                    result: "already_in", direction: direction.rawValue, showID: ticket.show, seat: seat, ticketID: id, earlier: earlier(first),
                    detail: "already in: at \(Render.iso(first.at)) through \(first.gate), scanned by \(first.operatorName)", row: facts.rowLabel,
                    number: facts.seatLabel))
        case .notInside(let last):
            inventory.metrics.count("checkins_refused")
            return .json(
                200,
                CheckInResult(
                    result: "not_in", direction: direction.rawValue, showID: ticket.show, seat: seat, ticketID: id, earlier: last.map(earlier),
                    detail: last == nil ? "never scanned in" : "not inside: it went out at \(Render.iso(last!.at)) through \(last!.gate)",
                    reason: last == nil ? "neverIn" : "wentOut", row: facts.rowLabel, number: facts.seatLabel))
        }
    }

    /// `GET /v1/shows/{id}/checkin` (the door): scans by gate, and how many are inside.
    func checkInCounts(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        try requireOperator(r, .door, to: "see the door's counts")
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
