import Foundation
import SeatHTTP
import SeatInventory
import SeatJSON
import SeatMap
import SeatWire

/// Counter sales and orders for the box office (`docs/API.md`, Box office).
extension SeatAPI {
    func sell(_ show: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let who = try requireOperator(r, .boxoffice, to: "sell at the counter")
        let sale = try RequestBody.saleRequest(r)
        let idem = try Self.idempotency(r, scope: "sell:\(show)") { (v: OrderView) in (201, Render.order(v).jsonBytes) }
        let (answer, ticket) = try inventory.beginSell(show: show, sale, by: who.name, idempotency: idem)
        return afterCommit(ticket, trace: trace) {
            Self.respond(answer) { view in .json(201, Render.order(view), headers: [("Location", "/v1/orders/\(Render.pathSegment(view.orderRef))")]) }
        }
    }

    /// Refunds are answered with the order as it then is, once committed. The writer commits in queue
    /// order, so the last ticket (an order spanning shows has one a show) is committed after the others.
    func refund(_ orderRef: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let who = try requireOperator(r, .boxoffice, to: "refund")
        let (seats, reason, toSale) = try RequestBody.refundRequest(r)
        let idem = try Self.idempotency(r, scope: "refund:\(orderRef)") { (v: OrderView) in (200, Render.order(v).jsonBytes) }
        // Waited for here (a rare operator action): a race with another clerk is settled inside, not answered.
        let answer = try inventory.refund(orderRef: orderRef, seatIDs: seats, reason: reason, by: who.name, toSale: toSale, idempotency: idem)
        return Self.respond(answer) { view in .json(200, Render.order(view)) }
    }

    func order(_ orderRef: String, _ r: HTTPRequest) throws -> HTTPResponse {
        try requireOperator(r, .boxoffice, to: "look up orders")
        return .json(200, Render.order(try inventory.order(orderRef: orderRef)))
    }
}

extension RequestBody {
    /// `POST /v1/orders/{orderRef}/refund`.
    static func refundRequest(_ request: HTTPRequest) throws(Problem) -> (seats: [String]?, reason: String, toSale: Bool) {
        let b = try decode(request, RefundRequest.init(json:))
        return (b.seats, b.reason, b.toSale)
    }

    /// `POST /v1/shows/{id}/sales`.
    static func saleRequest(_ request: HTTPRequest) throws(Problem) -> Inventory.NewSale {
        let b = try decode(request, SaleRequest.init(json:))
        let source: Inventory.NewSale.Source =
            switch b.source {
            case .seats(let seats): .seats(seats)
            case .reservation(let id): .reservation(id)
            }
        return Inventory.NewSale(source: source, orderRef: b.orderRef, payment: b.payment, force: b.force, prices: b.prices)
    }
}

extension Render {
    static func order(_ v: OrderView) -> OrderResource {
        OrderResource(
            orderRef: v.orderRef,
            parts: v.parts.map { p in
                OrderResource.Part(
                    holdID: p.holdID, showID: p.showID, channel: p.channel, payment: p.payment, operatorName: p.operatorName,
                    seats: p.seats.map { ($0.id, $0.price.description) }, total: p.total.description, currency: p.currency, soldAt: iso(p.soldAt),
                    overridden: p.overridden)
            },
            refunds: v.refunds.map { r in
                OrderResource.Refund(
                    seat: r.seatID, price: r.price.description, refundedAt: iso(r.refundedAt), reason: r.reason, operatorName: r.operatorName,
                    returnedTo: r.returnedTo)
            })
    }

    /// A path segment with everything but unreserved characters percent-encoded.
    static func pathSegment(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? s
    }
}
