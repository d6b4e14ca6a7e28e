import Foundation
import SeatHTTP
import SeatInventory
import SeatJSON
import SeatMap
import SeatSecrets
import SeatWire

/// The show report for the box office: JSON, or one line a seat as CSV (`Accept: text/csv`).
extension SeatAPI {
    func showReport(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        let report = try inventory.report(show: show)
        let door = try inventory.checkInCounts(show: show)
        if (r.header("accept") ?? "").contains("text/csv") {
            return .text(
                200, Render.reportCSV(report), contentType: "text/csv; charset=utf-8",
                headers: [("Content-Disposition", "attachment; filename=\"\(show)-report.csv\"")])
        }
        var resource = Render.report(report)
        resource.came = door.came
        resource.inside = door.inside
        return .json(200, resource)
    }
}

extension Render {
    static func report(_ r: ShowReport) -> ShowReportResource {
        func counts(_ c: StatusCounts) -> StatusCountsBody { StatusCountsBody(available: c.available, held: c.held, sold: c.sold, blocked: c.blocked) }
        func split(_ pairs: [(String, Money)]) -> [(String, String)] { pairs.map { ($0.0, $0.1.description) } }
        var resource = ShowReportResource(
            showID: r.showID, version: r.version, seats: r.seatCount, byStatus: counts(r.counts),
            zones: r.zones.map { .init(zone: $0.zone, category: $0.category, byStatus: counts($0.counts)) },
            occupancy: r.seatCount == 0 ? 0 : (Double(r.counts.sold) / Double(r.seatCount) * 10_000).rounded() / 10_000, currency: r.currency,
            gross: r.gross.description, refunded: r.refunded.description, net: r.net.description, byCategory: split(r.byCategory),
            byChannel: split(r.byChannel), byPayment: split(r.byPayment), orders: r.orders, refundedSeats: r.refundedSeats)
        resource.exchangedSeats = r.exchangedSeats
        resource.fees = r.fees.description
        return resource
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
    func salesReport(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let (from, to) = try Self.period(r)
        let including = try showsSeen(r, by: who)
        return .json(200, Self.render(try inventory.salesReport(from: from, to: to, including: including)))
    }

    /// `GET /v1/reports/takings?from=&to=[&clerk=]`: what was taken and given back in the period.
    func takingsReport(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let (from, to) = try Self.period(r)
        let including = try showsSeen(r, by: who)
        let clerk = r.query["clerk"]
        if let clerk, clerk.isEmpty || clerk.count > 64 {
            throw Problem(422, "invalid-query", "Invalid query", detail: "clerk: an operator's name of 1 to 64 characters")
        }
        let t = try inventory.takings(from: from, to: to, clerk: clerk, including: including)
        func sum(_ s: Takings.Sum, keyed: Bool = true) -> TakingsResource.Sum {
            .init(
                key: keyed ? s.key : nil, currency: s.currency, taken: s.taken.description, refunded: s.refunded.description, net: s.net.description,
                seatsSold: s.seatsSold, seatsRefunded: s.seatsRefunded)
        }
        return .json(
            200,
            TakingsResource(
                from: Render.iso(from), to: Render.iso(to), clerk: clerk,
                entries: t.entries.map {
                    .init(
                        at: Render.iso($0.at), kind: $0.kind.rawValue, showID: $0.showID, orderRef: $0.orderRef, payment: $0.payment, clerk: $0.clerk,
                        channel: $0.channel, seats: $0.seats, amount: $0.amount.description, currency: $0.amount.currency, fromShowID: $0.fromShowID,
                        givenBack: $0.givenBack?.description)
                }, byShow: t.byShow.map { sum($0) }, byPayment: t.byPayment.map { sum($0) }, byClerk: t.byClerk.map { sum($0) },
                byChannel: t.byChannel.map { sum($0) }, totals: t.totals.map { sum($0, keyed: false) }))
    }

    /// A report's `[from, to)`: dates (midnight UTC) or ISO times with their offset, at most a year.
    static func period(_ r: HTTPRequest) throws -> (Int64, Int64) {
        func instant(_ name: String) throws -> Int64 {
            guard let text = r.query[name] else {
                throw Problem(422, "invalid-query", "Invalid query", detail: "\(name): give a date like 2026-12-01 or an ISO time")
            }
            let iso = text.count == 10 ? text + "T00:00:00Z" : text
            guard let ms = RequestBody.milliseconds(ofTimestamp: iso) else {
                throw Problem(
                    422, "invalid-query", "Invalid query",
                    detail: "\(name): \"\(text)\" is not a date like 2026-12-01 or an ISO time (a day its month has, a year from 1970)")
            }
            return ms
        }
        let from = try instant("from"), to = try instant("to")
        guard from < to else { throw Problem(422, "invalid-query", "Invalid query", detail: "from must be before to") }
        // A year is a calendar year (365 or 366 days): 2028-01-01 to 2029-01-01 is one, 2026-01-01 to 2027-01-02 is not.
        guard to <= Timestamp.oneYearAfter(from) else {
            throw Problem(
                422, "invalid-query", "Invalid query",
                detail: "to: at most a year after from (\(Render.iso(from)) to \(Render.iso(Timestamp.oneYearAfter(from))) at the most)")
        }
        return (from, to)
    }

    static func render(_ report: SalesReport) -> SalesReportResource {
        func sum(_ s: SalesReport.Sum) -> SalesReportResource.Sum {
            .init(
                currency: s.currency, shows: s.shows, seats: s.seats, sold: s.sold, gross: s.gross.description, refunded: s.refunded.description,
                net: s.net.description, came: s.came)
        }
        return SalesReportResource(
            from: Render.iso(report.from), to: Render.iso(report.to),
            shows: report.shows.map {
                .init(
                    showID: $0.showID, startsAt: $0.startsAt, currency: $0.net.currency, seats: $0.seats, sold: $0.sold, orders: $0.orders,
                    gross: $0.gross.description, refunded: $0.refunded.description, net: $0.net.description, refundedSeats: $0.refundedSeats,
                    exchangedSeats: $0.exchangedSeats, came: $0.came)
            }, days: report.days.flatMap { date, sums in sums.map { (date, sum($0)) } }, totals: report.totals.map(sum))
    }
}
