import SeatHTTP
import SeatInventory
import SeatSecrets
import SeatTickets
import SeatWire

extension SeatAPI {
    /// `GET /v1/orders/{orderRef}/tickets` (the box office, to print or resend them).
    func orderTickets(_ orderRef: String, _ r: HTTPRequest) throws -> HTTPResponse {
        try requireOperator(r, .boxoffice, to: "look up orders")
        return .json(200, Render.tickets(orderRef, try inventory.tickets(orderRef: orderRef), issuer: tickets))
    }

    /// `GET /v1/holds/{token}/tickets`: the buyer's own, by the token of the hold they confirmed.
    func holdTickets(_ token: String) throws -> HTTPResponse {
        let list = try inventory.tickets(holdToken: token)
        return .json(200, Render.tickets(list.first?.orderRef ?? "", list, issuer: tickets))
    }

    /// `GET /v1/shows/{id}/issuer` (the door): the show's public key and its revoked tickets.
    func ticketIssuer(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        try requireOperator(r, .door, to: "scan tickets")
        let revoked = try inventory.refundedSeats(show: show).map {
            TicketCode(show: show, seat: $0.seat, id: TicketCode.id(sale: $0.sale, seat: $0.seat)).idHex
        }
        return .json(200, TicketIssuerResource(showID: show, publicKey: SHA256.hex(tickets.key(show: show).publicKey), revoked: revoked.sorted()))
    }
}

extension Render {
    static func tickets(_ orderRef: String, _ list: [TicketView], issuer: TicketIssuer) -> TicketsResource {
        TicketsResource(
            orderRef: orderRef,
            tickets: list.map { t in
                let ticket = TicketCode(show: t.showID, seat: t.seat, id: TicketCode.id(sale: t.sale, seat: t.seat), seatName: t.seatID)
                return TicketsResource.Ticket(
                    ticketID: ticket.idHex, showID: t.showID, seat: t.seatID, price: t.price.description, currency: t.currency,
                    status: t.revokedAt == nil ? "valid" : "revoked", revokedAt: t.revokedAt.map(iso),
                    code: t.revokedAt == nil ? ticket.signed(by: issuer.key(show: t.showID)) : nil)
            })
    }
}
