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
    func changePrices(_ show: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let who = try requireOperator(r, .manager, to: "change prices")
        let table = try RequestBody.priceTableRequest(r)
        let (_, ticket) = try inventory.beginChangePrices(show: show, to: table, by: who.name)
        return afterCommit(ticket, trace: trace) { [inventory] in .json(200, inventory.showSummary(show) ?? JSONWriter()) }
    }

    /// `PATCH /v1/shows/{id}`: `startsAt`, `holdSeconds`, `details`, `onSale`; answered with the show.
    func editShow(_ show: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let who = try requireOperator(r, .manager, to: "edit shows")
        let edit = try RequestBody.showEditRequest(r)
        let (_, ticket) = try inventory.beginEditShow(show: show, edit, by: who.name)
        return afterCommit(ticket, trace: trace) { [inventory] in .json(200, inventory.showSummary(show) ?? JSONWriter()) }
    }

    /// `POST /v1/shows/{id}/cancel` `{"reason":"…"}`: holds and reservations released, the sales to refund listed.
    func cancelShow(_ show: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let who = try requireOperator(r, .manager, to: "cancel shows")
        let reason = try RequestBody.reasonRequest(r)
        let idem = try Self.idempotency(r, scope: "cancel:\(show)") { (v: Inventory.Cancellation) in (200, Render.cancellation(v, show: show).bytes) }
        let (answer, ticket) = try inventory.beginCancelShow(show: show, reason: reason, by: who.name, idempotency: idem)
        return afterCommit(ticket, trace: trace) { Self.respond(answer) { .json(200, Render.cancellation($0, show: show)) } }
    }

    /// `GET /v1/shows/{id}/log?since=V&limit=N`: JSON, or one line a seat as CSV (`Accept: text/csv`).
    func showLog(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        try requireOperator(r, .boxoffice, to: "read the log")
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

    /// `{"startsAt","holdSeconds","details","onSale"}`, each optional, at least one.
    static func showEditRequest(_ request: HTTPRequest) throws(Problem) -> Inventory.ShowEdit {
        let o = try object(request)
        var log = ProblemLog()
        o.rejectUnknownKeys(["startsAt", "holdSeconds", "details", "onSale"], at: "", into: &log)
        if o.keys.isEmpty { log.add("", "give at least one of startsAt, holdSeconds, details, onSale") }
        // A member given as null is not "unchanged" (leave it out for that): it is refused, not ignored.
        for key in ["startsAt", "holdSeconds", "details", "onSale"] where o[key] == .null {
            log.add(key, "expected a value, got null (leave \(key) out to keep it as it is)")
        }
        var edit = Inventory.ShowEdit()
        if let s = o.text("startsAt", into: &log, required: false) {
            if isTimestamp(s) { edit.startsAt = s } else { log.add("startsAt", "expected an ISO 8601 time like 2026-12-01T19:30:00+08:00, got \"\(s)\"") }
        }
        if let h = o.integer("holdSeconds", at: "", into: &log, required: false) {
            if h < 30 || h > 3600 { log.add("holdSeconds", "must be 30 to 3600, got \(h)") } else { edit.holdSeconds = h }
        }
        if let d = o["details"] { edit.detailsJSON = details(d, into: &log) }
        if let v = o["onSale"] {
            if case .bool(let b) = v { edit.onSale = b } else { log.add("onSale", "expected true or false, got \(v.shortDescription)") }
        }
        try check(log)
        return edit
    }

    /// The display fields buyers see: each a text (at most 300 characters) or `{"zh":…,"en":…}`;
    /// `poster` a `https://` URL or a path on this server; `duration` the running time in whole minutes
    /// (1 to 1440). Canonical JSON (keys sorted).
    static func details(_ value: JSONValue, into log: inout ProblemLog) -> String? {
        let known = ["title", "film", "format", "language", "poster", "hall", "notes", "duration"]
        guard let o = value.object(at: "details", into: &log) else { return nil }
        o.rejectUnknownKeys(known, at: "details", into: &log)
        var w = JSONWriter()
        w.raw("{")
        func checked(_ text: String, _ path: String) -> Bool {
            if text.unicodeScalars.count > 300 { log.add(path, "at most 300 characters, got \(text.unicodeScalars.count)"); return false }
            if let bad = WireText.controlCharacter(in: text) { log.add(path, bad); return false }
            return true
        }
        var first = true
        for key in known where o[key] != nil {
            let path = "details.\(key)"
            if key == "duration" {
                guard let minutes = o[key]!.intValue, (1...1440).contains(minutes) else {
                    log.add(path, "the running time in whole minutes, 1 to 1440, got \(o[key]!.shortDescription)")
                    continue
                }
                w.key(key, first: first); w.number(minutes)
                first = false
                continue
            }
            switch o[key]! {
            case .string(let text):
                guard checked(text, path) else { continue }
                if key == "poster" && !(text.hasPrefix("https://") || text.hasPrefix("/")) {
                    log.add(path, "a https:// URL or a path on this server, got \"\(text)\"")
                    continue
                }
                w.key(key, first: first); w.string(text)
            case .object(let both):
                both.rejectUnknownKeys(["zh", "en"], at: path, into: &log)
                for lang in ["zh", "en"] where both[lang] == .null { log.add("\(path).\(lang)", "expected a text, got null") }
                let zh = both.text("zh", into: &log, required: false), en = both.text("en", into: &log, required: false)
                if zh == nil && en == nil { log.add(path, "give zh, en or both") }
                w.key(key, first: first); w.raw("{")
                var inner = true
                for (lang, text) in [("en", en), ("zh", zh)] {
                    guard let text, checked(text, "\(path).\(lang)") else { continue }
                    w.key(lang, first: inner); w.string(text); inner = false
                }
                w.raw("}")
            default:
                log.add(path, "expected a text or {\"zh\":…,\"en\":…}, got \(o[key]!.shortDescription)")
                continue
            }
            first = false
        }
        w.raw("}")
        return w.text
    }

    /// `{"reason":"…"}` (1 to 200 characters).
    static func reasonRequest(_ request: HTTPRequest) throws(Problem) -> String {
        let o = try object(request)
        var log = ProblemLog()
        o.rejectUnknownKeys(["reason"], at: "", into: &log)
        let reason = o.text("reason", into: &log)
        if let reason, reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || reason.unicodeScalars.count > 200 {
            log.add("reason", "1 to 200 characters saying why")
        }
        if let reason, let bad = WireText.controlCharacter(in: reason) { log.add("reason", bad) }
        try check(log)
        return reason!
    }
}

