import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SeatMap
import SeatServer
import SeatSamples
import SeatSync
import SeatWire
import SharedState

/// `seatkit simulate --server URL --show ID --buyers N`: a crowd of buyers, each a real `SeatSession`.
struct SimulateCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "A crowd of buyers (best available, taps, drags, abandoned holds, purchases) against a running server.",
        discussion: "Prints what happened and checks that no seat was sold twice (exit 1 if it was).")

    @OptionGroup var target: ServerTarget

    @Option(help: "How many buyers (1 to 10000).")
    var buyers = 100

    @Option(help: "The random seed.")
    var seed = 1

    @Flag(help: "No progress bar.")
    var quiet = false

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        guard let server = URL(string: target.server), server.scheme == "http" || server.scheme == "https" else {
            throw UsageError(message: "--server is a URL like http://127.0.0.1:8080")
        }
        let (show, buyers, quiet) = (target.show, buyers, quiet)
        guard buyers >= 1 && buyers <= 10_000 else { throw UsageError(message: "--buyers must be 1 to 10000") }
        guard seed >= 0 else { throw UsageError(message: "--seed must be 0 or more") }
        let seed = UInt64(seed)
        switch waitFor({ () async throws(APIError) in try await Crowd.run(server: server, show: show, buyers: buyers, seed: seed, progress: !quiet) }) {
        case .failure(let e): throw IOFailure(message: "cannot simulate against \(server): \(e)")
        case .success(let report):
            output.out += report.text
            return report.consistent ? ExitCode.success : ExitCode.failure
        }
    }
}

