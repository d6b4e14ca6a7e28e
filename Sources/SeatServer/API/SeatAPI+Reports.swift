import Foundation
import SeatHTTP
import SeatInventory
import SeatJSON
import SeatMap

/// The show report for the box office: JSON, or one line a seat as CSV (`Accept: text/csv`).
extension SeatAPI {
    func showReport(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        try requireOperator(r, .boxoffice, to: "see reports")
        let report = try inventory.report(show: show)
        if (r.header("accept") ?? "").contains("text/csv") {
            return .text(
                200, Render.reportCSV(report), contentType: "text/csv; charset=utf-8",
                headers: [("Content-Disposition", "attachment; filename=\"\(show)-report.csv\"")])
        }
        return .json(200, Render.report(report))
    }
}

extension Render {
    static func report(_ r: ShowReport) -> JSONWriter {
        var w = JSONWriter()
        func counts(_ c: StatusCounts) {
            w.raw("{"); w.key("available", first: true); w.number(c.available); w.key("held"); w.number(c.held)
            w.key("sold"); w.number(c.sold); w.key("blocked"); w.number(c.blocked); w.raw("}")
        }
        func split(_ name: String, _ pairs: [(String, String)]) {
            w.key(name); w.raw("{")
            for (k, (key, value)) in pairs.enumerated() { w.key(key, first: k == 0); w.string(value) }
            w.raw("}")
        }
        w.raw("{"); w.key("showId", first: true); w.string(r.showID); w.key("version"); w.number(Int(r.version)); w.key("seats"); w.number(r.seatCount)
        w.key("byStatus"); counts(r.counts)
        w.key("zones"); w.raw("[")
        for (k, z) in r.zones.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("zone", first: true); w.string(z.zone); w.key("category"); w.string(z.category); w.key("byStatus"); counts(z.counts); w.raw("}")
        }
        w.raw("]")
        w.key("occupancy"); w.number(r.seatCount == 0 ? 0 : (Double(r.counts.sold) / Double(r.seatCount) * 10_000).rounded() / 10_000)
        w.key("revenue"); w.raw("{"); w.key("currency", first: true); w.string(r.currency)
        w.key("gross"); w.string(r.gross); w.key("refunded"); w.string(r.refunded); w.key("net"); w.string(r.net)
        split("byCategory", r.byCategory); split("byChannel", r.byChannel); split("byPayment", r.byPayment); w.raw("}")
        w.key("orders"); w.number(r.orders); w.key("refundedSeats"); w.number(r.refundedSeats)
        w.raw("}")
        return w
    }

    /// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; nil is empty.
    static func csvField(_ s: String?) -> String {
        guard let s else { return "" }
        return s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    /// One line a seat: `seat,row,zone,category,status,price,orderRef,channel,payment` (RFC 4180 quoting).
    static func reportCSV(_ r: ShowReport) -> String {
        var out = "seat,row,zone,category,status,price,orderRef,channel,payment\r\n"
        for s in r.seats {
            out +=
                [s.seatID, s.row, s.zone, s.category, s.status.name, s.price, s.orderRef, s.channel, s.payment].map(csvField).joined(separator: ",") + "\r\n"
        }
        return out
    }
}

