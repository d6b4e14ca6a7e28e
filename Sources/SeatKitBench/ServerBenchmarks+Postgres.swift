import Foundation
import SeatDomain
import SeatMap
import SeatServer
import SeatStorage
import SharedState

/// The shared store's rows: hold + release on PostgreSQL beside the embedded store (taking turns, the
/// same binary and wrk script), beside `pgbench` running the same commit function on the same batches
/// (the database's own ceiling), and two instances on one database.
extension ServerBenchmarks {
    /// Rounds of SQLite then PostgreSQL: one run's figure moves ±25 % from minute to minute on this
    /// machine, so each store's median of five turns is compared, never a figure from minutes before.
    static let turns = 5

    static func postgresHolds(url: String, sqliteDirectory: URL, report: Report) throws {
        var sqlite: [Wrk.Result] = [], postgres: [Wrk.Result] = [], ceilings: [Double] = []
        var batches = 0, changes = 0, size = 2
        for turn in 0..<turns {
            let embedded = try server(store: "sqlite:" + sqliteDirectory.appendingPathComponent("turn-\(turn).db").path, seed: true)
            if let r = Wrk.run(port: embedded.port, path: "/", connections: 64, seconds: 5, script: Wrk.holdRelease, scriptArguments: ["20", "0", "16"]) {
                sqlite.append(r)
            }
            embedded.stop()
            let shared = try server(store: schemaURL(url, "turn\(turn)"), seed: true)
            if let r = Wrk.run(port: shared.port, path: "/", connections: 64, seconds: 5, script: Wrk.holdRelease, scriptArguments: ["20", "0", "16"]) {
                postgres.append(r)
            }
            if let store = shared.inventory.store as? PostgresStore {
                batches += store.written.batches
                changes += store.written.changes
            }
            shared.stop()
            // The database's ceiling in the same turn: pgbench, one client (the server's writer commits on
            // one connection at a time), the same function on batches of the server's mean size so far,
            // half holds and half releases. A ceiling measured once, minutes from the server's turns, read
            // 0.90–1.08× of them across runs: it takes turns and its median is compared, as the stores' are.
            size = max(2, changes / max(batches, 1))
            if let ceiling = try pgbenchHolds(url: schemaURL(url, "pgbench\(turn)"), pairsPerBatch: max(1, size / 2), seconds: 5) { ceilings.append(ceiling) }
        }
        func median(_ results: [Wrk.Result]) -> Wrk.Result? {
            results.sorted { $0.holds * 1000 / Int($0.seconds) < $1.holds * 1000 / Int($1.seconds) }.dropFirst(results.count / 2).first
        }
        guard let s = median(sqlite), let p = median(postgres) else { return }
        let sRate = Double(s.holds) / s.seconds, pRate = Double(p.holds) / p.seconds
        report.row(
            "hold + release, PostgreSQL store, one instance, 64 connections, wrk (median of \(turns) turns) vs the SQLite store taking turns with it",
            ours: String(format: "%.0f holds/s, p99 %.1f ms", pRate, p.p99 * 1000), baseline: String(format: "%.0f holds/s, p99 %.1f ms", sRate, s.p99 * 1000),
            ratio: String(format: "%.2f×", pRate / sRate), goal: pRate >= 0.6 * sRate ? "≥ 0.6× ✓" : "≥ 0.6× ✗")
        if !ceilings.isEmpty {
            let ceiling = ceilings.sorted()[ceilings.count / 2]
            report.row(
                "hold + release, PostgreSQL store (as above) vs pgbench: seatkit_write on batches of \(size / 2) holds then their \(size / 2) releases (the server's mean batch, \(size) changes), one client, median of \(ceilings.count) turns taken with the stores'",
                ours: String(format: "%.0f holds/s", pRate), baseline: String(format: "%.0f holds/s", ceiling),
                ratio: String(format: "%.2f×", pRate / ceiling), goal: pRate >= 0.9 * ceiling ? "within 10 % ✓" : "within 10 % ✗")
        }
        // The waiting room's joins on the shared store (each decision locks the room's row).
        let queued = try server(store: schemaURL(url, "queue"), seed: true)
        try queueRates(app: queued, report: report, store: "PostgreSQL", polls: false)
        queued.stop()
        let first = try server(store: schemaURL(url, "two"), seed: true)
        defer { first.stop() }
        let second = try server(store: schemaURL(url, "two"), seed: false)
        defer { second.stop() }
        let results = Locked([Wrk.Result]())
        let group = DispatchGroup()
        for (k, app) in [first, second].enumerated() {
            group.enter()
            Thread.detachNewThread {
                if let r = Wrk.run(
                    port: app.port, path: "/", connections: 32, seconds: 5, script: Wrk.holdRelease, scriptArguments: ["20", String(k * 8), "8"])
                {
                    results.withLock { $0.append(r) }
                }
                group.leave()
            }
        }
        group.wait()
        if results.current.count == 2 {
            let holds = results.current.reduce(0.0) { $0 + Double($1.holds) / $1.seconds }, p99 = results.current.map(\.p99).max() ?? 0
            report.figure(
                "hold + release, PostgreSQL store, two instances on one database, 32 connections each, wrk",
                value: String(format: "%.0f holds/s, p99 %.1f ms (%.2f× the SQLite median above)", holds, p99 * 1000, holds / sRate), goal: "report")
        }
    }

