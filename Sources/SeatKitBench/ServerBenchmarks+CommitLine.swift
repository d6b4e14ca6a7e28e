import Foundation

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
    static func commitLine(url: String, report: Report) throws {
        var one: [ShardRun] = []
        for connections in [4, 8, 16, 32, 96] {
            if let p = try shardRun(url: url, schema: "line\(connections)", connections: connections, shardCount: 1) { one.append(p) }
        }
        guard one.count >= 3 else { return }
        // Least squares through one shard's points, for the database and for the server.
        func line(_ value: (ShardRun) -> Double) -> (perHold: Double, perCommit: Double) {
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
            guard let p = try shardRun(url: url, schema: "line\(connections)", connections: connections, shardCount: 2) else { continue }
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
