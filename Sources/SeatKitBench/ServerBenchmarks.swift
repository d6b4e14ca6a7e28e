#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LoopbackHTTP
import SeatDomain
import SeatJSON
import SeatSamples
import SeatMap
import SeatServer
import SeatStorage
import SharedState
import SeatInventory

/// `SeatKitBench server`: the server under load from this machine, beside redis-benchmark's SET.
enum ServerBenchmarks {
    static func run(report: Report) throws {
        raiseFileLimit()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-bench-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        if let redis = redisSetPerSecond() {
            report.figure("redis-benchmark -t set (reference: one lock operation)", value: String(format: "%.0f SET/s", redis), goal: "reference")
        } else {
            report.notes.append("redis-server / redis-benchmark not installed: reference row skipped (make bench installs them).")
        }

        let app = try server(dir.appendingPathComponent("holds.db").path, groupCommit: true)
        defer { app.stop() }
        let layout = app.inventory.venueEntryLayout("arena-20000")!

        // 1. Hold + release on distinct seats, 64 connections; 2. availability GET. With wrk when installed.
        if Wrk.available {
            let rows = 20
            let held = Wrk.run(port: app.port, path: "/", connections: 64, seconds: 5, script: Wrk.holdRelease, scriptArguments: [String(rows)])
            // Baselines in the same run: the same load on a server whose store writes nothing, and
            // the cheapest POST the server answers (refused at once), i.e. what is left for storage.
            let noStore = try server(store: WritesNothingStore(path: dir.appendingPathComponent("nothing.db").path))
            let ceiling = Wrk.run(port: noStore.port, path: "/", connections: 64, seconds: 5, script: Wrk.holdRelease, scriptArguments: [String(rows)])
            let refused = Wrk.run(port: noStore.port, path: "/v1/shows/none/holds", connections: 64, seconds: 4, script: Wrk.refusedPost)
            noStore.stop()
            if let r = held {
                let perSecond = Double(r.holds) / r.seconds
                let ceilingPerSecond = ceiling.map { Double($0.holds) / $0.seconds }
                report.row(
                    "hold + release of 1–4 seats, 64 connections, wrk (holds/s; p99 of all requests) vs the same server whose store writes nothing",
                    ours: String(format: "%.0f holds/s (%.0f req/s), p99 %.1f ms", perSecond, r.requestsPerSecond, r.p99 * 1000),
                    baseline: ceiling.map {
                        String(format: "%.0f holds/s (%.0f req/s), p99 %.1f ms", Double($0.holds) / $0.seconds, $0.requestsPerSecond, $0.p99 * 1000)
                    } ?? "",
                    ratio: ceilingPerSecond.map { String(format: "%.2f×", perSecond / $0) } ?? "",
                    goal: perSecond >= 20_000 && r.p99 <= 0.01 ? "≥ 20000/s, ≤ 10 ms ✓" : "≥ 20000/s, ≤ 10 ms ✗")
            }
            if let r = refused {
                report.figure(
                    "a POST refused at once (404 problem), 64 connections, wrk: the HTTP path alone",
                    value: String(format: "%.0f req/s, p99 %.1f ms", r.requestsPerSecond, r.p99 * 1000), goal: "report")
            }
            // Reads that once took the inventory lock across a store read: four clients looping on
            // `?since=` beside the same wrk load.
            if held != nil {
                let answered = Locked([Int]())
                if let (r, plain) = bracketed(app, rows: rows, sinceLoopers(port: app.port, answered: answered)) {
                    let ok = Double(r.holds) >= 0.9 * Double(plain.holds)
                    besideRow(
                        report,
                        "hold + release as above, while 4 clients loop on ?since= 1,000 versions back (\(answered.current.reduce(0, +)) answers) vs without them just before and after",
                        r, plain, goal: ok ? "within 10 % ✓" : "within 10 % ✗")
                }
                // The viewers of a popular show on their own connection budget: 10,000 event streams open
                // while the 64 buyers hold and release, each run on a fresh server.
                try holdsBesideViewers(dir: dir, report: report)
            }
            if let r = Wrk.run(port: app.port, path: "/v1/shows/bench/availability", connections: 64, seconds: 4, script: nil) {
                report.figure(
                    "availability GET (cached encoding), 64 connections, wrk",
                    value: String(format: "%.0f req/s, p99 %.1f ms", r.requestsPerSecond, r.p99 * 1000),
                    goal: r.requestsPerSecond >= 60_000 ? "≥ 60000/s ✓" : "≥ 60000/s ✗")
            }
            try queueRates(app: app, report: report)
            try proofOfWorkRates(app: app, report: report)
            try doorRates(app: app, report: report, holdsPerSecond: held.map { Double($0.holds) / $0.seconds })
        }
        if Wrk.available,
            let postgres = ProcessInfo.processInfo.environment["SEATKIT_BENCH_POSTGRES"] ?? ProcessInfo.processInfo.environment["SEATKIT_TEST_POSTGRES"]
        {
            try postgresHolds(url: postgres, sqliteDirectory: dir, report: report)
            try shardedHolds(url: postgres, report: report)
            try commitCosts(url: postgres, report: report)
            try followerCost(url: postgres, report: report)
        } else {
            report.notes.append("No PostgreSQL for the run (scripts/benchmarks.sh starts one; or set SEATKIT_BENCH_POSTGRES): shared-store rows skipped.")
        }
        // General admission (#53): places held on one 10,000-place area beside seats held.
        try areaRates(dir: dir, report: report)
        try stadiumReads(dir: dir, report: report)
        try realNameRates(dir: dir, report: report)
        try waitlistDelays(dir: dir, report: report)
        // Money online (#52): the hold path beside 100 webhook endpoints, paid orders on both stores.
        try paymentRates(
            dir: dir, postgres: ProcessInfo.processInfo.environment["SEATKIT_BENCH_POSTGRES"] ?? ProcessInfo.processInfo.environment["SEATKIT_TEST_POSTGRES"],
            report: report)
        let holds = load(port: app.port, connections: 64, seconds: 4) { c, worker, n in
            let row = layout.rows[(worker * 7) % layout.rows.count]
            let count = 1 + n % 4
            let start = row.seats.lowerBound + (n * 5) % max(row.seats.count - count, 1)
            let body = "{\"seats\":[" + (start..<min(start + count, row.seats.upperBound)).map { "\"\(layout.seatID($0))\"" }.joined(separator: ",") + "]}"
            return try timedHold(c, show: "bench", body)
        }
        report.figure(
            "hold + release, 64 connections, Swift client threads in the same process (holds/s, hold p99)",
            value: String(format: "%.0f holds/s, p99 %.1f ms", holds.perSecond, holds.p99 * 1000), goal: "report")

        let ceiling = try storeCeiling(dir.appendingPathComponent("ceiling.db").path)
        report.figure(
            "the SQLite store alone: hold + release commits in batches of 64 (the writer thread's ceiling)",
            value: String(format: "%.0f holds/s", ceiling), goal: "report")

        // 3. Durable confirmations, with and without group commit.
        // Each confirmation sells two seats for good: a 100k-seat arena, and every (worker, n) its own
        // pair, so the figure is the server's and not the venue running out of seats.
        let bigArena = SampleVenues.arena(seats: 100_000)
        let pairs = bigArena.rows.flatMap { row in stride(from: row.seats.lowerBound, to: row.seats.upperBound - 1, by: 2).map { ($0, $0 + 1) } }
        for group in [true, false] {
            let confirmApp = try server(
                store: "sqlite:" + dir.appendingPathComponent("confirm-\(group).db").path, groupCommit: group, seed: true, venue: bigArena)
            let r = load(port: confirmApp.port, connections: 64, seconds: 3) { c, worker, n in
                guard n * 64 + worker < pairs.count else { return nil }
                let (first, second) = pairs[n * 64 + worker]
                let body = "{\"seats\":[\"\(bigArena.seatID(first))\",\"\(bigArena.seatID(second))\"]}"
                guard let token = (try? JSONParser.parse(try c.request("POST", "/v1/shows/bench/holds", json: body).body))?.objectValue?["token"]?.stringValue
                else { return nil }
                let t0 = DispatchTime.now().uptimeNanoseconds
                let done = try c.request("POST", "/v1/holds/\(token)/confirm", json: "{\"orderRef\":\"b-\(worker)-\(n)\"}")
                return done.status == 200 ? Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9 : nil
            }
            confirmApp.stop()
            report.figure(
                "durable confirmations (hold, then confirm), 64 connections, \(group ? "one fdatasync of the log per batch" : "synchronous=FULL on each batch's commit")",
                value: String(format: "%.0f confirms/s, p99 %.1f ms", r.perSecond, r.p99 * 1000), goal: "report")
        }

        // 4. 1,000 event-stream subscribers while holds run: delivery delay.
        let delays = try sseDelays(app: app, layout: layout, subscribers: 1000, holds: 300)
        report.figure(
            "1,000 SSE subscribers on one show, 300 holds: delivery delay (from request sent to event received)",
            value: String(
                format: "p50 %.1f ms, p99 %.1f ms, %d deliveries of %.0f events", delays.p50 * 1000, delays.p99 * 1000, delays.count, delays.perSecond),
            goal: "report")
        // 5. 10,000 subscribers (#28: a seat change reaches them with p99 ≤ 500 ms on this machine).
        try wideDelivery(app: app, report: report)
    }

