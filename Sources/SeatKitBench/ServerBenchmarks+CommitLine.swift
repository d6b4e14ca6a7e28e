import Foundation
import SeatDomain
import SeatInventory
import SeatMap
import SeatSamples
import SeatServer
import SeatStorage
import SharedState

/// Where two shards' extra cost goes below capacity (#29 item 5). The database's CPU a hold, measured
/// in place (every PostgreSQL process, `/proc`), against the commits a hold: one shard at 4 to 96
/// connections a show gives batches of 4 to 47 changes and a line, CPU a hold = a part a hold + a fixed
/// part a commit × commits a hold. Two shards at 8 and 32 a show are then read against that line: on
/// it, spreading costs exactly the commits it adds (their batches are smaller) and nothing else.
/// Not in `make bench`: single 5 s points moved ±25 % between runs on 2026-12-05 (the one shard's line
/// too), and two shards read 0.91-1.39× their place on it. With both shards schemas of one cluster their
/// two writers also queue for PostgreSQL's cluster-wide lock on NOTIFY's queue (`Lock:object` in 11 of
/// 80 samples of pg_stat_activity), which two machines would not share:
/// SEATKIT_BENCH_SECOND_POSTGRES puts the second shard on another cluster.
extension ServerBenchmarks {
    static var secondCluster: String? { ProcessInfo.processInfo.environment["SEATKIT_BENCH_SECOND_POSTGRES"] }

    struct CommitPoint {
        var holdsPerSecond: Double
        var changesPerBatch: Double
        var server: Double
        var database: Double
        /// Two changes a hold (the hold, then its release).
        var commitsPerHold: Double { 2 / changesPerBatch }
    }

    /// One 5 s run: the arena's two shows, a wrk a show at `connections`, on `shardCount` shards.
    static func commitPoint(url: String, connections: Int, shardCount: Int) throws -> CommitPoint? {
        let list = try ShardList(
            entries: (0..<shardCount).map {
                // SEATKIT_BENCH_SECOND_POSTGRES: the second shard on a cluster of its own, as on a machine of its own.
                .init(name: "s\($0 + 1)", url: schemaURL($0 == 1 ? secondCluster ?? url : url, "line\(connections)_\(shardCount)_\($0)"))
            })
        var options = benchOptions(SeatServerApp.Options(adminKey: "bench-admin-key-0123456789"))
        options.shards = list
        let app = try SeatServerApp(options: options)
        let venue = SampleVenues.arena(seats: 20_000)
        try app.inventory.addVenue(venue)
        for (k, show) in ["bench", "bench2"].enumerated() {
            try app.inventory.addShow(
                Inventory.NewShow(
                    id: show, venueID: venue.id, startsAt: "2099-12-01T19:00:00+08:00", prices: PriceTable(categoryPrices: ["lower": 580, "upper": 380]),
                    policy: SelectionPolicy(maxSeats: 6, noLoneSeat: false), shard: "s\(k % shardCount + 1)"))
        }
        try app.start()
        let before = cpuSeconds()
        let written = (app.inventory.store as? ShardedStore)?.written ?? (batches: 0, changes: 0)
        let results = Locked([Wrk.Result]())
        let group = DispatchGroup()
        for show in ["bench", "bench2"] {
            group.enter()
            Thread.detachNewThread {
                if let r = Wrk.run(
                    port: app.port, path: "/", connections: connections, seconds: 5, script: Wrk.holdRelease, scriptArguments: ["20", "0", "16", show])
                {
                    results.withLock { $0.append(r) }
                }
                group.leave()
            }
        }
        group.wait()
        let after = cpuSeconds()
        let now = (app.inventory.store as? ShardedStore)?.written ?? (batches: 0, changes: 0)
        app.stop()
        let holds = results.current.reduce(0.0) { $0 + Double($1.holds) }
        guard results.current.count == 2, holds > 0, now.batches > written.batches else { return nil }
        return CommitPoint(
            holdsPerSecond: results.current.reduce(0.0) { $0 + Double($1.holds) / $1.seconds },
            changesPerBatch: Double(now.changes - written.changes) / Double(now.batches - written.batches),
            server: (after.server - before.server) / holds * 1e6, database: (after.database - before.database) / holds * 1e6)
    }

    static func commitLine(url: String, report: Report) throws {
        var one: [CommitPoint] = []
        for connections in [4, 8, 16, 32, 96] {
            if let p = try commitPoint(url: url, connections: connections, shardCount: 1) { one.append(p) }
        }
        guard one.count >= 3 else { return }
        // Least squares through one shard's points, for the database and for the server.
        func line(_ value: (CommitPoint) -> Double) -> (perHold: Double, perCommit: Double) {
            let xs = one.map(\.commitsPerHold), ys = one.map(value), n = Double(one.count)
            let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
            let slope = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) } / xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
            return (my - slope * mx, slope)
        }
        let database = line(\.database), server = line(\.server)
        let points = one.map { String(format: "%.1f changes a batch: %.0f µs", $0.changesPerBatch, $0.database) }.joined(separator: ", ")
        report.row(
            "the database's CPU a hold against commits a hold, one shard, 4 to 96 connections a show (least squares through \(points)); the server's in the same runs",
            ours: String(
                format: "database %.0f µs a hold + %.0f µs a commit; server %.0f + %.0f", database.perHold, database.perCommit, server.perHold, server.perCommit
            ),
            baseline: "", ratio: "", goal: "report")
        for connections in [8, 32] {
            guard let p = try commitPoint(url: url, connections: connections, shardCount: 2) else { continue }
            let expected = database.perHold + database.perCommit * p.commitsPerHold
            report.row(
                String(
                    format:
                        "two shards at %d connections a show (%.1f changes a batch, %.0f holds/s): the database's CPU a hold measured vs one shard's line at its commits a hold",
                    connections, p.changesPerBatch, p.holdsPerSecond),
                ours: String(format: "%.0f µs", p.database), baseline: String(format: "%.0f µs", expected),
                ratio: String(format: "%.2f×", p.database / expected),
                goal: "report")
        }
    }
}
