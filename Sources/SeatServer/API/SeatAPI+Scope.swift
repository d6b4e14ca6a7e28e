import SeatHTTP
import SeatInventory
import SeatSecrets
import SeatTickets

/// Operators scoped to cinemas (#56): a request carrying the key of an operator of some cinemas may
/// act only on shows, venues, holds, reservations, orders, tickets, seasons and channels of those cinemas.
/// Outside them: 403 naming the cinema, never the data (checked before the handler reads anything).
/// Something that does not exist is not checked here (the handler answers its 404), so the check says
/// nothing a wrong guess could not. Head office (no cinemas) is never checked.
extension SeatAPI {
    /// Routes only head office may use when signed in: the deployment's (shards, webhooks) and new
    /// venues, which belong to no cinema until head office puts them in one.
    static let headOfficeRoutes: Set<String> = [
        "/v1/shards", "/v1/webhooks", "/v1/webhooks/{id}", "/v1/webhooks/{id}/deliveries", "/v1/webhooks/{id}/replay",
    ]

    /// Throws 403 when `who` acts for some cinemas and the route's target is in none of them.
    func checkCinema(_ pattern: String, _ parameters: [String], method: String, who: Operator) throws {
        guard who.cinemas != nil else { return }
        if Self.headOfficeRoutes.contains(pattern) || (pattern == "/v1/venues" && method == "POST") {
            throw Problem(403, "head-office-only", "Head office only", detail: "\(who.name) acts for some cinemas: \(pattern) is head office's")
        }
        guard let venues = targetVenues(pattern, parameters) else { return }
        for venue in venues {
            let cinema = staff.cinema(ofVenue: venue)
            if !who.actsFor(cinema: cinema) {
                throw Problem.outsideCinemas(who, cinema: cinema.map { staff.cinema($0)?.name ?? $0 } ?? "a venue of no cinema (head office's)")
            }
        }
    }

    /// The venues a route's target is in; nil when it names none, or one that does not exist.
    func targetVenues(_ pattern: String, _ p: [String]) -> [String]? {
        func venue(ofShow show: String) -> [String]? { inventory.venueID(show: show).map { [$0] } }
        if pattern.hasPrefix("/v1/shows/{id}") { return venue(ofShow: p[0]) }
        if pattern.hasPrefix("/v1/venues/{id}") { return inventory.venueIDs.contains(p[0]) ? [p[0]] : nil }
        if pattern.hasPrefix("/v1/holds/{token}") { return inventory.showID(holdToken: p[0]).flatMap(venue(ofShow:)) }
        if pattern.hasPrefix("/v1/reservations/{id}") { return (try? inventory.reservation(id: p[0])).flatMap { venue(ofShow: $0.showID) } }
        if pattern.hasPrefix("/v1/channels/{id}") { return (try? inventory.channel(id: p[0])).flatMap { venue(ofShow: $0.showID) } }
        if pattern.hasPrefix("/v1/seasons/{id}") { return (try? inventory.season(id: p[0]))?.shows.first.flatMap(venue(ofShow:)) }
        if pattern.hasPrefix("/v1/tickets/{ticket}") {
            // A ticket's code names its show (its picture's path ends in .png or .svg).
            let code = p[0].hasSuffix(".png") || p[0].hasSuffix(".svg") ? String(p[0].dropLast(4)) : p[0]
            return (try? TicketCode.read(code)).flatMap { venue(ofShow: $0.ticket.show) }
        }
        if pattern.hasPrefix("/v1/orders/{orderRef}") {
            guard let order = try? inventory.order(orderRef: p[0]) else { return nil }
            return Array(Set(order.parts.compactMap { inventory.venueID(show: $0.showID) })).sorted()
        }
        return nil
    }
}

extension SeatAPI {
    /// The shows a report or a search of `who` counts: `?cinema=ID` (head office's filter; an operator of
    /// some cinemas may name one of theirs), else the operator's cinemas' shows, else all.
    func showsSeen(_ r: HTTPRequest, by who: Operator) throws -> (String) -> Bool {
        var cinemas = who.cinemas.map(Set.init)
        if let asked = r.query["cinema"] {
            try staff.refresh()
            guard let cinema = staff.cinema(asked) else {
                throw Problem(422, "invalid-query", "Invalid query", detail: "cinema: no cinema \(asked)")
            }
            guard who.actsFor(cinema: asked) else { throw Problem.outsideCinemas(who, cinema: cinema.name) }
            cinemas = [asked]
        }
        guard let cinemas else { return { _ in true } }
        let (inventory, staff) = (self.inventory, self.staff)
        return { show in inventory.venueID(show: show).flatMap(staff.cinema(ofVenue:)).map(cinemas.contains) ?? false }
    }
}