extension Render {
    static func cancellation(_ c: Inventory.Cancellation, show: String) -> JSONWriter {
        var w = JSONWriter()
        w.raw("{"); w.key("showId", first: true); w.string(show)
        w.key("releasedHolds"); w.number(c.releasedHolds); w.key("releasedReservations"); w.number(c.releasedReservations)
        w.key("toRefund"); w.raw("[" + c.toRefund.map { order($0).text }.joined(separator: ",") + "]")
        w.raw("}")
        return w
    }

    static func log(_ lines: [LogLine], show: String, next: UInt64?) -> JSONWriter {
        var w = JSONWriter()
        func optional(_ s: String?) { if let s { w.string(s) } else { w.raw("null") } }
        w.raw("{"); w.key("showId", first: true); w.string(show); w.key("lines"); w.raw("[")
        for (k, l) in lines.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("version", first: true); w.number(Int(l.version)); w.key("at"); w.string(iso(l.at))
            w.key("action"); w.string(l.action); w.key("by"); optional(l.by); w.key("operator"); optional(l.operatorName)
            w.key("holdId"); optional(l.holdID); w.key("reason"); optional(l.reason); w.key("orderRef"); optional(l.orderRef)
            w.key("seats"); w.raw("[")
            for (j, s) in l.seats.enumerated() {
                if j > 0 { w.raw(",") }
                w.raw("{"); w.key("seat", first: true); w.string(s.id); w.key("status"); w.string(s.status.name); w.raw("}")
            }
            w.raw("]}")
        }
        w.raw("]"); w.key("next"); if let next { w.number(Int(next)) } else { w.raw("null") }
        w.raw("}")
        return w
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
