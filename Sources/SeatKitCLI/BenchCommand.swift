import ArgumentParser
import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatServer
import SharedState

/// `seatkit bench --server URL --show ID`: how many holds a running server takes. Each connection owns
/// whole blocks of free seats and, over and over, holds the first 1–4 seats of one of them and releases
/// them, so no two connections compete and every hold passes the show's rules: what is measured is
/// the server, not conflicts. Prints holds a second and the latency of holds and releases; fails when
/// a request errs or a hold of the run is left behind.
struct BenchCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Holds a second a running server takes, with the latency p50/p99 of holds and releases.",
        discussion: "Each connection holds and releases 1–4 seats of its own free blocks (within the show's rules).")

    @OptionGroup var target: ServerTarget

    @Option(help: "Connections at once (1 to 1024).")
    var connections = 64

    @Option(help: "How long to run, in seconds (at most 600).")
    var seconds: Double = 5

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        let (server, show) = (target.server, target.show)
        guard let url = URL(string: server), url.scheme == "http", let host = url.host else {
            throw UsageError(message: "--server is a URL like http://127.0.0.1:8080 (http, an IPv4 address or localhost)")
        }
        let port = UInt16(url.port ?? 80)
        guard (1...1024).contains(connections) else { throw UsageError(message: "--connections must be 1 to 1024") }
        guard seconds > 0 && seconds <= 600 else { throw UsageError(message: "--seconds must be a number above 0, at most 600") }

        let plan: HoldPlan
        do { plan = try HoldPlan(host: host, port: port, show: show, connections: connections) } catch let e as BenchFailure {
            throw IOFailure(message: e.message)
        } catch { throw IOFailure(message: "cannot reach \(server): \(error)") }
        let report = HoldLoad.run(host: host, port: port, plan: plan, seconds: seconds)
        let left: Int
        do { left = try plan.stillHeld(host: host, port: port) } catch { throw IOFailure(message: "cannot read the availability after the run: \(error)") }
        output.line(report.summary(server: server, show: show, plan: plan, left: left))
        return report.errors == 0 && left == 0 && report.holds > 0 ? ExitCode.success : ExitCode.failure
    }
}

/// `--server URL --show ID`: a running server and one of its shows.
struct ServerTarget: ParsableArguments {
    @Option(help: ArgumentHelp("The server, e.g. http://127.0.0.1:8080.", valueName: "URL"))
    var server: String

    @Option(help: ArgumentHelp("The show's id.", valueName: "ID"))
    var show: String
}

struct BenchFailure: Error { var message: String }

/// Which seats each connection holds: per connection, blocks that were wholly free and whose first
/// 1–4 seats pass the show's rules on their own.
struct HoldPlan: Sendable {
    /// Per connection, its selections (seat ids as a JSON body).
    var bodies: [[String]]
    var seatCount: Int
    var blocksUsed: Int
    var seats: Set<SeatIndex>
    var layout: VenueLayout
    var show: String

    init(host: String, port: UInt16, show: String, connections: Int) throws {
        let c = try HTTPConnection(host: host, port: port)
        let path = Self.showPath(show)
        let summary = try c.request("GET", path)
        guard summary.status == 200 else { throw BenchFailure(message: "show \(show): \(summary.status) \(String(decoding: summary.body, as: UTF8.self))") }
        let showJSON = try JSONParser.parse(summary.body)
        guard let venueID = showJSON.objectValue?["venueId"]?.stringValue else { throw BenchFailure(message: "show \(show): no venueId in its JSON") }
        if showJSON.objectValue?["onSale"]?.boolValue == false { throw BenchFailure(message: "show \(show) has started: sales are closed") }
        let policy = try showJSON.objectValue?["policy"].map { try SelectionPolicy(jsonValue: $0) } ?? .standard
        let venue = try c.request("GET", "/v1/venues/" + Self.segment(venueID))
        guard venue.status == 200 else { throw BenchFailure(message: "venue \(venueID): \(venue.status)") }
        let layout = try VenueLayout(json: venue.body)
        let encoded = try c.request("GET", path + "/availability")
        guard encoded.status == 200 else { throw BenchFailure(message: "availability of \(show): \(encoded.status)") }
        let availability = try SeatAvailability(encoded: String(decoding: encoded.body, as: UTF8.self), layout: layout)

        var bodies = [[String]](repeating: [], count: connections)
        var used = 0, seats = Set<SeatIndex>()
        for block in layout.blocks where block.count >= 3 && block.allSatisfy({ availability[$0] == .available }) {
            let choices = (1...4).compactMap { n -> [SeatIndex]? in
                guard n <= block.count - 2 else { return nil }
                let pick = Array(block.lowerBound..<block.lowerBound + n)
                return policy.violations(for: pick, in: layout, availability: availability).isEmpty ? pick : nil
            }
            guard !choices.isEmpty else { continue }
            let owner = used % connections
            used += 1
            for pick in choices {
                bodies[owner].append("{\"seats\":[" + pick.map { "\"\(layout.seatID($0))\"" }.joined(separator: ",") + "]}")
                seats.formUnion(pick)
            }
        }
        guard bodies.allSatisfy({ !$0.isEmpty }) else {
            throw BenchFailure(message: "show \(show) has \(used) wholly free blocks whose first seats pass its rules: too few for \(connections) connections")
        }
        self.bodies = bodies; seatCount = layout.seatCount; blocksUsed = used; self.seats = seats; self.layout = layout; self.show = show
    }