/// Sales across shows: `GET /v1/reports/sales?from=2026-12-01&to=2026-12-08` (dates, or ISO times; `to`
/// excluded), per show and per day (the show's own date, as its start is written), each show's figures
/// from its report, so the two always agree; totals per currency.
extension SeatAPI {
    func salesReport(_ r: HTTPRequest) throws -> HTTPResponse {
        try requireOperator(r, .boxoffice, to: "see reports")
        func instant(_ name: String) throws -> Int64 {
            guard let text = r.query[name] else {
                throw Problem(422, "invalid-query", "Invalid query", detail: "\(name): give a date like 2026-12-01 or an ISO time")
            }
            let iso = text.count == 10 ? text + "T00:00:00Z" : text
            guard let ms = RequestBody.milliseconds(ofTimestamp: iso) else {
                throw Problem(422, "invalid-query", "Invalid query", detail: "\(name): \"\(text)\" is not a date like 2026-12-01 or an ISO time")
            }
            return ms
        }
        let from = try instant("from"), to = try instant("to")
        guard from < to else { throw Problem(422, "invalid-query", "Invalid query", detail: "from must be before to") }
        guard to - from <= 366 * 86_400_000 else { throw Problem(422, "invalid-query", "Invalid query", detail: "at most a year at a time") }
        struct Sum {
            var shows = 0, seats = 0, sold = 0, digits = 0
            var net = Decimal(0), gross = Decimal(0), refunded = Decimal(0)
        }
        var perShow: [(String, String, ShowReport)] = []
        for (id, startsAt) in inventory.shows(startingFrom: from, to: to) {
            guard let report = try? inventory.report(show: id) else { continue }
            perShow.append((id, startsAt, report))
        }
        var days: [String: [String: Sum]] = [:], totals: [String: Sum] = [:]
        func add(_ s: inout Sum, _ rep: ShowReport) {
            s.shows += 1; s.seats += rep.seatCount; s.sold += rep.counts.sold
            s.digits = max(s.digits, rep.net.split(separator: ".").dropFirst().first?.count ?? 0)
            s.net += Decimal(string: rep.net) ?? 0; s.gross += Decimal(string: rep.gross) ?? 0; s.refunded += Decimal(string: rep.refunded) ?? 0
        }
        for (_, startsAt, rep) in perShow {
            add(&days[String(startsAt.prefix(10)), default: [:]][rep.currency, default: Sum()], rep)
            add(&totals[rep.currency, default: Sum()], rep)
        }
        var w = JSONWriter()
        func money(_ d: Decimal, _ digits: Int) -> String { PriceTable.amountString(minorUnits: Self.minor(d, digits), digits: digits) }
        func sum(_ s: Sum, currency: String, first: Bool = false) {
            w.key("currency", first: first); w.string(currency); w.key("shows"); w.number(s.shows); w.key("seats"); w.number(s.seats); w.key("sold");
            w.number(s.sold)
            w.key("gross"); w.string(money(s.gross, s.digits)); w.key("refunded"); w.string(money(s.refunded, s.digits))
            w.key("net"); w.string(money(s.net, s.digits))
        }
        w.raw("{"); w.key("from", first: true); w.string(Render.iso(from)); w.key("to"); w.string(Render.iso(to)); w.key("shows"); w.raw("[")
        for (k, (id, startsAt, rep)) in perShow.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("showId", first: true); w.string(id); w.key("startsAt"); w.string(startsAt); w.key("currency"); w.string(rep.currency)
            w.key("seats"); w.number(rep.seatCount); w.key("sold"); w.number(rep.counts.sold); w.key("orders"); w.number(rep.orders)
            w.key("gross"); w.string(rep.gross); w.key("refunded"); w.string(rep.refunded); w.key("net"); w.string(rep.net); w.raw("}")
        }
        w.raw("]"); w.key("days"); w.raw("[")
        var first = true
        for day in days.keys.sorted() {
            for currency in days[day]!.keys.sorted() {
                if !first { w.raw(",") }
                first = false
                w.raw("{"); w.key("date", first: true); w.string(day); sum(days[day]![currency]!, currency: currency); w.raw("}")
            }
        }
        w.raw("]"); w.key("totals"); w.raw("[")
        for (k, currency) in totals.keys.sorted().enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); sum(totals[currency]!, currency: currency, first: true); w.raw("}")
        }
        w.raw("]}")
        return .json(200, w)
    }

    /// An exact amount (sums of prices with `digits` decimals) in minor units.
    static func minor(_ d: Decimal, _ digits: Int) -> Int64 {
        var scaled = d * Decimal(sign: .plus, exponent: digits, significand: 1), rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        return NSDecimalNumber(decimal: rounded).int64Value
    }
}
