import SeatHTTP
import SeatInventory
import SeatSecrets
import SeatTickets
import SeatWire

extension SeatAPI {
    /// `GET /v1/orders/{orderRef}/tickets` (the box office, to print or resend them; the buyer with `?code=`).
    func orderTickets(_ orderRef: String, _ r: HTTPRequest) throws -> HTTPResponse {
        if let code = r.query["code"] {
            return .json(200, Render.tickets(orderRef, try inventory.buyerTickets(orderRef: orderRef, code: code), issuer: tickets))
        }
        try requireOperator(r, .boxoffice, to: "look up orders")
        return .json(200, Render.tickets(orderRef, try inventory.tickets(orderRef: orderRef), issuer: tickets))
    }

    /// `GET /v1/holds/{token}/tickets`: the buyer's own, by the token of the hold they confirmed.
    func holdTickets(_ token: String) throws -> HTTPResponse {
        let list = try inventory.tickets(holdToken: token)
        return .json(200, Render.tickets(list.first?.orderRef ?? "", list, issuer: tickets))
    }

    /// `GET /v1/tickets/{code}.svg`: the ticket's QR code, for the receipt, the buyer's phone and the
    /// counter's printer. Anyone with a code may draw it (the code is the ticket); only a code this
    /// server signed is drawn, so the route is no QR service for anything else.
    func ticketPicture(_ file: String) throws -> HTTPResponse {
        let notFound = Problem(
            404, "not-found", "Not found", detail: "no ticket here: its picture is /v1/tickets/{code}.svg or .png, the code as the tickets list gives it")
        let png = file.hasSuffix(".png")
        guard file.hasSuffix(".svg") || png else { throw notFound }
        let code = String(file.dropLast(4)).uppercased()
        guard let (ticket, payload, signature) = try? TicketCode.read(code), inventory.doorFacts(show: ticket.show, seat: ticket.seat) != nil,
            TicketCode.isSigned(payload, signature, by: tickets.key(show: ticket.show).publicKey)
        else { throw notFound }
        let cache = [("Cache-Control", "private, max-age=86400")]
        if png {
            guard let bytes = TicketPicture.png(code) else { throw notFound }
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")] + cache, body: bytes)
        }
        guard let svg = TicketPicture.svg(code, label: "SeatKit ticket: seat \(ticket.seatName), show \(ticket.show)") else { throw notFound }
        return .text(200, svg, contentType: "image/svg+xml", headers: cache)
    }

    /// `GET /v1/shows/{id}/issuer` (the door): the show's public key and its revoked tickets.
    func ticketIssuer(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        // Oldest first (as the store keeps refunds): a scanner adds what it has not seen.
        let revoked = try inventory.revokedTicketIDs(show: show).map(\.id)
        // A real-name show's door key: a door checks documents against its tickets offline too.
        let realName = inventory.doorFacts(show: show, seat: 0)?.realName == true
        return .json(
            200,
            TicketIssuerResource(
                showID: show, publicKey: SHA256.hex(tickets.key(show: show).publicKey), revoked: revoked,
                doorKey: realName ? SHA256.hex(inventory.doorKey(show: show)) : nil))
    }

    /// `POST /v1/tickets/{code}/transfer`: a real-name ticket to another person, or one sold without a
    /// name bound to its first; the box office (a key), or the buyer with their order's code. Answers
    /// the new ticket (its code; the old one is revoked).
    func transferTicket(_ code: String, _ r: HTTPRequest) throws -> HTTPResponse {
        let body = try RequestBody.decode(r, TransferRequest.init(json:))
        let notFound = Problem(404, "not-found", "Not found", detail: "no ticket with this code: give the ticket's code (SK1…) as its QR carries it")
        guard let (ticket, payload, signature) = try? TicketCode.read(code), inventory.doorFacts(show: ticket.show, seat: ticket.seat) != nil,
            TicketCode.isSigned(payload, signature, by: tickets.key(show: ticket.show).publicKey)
        else { throw notFound }
        let clerk = body.code == nil ? try requireOperator(r, .boxoffice, to: "transfer tickets") : nil
        let to = body.to
        let done = try inventory.transferTicket(
            show: ticket.show, seat: ticket.seat, ticketID: ticket.id,
            to: AttendeeInput(seat: nil, name: to.name, idType: to.idType, idNumber: to.idNumber, phone: to.phone), by: clerk?.name,
            buyerCode: body.code)
        // The order's ticket of this seat as it stands now: its new code.
        let now = try inventory.tickets(orderRef: done.orderRef).filter { $0.sale == done.sale && $0.seat == ticket.seat }
        return .json(200, Render.tickets(done.orderRef, now, issuer: tickets))
    }
}

extension Render {
    static func tickets(_ orderRef: String, _ list: [TicketView], issuer: TicketIssuer) -> TicketsResource {
        TicketsResource(
            orderRef: orderRef,
            tickets: list.map { t in
                let ticket = TicketCode(
                    show: t.showID, seat: t.seat, id: TicketCode.id(sale: t.sale, seat: t.seat, generation: t.bound?.generation ?? 0), seatName: t.seatID,
                    binding: t.bound?.binding, attendee: t.bound?.attendee ?? "")
                return TicketsResource.Ticket(
                    ticketID: ticket.idHex, showID: t.showID, seat: t.seatID, price: t.price.description, currency: t.currency,
                    status: t.revokedAt == nil ? "valid" : "revoked", revokedAt: t.revokedAt.map(iso),
                    code: t.revokedAt == nil ? ticket.signed(by: issuer.key(show: t.showID)) : nil, row: t.rowLabel, number: t.seatLabel,
                    attendee: t.bound?.attendee)
            })
    }
}