    static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? id
    }

    static func showPath(_ show: String) -> String { "/v1/shows/" + segment(show) }

    /// How many of the run's seats are still held (a release that did not happen).
    func stillHeld(host: String, port: UInt16) throws -> Int {
        let c = try HTTPConnection(host: host, port: port)
        let path = Self.showPath(show) + "/availability"
        let r = try c.request("GET", path)
        let availability = try SeatAvailability(encoded: String(decoding: r.body, as: UTF8.self), layout: layout)
        return seats.filter { availability[$0] == .held }.count
    }
}

/// Connections on their own threads holding and releasing their plan's seats until the time is up.
enum HoldLoad {
    struct Report {
        var holds = 0, releases = 0, taken = 0, ruled = 0, limited = 0, errors = 0
        var holdLatencies: [Double] = [], releaseLatencies: [Double] = []
        var seconds = 0.0
        var firstError: String?

        mutating func merge(_ o: Report) {
            holds += o.holds; releases += o.releases; taken += o.taken; ruled += o.ruled; limited += o.limited; errors += o.errors
            holdLatencies += o.holdLatencies; releaseLatencies += o.releaseLatencies
            firstError = firstError ?? o.firstError
        }

        func summary(server: String, show: String, plan: HoldPlan, left: Int) -> String {
            func ms(_ list: [Double], _ p: Double) -> String {
                guard !list.isEmpty else { return "–" }
                let sorted = list.sorted()
                return String(format: "%.2f ms", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000)
            }
            var lines = [
                "\(plan.bodies.count) connections for \(String(format: "%.1f", seconds)) s against \(server), show \(show) (\(plan.seatCount) seats; \(plan.blocksUsed) free blocks shared out)",
                String(
                    format: "holds: %d (%.0f/s), releases: %d; requests %.0f/s", holds, Double(holds) / seconds, releases,
                    Double(holds + releases + taken + ruled + limited + errors) / seconds),
                "hold latency: p50 \(ms(holdLatencies, 0.5)), p99 \(ms(holdLatencies, 0.99)); release latency: p50 \(ms(releaseLatencies, 0.5)), p99 \(ms(releaseLatencies, 0.99))",
                "refused: \(taken) taken by someone else, \(ruled) by the rules, \(limited) rate-limited\(limited > 0 ? " (start the server with --holds-per-second 0 to measure it)" : ""); errors: \(errors)\(firstError.map { " (first: \($0))" } ?? "")",
                "seats of this run still held: \(left)",
            ]
            if holds == 0 { lines.append("no hold succeeded") }
            return lines.joined(separator: "\n")
        }
    }

    static func run(host: String, port: UInt16, plan: HoldPlan, seconds: Double) -> Report {
        let total = Locked(Report())
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        for bodies in plan.bodies {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                var mine = Report()
                do {
                    let c = try HTTPConnection(host: host, port: port)
                    let path = HoldPlan.showPath(plan.show) + "/holds"
                    var n = 0
                    while DispatchTime.now().uptimeNanoseconds < deadline {
                        let t0 = DispatchTime.now().uptimeNanoseconds
                        let r = try c.request("POST", path, json: bodies[n % bodies.count])
                        let t1 = DispatchTime.now().uptimeNanoseconds
                        n += 1
                        switch r.status {
                        case 201:
                            mine.holds += 1
                            mine.holdLatencies.append(Double(t1 - t0) / 1e9)
                            guard let token = (try? JSONParser.parse(r.body))?.objectValue?["token"]?.stringValue else {
                                mine.errors += 1; mine.firstError = mine.firstError ?? "a 201 without a token"; continue
                            }
                            let released = try c.request("DELETE", "/v1/holds/" + token)
                            if released.status == 204 {
                                mine.releases += 1
                                mine.releaseLatencies.append(Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e9)
                            } else {
                                mine.errors += 1; mine.firstError = mine.firstError ?? "release answered \(released.status)"
                            }
                        case 409: mine.taken += 1
                        case 422: mine.ruled += 1
                        case 429: mine.limited += 1; Thread.sleep(forTimeInterval: 0.01)
                        default:
                            mine.errors += 1
                            mine.firstError = mine.firstError ?? "hold answered \(r.status): \(String(decoding: r.body.prefix(200), as: UTF8.self))"
                        }
                    }
                } catch {
                    mine.errors += 1
                    mine.firstError = mine.firstError ?? "\(error)"
                }
                total.withLock { $0.merge(mine) }
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
        group.wait()
        var report = total.current
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return report
    }
}
