import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatInventory
import SeatServer

/// Real-name sales (#54): holds of 4 seats with their 4 attendees (each document checked, keyed and
/// sealed, each claim carrying its hash under the store's unique index) against holds of 4 seats without,
/// on the same server and venue; the plain show measured just before and after, averaged.
extension ServerBenchmarks {
    static func realNameRates(dir: URL, report: Report) throws {
        let app = try server(store: "sqlite:" + dir.appendingPathComponent("realname.db").path, seed: true)
        defer { app.stop() }
        guard let venueID = app.inventory.venueID(show: "bench"), let layout = app.inventory.venueEntryLayout(venueID) else { return }
        try app.inventory.addShow(
            Inventory.NewShow(
                id: "bench-rn", venueID: venueID, startsAt: "2099-12-01T19:00:00+08:00",
                prices: PriceTable(categoryPrices: ["lower": 580, "upper": 380]), policy: SelectionPolicy(maxSeats: 6, noLoneSeat: false),
                detailsJSON: #"{"realName":{"mode":"perTicket"}}"#))
        // Each hold's four seats: a worker's own row, moving along it.
        @Sendable func seats(_ worker: Int, _ n: Int) -> [String] {
            let row = layout.rows[(worker * 7) % (layout.rows.count - 1)]
            let start = row.seats.lowerBound + (n * 5) % max(row.seats.count - 4, 1)
            return (start..<min(start + 4, row.seats.upperBound)).map { layout.seatID($0) }
        }
        // Every body made before the runs, for both kinds alike (the client shares the two cores with the
        // server: building them in the loop measured the client, four attendees' worth more in one run).
        // A worker holds one hold at a time, so its documents repeat only after their hold was let go.
        let cycle = 500
        let plainBodies = (0..<64).map { worker in
            (0..<cycle).map { n in #"{"seats":[\#(seats(worker, n).map { "\"\($0)\"" }.joined(separator: ","))]}"# }
        }
        let namedBodies = (0..<64).map { worker in
            (0..<cycle).map { n in
                let chosen = seats(worker, n)
                let attendees = chosen.enumerated().map { k, seat in
                    #"{"seat":"\#(seat)","name":"观众","idType":"idCard","idNumber":"\#(idCard(worker: worker, (n * 4 + k) % 2_000))"}"#
                }
                let list = chosen.map { "\"\($0)\"" }.joined(separator: ",")
                return #"{"seats":[\#(list)],"attendees":[\#(attendees.joined(separator: ","))]}"#
            }
        }
        func plain() -> LoadResult {
            load(port: app.port, connections: 64, seconds: 4) { c, worker, n in try timedHold(c, show: "bench", plainBodies[worker % 64][n % cycle]) }
        }
        let before = plain()
        let named = load(port: app.port, connections: 64, seconds: 4) { c, worker, n in
            try timedHold(c, show: "bench-rn", namedBodies[worker % 64][n % cycle])
        }
        let after = plain()
        let rate = (before.perSecond + after.perSecond) / 2, p99 = (before.p99 + after.p99) / 2
        let ratio = named.perSecond / rate
        report.row(
            "holds of 4 seats with their 4 attendees (ID cards checked, keyed, sealed; one a show by the store's index) + released, 64 connections, vs holds of 4 seats without, same server, just before and after",
            ours: String(format: "%.0f holds/s, p99 %.1f ms", named.perSecond, named.p99 * 1000),
            baseline: String(format: "%.0f holds/s, p99 %.1f ms", rate, p99 * 1000), ratio: String(format: "%.2f×", ratio),
            goal: ratio >= 0.8 ? "≥ 0.8× ✓" : "≥ 0.8× ✗")
    }

    /// A valid mainland ID card number, a worker's `n`th (its region the worker, a day of 1990 and a
    /// sequence the number): GB 11643's check character.
    static func idCard(worker: Int, _ n: Int) -> String {
        // Region 11WWWW, born 1990-MM-DD (28 days a month: every date real), sequence SSS.
        let day = n / 1000 % 336, seq = n % 1000
        func digits(_ v: Int, _ width: Int) -> [Int] { (0..<width).reversed().map { v / Int(pow(10, Double($0))) % 10 } }
        let body = [1, 1] + digits(worker % 10_000, 4) + [1, 9, 9, 0] + digits(day / 28 + 1, 2) + digits(day % 28 + 1, 2) + digits(seq, 3)
        return body.map(String.init).joined() + String(Character(IdentityDocument.checkCharacter(body)))
    }

    /// The `"token"` of a hold's answer, found by its bytes (the whole answer parsed was the client's
    /// cost, not the server's; the token is the answer's first member and holds no escapes).
    static func token(in body: [UInt8]) -> String? {
        let key = Array(#""token":""#.utf8)
        guard body.count > key.count, let start = (0...(body.count - key.count)).first(where: { body[$0..<($0 + key.count)].elementsEqual(key) })
        else { return nil }
        let from = start + key.count
        guard let end = body[from...].firstIndex(of: 34) else { return nil }
        return String(decoding: body[from..<end], as: UTF8.self)
    }

    /// A hold of `show` timed when made (then released), nil when refused.
    static func timedHold(_ c: HTTPConnection, show: String, _ body: String) throws -> Double? {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let r = try c.request("POST", "/v1/shows/\(show)/holds", json: body)
        let latency = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        guard r.status == 201, let token = token(in: r.body) else { return nil }
        _ = try c.request("DELETE", "/v1/holds/\(token)")
        return latency
    }
}
