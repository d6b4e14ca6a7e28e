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
        let idem = try Self.idempotency(r, scope: "sell:\(show)") { (v: OrderView) in (201, Render.order(v).bytes) }
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
        let idem = try Self.idempotency(r, scope: "refund:\(orderRef)") { (v: OrderView) in (200, Render.order(v).bytes) }
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
    /// `{"seats":[ids] (optional: all), "reason":"…", "returnTo":"reservation"|"sale" (optional)}`.
    static func refundRequest(_ request: HTTPRequest) throws(Problem) -> (seats: [String]?, reason: String, toSale: Bool) {
        let o = try object(request)
        var log = ProblemLog()
        o.rejectUnknownKeys(["seats", "reason", "returnTo"], at: "", into: &log)
        var toSale = false
        if let to = o.text("returnTo", into: &log, required: false) {
            if to == "sale" { toSale = true } else if to != "reservation" { log.add("returnTo", "reservation or sale, not \"\(to)\"") }
        }
        var seats: [String]?
        if o["seats"] != nil {
            let list = o.seatIDs("seats", into: &log) ?? []
            if list.isEmpty { log.add("seats", "name at least one seat, or leave seats out to refund the whole order") }
            seats = list
        }
        let reason = o.text("reason", into: &log)
        if let reason, reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || reason.unicodeScalars.count > 200 {
            log.add("reason", "1 to 200 characters saying why")
        }
        try check(log)
        return (seats, reason!, toSale)
    }

    /// `{"seats":[ids] | "reservation":"r_…","orderRef":"…","payment":"cash","force":false}`.
    static func saleRequest(_ request: HTTPRequest) throws(Problem) -> Inventory.NewSale {
        let o = try object(request)
        var log = ProblemLog()
        o.rejectUnknownKeys(["seats", "reservation", "orderRef", "payment", "force", "prices"], at: "", into: &log)
        var prices: [String: Decimal] = [:]
        if let p = o.object("prices", at: "", into: &log, required: false) {
            for key in p.keys {
                guard case .string(let text)? = p[key], let amount = PriceTable.parseDecimal(text), amount >= 0 else {
                    log.add("prices.\(key)", "expected an amount like \"38.00\" (0 or more), got \(p[key]!.shortDescription)")
                    continue
                }
                prices[key] = amount
            }
            if p.keys.count > 1000 { log.add("prices", "at most 1000 seats") }
        }
        var source: Inventory.NewSale.Source?
        switch (o["seats"], o["reservation"]) {
        case (nil, nil): log.add("seats", "give the seats to sell, or \"reservation\": the id of one to sell whole")
        case (.some, .some): log.add("reservation", "give seats or a reservation, not both")
        case (.some, nil):
            let seats = o.seatIDs("seats", into: &log) ?? []
            if seats.count > 1000 { log.add("seats", "at most 1000 seats in one request, got \(seats.count)") }
            source = .seats(seats)
        case (nil, .some):
            if let rid = o.text("reservation", into: &log) { source = .reservation(rid) }
        }
        let orderRef = o.text("orderRef", into: &log)
        if let orderRef, let problem = WireOrderRef.problem(orderRef) { log.add("orderRef", problem) }
        let payment = o.text("payment", into: &log)
        if let payment,
            payment.isEmpty || payment.utf8.count > 32
                || !payment.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 })
        {
            log.add("payment", "a word like cash, card, comp or voucher (a-z, 0-9, '-', '_'; at most 32), got \"\(payment)\"")
        }
        var force = false
        if let v = o["force"] {
            if case .bool(let b) = v { force = b } else { log.add("force", "expected true or false, got \(v.shortDescription)") }
        }
        try check(log)
        return Inventory.NewSale(source: source!, orderRef: orderRef!, payment: payment!, force: force, prices: prices)
    }
}

extension Render {
    static func order(_ v: OrderView) -> JSONWriter {
        var w = JSONWriter()
        w.raw("{"); w.key("orderRef", first: true); w.string(v.orderRef); w.key("parts"); w.raw("[")
        for (k, p) in v.parts.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("holdId", first: true); w.string(p.holdID); w.key("showId"); w.string(p.showID)
            w.key("channel"); w.string(p.channel); w.key("payment"); w.string(p.payment)
            w.key("operator"); if let o = p.operatorName { w.string(o) } else { w.raw("null") }
            w.key("seats"); w.raw("[")
            for (j, s) in p.seats.enumerated() {
                if j > 0 { w.raw(",") }
                w.raw("{"); w.key("seat", first: true); w.string(s.id); w.key("price"); w.string(s.price); w.raw("}")
            }
            w.raw("]")
            w.key("total"); w.string(p.total); w.key("currency"); w.string(p.currency); w.key("soldAt"); w.string(iso(p.soldAt))
            w.key("overridden"); if let o = p.overridden { w.string(o) } else { w.raw("null") }
            w.raw("}")
        }
        w.raw("]"); w.key("refunds"); w.raw("[")
        for (k, r) in v.refunds.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("seat", first: true); w.string(r.seatID); w.key("price"); w.string(r.price); w.key("refundedAt"); w.string(iso(r.refundedAt))
            w.key("reason"); w.string(r.reason); w.key("operator"); w.string(r.operatorName)
            w.key("returnedTo"); if let t = r.returnedTo { w.string(t) } else { w.raw("null") }; w.raw("}")
        }
        w.raw("]}")
        return w
    }

    /// A path segment with everything but unreserved characters percent-encoded.
    static func pathSegment(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? s
    }
}
