import ArgumentParser
import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatSamples
import SharedState

/// `seatkit rush --server URL --show ID --buyers N --arrive-over SECONDS [--seed S]`: an on-sale replayed
/// against a running server whose show has a waiting room (`seatkit queue`). N buyers arrive over the
/// given seconds (a seeded random order), join, ask for their place every two seconds, and once let in
/// pick best available (in one zone, or anywhere), hold with the admission and mostly buy; some give up
/// waiting, some never hold, some release, some leave a hold to expire. The report: admissions a minute
/// against the setting, fairness (later arrivals let in out of order; how uniform the early arrivals'
/// shuffle was), queue-poll and hold latency, time to sell out, every seat sold once (checked against the
/// server), and the server's memory per waiting entry and CPU per poll (from its `/metrics`).
struct RushCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "rush",
        abstract: "Replay an on-sale: a crowd through the show's waiting room, with a report on rate, fairness, latency and sales.",
        discussion: "The show needs a waiting room (seatkit queue); the server must believe this machine's X-Forwarded-For "
            + "(serve --trusted-proxies 127.0.0.1) and let each buyer hold (--holds-per-second). With an operator's key "
            + "(SEATKIT_OPERATOR_KEY or --key-file) the admission rate is compared with the room's setting.")

    @OptionGroup var target: ServerTarget

    @Option(help: "How many buyers (1 to 200,000).")
    var buyers = 1000

    @Option(help: "Over how many seconds they arrive (1 to 3,600).")
    var arriveOver: Double = 60

    @Option(help: "The random seed (arrivals and each buyer's plan).")
    var seed = 1

    @Option(help: "Seconds between a waiting page's questions (1 to 10; ± a quarter).")
    var pollEvery: Double = 2

    @Option(help: "Client threads, each with one connection (1 to 512).")
    var workers = 24

    @Option(help: "Give up after this many seconds in all (at most 3,600).")
    var limit: Double = 900

    @Option(help: "A file holding an operator's key (to read the room's settings).", completion: .file())
    var keyFile: String?

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        guard let url = URL(string: target.server), url.scheme == "http", let host = url.host else {
            throw UsageError(message: "--server is a URL like http://127.0.0.1:8080 (http, an IPv4 address or localhost)")
        }
        guard (1...200_000).contains(buyers) else { throw UsageError(message: "--buyers must be 1 to 200000") }
        guard arriveOver >= 1 && arriveOver <= 3600 else { throw UsageError(message: "--arrive-over must be 1 to 3600 seconds") }
        guard pollEvery >= 1 && pollEvery <= 10 else { throw UsageError(message: "--poll-every must be 1 to 10 seconds") }
        guard (1...512).contains(workers) else { throw UsageError(message: "--workers must be 1 to 512") }
        guard seed >= 0 else { throw UsageError(message: "--seed must be 0 or more") }
        guard limit > 0 && limit <= 3600 else { throw UsageError(message: "--limit must be above 0, at most 3600") }
        let port = UInt16(url.port ?? 80), show = target.show
        let key =
            keyFile.map { String(decoding: (try? Files.read($0)) ?? [], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
            ?? ProcessInfo.processInfo.environment["SEATKIT_OPERATOR_KEY"]

        // What the run needs from the server first: the room's setting (with a key), the show's zones, the memory before.
        let c: HTTPConnection
        do { c = try HTTPConnection(host: host, port: port) } catch { throw IOFailure(message: "cannot reach \(target.server): \(error)") }
        var setting: Int?
        if let key, !key.isEmpty {
            let r = try c.request("GET", "/v1/shows/\(show)/queue", headers: [("Authorization", "Bearer \(key)")])
            guard r.status == 200 else { throw BoxOfficeCommand.failure(r) }
            setting = r.jsonObject?["admitPerMinute"]?.intValue
        }
        let prices = try c.request("GET", "/v1/shows/\(show)/seat-prices?lang=en")
        guard prices.status == 200 else { throw BoxOfficeCommand.failure(prices) }
        let zones = (prices.jsonObject?["zones"]?.arrayValue ?? []).compactMap { $0.objectValue?["id"]?.stringValue }
        let before = try Self.availability(c, show)
        // The venue's layout: bought seat ids checked against the server's statuses by index at the end.
        let showBody = try c.request("GET", "/v1/shows/\(show)")
        guard showBody.status == 200, let venueID = showBody.jsonObject?["venueId"]?.stringValue else { throw BoxOfficeCommand.failure(showBody) }
        let venueBody = try c.request("GET", "/v1/venues/\(venueID)")
        let layout: VenueLayout
        do { layout = try VenueLayout(json: venueBody.body) } catch { throw InputFailure(message: "the venue \(venueID) does not decode: \(error)") }

        var rng = SplitMix64(seed: UInt64(seed))
        let crowd = (0..<buyers).map { i -> RushBuyer in
            var b = RushBuyer(
                // Each buyer on a network of their own (a /24), as a crowd of real phones is: the room caps places a network.
                index: i, address: "10.\(i >> 8 & 255).\(i & 255).\(1 + (i >> 16 & 255))", arriveAt: Double(rng.next() % 1_000_000) / 1_000_000 * arriveOver,
                random: SplitMix64(seed: rng.next()))
            let roll = b.random.next() % 100
            // 5 % give up waiting (after 3 to 30 questions), 5 % let in never hold, of the rest 75 % buy, 15 % release, 10 % leave the hold.
            if roll < 5 { b.givesUpAfter = 3 + Int(b.random.next() % 28) } else if roll < 10 { b.neverHolds = true }
            let plan = b.random.next() % 100
            b.plan = plan < 75 ? .bought : plan < 90 ? .released : .abandonedHold
            b.count = 1 + Int(b.random.next() % 4)
            return b
        }
        let timetable = RushTimetable(crowd)
        let errors = Locked([String: Int]())
        let started = Date()
        let runner = RushCrowd(host: host, port: port, show: show, zones: zones, pollEvery: pollEvery, started: started)
        let samples = Locked([RushSample]())
        let stopSampling = Locked(false)
        let sampler = Thread {
            guard let m = try? HTTPConnection(host: host, port: port) else { return }
            while !stopSampling.current {
                if let s = try? RushSample.read(m, show: show, at: runner.elapsed()) { samples.withLock { $0.append(s) } }
                Thread.sleep(forTimeInterval: 1)
            }
        }
        sampler.start()
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            Thread.detachNewThread {
                runner.work(timetable, errors: errors, until: limit)
                group.leave()
            }
        }
        group.wait()
        let finished = timetable.stop()
        stopSampling.withLock { $0 = true }
        let after = try Self.availability(try HTTPConnection(host: host, port: port), show)
        let report = RushReport(
            buyers: finished.sorted { $0.index < $1.index }, setting: setting, pollEvery: runner.pollEvery, arriveOver: arriveOver,
            elapsed: runner.elapsed(), before: before, after: after, samples: samples.current, errors: errors.current,
            seatIndex: { layout.index(ofSeatID: $0) })
        output.line(report.text(server: target.server, show: show, seed: seed))
        return report.soldTwice.isEmpty && report.soldNotSeen.isEmpty ? ExitCode.success : ExitCode.failure
    }

    static func availability(_ c: HTTPConnection, _ show: String) throws -> SeatAvailability {
        let r = try c.request("GET", "/v1/shows/\(show)/availability")
        guard r.status == 200 else { throw BoxOfficeCommand.failure(r) }
        do { return try SeatAvailability(encoded: r.text) } catch { throw InputFailure(message: "the server's availability does not decode: \(error)") }
    }
}

