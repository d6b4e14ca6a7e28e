import Foundation
import SeatHTTP
import SeatInventory
import SeatJSON
import SeatMap
import SeatWire

/// After the sale: exchanges (box office, or the buyer with the order's code), and the buyer's own view
/// of their order (`/orders/{ref}?code=…`: the order, its tickets, its calendar entry).
extension SeatAPI {
    /// `POST /v1/orders/{orderRef}/exchange`: answered once both sides are committed (the exchange waits
    /// for them itself, and settles a race with another instance by deciding again).
    func exchange(_ orderRef: String, _ r: HTTPRequest, idempotency: IdempotencyClaim?) throws -> HTTPResponse {
        let body = try RequestBody.decode(r, ExchangeRequest.init(json:))
        let actor = try orderActor(r, code: body.code, to: "exchange orders")
        let target: Inventory.Exchange.Target =
            switch body.target {
            case .seats(let seats): .seats(seats)
            case .best(let n): .best(n)
            }
        // A buyer moving into a show whose waiting room is on needs an admission like a hold (buying cheap
        // seats of an unqueued showing and moving them into the premiere walked round the line); the
        // box office is exempt.
        let admission = actor.isBuyer ? try self.admission(for: body.show, r) : nil
        let x = Inventory.Exchange(
            seatIDs: body.seats, toShow: body.show, target: target, payment: body.payment, reason: body.reason, force: body.force,
            admission: admission?.entryID, fromShow: body.fromShow)
        let idem = idempotency?.request { (v: ExchangeView) in Render.exchange(v).jsonBytes }
        let answer = try inventory.exchange(orderRef: orderRef, x, as: actor, idempotency: idem)
        if let admission { queues?.used(admission) }
        // Cheaper seats: the difference goes back through the provider that took the first payment, now.
        return Self.respond(answer, 200) { view, status in
            var resource = Render.exchange(view)
            resource.order = withMoneyBack(resource.order, send: true)
            return .json(status, resource)
        }
    }

    /// The buyer when the request carries the order's code, else an operator of the box office.
    func orderActor(_ r: HTTPRequest, code: String?, to action: String) throws -> OrderActor {
        if let code { return .buyer(code: code) }
        return .boxOffice(operatorName: try requireOperator(r, .boxoffice, to: action).name)
    }

    /// `GET /v1/orders/{orderRef}/calendar.ics?code=…`: the order's shows as calendar events (RFC 5545),
    /// in the language asked (`lang`), for the buyer's "add to calendar".
    func orderCalendar(_ orderRef: String, _ r: HTTPRequest) throws -> HTTPResponse {
        let language = try Self.language(r)
        let parts: [OrderView.Part]
        if let code = r.query["code"] {
            parts = try inventory.buyerOrder(orderRef: orderRef, code: code).order.parts
        } else {
            try requireOperator(r, .boxoffice, to: "look up orders")
            parts = try inventory.order(orderRef: orderRef).parts
        }
        var events: [OrderCalendar.Event] = []
        for showID in Set(parts.filter { !$0.seats.isEmpty }.map(\.showID)).sorted() {
            guard let s = inventory.showSummary(showID), let starts = s.startsAtMilliseconds else { continue }
            let details = (try? JSONParser.parse(Array(s.record.detailsJSON.utf8)))?.objectValue
            func text(_ key: String) -> String? {
                switch details?[key] {
                case .string(let t)?: t
                case .object(let both)?: both[language == .chinese ? "zh" : "en"]?.stringValue ?? both["zh"]?.stringValue ?? both["en"]?.stringValue
                default: nil
                }
            }
            let minutes = details?["duration"]?.intValue ?? 120
            let seats = parts.filter { $0.showID == showID }.flatMap { $0.seats.map(\.id) }
            let hall = text("hall") ?? inventory.venueEntryLayout(s.record.venueID)?.name ?? s.record.venueID
            events.append(
                OrderCalendar.Event(
                    uid: "\(orderRef)-\(showID)@seatkit", starts: starts, ends: starts + Int64(minutes) * 60_000,
                    title: text("title") ?? text("film") ?? showID, location: hall,
                    notes: (language == .chinese ? "座位 " : "Seats ") + seats.joined(separator: ", ") + (language == .chinese ? " · 订单 " : " · Order ")
                        + orderRef))
        }
        let ics = OrderCalendar.text(events, now: Int64(Date().timeIntervalSince1970 * 1000))
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/calendar; charset=utf-8"),
                ("Content-Disposition", "attachment; filename=\"order-\(Render.pathSegment(orderRef)).ics\""), ("Cache-Control", "no-store"),
            ], body: Array(ics.utf8))
    }
}

extension Render {
    static func exchange(_ v: ExchangeView) -> ExchangeResource {
        func side(_ p: OrderView.Part) -> ExchangeResource.Side {
            .init(holdID: p.holdID, showID: p.showID, seats: p.seats.map { ($0.id, $0.price.description) }, total: p.total.description)
        }
        return ExchangeResource(
            from: side(v.from), to: side(v.to), fee: v.fee.description, difference: v.difference.description, currency: v.to.currency,
            order: order(v.order))
    }

    static func terms(_ t: AfterSaleTerms) -> OrderResource.Terms {
        var out = OrderResource.Terms(
            showID: t.showID, exchangesLeft: t.exchangesLeft, exchangeUntil: t.exchangeUntil.map(iso), exchangeFee: t.exchangeFee.description,
            refundUntil: t.refundUntil.map(iso))
        out.refundFee = t.refundFee
        out.refundTiers = t.refundTiers.map { (iso($0.until), $0.fee) }
        out.refundSeats = t.refundSeats.map { ($0.seatID, $0.price.description, $0.fee.description, $0.back.description) }
        out.oneRefundPerBuyer = t.oneRefundPerBuyer
        out.refundRelease = t.refundRelease.map(iso)
        return out
    }
}

/// Calendar text (RFC 5545): lines of at most 75 octets, folded; text escaped.
enum OrderCalendar {
    struct Event {
        var uid: String
        var starts: Int64
        var ends: Int64
        var title: String
        var location: String
        var notes: String
    }

    static func text(_ events: [Event], now: Int64) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//SeatKit//Orders//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]
        for e in events {
            lines += [
                "BEGIN:VEVENT", "UID:" + escape(e.uid), "DTSTAMP:" + stamp(now), "DTSTART:" + stamp(e.starts), "DTEND:" + stamp(e.ends),
                "SUMMARY:" + escape(e.title), "LOCATION:" + escape(e.location), "DESCRIPTION:" + escape(e.notes),
                // A reminder an hour before: time to get there and collect nothing (the ticket is on the phone).
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT60M", "DESCRIPTION:" + escape(e.title), "END:VALARM", "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// `20261204T113000Z`.
    static func stamp(_ ms: Int64) -> String {
        let iso = Timestamp.text(ms)  // 2026-12-04T11:30:00.000Z
        return String(iso.prefix(19)).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "") + "Z"
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;").replacingOccurrences(of: ",", with: "\\,")
            .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "")
    }

    /// Folds a line at 75 octets without splitting a UTF-8 character (Chinese titles are 3 octets each).
    static func fold(_ line: String) -> String {
        var out = "", count = 0
        for ch in line {
            let n = String(ch).utf8.count
            if count + n > 75 {
                out += "\r\n "
                count = 1
            }
            out.append(ch)
            count += n
        }
        return out
    }
}
