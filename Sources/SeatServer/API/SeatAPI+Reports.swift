import Foundation
import SeatHTTP
import SeatInventory
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

    /// One line a seat: `seat,row,zone,category,status,price,orderRef,channel,payment` (RFC 4180 quoting).
    static func reportCSV(_ r: ShowReport) -> String {
        func field(_ s: String?) -> String {
            guard let s else { return "" }
            return s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        var out = "seat,row,zone,category,status,price,orderRef,channel,payment\r\n"
        for s in r.seats {
            out += [s.seatID, s.row, s.zone, s.category, s.status.name, s.price, s.orderRef, s.channel, s.payment].map(field).joined(separator: ",") + "\r\n"
        }
        return out
    }
}
