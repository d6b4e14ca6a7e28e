#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LoopbackHTTP
import SeatSamples
import SeatMap
import SeatServer
import SeatStorage
import SharedState

/// The server benchmark's loads beside hold + release: `?since=` loopers, a viewers process, bracketed
/// baselines; and the file limit they need.
extension ServerBenchmarks {
    /// 10,000 subscribers are 20,000 sockets in this one process (both ends): past the usual hard limit
    /// of 20,000, so as root the hard limit is raised too.
    static func raiseFileLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if getuid() == 0 && limit.rlim_max < 65536 { limit.rlim_max = 65536 }
        limit.rlim_cur = limit.rlim_max
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            limit.rlim_cur = limit.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }

    /// A row of hold + release beside something, with the plain run of the same benchmark as baseline.
    static func besideRow(_ report: Report, _ title: String, _ r: Wrk.Result, _ plain: Wrk.Result, goal: String) {
        let perSecond = Double(r.holds) / r.seconds, plainPerSecond = Double(plain.holds) / plain.seconds
        report.row(
            title, ours: String(format: "%.0f holds/s, p99 %.1f ms", perSecond, r.p99 * 1000),
            baseline: String(format: "%.0f holds/s, p99 %.1f ms", plainPerSecond, plain.p99 * 1000),
            ratio: String(format: "%.2f×", perSecond / plainPerSecond), goal: goal)
    }

    /// Hold + release beside `background`, and its baseline: the plain run just before and just after,
    /// averaged. The store grows with every run (each adds ~70k released holds), so a baseline measured
    /// minutes earlier flattered it by a quarter; bracketing cancels that drift.
    static func bracketed(_ app: SeatServerApp, rows: Int, _ background: (_ stop: Locked<Bool>) -> [Thread]) -> (Wrk.Result, Wrk.Result)? {
        guard let before = holdsBeside(app, rows: rows, { _ in [] }), let r = holdsBeside(app, rows: rows, background),
            let after = holdsBeside(app, rows: rows, { _ in [] })
        else { return nil }
        var plain = before
        plain.holds = (before.holds + after.holds) / 2
        plain.p99 = (before.p99 + after.p99) / 2
        plain.requestsPerSecond = (before.requestsPerSecond + after.requestsPerSecond) / 2
        return (r, plain)
    }

    /// Hold + release under wrk while `background` runs beside it (started before wrk, stopped after).
    static func holdsBeside(_ app: SeatServerApp, rows: Int, _ background: (_ stop: Locked<Bool>) -> [Thread]) -> Wrk.Result? {
        let stop = Locked(false)
        let threads = background(stop)
        for t in threads { t.start() }
        Thread.sleep(forTimeInterval: 0.3)
        let r = Wrk.run(port: app.port, path: "/", connections: 64, seconds: 5, script: Wrk.holdRelease, scriptArguments: [String(rows)])
        stop.withLock { $0 = true }
        while threads.contains(where: { !$0.isFinished }) { Thread.sleep(forTimeInterval: 0.01) }
        return r
    }

    /// Four anonymous clients (each its own address) looping on `?since=` a thousand versions back,
    /// as fast as they are answered (429s included: the server limits such deltas per address).
    static func sinceLoopers(port: UInt16, answered: Locked<[Int]>) -> (Locked<Bool>) -> [Thread] {
        { stop in
            (0..<4).map { k in
                Thread {
                    guard let c = try? HTTPConnection(port: port, source: "127.0.0.\(2 + k)") else { return }
                    var n = 0, since: UInt64 = 0, statuses: [Int: Int] = [:]
                    while !stop.current {
                        guard let r = try? c.request("GET", "/v1/shows/bench/availability?since=\(since)") else { break }
                        statuses[r.status, default: 0] += 1
                        if r.status == 200, let to = r.text.split(separator: ";").dropFirst(2).first.flatMap({ UInt64($0) }) {
                            since = to > 1000 ? to - 1000 : 0
                        } else if let v = r.headers["x-availability-version"].flatMap({ UInt64($0) }) {
                            since = v
                        } else if let whole = try? c.request("GET", "/v1/shows/bench/availability"),
                            let v = whole.headers["x-availability-version"].flatMap({ UInt64($0) })
                        {
                            since = v > 1000 ? v - 1000 : 0
                        }
                        n += 1
                    }
                    answered.withLock { $0.append(n) }
                    FileHandle.standardError.write(
                        Data(
                            "  ?since= looper \(k): \(n) requests, \(statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " "))\n"
                                .utf8))
                }
            }
        }
    }

    /// `count` event streams on `show` from a child process (`SeatKitBench viewers`): the viewers of a
    /// popular show. Returns how many are open and refused once all are tried, and the process (the
    /// streams stay open until it is terminated).
    static func viewers(port: UInt16, show: String, count: Int) -> (open: Int, refused: Int, process: Process?) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if !FileManager.default.isExecutableFile(atPath: p.executableURL!.path) { p.executableURL = Bundle.main.executableURL }
        p.arguments = ["viewers", String(port), show, String(count)]
        let out = Pipe()
        p.standardOutput = out
        guard (try? p.run()) != nil else { return (0, count, nil) }
        // The child prints "OPEN n REFUSED m" once every stream is tried.
        var line = [UInt8]()
        while let byte = try? out.fileHandleForReading.read(upToCount: 1), let b = byte.first, b != 10 { line.append(b) }
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard words.count == 4 else { return (0, count, p) }
        return (Int(words[1]) ?? 0, Int(words[3]) ?? 0, p)
    }

    /// The child's side: opens the streams, 250 from each of 127.0.0.10, .11, … (the server allows 256
    /// an address), reports, then keeps them open until terminated.
    static func viewersProcess(port: UInt16, show: String, count: Int) -> Never {
        raiseFileLimit()
        var streams: [HTTPConnection] = []
        var refused = 0
        for k in 0..<count {
            guard let c = try? HTTPConnection(port: port, source: "127.0.0.\(10 + k / 250)") else { refused += 1; continue }
            if (try? c.openEvents("/v1/shows/\(show)/events")) == 200 { streams.append(c) } else { refused += 1 }
        }
        FileHandle.standardOutput.write(Data("OPEN \(streams.count) REFUSED \(refused)\n".utf8))
        while true { sleep(60); withExtendedLifetime(streams) {} }
    }
}
