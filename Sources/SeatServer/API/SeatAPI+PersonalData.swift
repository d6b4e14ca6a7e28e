import SeatHTTP
import SeatInventory
import SeatSecrets
import SeatWire

/// A real-name show's personal data at the edge: a manager's reveal and erasure (docs/REALNAME.md).
extension SeatAPI {
    func revealAttendee(_ show: String, _ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let body = try RequestBody.decode(r, RevealRequest.init(json:))
        let a = try inventory.revealAttendee(show: show, seat: body.seat, by: who.name, reason: body.reason)
        // Never kept by a cache on the way: the answer is a person's document in the clear.
        return .json(
            200, RevealedAttendeeResource(seat: a.seat, name: a.name, idType: a.idType, idNumber: a.idNumber, phone: a.phone),
            headers: [("Cache-Control", "no-store")])
    }

    // Attendee books (常用观演人): a capability token the buyer's app keeps; entries sealed, shown masked.

    func createAttendeeBook() -> HTTPResponse {
        let token = inventory.newAttendeeBook()
        return .json(201, AttendeeBookResource(book: token, attendees: []), headers: [("Location", "/v1/attendee-books/\(token)")])
    }

    func attendeeBook(_ token: String) throws -> HTTPResponse {
        try Self.checkBook(token)
        let entries = try inventory.attendeeBook(token).map { AttendeeBookResource.Entry(id: $0.id, name: $0.name, idType: $0.idType, idNumber: $0.idNumber) }
        return .json(200, AttendeeBookResource(book: token, attendees: entries), headers: [("Cache-Control", "no-store")])
    }

    func addBookAttendee(_ token: String, _ r: HTTPRequest) throws -> HTTPResponse {
        try Self.checkBook(token)
        let a = try RequestBody.decode(r, BookEntryRequest.init(json:)).attendee
        let saved = try inventory.saveToBook(token, AttendeeInput(seat: nil, name: a.name, idType: a.idType, idNumber: a.idNumber, phone: a.phone))
        return .json(201, AttendeeBookResource(book: token, attendees: [.init(id: saved.id, name: saved.name, idType: saved.idType, idNumber: saved.idNumber)]))
    }

    func removeBookAttendee(_ token: String, entry: String) throws -> HTTPResponse {
        try Self.checkBook(token)
        try inventory.removeFromBook(token, entry: entry)
        return .empty(204)
    }

    /// A book's token as this server makes them (`ab_` and hex digits): anything else is no book.
    static func checkBook(_ token: String) throws {
        guard token.hasPrefix("ab_"), token.count <= 80, token.dropFirst(3).allSatisfy({ $0.isHexDigit || $0 == "." }) else {
            throw Problem(404, "not-found", "Not found", detail: "no attendee book with this token")
        }
    }

    /// `GET /v1/shows/{id}/unbound` (the box office): tickets sold without a name, to bind before bindBy.
    func unboundTickets(_ show: String) throws -> HTTPResponse {
        let u = try inventory.unboundTickets(show: show)
        return .json(
            200,
            UnboundTicketsResource(
                show: show, bindBy: u.bindBy.map(Render.iso), tickets: u.tickets.map { UnboundTicketsResource.Ticket(seat: $0.seat, orderRef: $0.orderRef) }))
    }

    func erasePersonalData(_ show: String, by who: Operator) throws -> HTTPResponse {
        let erased = try inventory.erasePersonalData(show: show, by: who.name)
        return .json(200, ErasureResource(show: show, attendees: erased.attendees, contacts: erased.contacts))
    }
}