    /// pgbench against a fresh store in `url`'s schema: each transaction one `seatkit_write`
    /// call with `pairs` new holds of 1–4 seats (as wrk's), then one with their releases, the columns as
    /// the server sends them (as literals: pgbench sends text, so the database parses what the server
    /// sends it in binary). (Built by the database from pgbench's variables instead, the JSON took 3.0 of the
    /// 7.0 ms a transaction: a ceiling that low flattered the server.)
    static func pgbenchHolds(url: String, pairsPerBatch pairs: Int, seconds: Int) throws -> Double? {
        guard let pgbench = ["/usr/bin/pgbench", "/usr/local/bin/pgbench"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        // The store made by the server (its migrations, the bench show), then pgbench on its schema.
        let app = try server(store: url, seed: true)
        app.stop()
        guard let parts = URLComponents(string: url), let schema = parts.queryItems?.first(where: { $0.name == "schema" })?.value else { return nil }
        var plain = parts
        plain.queryItems = nil
        // The batches as the server writes them (`PostgresStore.writeCall`), with pgbench's `:run` in
        // every id and token so each transaction's holds are new; the same seats each time (released
        // by the second statement).
        func batch(_ state: HoldState) -> String {
            let commits = (0..<pairs).map { g -> StoreCommit in
                let id = "pb:run-\(g)", seats = (0...(g % 4)).map { 100 + 4 * g + $0 }
                let record = HoldRecord(
                    id: id, tokenDigest: "tk:run-\(g)-0123456789abcdef0123456789abcdef", showID: "bench", state: state, expiresAt: 4_102_444_800_000,
                    extended: false, orderRef: nil, wheelchair: false, createdAt: 1, prices: #"{"lower":"580"}"#)
                let changes = seats.map { SeatChange(seat: $0, status: state == .active ? .held : .available) }
                return StoreCommit(
                    showID: "bench", version: 0, changes: changes, insert: state == .active ? seats.map { Claim(seat: $0, status: .held, holdID: id) } : [],
                    delete: state == .active ? [] : seats, sell: [], holds: [record], delta: "", durable: false, idempotency: nil,
                    log: LogEntry(action: state == .active ? "hold" : "release", holdID: id))
            }
            return PostgresStore.writeCall(commits, durable: false)
        }
        let script = "\\set run random(1, 1000000000000)\n\(batch(.active))\n\(batch(.released))\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-pgbench-\(getpid()).sql")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pgbench)
        process.arguments = ["-n", "-M", "simple", "-c", "1", "-T", String(seconds), "-f", file.path, plain.string ?? url]
        var environment = ProcessInfo.processInfo.environment
        environment["PGOPTIONS"] = "-c search_path=\(schema)"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "tps = 123.4 (without initial connection time)": one transaction is a batch of holds and its releases.
        guard process.terminationStatus == 0, let line = text.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
            let tps = Double(line.dropFirst(6).prefix(while: { $0 != " " }))
        else {
            FileHandle.standardError.write(Data("pgbench failed:\n\(text)\n".utf8))
            return nil
        }
        return tps * Double(pairs)
    }
}
