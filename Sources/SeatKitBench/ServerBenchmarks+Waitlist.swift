import Foundation
import LoopbackHTTP
import SeatInventory
import SeatJSON
import SeatMap
import SeatServer

/// Returned tickets in order (#54): how long after a refund's request the first in line reads its offer
/// (`GET /v1/waitlist/{entry}` says `offered`), beside how long after a refund on a show without a
/// waitlist the seat reads free to everyone (`GET /v1/shows/{id}/availability`): the same refund, the
/// same server, one after the other, 200 each. The issue's floor is 5 s.
extension ServerBenchmarks {
    static func waitlistDelays(dir: URL, report: Report) throws {
        let app = try server(store: "sqlite:" + dir.appendingPathComponent("waitlist.db").path, seed: true)
        defer { app.stop() }
        let admin = [("X-Admin-Key", "bench-admin-key-0123456789")]
        guard let venueID = app.inventory.venueID(show: "bench"), let layout = app.inventory.venueEntryLayout(venueID) else { return }
        let prices = PriceTable(categoryPrices: Dictionary(layout.zones.map { ($0.category, Decimal(100)) }, uniquingKeysWith: { a, _ in a }))
        for (id, details) in [("wl-on", #"{"waitlist":{"offerMinutes":10}}"#), ("wl-off", "{}")] {
            try app.inventory.addShow(
                Inventory.NewShow(
                    id: id, venueID: venueID, startsAt: "2099-12-01T19:00:00+08:00", prices: prices,
                    policy: SelectionPolicy(maxSeats: 6, noLoneSeat: false), detailsJSON: details))
        }
        let c = try HTTPConnection(port: app.port)
        let rounds = 200
        func sell(_ show: String, _ k: Int) throws {
            let sale = try c.request(
                "POST", "/v1/shows/\(show)/sales", json: #"{"seats":["\#(layout.seatID(k))"],"orderRef":"\#(show)-\#(k)","payment":"cash","force":true}"#,
                headers: admin)
            guard sale.status == 201 else { throw QueueSetupFailed(answer: "sale: \(sale.status) \(sale.text)") }
        }
        func refund(_ show: String, _ k: Int) throws {
            let r = try c.request("POST", "/v1/orders/\(show)-\(k)/refund", json: #"{"reason":"returned"}"#, headers: admin)
            guard r.status == 200 else { throw QueueSetupFailed(answer: "refund: \(r.status) \(r.text)") }
        }
        var offered: [Double] = [], free: [Double] = []
        for k in 0..<rounds {
            // With a waitlist: one in line for any seat, then the refund.
            try sell("wl-on", k)
            let joined = try c.request("POST", "/v1/shows/wl-on/waitlist", json: #"{"count":1}"#)
            guard let entry = (try? JSONParser.parse(joined.body))?.objectValue?["entry"]?.stringValue else {
                throw QueueSetupFailed(answer: "join: \(joined.status) \(joined.text)")
            }
            var start = Date()
            try refund("wl-on", k)
            while (try? JSONParser.parse(c.request("GET", "/v1/waitlist/\(entry)").body))?.objectValue?["state"]?.stringValue != "offered" {
                if Date().timeIntervalSince(start) > 10 { throw QueueSetupFailed(answer: "no offer in 10 s") }
            }
            offered.append(Date().timeIntervalSince(start))
            // Without: the refund, then the seat free in the show's availability.
            try sell("wl-off", k)
            start = Date()
            try refund("wl-off", k)
            while true {
                let text = try c.request("GET", "/v1/shows/wl-off/availability").text
                if let a = try? SeatAvailability(encoded: text, layout: layout), a[k] == .available { break }
                if Date().timeIntervalSince(start) > 10 { throw QueueSetupFailed(answer: "not free in 10 s") }
            }
            free.append(Date().timeIntervalSince(start))
        }
        func p(_ xs: [Double], _ q: Double) -> Double { let s = xs.sorted(); return s[min(s.count - 1, Int(Double(s.count) * q))] }
        report.row(
            "waitlist offer after a refund (POST refund → GET /v1/waitlist/{entry} reads offered), \(rounds) refunds one after another, vs the same refund on a show without a waitlist → the seat free in its availability",
            ours: String(format: "p50 %.1f ms, p99 %.1f ms", p(offered, 0.5) * 1000, p(offered, 0.99) * 1000),
            baseline: String(format: "p50 %.1f ms, p99 %.1f ms", p(free, 0.5) * 1000, p(free, 0.99) * 1000),
            ratio: String(format: "%.2f×", p(offered, 0.99) / max(p(free, 0.99), 1e-6)),
            goal: p(offered, 0.99) <= 5 ? "p99 ≤ 5 s ✓" : "p99 ≤ 5 s ✗")
    }
}
