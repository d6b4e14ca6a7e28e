import Foundation
import SeatServer

#if canImport(Glibc)
import Glibc
#endif

/// The per-hold costs the capacity model of docs/DEPLOY.md is built from (#29 item 5): what one commit
/// costs the database (a fixed part and a part a change), and what following another instance's
/// changes costs an instance.
extension ServerBenchmarks {
    /// `seatkit_write` alone (pgbench, one client) on batches of 1, 4 and 16 holds then their
    /// releases: the time a commit, and the line through the smallest and largest batches (what a
    /// commit costs whatever its size, and what each change adds).
    static func commitCosts(url: String, report: Report) throws {
        var perCommit: [Int: Double] = [:]
        for pairs in [1, 4, 16] {
            // A pgbench transaction is two commits of `pairs` changes each (the holds, then their releases).
            guard let holdsPerSecond = try pgbenchHolds(url: schemaURL(url, "costs\(pairs)"), pairsPerBatch: pairs, seconds: 4) else { return }
            perCommit[pairs] = 1_000_000 / (holdsPerSecond / Double(pairs) * 2)
        }
        guard let small = perCommit[1], let large = perCommit[16] else { return }
        let perChange = (large - small) / 15, fixed = small - perChange
        report.row(
            "a commit (seatkit_write, pgbench, one client, batches of 1, 4 and 16 holds then their releases, sent as SQL text whose ROW constructors are parsed each call, where the server binds the binary format): its fixed part and each change's (the line through 1 and 16; 4 took \(Int(perCommit[4] ?? 0)) µs)",
            ours: String(format: "%.0f µs a commit + %.1f µs a change", fixed, perChange), baseline: "", ratio: "", goal: "report")
    }

    /// An instance following another's writes on the same store (as every instance follows every shard):
    /// the writing instance under wrk's hold + release alone, then with a second instance following it;
    /// the process's CPU a change, the difference being the follower's (LISTEN, the deltas applied to
    /// memory, its subscribers told). Taking turns, medians of 3.
    static func followerCost(url: String, report: Report) throws {
        var alone: [Double] = [], followed: [Double] = []
        for turn in 0..<3 {
            for following in turn % 2 == 0 ? [false, true] : [true, false] {
                let store = schemaURL(url, "follow\(turn)_\(following ? 1 : 0)")
                let writer = try server(store: store, seed: true)
                let follower = following ? try server(store: store, seed: false) : nil
                let before = cpuSeconds().server
                let result = Wrk.run(
                    port: writer.port, path: "/", connections: 32, seconds: 5, script: Wrk.holdRelease, scriptArguments: ["20", "0", "16", "bench"])
                let used = cpuSeconds().server - before
                writer.stop()
                follower?.stop()
                guard let result, result.holds > 0 else { continue }
                // A hold and its release: two changes.
                let perChange = used / Double(result.holds * 2) * 1_000_000
                if following { followed.append(perChange) } else { alone.append(perChange) }
            }
        }
        guard !alone.isEmpty, !followed.isEmpty else { return }
        let (a, f) = (alone.sorted()[alone.count / 2], followed.sorted()[followed.count / 2])
        report.row(
            "instance CPU a change (hold or release) with a second instance following the writes vs the writer alone; the difference is what following costs, taking turns, medians of \(alone.count)",
            ours: String(format: "%.1f µs (the follower: %.1f µs)", f, f - a), baseline: String(format: "%.1f µs", a), ratio: String(format: "%.2f×", f / a),
            goal: "report")
    }

    /// This process's CPU (the server's: wrk runs apart) and every PostgreSQL process's, in seconds. A
    /// backend that has ended is counted in its postmaster's children's time once reaped.
    static func cpuSeconds() -> (server: Double, database: Double) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let server = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        var database = 0.0
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(pid) != nil {
            guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8), name.hasPrefix("postgres") else { continue }
            database += ProcessMemory.cpuSeconds(process: pid, withReapedChildren: true) ?? 0
        }
        return (server, database)
    }
}
