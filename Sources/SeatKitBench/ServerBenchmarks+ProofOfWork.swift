import Dispatch
import Foundation
import LoopbackHTTP
import SeatInventory
import SeatJSON
import SeatMap
import SeatQueue
import SeatSecrets
import SeatServer
import SharedState

/// The proof of work's rows (#54): what it costs the server. Joins a second to a room asking a proof
/// (challenges issued by the server and solved beforehand, so wrk measures the server's side: the
/// HMAC, the hash, the spent challenge) beside joins to a room asking none, in the same run; then the
/// asymmetry: checking one proof beside finding one at 20 bits.
extension ServerBenchmarks {
    static func proofOfWorkRates(app: SeatServerApp, report: Report) throws {
        let admin = [("X-Admin-Key", "bench-admin-key-0123456789")]
        let c = try HTTPConnection(port: app.port)
        let opens = Timestamp.text(Int64(Date().timeIntervalSince1970 * 1000) - 1_000)
        for (show, bits) in [("pow-off", 0), ("pow-on", 8)] {
            try app.inventory.addShow(
                Inventory.NewShow(
                    id: show, venueID: "arena-20000", startsAt: "2099-12-01T21:00:00+08:00",
                    prices: PriceTable(categoryPrices: ["lower": 580, "upper": 380])))
            let settings =
                #"{"opensAt":"\#(opens)","admitPerMinute":60,"earlyMinutes":0,"maxEntriesPerAddress":1,"maxEntriesPerNetwork":100000,"maxJoinsPerSecond":1000000,"proofOfWorkBits":\#(bits)}"#
            let r = try c.request("PUT", "/v1/shows/\(show)/queue", json: settings, headers: admin)
            guard r.status == 200 else { throw QueueSetupFailed(answer: "queue for \(show): \(r.status) \(r.text)") }
        }
        // 48,000 challenges from the server (more than 4 s of joins use), solved on every core (8 bits: 256 hashes each on average).
        var challenges: [String] = []
        for _ in 0..<48_000 {
            let r = try c.request("GET", "/v1/shows/pow-on/queue/challenge")
            guard let token = (try? JSONParser.parse(r.body))?.objectValue?["challenge"]?.stringValue else {
                throw QueueSetupFailed(answer: "challenge: \(r.status) \(r.text)")
            }
            challenges.append(token)
        }
        let solved = Locked([String](repeating: "", count: challenges.count))
        let issued = challenges
        DispatchQueue.concurrentPerform(iterations: 8) { part in
            for k in stride(from: part, to: issued.count, by: 8) {
                let s = ProofOfWork.solve(challenge: issued[k], bits: 8)
                solved.withLock { $0[k] = s }
            }
        }
        let lines = zip(challenges, solved.withLock { $0 }).map { #"{"challenge":"\#($0)","solution":"\#($1)"}"# }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-pow-\(getpid()).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        guard let off = Wrk.run(port: app.port, path: "/v1/shows/pow-off/queue", connections: 64, seconds: 4, script: Wrk.queueJoin),
            let on = Wrk.run(
                port: app.port, path: "/v1/shows/pow-on/queue", connections: 64, seconds: 4, script: Wrk.queueJoinWithProof, scriptArguments: [file.path])
        else { return }
        let onRate = Double(on.holds) / on.seconds, offRate = Double(off.holds) / off.seconds
        report.row(
            "waiting-room joins with a proof of work (challenges from the server, solved beforehand: the server's side), 64 connections, wrk vs joins to a room asking none",
            ours: String(format: "%.0f joins/s, p99 %.1f ms", onRate, on.p99 * 1000),
            baseline: String(format: "%.0f joins/s, p99 %.1f ms", offRate, off.p99 * 1000),
            ratio: String(format: "%.2f×", onRate / offRate), goal: onRate >= 0.8 * offRate ? "≥ 0.8× ✓" : "≥ 0.8× ✗")
        // The asymmetry: one check (what the server pays) beside one solution at 20 bits (a buyer's).
        let key = Array("bench queue key".utf8)
        let (_, token) = JoinChallenge.issue(show: "pow-on", bits: 20, now: 0, key: key)
        var n = 0
        let start = Date()
        var solutions: [String] = []
        while Date().timeIntervalSince(start) < 3 || n < 3 {
            let (_, t) = JoinChallenge.issue(show: "pow-on", bits: 20, now: 0, key: key)
            solutions.append(ProofOfWork.solve(challenge: t, bits: 20))
            n += 1
        }
        let solve = Date().timeIntervalSince(start) / Double(n)
        let solution = ProofOfWork.solve(challenge: token, bits: 20)
        let check = measure { _ = JoinChallenge.verify(token, solution: solution, show: "pow-on", bits: 20, now: 1, key: key) }
        report.row(
            "a proof of work at 20 bits: the server's check (one HMAC, one SHA-256) vs a buyer's search (mean of \(n), this machine's libcrypto)",
            ours: String(format: "%.1f µs", check * 1e6), baseline: String(format: "%.0f ms", solve * 1000),
            ratio: String(format: "1 : %.0f", solve / check), goal: "report")
    }
}
