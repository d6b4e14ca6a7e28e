import Foundation
import SeatInventory
import SeatMap
import SeatServer
import SeatDomain

/// Hold + release beside 10,000 open event streams (#28: they may cost it at most 10 %), taking turns on
/// fresh servers: one server over a run slows as its store fills (four 5 s runs in a row read 7,639 →
/// 1,392 holds/s, 2026-12-03), so a baseline measured on the same server before or after drifts by more
/// than the effect. Each turn is a fresh store: without streams, 10,000 on another show of the arena,
/// 10,000 on the show being sold (its viewers, who are sent every change); medians of three turns.
extension ServerBenchmarks {
    enum Viewers: String, CaseIterable {
        case none, anotherShow, sameShow
    }

    static func holdsBesideViewers(dir: URL, report: Report, turns: Int = 3) throws {
        let rows = 20
        var results: [Viewers: [Wrk.Result]] = [:]
        var opened: [Viewers: [Int]] = [:]
        var delivery: [Viewers: [Int]] = [:]
        for turn in 0..<turns {
            for viewers in Viewers.allCases {
                let app = try server(dir.appendingPathComponent("viewers-\(turn)-\(viewers.rawValue).db").path, groupCommit: true)
                try app.inventory.addShow(
                    Inventory.NewShow(
                        id: "popular", venueID: "arena-20000", startsAt: "2099-12-01T21:00:00+08:00",
                        prices: PriceTable(categoryPrices: ["lower": 580, "upper": 380])))
                var process: Process?
                if viewers != .none {
                    let (open, _, p) = ServerBenchmarks.viewers(port: app.port, show: viewers == .sameShow ? "bench" : "popular", count: 10_000)
                    process = p
                    opened[viewers, default: []].append(open)
                }
                let rounds = app.inventory.eventRounds
                if let r = Wrk.run(port: app.port, path: "/", connections: 64, seconds: 5, script: Wrk.holdRelease, scriptArguments: [String(rows)]) {
                    results[viewers, default: []].append(r)
                }
                delivery[viewers, default: []].append(app.inventory.eventRounds - rounds)
                process?.terminate()
                process?.waitUntilExit()
                app.stop()
                try? FileManager.default.removeItem(at: dir.appendingPathComponent("viewers-\(turn)-\(viewers.rawValue).db"))
            }
        }
        func median(_ v: Viewers) -> Wrk.Result? {
            guard let list = results[v], !list.isEmpty else { return nil }
            return list.sorted { $0.holds < $1.holds }[list.count / 2]
        }
        guard let plain = median(.none) else { return }
        let plainPerSecond = Double(plain.holds) / plain.seconds
        let turnsText = Viewers.allCases.map { v in
            "\(v.rawValue) " + (results[v] ?? []).map { String(format: "%.0f", Double($0.holds) / $0.seconds) }.joined(separator: "/")
        }.joined(separator: ", ")
        let roundsText = Viewers.allCases.map { "\($0.rawValue) " + (delivery[$0] ?? []).map(String.init).joined(separator: "/") }.joined(separator: ", ")
        report.notes.append("10,000 viewers beside hold + release, holds/s of each turn: \(turnsText); delivery rounds in each 5 s run: \(roundsText)")
        for (viewers, title) in [
            (Viewers.anotherShow, "on another show of the arena"), (.sameShow, "on the show being sold (each sent every change, merged per round)"),
        ] {
            guard let r = median(viewers) else { continue }
            let perSecond = Double(r.holds) / r.seconds
            let open = opened[viewers]?.min() ?? 0
            let ratio = perSecond / plainPerSecond
            report.row(
                "hold + release with 10,000 event streams open \(title), a fresh server each run, \(turns) turns, medians (\(open) open) vs none",
                ours: String(format: "%.0f holds/s, p99 %.1f ms", perSecond, r.p99 * 1000),
                baseline: String(format: "%.0f holds/s, p99 %.1f ms", plainPerSecond, plain.p99 * 1000),
                ratio: String(format: "%.2f×", ratio),
                goal: viewers == .anotherShow
                    ? (open == 10_000 && ratio >= 0.9 ? "≥ 0.9× ✓" : "≥ 0.9× ✗")
                    : "report (#28 asks ≥ 0.9× of streams in general)")
        }
    }
}
