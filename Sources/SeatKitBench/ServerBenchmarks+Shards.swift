import Foundation
import SeatDomain
import SeatInventory
import SeatMap
import SeatSamples
import SeatServer
import SeatStorage
import SharedState

/// Two shards against one (#29 item 5): the same two shows, the same two wrk processes (one a show), on
/// a server whose store is one shard and on one whose shows are on two shards. Both shards are schemas
/// of the one benchmark cluster: on one machine the databases share its cores either way, so the row
/// says what the spreading itself costs (routing, a batch split and committed in parallel, two
/// listeners), not what a second machine would add. SEATKIT_BENCH_SECOND_POSTGRES puts the second
/// shard on a cluster of its own (two writers on one cluster also queue for its lock on NOTIFY's queue).
extension ServerBenchmarks {
    /// SEATKIT_BENCH_SECOND_POSTGRES: a second cluster, for the second shard, as on a machine of its own.
    static var secondCluster: String? { ProcessInfo.processInfo.environment["SEATKIT_BENCH_SECOND_POSTGRES"] }

    /// The two rows, at two loads: 32 connections a show, where the closed loop's rate is set by latency and the
    /// machine keeps about a fifth of its CPU idle (`perf`: 19-21 % idle), and 96 a show, where one
    /// shard is at its capacity on this machine (3,400, 3,800 and 2,900 holds/s at 32, 96 and 160 a
    /// show on 2026-12-05). Each row also gives the CPU a hold of the server's process and of every
    /// PostgreSQL process (`/proc`, reaped backends included), which say where spreading costs.
    static func shardedHolds(url: String, report: Report) throws {
        // Eight turns below capacity, where the ratio sits near the floor and single 5 s runs move ±25 %
        // (medians of 4 read 0.87-1.03× in four runs of one afternoon); four at capacity.
        for (connections, turns, load) in [(32, 8, "32 connections a show (below capacity)"), (96, 4, "96 connections a show (one shard at capacity)")] {
            try shardedHolds(url: url, connections: connections, turns: turns, load: load, report: report)
        }
    }

    /// One row: `connections` a show for each of the two wrk processes.
    static func shardedHolds(url: String, connections: Int, turns: Int, load: String, report: Report) throws {
        var one: [Double] = [], two: [Double] = [], p99s: [Double] = []
        var cpuOne: [(server: Double, database: Double)] = [], cpuTwo: [(server: Double, database: Double)] = []
        // A warm-up run, not counted, then the two take turns, each first in half the turns: the first
        // run of a process read 10-30% faster than the ones after it whatever its shard count (6,419
        // then 4,915 and 4,935 holds/s on one shard), which gave the one shard the advantage.
        for turn in -1..<turns {
            for shardCount in turn < 0 ? [1] : turn % 2 == 0 ? [1, 2] : [2, 1] {
                guard let run = try shardRun(url: url, schema: "shard\(connections)_\(turn)", connections: connections, shardCount: shardCount),
                    turn >= 0
                else { continue }
                let (rate, cpu) = (run.holdsPerSecond, (server: run.server, database: run.database))
                FileHandle.standardError.write(
                    Data(
                        String(
                            format: "shards %d, %d a show, turn %d: %.0f holds/s, %.1f changes a commit, CPU a hold %.0f + %.0f µs\n", shardCount, connections,
                            turn, rate, run.changesPerBatch, run.server, run.database
                        ).utf8))
                if shardCount == 1 {
                    one.append(rate)
                    cpuOne.append(cpu)
                } else {
                    two.append(rate)
                    cpuTwo.append(cpu)
                    p99s.append(run.p99)
                }
            }
        }
        guard !one.isEmpty, !two.isEmpty else { return }
        func median(_ xs: [Double]) -> Double {
            let s = xs.sorted()
            return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
        let (o, t) = (median(one), median(two))
        let cpu = String(
            format: "; CPU a hold, server + database: %.0f + %.0f µs on two, %.0f + %.0f µs on one", median(cpuTwo.map(\.server)),
            median(cpuTwo.map(\.database)), median(cpuOne.map(\.server)), median(cpuOne.map(\.database)))
        report.row(
            "hold + release on two shows, two wrk of \(load), the shows on two PostgreSQL shards\(secondCluster == nil ? "" : " (the second on a cluster of its own)") vs both on one shard, after a warm-up, taking turns (each first in half), medians of \(one.count)\(cpu)",
            ours: String(format: "%.0f holds/s, p99 %.1f ms", t, median(p99s) * 1000), baseline: String(format: "%.0f holds/s", o),
            ratio: String(format: "%.2f×", t / o), goal: t >= 0.9 * o ? "≥ 0.9× ✓" : "≥ 0.9× ✗")
    }
}

extension ServerBenchmarks {
    /// One 5 s run of hold + release: the arena's two shows, a wrk a show at `connections`, on
    /// `shardCount` shards (schemas named from `schema`); nil when a wrk gave nothing.
    struct ShardRun {
        var holdsPerSecond: Double
        /// The slower wrk's p99, in seconds.
        var p99: Double
        var changesPerBatch: Double
        /// CPU a hold, µs: the server's process and every PostgreSQL process.
        var server: Double
        var database: Double
        /// Two changes a hold (the hold, then its release).
        var commitsPerHold: Double { 2 / changesPerBatch }
    }

    static func shardRun(url: String, schema: String, connections: Int, shardCount: Int) throws -> ShardRun? {
        let list = try ShardList(
            entries: (0..<shardCount).map {
                .init(name: "s\($0 + 1)", url: schemaURL($0 == 1 ? secondCluster ?? url : url, "\(schema)_\(shardCount)_\($0)"))
            })
        var options = benchOptions(SeatServerApp.Options(adminKey: "bench-admin-key-0123456789"))
        options.shards = list
        // SEATKIT_BENCH_NO_GATHER: the writer lanes commit at once, as before 2026-12-05 (the comparison).
        if ProcessInfo.processInfo.environment["SEATKIT_BENCH_NO_GATHER"] != nil { options.commitGatherSeconds = 0 }
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
        let store = app.shards
        let written = store?.written ?? (batches: 0, changes: 0)
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
        let now = store?.written ?? (batches: 0, changes: 0)
        app.stop()
        let after = cpuSeconds(), holds = results.current.reduce(0.0) { $0 + Double($1.holds) }
        guard results.current.count == 2, holds > 0 else { return nil }
        return ShardRun(
            holdsPerSecond: results.current.reduce(0.0) { $0 + Double($1.holds) / $1.seconds }, p99: results.current.map(\.p99).max() ?? 0,
            changesPerBatch: Double(now.changes - written.changes) / Double(max(1, now.batches - written.batches)),
            server: (after.server - before.server) / holds * 1e6, database: (after.database - before.database) / holds * 1e6)
    }
}
