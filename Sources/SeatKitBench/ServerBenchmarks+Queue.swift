import Foundation
import LoopbackHTTP
import SeatInventory
import SeatJSON
import SeatMap
import SeatServer

/// The waiting room's rows (#28): joins (each a decision under the room's lock in the store) beside the
/// cheapest POST the server answers, and a waiting page's poll (from memory) beside the cached
/// availability GET, each pair measured back to back on the same server.
extension ServerBenchmarks {
    static func queueRates(app: SeatServerApp, report: Report, store: String = "SQLite", polls: Bool = true) throws {
        let admin = [("X-Admin-Key", "bench-admin-key-0123456789")]
        let c = try HTTPConnection(port: app.port)
        for show in ["rush-joins", "rush-polls"] {
            try app.inventory.addShow(
                Inventory.NewShow(
                    id: show, venueID: "arena-20000", startsAt: "2099-12-01T21:00:00+08:00",
                    prices: PriceTable(categoryPrices: ["lower": 580, "upper": 380])))
            // Open a second ago: every join is a later arrival, placed in order (the common case).
            let opens = Timestamp.text(Int64(Date().timeIntervalSince1970 * 1000) - 1_000)
            let settings =
                #"{"opensAt":"\#(opens)","admitPerMinute":60,"earlyMinutes":0,"admissionMinutes":10,"maxEntriesPerAddress":1,"maxEntriesPerNetwork":100000,"maxJoinsPerSecond":1000000}"#
            let r = try c.request("PUT", "/v1/shows/\(show)/queue", json: settings, headers: admin)
            guard r.status == 200 else { throw QueueSetupFailed(answer: "queue for \(show): \(r.status) \(r.text)") }
        }
        if let refused = Wrk.run(port: app.port, path: "/v1/shows/none/holds", connections: 64, seconds: 4, script: Wrk.refusedPost),
            let joins = Wrk.run(port: app.port, path: "/v1/shows/rush-joins/queue", connections: 64, seconds: 4, script: Wrk.queueJoin)
        {
            let perSecond = Double(joins.holds) / joins.seconds
            report.row(
                "waiting-room joins, 64 connections, wrk, each from its own address (decided together under the room's lock in the store, \(store)) vs a POST refused at once",
                ours: String(format: "%.0f joins/s, p99 %.1f ms", perSecond, joins.p99 * 1000),
                baseline: String(format: "%.0f req/s, p99 %.1f ms", refused.requestsPerSecond, refused.p99 * 1000),
                ratio: String(format: "%.2f×", perSecond / refused.requestsPerSecond), goal: "report")
        }
        guard polls else { return }
        if let plain = Wrk.run(port: app.port, path: "/v1/shows/bench/availability", connections: 64, seconds: 4, script: nil),
            let polls = Wrk.run(port: app.port, path: "/v1/shows/rush-polls/queue", connections: 64, seconds: 4, script: Wrk.queuePoll)
        {
            let perSecond = Double(polls.holds) / polls.seconds
            report.row(
                "waiting-room polls (GET /v1/queue/{entry}, answered from memory), 64 connections, wrk vs the availability GET (cached encoding)",
                ours: String(format: "%.0f polls/s, p99 %.1f ms", perSecond, polls.p99 * 1000),
                baseline: String(format: "%.0f req/s, p99 %.1f ms", plain.requestsPerSecond, plain.p99 * 1000),
                ratio: String(format: "%.2f×", perSecond / plain.requestsPerSecond), goal: "report")
        }
    }
}

struct QueueSetupFailed: Error {
    let answer: String
}