/// Runs `body` on the concurrency pool and blocks this thread until it is done: the commands are
/// synchronous (`SeatKitTool.run` returns an exit code), their clients async. Not to be called from
/// the pool itself (tests run these commands on a thread of their own).
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws(APIError) -> T) -> Result<T, APIError> {
    let result = Locked<Result<T, APIError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do throws(APIError) {
            let value = try await body()
            result.withLock { $0 = .success(value) }
        } catch {
            result.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    return result.current!
}

/// What the crowd did and whether the server agrees with what the buyers believe.
struct CrowdReport: Sendable {
    var text: String
    var consistent: Bool
}

/// One simulated buyer's outcome.
struct BuyerOutcome: Sendable {
    var kind: String
    var selects = 0, held = 0, taken = 0, ruled = 0, rolledBack = 0, confirmed = 0
    var selectSeconds: [Double] = []
    var confirmSeconds: [Double] = []
    var bought: [String] = []
    var stillHeld: [String] = []
}

enum Crowd {
    static func run(server: URL, show: String, buyers: Int, seed: UInt64, progress: Bool) async throws(APIError) -> CrowdReport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 30
        let api = SeatAPIClient(baseURL: server, session: URLSession(configuration: configuration))
        let probe = try await SeatSession(api: api, show: show)
        let layout = await probe.state.layout
        let started = Date()
        let finished = Locked(0)
        let outcomes = Locked([BuyerOutcome]())
        await withTaskGroup(of: BuyerOutcome?.self) { group in
            for b in 0..<buyers {
                group.addTask {
                    var rng = SplitMix64(seed: seed &* 1_000_003 &+ UInt64(b))
                    return await buyer(api: api, show: show, layout: layout, rng: &rng)
                }
            }
            for await outcome in group {
                // One locked step each: a read then a write of a box lost outcomes to concurrent buyers.
                if let outcome { outcomes.withLock { $0.append(outcome) } }
                let done = finished.withLock { n -> Int in
                    n += 1; return n
                }
                if progress { drawProgress(done, of: buyers) }
            }
        }
        if progress { FileHandle.standardError.write(Data("\n".utf8)) }
        let elapsed = Date().timeIntervalSince(started)
        let final = try await api.availability(show: show, layout: layout)
        return report(outcomes.current, buyers: buyers, elapsed: elapsed, final: final, layout: layout)
    }

    static func drawProgress(_ done: Int, of total: Int) {
        let width = 30, filled = done * width / max(total, 1)
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total) buyers".utf8))
    }

    /// A buyer: picks a behaviour, selects seats the way that behaviour does, then confirms, releases
    /// or walks away (its hold then expires on the server).
    static func buyer(api: SeatAPIClient, show: String, layout: VenueLayout, rng: inout SplitMix64) async -> BuyerOutcome? {
        guard let session = try? await SeatSession(api: api, show: show) else { return nil }
        let roll = Int(rng.next() % 100)
        var o = BuyerOutcome(kind: roll < 35 ? "best available" : roll < 65 ? "tap near centre" : roll < 85 ? "drag" : "abandon")
        let count = 1 + Int(rng.next() % 4)
        // Like a person, a buyer whose seats were taken looks again (the picture is fresh by then) and
        // tries up to three times.
        for _ in 0..<3 {
            let state = await session.state
            let seats = pick(o.kind, count: count, layout: layout, availability: state.server, rng: &rng)
            guard !seats.isEmpty else { break }
            o.selects += 1
            let t0 = Date()
            await session.select(seats.map { layout.seatID($0) })
            await session.settle()
            o.selectSeconds.append(Date().timeIntervalSince(t0))
            let after = await session.state
            guard let hold = after.hold else {
                o.rolledBack += 1
                switch after.message?.kind {
                case .taken?: o.taken += 1
                case .rule?: o.ruled += 1
                default: break
                }
                continue
            }
            o.held += 1
            if o.kind == "abandon" {
                o.stillHeld = hold.seats
            } else if rng.next() % 10 < 6 {
                let t1 = Date()
                if let sold = await session.confirm(orderRef: "sim-\(hold.holdID)") { o.confirmed += 1; o.bought = sold.seats }
                o.confirmSeconds.append(Date().timeIntervalSince(t1))
            } else {
                await session.releaseAll()
                await session.settle()
            }
            break
        }
        return o
    }

    /// The seats a behaviour goes for, given what the buyer sees.
    static func pick(_ kind: String, count: Int, layout: VenueLayout, availability: SeatAvailability, rng: inout SplitMix64) -> [SeatIndex] {
        switch kind {
        case "best available", "abandon":
            return layout.bestAvailable(BestAvailableRequest(count: count), availability: availability) ?? []
        case "tap near centre":
            // The free seat nearest a point near the middle, then its neighbours along the row.
            let focal = layout.defaultFocalPoint
            var best: (Double, SeatIndex)? = nil
            for i in layout.seatIndices where availability[i] == .available {
                let d = dist(layout.position(i), focal, jitter: rng.next())
                if best == nil || d < best!.0 { best = (d, i) }
            }
            guard let first = best?.1 else { return [] }
            return Array(first..<min(first + count, layout.blockRange(of: first).upperBound))
        default:
            let block = layout.blocks[Int(rng.next() % UInt64(layout.blocks.count))]
            let start = block.lowerBound + Int(rng.next() % UInt64(max(block.count - count + 1, 1)))
            return Array(start..<min(start + count, block.upperBound))
        }
    }

    static func dist(_ p: FloorPoint, _ q: FloorPoint, jitter: UInt64) -> Double {
        let j = Double(jitter % 1000) / 1000 * 3
        return (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) + j
    }

    static func report(_ outcomes: [BuyerOutcome], buyers: Int, elapsed: Double, final: SeatAvailability, layout: VenueLayout) -> CrowdReport {
        func sum(_ k: KeyPath<BuyerOutcome, Int>) -> Int { outcomes.reduce(0) { $0 + $1[keyPath: k] } }
        func percentiles(_ values: [Double]) -> String {
            let s = values.sorted()
            guard !s.isEmpty else { return "-" }
            func p(_ q: Double) -> Double { s[min(s.count - 1, Int(Double(s.count) * q))] * 1000 }
            return String(format: "p50 %.1f ms, p99 %.1f ms (%d)", p(0.5), p(0.99), s.count)
        }
        var lines: [String] = []
        lines.append(String(format: "%d buyers in %.1f s (%.0f buyers/s)", buyers, elapsed, Double(buyers) / max(elapsed, 1e-9)))
        var kinds: [String: Int] = [:]
        for o in outcomes { kinds[o.kind, default: 0] += 1 }
        lines.append("behaviours: " + kinds.keys.sorted().map { "\($0) \(kinds[$0]!)" }.joined(separator: ", "))
        let selects = sum(\.selects)
        lines.append(
            "selections \(selects): held \(sum(\.held)), rolled back \(sum(\.rolledBack)) (taken \(sum(\.taken)), rules \(sum(\.ruled))); conflict rate \(selects == 0 ? 0 : sum(\.taken) * 100 / selects)%"
        )
        lines.append("confirmations \(sum(\.confirmed)); holds left to expire \(outcomes.filter { !$0.stillHeld.isEmpty }.count)")
        lines.append("latency select→held or refused: " + percentiles(outcomes.flatMap(\.selectSeconds)))
        lines.append("latency confirm: " + percentiles(outcomes.flatMap(\.confirmSeconds)))
        // The check: what buyers believe they bought is sold, each seat once; what they still hold is held.
        var owners: [String: Int] = [:]
        var twice: [String] = []
        for o in outcomes { for s in o.bought { owners[s, default: 0] += 1; if owners[s]! == 2 { twice.append(s) } } }
        let bought = Set(outcomes.flatMap(\.bought)), held = Set(outcomes.flatMap(\.stillHeld))
        let notSold = bought.filter { layout.index(ofSeatID: $0).map { final[$0] != .sold } ?? true }
        let notHeld = held.filter { layout.index(ofSeatID: $0).map { final[$0] != .held } ?? true }
        let consistent = twice.isEmpty && notSold.isEmpty && notHeld.isEmpty
        lines.append(
            "check: \(bought.count) seats bought, each once: \(twice.isEmpty ? "ok" : "SOLD TWICE \(twice)"); all sold on the server: \(notSold.isEmpty ? "ok" : "MISSING \(notSold.sorted())"); abandoned holds still held: \(notHeld.isEmpty ? "ok" : "NOT HELD \(notHeld.sorted())")"
        )
        lines.append("final availability: \(final.counts.available) available, \(final.counts.held) held, \(final.counts.sold) sold (version \(final.version))")
        return CrowdReport(text: lines.joined(separator: "\n") + "\n", consistent: consistent)
    }
}

extension VenueLayout {
    /// The aisle-separated run a seat is in.
    func blockRange(of seat: SeatIndex) -> Range<SeatIndex> { blocks[blockIndex(of: seat)] }
}
