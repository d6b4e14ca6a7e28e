import SeatSecrets
import Foundation
import SeatHTTP
import SeatInventory
import SeatJSON
import SeatMap
import SeatWire

/// A show after on-sale, for managers (`docs/API.md`, Shows after on-sale): new prices, times, what
/// buyers are told, the sales switch, cancellation; and its log for the box office.
extension SeatAPI {
    /// `PUT /v1/shows/{id}/prices`: the same price table as show creation; answered with the show.
    func changePrices(_ show: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator) throws -> HTTPResponse {
        let table = try RequestBody.priceTableRequest(r)
        let (_, ticket) = try inventory.beginChangePrices(show: show, to: table, by: who.name)
        return afterCommit(ticket, trace: trace) { [inventory] in Self.showAnswer(inventory, show) }
    }

    /// `PATCH /v1/shows/{id}`: `startsAt`, `holdSeconds`, `details`, `onSale`; answered with the show.
    func editShow(_ show: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator) throws -> HTTPResponse {
        var edit = try RequestBody.showEditRequest(r)
        edit.startsAt = edit.startsAt.map(onLocalClock)
        let (_, ticket) = try inventory.beginEditShow(show: show, edit, by: who.name)
        return afterCommit(ticket, trace: trace) { [inventory] in Self.showAnswer(inventory, show) }
    }

    /// The show as it is now (shows are never deleted: the 404 is for a store that lost it meanwhile).
    static func showAnswer(_ inventory: Inventory, _ show: String) -> HTTPResponse {
        inventory.showSummary(show).map { .json(200, Render.show($0)) } ?? inventory.noSuchShow(show).problem.response
    }

    /// `POST /v1/shows/{id}/cancel` `{"reason":"…"}`: holds and reservations released, the sales to refund listed.
    func cancelShow(_ show: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator, idempotency: IdempotencyClaim?) throws -> HTTPResponse {
        let reason = try RequestBody.reasonRequest(r)
        let idem = idempotency?.request { (v: Inventory.Cancellation) in Render.cancellation(v, show: show).jsonBytes }
        let (answer, ticket) = try inventory.beginCancelShow(show: show, reason: reason, by: who.name, idempotency: idem)
        return afterCommit(ticket, trace: trace) { Self.respond(answer, 200) { .json($1, Render.cancellation($0, show: show)) } }
    }

    /// `POST /v1/shows/{id}/move`: the show to another shard (off sale), the move in its log.
    func moveShow(_ show: String, _ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let shard = try RequestBody.decode(r, MoveRequest.init(json:)).shard
        try inventory.moveShow(show, to: shard, by: who.name)
        guard let summary = inventory.showSummary(show) else { throw Problem(404, "not-found", "Not found", detail: "no show \(show)") }
        return .json(200, Render.show(summary))
    }

    /// `GET /v1/shards`: each shard, whether it answers and its shows (the console's move dialog).
    func listShards(_ r: HTTPRequest) throws -> HTTPResponse {
        let shards = (inventory.placement?.status() ?? []).map { s in
            ShardsResource.Shard(name: s.name, up: s.outage == nil, shows: s.shows, downSince: s.outage?.since, cause: s.outage?.cause)
        }
        return .json(200, ShardsResource(shards: shards))
    }

    /// `GET /v1/shows/{id}/log?since=V&limit=N`: JSON, or one line a seat as CSV (`Accept: text/csv`).
    func showLog(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        var since: UInt64 = 0, limit = Inventory.logPage
        if let text = r.query["since"] {
            guard let v = Self.version(text) else { throw Problem.badRequest("since must be a version number, got \"\(text.prefix(40))\"") }
            since = v
        }
        if let text = r.query["limit"] {
            guard let v = Int(text), (1...Inventory.logPage).contains(v) else {
                throw Problem.badRequest("limit must be 1 to \(Inventory.logPage), got \"\(text)\"")
            }
            limit = v
        }
        let lines = try inventory.log(show: show, since: since, limit: limit)
        let next = lines.count == limit ? lines.last?.version : nil
        if (r.header("accept") ?? "").contains("text/csv") {
            var headers = [("Content-Disposition", "attachment; filename=\"\(show)-log.csv\"")]
            if let next { headers.append(("Link", "</v1/shows/\(show)/log?since=\(next)&limit=\(limit)>; rel=\"next\"")) }
            return .text(200, Render.logCSV(lines), contentType: "text/csv; charset=utf-8", headers: headers)
        }
        return .json(200, Render.log(lines, show: show, next: next))
    }
}

extension RequestBody {
    /// A price table, as in show creation.
    static func priceTableRequest(_ request: HTTPRequest) throws(Problem) -> PriceTable {
        let o = try object(request)
        do { return try PriceTable(jsonValue: .object(o)) } catch { throw Refusal.invalid(error).problem }
    }

    /// `PATCH /v1/shows/{id}`.
    static func showEditRequest(_ request: HTTPRequest) throws(Problem) -> Inventory.ShowEdit {
        let e = try decode(request, ShowEdit.init(json:))
        return Inventory.ShowEdit(startsAt: e.startsAt, holdSeconds: e.holdSeconds, detailsJSON: e.detailsJSON, onSale: e.onSale)
    }

    /// `{"reason":"…"}` (1 to 200 characters).
    static func reasonRequest(_ request: HTTPRequest) throws(Problem) -> String { try decode(request, CancelRequest.init(json:)).reason }
}

extension Render {
    static func cancellation(_ c: Inventory.Cancellation, show: String) -> Cancellation {
        Cancellation(showID: show, releasedHolds: c.releasedHolds, releasedReservations: c.releasedReservations, toRefund: c.toRefund.map(order))
    }

    static func log(_ lines: [LogLine], show: String, next: UInt64?) -> ShowLog {
        ShowLog(
            showID: show,
            lines: lines.map { l in
                ShowLog.Line(
                    version: l.version, at: iso(l.at), action: l.action, by: l.by, operatorName: l.operatorName, holdID: l.holdID, reason: l.reason,
                    orderRef: l.orderRef, seats: l.seats.map { ($0.id, $0.status.name) })
            }, next: next)
    }

    /// One line a seat a change set (a change of no seat: one line with the seat empty):
    /// `version,at,seat,status,action,by,reason,orderRef` (RFC 4180 quoting).
    static func logCSV(_ lines: [LogLine]) -> String {
        var out = "version,at,seat,status,action,by,reason,orderRef\r\n"
        for l in lines {
            let tail = [l.action, l.by, l.reason, l.orderRef].map(csvField).joined(separator: ",")
            let head = "\(l.version),\(iso(l.at))"
            if l.seats.isEmpty { out += head + ",,," + tail + "\r\n" }
            for s in l.seats { out += head + "," + csvField(s.id) + "," + s.status.name + "," + tail + "\r\n" }
        }
        return out
    }
}