/// The server's figures once a second from its `/metrics`: buyers waiting, resident memory, CPU, polls so far.
struct RushSample: Sendable {
    var at: Double
    var waiting: Double
    var resident: Double
    var cpu: Double
    var polls: Double
    /// The show's free seats.
    var available: Int

    static func read(_ c: HTTPConnection, show: String, at: Double) throws -> RushSample? {
        let text = try c.request("GET", "/metrics").text
        let available = try c.request("GET", "/v1/shows/\(show)").jsonObject?["seats"]?.objectValue?["available"]?.intValue ?? 0
        var s = RushSample(at: at, waiting: 0, resident: 0, cpu: 0, polls: 0, available: available)
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let v = Double(parts[1]) else { continue }
            switch parts[0] {
            case "seatkit_queue_waiting": s.waiting = v
            case "seatkit_resident_memory_bytes": s.resident = v
            case "seatkit_cpu_seconds": s.cpu = v
            default: if parts[0].hasPrefix("seatkit_requests_total{route=\"/v1/queue/{entry}\"") { s.polls += v }
            }
        }
        return s
    }
}

extension HTTPConnection.Response {
    /// The body as a JSON object (nil: not one).
    var jsonObject: JSONObject? { (try? JSONParser.parse(body))?.objectValue }
}
