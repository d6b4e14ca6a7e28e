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
        func split(_ name: String, _ pairs: [(String, Money)]) {
            w.key(name); w.raw("{")
            for (k, (key, value)) in pairs.enumerated() { w.key(key, first: k == 0); w.string(value.description) }
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
        w.key("gross"); w.string(r.gross.description); w.key("refunded"); w.string(r.refunded.description); w.key("net"); w.string(r.net.description)
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
                [s.seatID, s.row, s.zone, s.category, s.status.name, s.price.description, s.orderRef, s.channel, s.payment].map(csvField).joined(separator: ",")
                + "\r\n"
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
        return .json(200, Self.render(try inventory.salesReport(from: from, to: to)))
    }

    static func render(_ report: SalesReport) -> JSONWriter {
        var w = JSONWriter()
        func money(_ name: String, _ m: Money) { w.key(name); w.string(m.description) }
        func sum(_ s: SalesReport.Sum, first: Bool = false) {
            w.key("currency", first: first); w.string(s.currency); w.key("shows"); w.number(s.shows); w.key("seats"); w.number(s.seats)
            w.key("sold"); w.number(s.sold); money("gross", s.gross); money("refunded", s.refunded); money("net", s.net)
        }
        w.raw("{"); w.key("from", first: true); w.string(Render.iso(report.from)); w.key("to"); w.string(Render.iso(report.to)); w.key("shows"); w.raw("[")
        for (k, row) in report.shows.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("showId", first: true); w.string(row.showID); w.key("startsAt"); w.string(row.startsAt)
            w.key("currency"); w.string(row.net.currency); w.key("seats"); w.number(row.seats); w.key("sold"); w.number(row.sold)
            w.key("orders"); w.number(row.orders); money("gross", row.gross); money("refunded", row.refunded); money("net", row.net); w.raw("}")
        }
        w.raw("]"); w.key("days"); w.raw("[")
        var first = true
        for (date, sums) in report.days {
            for s in sums {
                if !first { w.raw(",") }
                first = false
                w.raw("{"); w.key("date", first: true); w.string(date); sum(s); w.raw("}")
            }
        }
        w.raw("]"); w.key("totals"); w.raw("[")
        for (k, s) in report.totals.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); sum(s, first: true); w.raw("}")
        }
        w.raw("]}")
        return w
    }
}
