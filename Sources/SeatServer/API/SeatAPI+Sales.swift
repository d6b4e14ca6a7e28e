import SeatSecrets
import Foundation
import SeatHTTP
import SeatInventory
import SeatJSON
import SeatMap
import SeatWire

/// Counter sales and orders for the box office (`docs/API.md`, Box office).
extension SeatAPI {
    func sell(_ show: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator, idempotency: IdempotencyClaim?) throws -> HTTPResponse {
        let (sale, buyer) = try RequestBody.saleRequest(r)
        let idem = idempotency?.request { (v: OrderView) in Render.order(v).jsonBytes }
        let (answer, ticket) = try inventory.beginSell(show: show, sale, by: who.name, idempotency: idem)
        return afterCommit(ticket, trace: trace) { [inventory] in
            Self.respond(answer, 201) { view, status in
                // The buyer's name and phone once the sale stands (a retried sale writes them again); the
                // sale is answered even when they could not be kept, with a header saying so.
                var headers = [("Location", "/v1/orders/\(Render.pathSegment(view.orderRef))")]
                if (try? inventory.saveContact(orderRef: view.orderRef, show: show, name: buyer.name, phone: buyer.phone)) == nil {
                    headers.append(("Warning", "199 seatkit \"the buyer's name and phone were not kept; the sale stands\""))
                }
                return .json(status, Render.order(view), headers: headers)
            }
        }
    }

    /// `GET /v1/orders?q=TEXT[&show=ID]`: orders by reference, by a seat of the show, by the buyer's phone
    /// (4 or more of its last digits) or name.
    func searchOrders(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let q = (r.query["q"] ?? "").trimmingCharacters(in: .whitespaces)
        guard (2...64).contains(q.unicodeScalars.count), WireText.controlCharacter(in: q) == nil else {
            throw Problem(422, "invalid-query", "Invalid query", detail: "q: an order reference, a seat, a phone number or a name, 2 to 64 characters")
        }
        let show = r.query["show"]
        if let show, inventory.showSummary(show) == nil { throw inventory.noSuchShow(show) }
        let including = try showsSeen(r, by: who)
        let found = try inventory.findOrders(q, show: show).filter { including($0.showID) }
        return .json(
            200,
            OrderSearchResource(
                query: q,
                orders: found.map { .init(orderRef: $0.orderRef, showID: $0.showID, matched: $0.matched.rawValue, name: $0.name, phone: $0.phone) }))
    }

    /// Refunds are answered with the order as it then is, once committed. The writer commits in queue
    /// order, so the last ticket (an order spanning shows has one a show) is committed after the others.
    func refund(_ orderRef: String, _ r: HTTPRequest, trace: RequestTrace, idempotency: IdempotencyClaim?) throws -> HTTPResponse {
        let body = try RequestBody.decode(r, RefundRequest.init(json:))
        let actor = try orderActor(r, code: body.code, to: "refund")
        let reason: String
        switch (actor, body.reason) {
        case (_, let given?): reason = given
        case (.buyer, nil): reason = "refunded by the buyer"
        case (.boxOffice, nil):
            throw Problem(422, "invalid-body", "The request body is not valid", detail: "reason: the box office says why it refunds (1 to 200 characters)")
        }
        let idem = idempotency?.request { (v: OrderView) in Render.order(v).jsonBytes }
        // Waited for here (a rare operator action): a race with another clerk is settled inside, not answered.
        var code: String? = nil
        if case .buyer(let c) = actor { code = c }
        let answer = try inventory.refund(
            orderRef: orderRef, seatIDs: body.seats, reason: reason, by: actor.name, toSale: body.toSale || code != nil, buyerCode: code, idempotency: idem)
        // Seats paid online: their money goes back through the provider now (pending ones only).
        return Self.respond(answer, 200) { view, status in .json(status, withMoneyBack(Render.order(view), send: true)) }
    }

    /// `GET /v1/orders/{orderRef}`: the whole order (box office), or with `?code=` the buyer's part of it
    /// and what they may still do.
    func order(_ orderRef: String, _ r: HTTPRequest) throws -> HTTPResponse {
        if let code = r.query["code"] {
            let (view, terms) = try inventory.buyerOrder(orderRef: orderRef, code: code)
            var resource = withMoneyBack(Render.order(view), send: false)
            resource.afterSale = terms.map(Render.terms)
            return .json(200, resource, headers: [("Cache-Control", "no-store")])
        }
        try requireOperator(r, .boxoffice, to: "look up orders")
        var resource = withMoneyBack(Render.order(try inventory.order(orderRef: orderRef)), send: false)
        resource.payments = orderPayments(resource.parts)
        return .json(200, resource)
    }
}

extension RequestBody {
    /// `POST /v1/shows/{id}/sales`.
    static func saleRequest(_ request: HTTPRequest) throws(Problem) -> (Inventory.NewSale, buyer: (name: String?, phone: String?)) {
        let b = try decode(request, SaleRequest.init(json:))
        let source: Inventory.NewSale.Source =
            switch b.source {
            case .seats(let seats, let areas): .seats(seats, places: areas.map { ($0.area, $0.count) })
            case .reservation(let id): .reservation(id)
            }
        return (Inventory.NewSale(source: source, orderRef: b.orderRef, payment: b.payment, force: b.force, prices: b.prices), (b.buyerName, b.buyerPhone))
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
                    overridden: p.overridden, exchangedFrom: p.exchangedFrom, fee: p.fee?.description)
            },
            refunds: v.refunds.map { r in
                OrderResource.Refund(
                    seat: r.seatID, price: r.price.description, refundedAt: iso(r.refundedAt), reason: r.reason, operatorName: r.operatorName,
                    returnedTo: r.returnedTo, exchangedTo: r.exchangedTo, fee: r.fee?.description)
            })
    }

    /// A path segment with everything but unreserved characters percent-encoded.
    static func pathSegment(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? s
    }
}