    /// 10,000 subscribers on the show, 100 holds 20 ms apart: how long a change takes to reach them.
    static func wideDelivery(app: SeatServerApp, report: Report) throws {
        let layout = app.inventory.venueEntryLayout("arena-20000")!
        if let wide = try sseDelaysInAnotherProcess(app: app, layout: layout, subscribers: 10_000, holds: 100) {
            report.figure(
                "10,000 SSE subscribers on one show (their sockets in another process), 100 holds 20 ms apart: delivery delay",
                value: String(
                    format: "p50 %.1f ms, p99 %.1f ms, all %d deliveries of %.0f events to the %d streams answered", wide.p50 * 1000, wide.p99 * 1000,
                    wide.count, wide.perSecond, wide.streams),
                goal: wide.p99 <= 0.5 ? "p99 ≤ 500 ms ✓" : "p99 ≤ 500 ms ✗")
        }
    }

    /// The store alone: hold-sized commits (hold record, 2 claims, version, event) in batches of 64, as the
    /// writer thread makes them. The ceiling for changes a second, whatever the HTTP layer does.
    static func storeCeiling(_ path: String) throws -> Double {
        let store = try SQLiteStore(path: path)
        let arena = SampleVenues.arena(seats: 20_000)
        try store.insertVenue(id: arena.id, fingerprint: arena.fingerprintHex, layoutJSON: arena.jsonBytes())
        try store.insertShow(
            ShowRecord(id: "bench", venueID: arena.id, startsAt: "2099-12-01T19:00:00+08:00", pricesJSON: "{}", policyJSON: "{}", holdSeconds: 600, version: 0))
        var version: UInt64 = 0
        let batches = 300, perBatch = 64
        let start = DispatchTime.now().uptimeNanoseconds
        for b in 0..<batches {
            var batch: [StoreCommit] = []
            for k in 0..<perBatch {
                version += 1
                let seat = (b * perBatch + k) * 2 % 19_998
                let id = "h\(version)"
                let hold = HoldRecord(
                    id: id, tokenDigest: "t\(version)", showID: "bench", state: .active, expiresAt: 0, extended: false, orderRef: nil, wheelchair: false,
                    createdAt: 0)
                let changes = [SeatChange(seat: seat, status: .held), SeatChange(seat: seat + 1, status: .held)]
                batch.append(
                    StoreCommit(
                        showID: "bench", version: version, changes: changes,
                        insert: changes.map { Claim(seat: $0.seat, status: .held, holdID: id) }, delete: [], sell: [], holds: [hold],
                        delta: AvailabilityDelta(fromVersion: version - 1, toVersion: version, changes: changes).encoded(), durable: false, idempotency: nil))
                // Release it again in the same batch, as hold + release does.
                version += 1
                var released = hold; released.state = .released
                batch.append(
                    StoreCommit(
                        showID: "bench", version: version, changes: changes.map { SeatChange(seat: $0.seat, status: .available) },
                        insert: [], delete: changes.map(\.seat), sell: [], holds: [released],
                        delta: AvailabilityDelta.encoded(from: version - 1, to: version, body: ""), durable: false, idempotency: nil))
            }
            _ = try store.commit(batch: batch)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(batches * perBatch) / seconds
    }

    static func server(_ path: String, groupCommit: Bool) throws -> SeatServerApp {
        try server(store: "sqlite:" + path, groupCommit: groupCommit, seed: true)
    }

    static func server(store: String, groupCommit: Bool = true, seed: Bool, venue: VenueLayout? = nil) throws -> SeatServerApp {
        var options = SeatServerApp.Options(adminKey: "bench-admin-key-0123456789")
        options.store = store
        options.groupCommit = groupCommit
        return try server(SeatServerApp(options: benchOptions(options)), seed: seed, venue: venue)
    }

    /// The bench show on a server over `store` (a baseline store made by the benchmark).
    static func server(store: SeatStore) throws -> SeatServerApp {
        try server(SeatServerApp(options: benchOptions(SeatServerApp.Options(adminKey: "bench-admin-key-0123456789")), store: store), seed: true, venue: nil)
    }

    /// `url` with a fresh schema of its own (`?schema=NAME_PID`): each run's store starts empty.
    static func schemaURL(_ url: String, _ name: String) -> String { url + (url.contains("?") ? "&" : "?") + "schema=\(name)_\(getpid())" }

    static func benchOptions(_ base: SeatServerApp.Options) -> SeatServerApp.Options {
        var options = base
        options.port = 0
        options.holdsPerSecond = 0
        // wrk and the subscribers all come from 127.0.0.1, as through a load balancer.
        options.trustedAddresses = ["127.0.0.1"]
        return options
    }

    static func server(_ app: SeatServerApp, seed: Bool, venue: VenueLayout?) throws -> SeatServerApp {
        guard seed else { try app.start(); return app }
        let venue = venue ?? SampleVenues.arena(seats: 20_000)
        try app.inventory.addVenue(venue)
        try app.inventory.addShow(
            Inventory.NewShow(
                id: "bench", venueID: venue.id, startsAt: "2099-12-01T19:00:00+08:00",
                prices: PriceTable(categoryPrices: ["lower": 580, "upper": 380]),
                policy: SelectionPolicy(maxSeats: 6, noLoneSeat: false)))
        try app.start()
        return app
    }

    struct LoadResult {
        var perSecond: Double
        var p50: Double
        var p99: Double
        var count: Int
        /// Event streams that were answered (the delivery rows).
        var streams = 0
    }

    /// `connections` threads, each with its own keep-alive connection, calling `body` for `seconds`.
    /// `body` returns the latency of the operation that counts (nil: not counted).
    static func load(port: UInt16, connections: Int, seconds: Double, _ body: @escaping @Sendable (HTTPConnection, Int, Int) throws -> Double?) -> LoadResult {
        let latencies = Locked([Double]())
        let group = DispatchGroup()
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        let start = DispatchTime.now().uptimeNanoseconds
        for worker in 0..<connections {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                guard let c = try? HTTPConnection(port: port) else { return }
                var mine: [Double] = []
                var n = 0
                while DispatchTime.now().uptimeNanoseconds < deadline {
                    if let l = try? body(c, worker, n) { mine.append(l) }
                    n += 1
                }
                latencies.withLock { $0.append(contentsOf: mine) }
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
        group.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let sorted = latencies.current.sorted()
        func pct(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return LoadResult(perSecond: Double(sorted.count) / elapsed, p50: pct(0.5), p99: pct(0.99), count: sorted.count)
    }

    /// redis-benchmark's SET against a redis-server this run starts and stops.
    static func redisSetPerSecond() -> Double? {
        let paths = ["/usr/bin/redis-server", "/usr/bin/redis-benchmark"]
        guard paths.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let server = Process()
        server.executableURL = URL(fileURLWithPath: paths[0])
        server.arguments = ["--port", "6399", "--save", "", "--appendonly", "no", "--bind", "127.0.0.1"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        guard (try? server.run()) != nil else { return nil }
        defer { server.terminate(); server.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.5)
        let bench = Process()
        bench.executableURL = URL(fileURLWithPath: paths[1])
        bench.arguments = ["-p", "6399", "-t", "set", "-n", "200000", "-q"]
        let out = Pipe()
        bench.standardOutput = out
        bench.standardError = FileHandle.nullDevice
        guard (try? bench.run()) != nil else { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        bench.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let range = text.range(of: #"SET: [0-9.]+"#, options: .regularExpression) else { return nil }
        return Double(text[range].dropFirst(5))
    }

}
