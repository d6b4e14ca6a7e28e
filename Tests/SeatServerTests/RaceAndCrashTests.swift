import SeatDomain
import SeatJSON
import SeatServerTestSupport
import Foundation
import LoopbackHTTP
import SeatSamples
import SeatKitTestSupport
import SeatMap
import SeatServer
import SharedState
import Testing
import SeatStorage
import SeatInventory

/// What one simulated buyer believes at the end.
struct BuyerRecord {
    var attempts = 0, created = 0, conflicts = 0, refusedByRules = 0, other = 0
    /// What each `other` answer was (a status and its problem's type, or the transport's error), so a
    /// failing race says what went wrong.
    var otherAnswers: [String] = []
    var active: [String: [String]] = [:]  // token → seats
    var bought: [[String]] = []

    /// One buyer's turn: `attempts` holds of 1–4 seats side by side in the first ten rows (made through
    /// `here`), each then released, confirmed or kept (through `there`, which may be another instance).
    static func play(here: HTTPConnection, there: HTTPConnection, rng: inout TestRandom, layout: VenueLayout, attempts: Int) -> BuyerRecord {
        var mine = BuyerRecord()
        for _ in 0..<attempts {
            let row = layout.rows[rng.int(10)]
            let count = 1 + rng.int(4)
            let start = row.seats.lowerBound + rng.int(row.seats.count - count + 1)
            let seats = (start..<start + count).map { layout.seatID($0) }
            mine.attempts += 1
            let answer: HTTPConnection.Response
            do { answer = try hold(here, seats) } catch {
                mine.other += 1
                mine.otherAnswers.append("no answer: \(error)")
                continue
            }
            let r = answer
            switch r.status {
            case 201:
                mine.created += 1
                let token = r.string("token")!
                switch rng.int(10) {
                case 0...4: _ = try? there.request("DELETE", "/v1/holds/\(token)")
                case 5...6:
                    if (try? there.request("POST", "/v1/holds/\(token)/confirm", json: "{\"orderRef\":\"o-\(token.prefix(8))\"}"))?.status == 200 {
                        mine.bought.append(seats)
                    } else {
                        mine.active[token] = seats
                    }
                default: mine.active[token] = seats
                }
            case 409: mine.conflicts += 1
            case 422: mine.refusedByRules += 1
            default:
                mine.other += 1
                mine.otherAnswers.append("\(r.status) \(r.string("type") ?? "") \(r.string("detail") ?? "")")
            }
        }
        return mine
    }

    func merged(with other: BuyerRecord) -> BuyerRecord {
        var r = self
        r.attempts += other.attempts; r.created += other.created; r.conflicts += other.conflicts
        r.refusedByRules += other.refusedByRules; r.other += other.other; r.otherAnswers += other.otherAnswers
        r.active.merge(other.active) { x, _ in x }; r.bought += other.bought
        return r
    }
}

@Suite(.serialized) struct RaceTests {
    /// 200 buyers race for overlapping 1–4-seat blocks of a 172-seat hall, in rounds; they release,
    /// confirm or keep what they got. No seat is ever held or sold twice, every request is accounted
    /// for, and the server's availability equals what the store holds and what the buyers believe.
    @Test(arguments: StoreBackend.available) func twoHundredBuyersNeverShareASeat(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let layout = SampleVenues.cinemaHall()
        let buyers = 200
        let shared = Locked([BuyerRecord](repeating: BuyerRecord(), count: buyers))
        for round in 0..<3 {
            let group = DispatchGroup()
            for b in 0..<buyers {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    var rng = TestRandom(UInt64(round * 1000 + b + 1))
                    guard let c = try? server.connection(timeoutSeconds: 30) else { return }
                    let mine = BuyerRecord.play(here: c, there: c, rng: &rng, layout: layout, attempts: 3)
                    shared.withLock { $0[b] = $0[b].merged(with: mine) }
                }
            }
            group.wait()
        }
        let records = shared.current
        let attempts = records.reduce(0) { $0 + $1.attempts }
        let created = records.reduce(0) { $0 + $1.created }, conflicts = records.reduce(0) { $0 + $1.conflicts }
        let rules = records.reduce(0) { $0 + $1.refusedByRules }, other = records.reduce(0) { $0 + $1.other }
        #expect(attempts == buyers * 9 && other == 0)
        #expect(created + conflicts + rules == attempts)
        #expect(created > 50 && conflicts > 50, "the race must be real: \(created) holds, \(conflicts) conflicts")
        // No seat twice among what buyers believe they hold or bought.
        var owner: [String: Int] = [:]
        for (b, r) in records.enumerated() {
            for seat in r.active.values.flatMap({ $0 }) + r.bought.flatMap({ $0 }) {
                #expect(owner[seat] == nil, "seat \(seat) belongs to buyers \(owner[seat] ?? -1) and \(b)")
                owner[seat] = b
            }
        }
        // The server agrees with the buyers…
        let a = try server.availability()
        let held = Set(records.flatMap { $0.active.values.flatMap { $0 } }), sold = Set(records.flatMap { $0.bought.flatMap { $0 } })
        for i in layout.seatIndices {
            let id = layout.seatID(i)
            let expected: SeatStatus = sold.contains(id) ? .sold : held.contains(id) ? .held : .available
            #expect(a[i] == expected, "seat \(id): server says \(a[i]), buyers \(expected)")
        }
        // …and the store agrees with the server (a fresh inventory rebuilt from the file).
        let rebuilt = try Inventory(store: try server.openStore(), describeShow: SeatAPI.showEventData)
        #expect(try rebuilt.encodedAvailability(show: "show").1 == a.encoded())
        #expect(server.app.inventory.metrics.value("hold_conflicts") == conflicts)
    }
}

/// Runs the real `seatkit serve` binary in a child process.
final class ServerProcess {
    let process = Process()
    let port: UInt16

    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("seatkit")
    }

    /// Whether the `seatkit` binary is built next to the tests; records an issue saying so when not.
    static func binaryIsBuilt() -> Bool {
        if FileManager.default.isExecutableFile(atPath: binary.path) { return true }
        Issue.record("the seatkit binary is not built next to the tests (\(binary.path)); run swift build first")
        return false
    }

    /// What the server printed before it started serving (its banner).
    private(set) var banner = ""

    /// `storeArguments`: instead of `--store STORE` (`--shards FILE`, say); `port`: a fixed one (a
    /// payment provider's notifyUrl names it) instead of any free one; `extra`: more options.
    init(
        store: String, environment: [String: String] = [:], samples: Bool = false, storeArguments: [String]? = nil, port fixed: UInt16 = 0,
        extra: [String] = []
    ) throws {
        process.executableURL = Self.binary
        process.arguments =
            ["serve", "--port", String(fixed)] + (storeArguments ?? ["--store", store]) + [
                "--admin-key", TestServer.adminKey, "--holds-per-second", "0", "--trusted-proxies", "127.0.0.1",
            ]
            + (samples ? [] : ["--no-samples"]) + extra
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The banner's first line says where it listens.
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains("try: curl") && Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
            let p = UInt16(text[range].dropFirst("127.0.0.1:".count).dropLast())
        else {
            process.terminate()
            throw HTTPConnection.Failure.malformed("no port in \(text)")
        }
        port = p
        banner = text
    }

    func kill9() { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    func terminate() { process.terminate(); process.waitUntilExit() }
}

@Suite(.serialized) struct CrashTests {
    /// kill -9 in the middle of holds and confirmations, then restart: every acknowledged sale is there,
    /// no hold is half applied, and (with the clock past their expiry) live holds are released.
    @Test(arguments: StoreBackend.available) func killNineLosesNoSaleAndLeavesNoHalfHold(backend: StoreBackend) throws {
        guard ServerProcess.binaryIsBuilt() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try backend.freshStore(in: directory)
        let layout = SampleVenues.imaxHall()
        let first = try ServerProcess(store: store)
        let setup = try HTTPConnection(port: first.port)
        #expect(try setup.addShow("s", of: layout, prices: ["standard": "68", "premium": "88"]) == [201, 201])

        let sales = Locked([String: [String]]())  // order → seats the server said it sold
        let holds = Locked([String: [String]]())
        let port = first.port
        let stop = Locked(false)
        let group = DispatchGroup()
        for worker in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var rng = TestRandom(UInt64(worker + 7))
                guard let c = try? HTTPConnection(port: port, timeoutSeconds: 2) else { return }
                var n = 0
                while !stop.current {
                    let row = layout.rows[rng.int(layout.rows.count)]
                    let count = 1 + rng.int(3)
                    let start = row.seats.lowerBound + rng.int(row.seats.count - count + 1)
                    let seats = (start..<start + count).map { layout.seatID($0) }
                    guard let r = try? hold(c, seats, show: "s") else { return }
                    guard r.status == 201, let token = r.string("token") else { continue }
                    n += 1
                    if n % 2 == 0 {
                        // A confirmation the crash left unanswered may have sold the seats or not: it counts
                        // as neither an acknowledged sale nor a live hold.
                        guard let done = try? c.request("POST", "/v1/holds/\(token)/confirm", json: "{\"orderRef\":\"w\(worker)-\(n)\"}"),
                            done.status == 200
                        else { return }
                        sales.withLock { $0["w\(worker)-\(n)"] = seats }
                    } else {
                        holds.withLock { $0[token] = seats }
                    }
                }
            }
        }
        // The crash comes once the load is real: 40 acknowledged sales and 40 live holds (or 10 s).
        let loaded = Date().addingTimeInterval(10)
        while (sales.current.count < 40 || holds.current.count < 40) && Date() < loaded { Thread.sleep(forTimeInterval: 0.01) }
        first.kill9()
        stop.withLock { $0 = true }
        group.wait()
        let acknowledgedSales = sales.current, acknowledgedHolds = holds.current
        #expect(!acknowledgedSales.isEmpty, "the load must have sold something before the crash")

        // Restart with the clock an hour on: holds from before the crash have expired.
        let second = try ServerProcess(store: store, environment: ["SEATKIT_CLOCK_OFFSET_MS": "3600000"])
        defer { second.terminate() }
        let c = try HTTPConnection(port: second.port)
        let a = try SeatAvailability(encoded: try c.request("GET", "/v1/shows/s/availability").text)
        for (order, seats) in acknowledgedSales {
            for seat in seats { #expect(a[layout.index(ofSeatID: seat)!] == .sold, "order \(order): seat \(seat) lost") }
        }
        #expect(a.counts.held == 0, "expired holds are released on restart")
        #expect(a.counts.sold >= acknowledgedSales.values.reduce(0) { $0 + $1.count })
        // Sold seats come in whole holds: every sold seat belongs to a confirmed hold in the store.
        let stored: SeatStore = backend == .sqlite ? try SQLiteStore(path: String(store.dropFirst("sqlite:".count))) : try PostgresStore(url: store)
        let claims = try stored.claims(show: "s")
        #expect(claims.allSatisfy { $0.status == .sold && $0.holdID != nil })
        #expect(claims.count == a.counts.sold)
        for token in acknowledgedHolds.keys.prefix(20) {
            #expect(try c.request("GET", "/v1/holds/\(token)").status == 410)
        }
    }
}

/// kill -9 under mixed load on the livehouse (#53): seats, standing places by count and both in one
/// hold, a partner's holds from its channel (row B's last four seats and 20 floor places) confirmed
/// with its own order numbers, and season sales of one seat in both shows; after the restart every
/// acknowledged sale's seats and places are sold (a season's in both shows), the channel keeps what
/// it had not sold, the floor never past its capacity, the area counts the claims.
@Suite(.serialized) struct MixedCrashTests {
    @Test(arguments: StoreBackend.available) func killNineUnderSeatsPlacesChannelsAndSeasonsLosesNothing(backend: StoreBackend) throws {
        guard ServerProcess.binaryIsBuilt() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try backend.freshStore(in: directory)
        let layout = try VenueLayout(
            json: [UInt8](
                try Data(
                    contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                        .appendingPathComponent("Samples/livehouse.json"))))
        let first = try ServerProcess(store: store)
        let setup = try HTTPConnection(port: first.port)
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        #expect(try setup.addShow("s", of: layout, prices: ["standard": "280", "standing": "180", "box": "300"], policy: #"{"maxSeats":8}"#) == [201, 201])
        let s2 = try setup.request(
            "POST", "/v1/shows",
            json:
                #"{"id":"s2","venueId":"livehouse","startsAt":"2099-12-08T20:00:00+08:00","prices":{"categories":{"standard":"280","standing":"180","box":"300"}}}"#,
            headers: admin)
        #expect(s2.status == 201, "\(s2.text)")
        let channelSeats = ["B-5", "B-6", "B-7", "B-8"]
        let channel = try setup.request(
            "POST", "/v1/shows/s/channels", json: #"{"name":"Damai","seats":["B-5","B-6","B-7","B-8"],"areas":{"floor":20}}"#, headers: admin)
        let key = try #require(channel.string("key"), "\(channel.text)")
        let season = try #require(
            try setup.request("POST", "/v1/seasons", json: #"{"name":"Run","shows":["s","s2"]}"#, headers: admin).string("id"))
        let rows = layout.rows.prefix(layout.documentRowCount).map(\.seats)
        // order → what the server said it sold: (show, seat or place) pairs.
        let sales = Locked([String: [(show: String, seat: String)]]())
        let port = first.port
        let stop = Locked(false)
        let group = DispatchGroup()
        for worker in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var rng = TestRandom(UInt64(worker + 31))
                guard let c = try? HTTPConnection(port: port, timeoutSeconds: 2) else { return }
                var n = 0
                while !stop.current {
                    n += 1
                    let order = "m\(worker)-\(n)"
                    switch n % 5 {
                    case 3:
                        // A season: one seat of row A in both shows, at the counter.
                        let seat = "A-\(1 + rng.int(8))"
                        guard
                            let r = try? c.request(
                                "POST", "/v1/seasons/\(season)/sales", json: #"{"seats":["\#(seat)"],"orderRef":"\#(order)","payment":"cash","force":true}"#,
                                headers: admin)
                        else { return }
                        if r.status == 201 { sales.withLock { $0[order] = [("s", seat), ("s2", seat)] } }
                    case 4:
                        // The partner: a channel seat or a floor place, confirmed with its own number.
                        let body = n % 2 == 0 ? #"{"seats":["\#(channelSeats[rng.int(4)])"]}"# : #"{"areas":{"floor":1}}"#
                        guard let r = try? c.request("POST", "/v1/shows/s/holds", json: body, headers: [("Seat-Channel", key)]) else { return }
                        guard r.status == 201, let token = r.string("token") else { continue }
                        let taken = r.json?["seats"]?.arrayValue?.compactMap(\.stringValue) ?? []
                        guard let done = try? c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"externalOrderId":"DM-\#(order)"}"#), done.status == 200
                        else { return }
                        sales.withLock { $0["DM-" + order] = taken.map { ("s", $0) } }
                    default:
                        // Seats, places, or both in one hold.
                        let kind = n % 5
                        let row = rows[rng.int(rows.count)], start = row.lowerBound + rng.int(row.count - 1)
                        let seats = kind == 1 ? [] : ["\"\(layout.seatID(start))\"", "\"\(layout.seatID(start + 1))\""]
                        let places = kind == 0 ? "" : #","areas":{"floor":\#(1 + rng.int(4))}"#
                        guard let r = try? c.request("POST", "/v1/shows/s/holds", json: #"{"seats":[\#(seats.joined(separator: ","))]\#(places)}"#) else {
                            return
                        }
                        guard r.status == 201, let token = r.string("token") else { continue }
                        let taken = r.json?["seats"]?.arrayValue?.compactMap(\.stringValue) ?? []
                        if n % 2 == 0 {
                            guard let done = try? c.request("POST", "/v1/holds/\(token)/confirm", json: "{\"orderRef\":\"\(order)\"}"), done.status == 200
                            else { return }
                            sales.withLock { $0[order] = taken.map { ("s", $0) } }
                        } else {
                            _ = try? c.request("DELETE", "/v1/holds/\(token)")
                        }
                    }
                }
            }
        }
        // The crash once sales of every kind are acknowledged (or 10 s).
        func kinds() -> (places: Int, partner: Int, season: Int) {
            let all = sales.current
            return (
                all.values.filter { $0.contains { $0.seat.hasPrefix("floor:") } }.count, all.keys.filter { $0.hasPrefix("DM-") }.count,
                all.values.filter { $0.contains { $0.show == "s2" } }.count
            )
        }
        let loaded = Date().addingTimeInterval(10)
        while (kinds().places < 15 || kinds().partner < 5 || kinds().season < 3) && Date() < loaded { Thread.sleep(forTimeInterval: 0.01) }
        first.kill9()
        stop.withLock { $0 = true }
        group.wait()
        let acknowledged = sales.current, counts = kinds()
        let placesSold = acknowledged.values.reduce(0) { $0 + $1.filter { $0.seat.hasPrefix("floor:") }.count }
        #expect(counts.places > 0 && counts.partner > 0 && counts.season > 0, "the load must have sold every kind before the crash: \(counts)")

        let second = try ServerProcess(store: store, environment: ["SEATKIT_CLOCK_OFFSET_MS": "3600000"])
        defer { second.terminate() }
        let c = try HTTPConnection(port: second.port)
        let availability = try ["s", "s2"].reduce(into: [String: SeatAvailability]()) { out, show in
            out[show] = try SeatAvailability(encoded: try c.request("GET", "/v1/shows/\(show)/availability").text)
        }
        var lost = 0
        for (_, parts) in acknowledged { lost += parts.filter { availability[$0.show]![layout.index(ofSeatID: $0.seat)!] != .sold }.count }
        let a = availability["s"]!
        let floor = try c.request("GET", "/v1/shows/s/areas").json?["areas"]?.arrayValue?.compactMap(\.objectValue).first { $0.text("id") == "floor" }
        let floorSold = floor?["sold"]?.intValue ?? -1, floorFree = floor?["free"]?.intValue ?? -1
        let kept = try c.request("GET", "/v1/shows/s/channels", headers: admin)
        let channelLeft = (try? JSONParser.parse(kept.body))?.arrayValue?.first?.objectValue?["seats"]?.arrayValue?.count ?? -1
        print(
            "MixedCrashTests(\(backend)): \(acknowledged.count) acknowledged sales (\(placesSold) standing places, \(counts.partner) partner, \(counts.season) seasons) before kill -9; lost \(lost); floor sold \(floorSold) + free \(floorFree) + channel's of 100; the channel keeps \(channelLeft)"
        )
        #expect(lost == 0, "acknowledged seats or places not sold after the restart")
        #expect(a.counts.held == 0 && channelLeft >= 0 && channelLeft == a.counts.blocked, "the channel keeps its unsold seats: \(kept.text)")
        #expect(floorSold >= placesSold && floorSold + floorFree + (floor?["blocked"]?.intValue ?? 0) == 100, "floor \(String(describing: floor))")
        let stored: SeatStore = backend == .sqlite ? try SQLiteStore(path: String(store.dropFirst("sqlite:".count))) : try PostgresStore(url: store)
        for show in ["s", "s2"] {
            let claims = try stored.claims(show: show)
            #expect(
                claims.allSatisfy { ($0.status == .sold || $0.status == .blocked) && $0.holdID != nil }
                    && claims.count == availability[show]!.counts.sold + availability[show]!.counts.blocked)
        }
        #expect(
            try stored.claims(show: "s").filter { layout.isPlace($0.seat) && layout.area(of: $0.seat)?.area.id == "floor" && $0.status == .sold }.count
                == floorSold)
    }
}

@Suite(.serialized) struct ShutdownTests {
    /// SIGTERM: event streams are closed, the process exits cleanly, and the store reopens.
    @Test func sigtermShutsDownGracefully() throws {
        guard ServerProcess.binaryIsBuilt() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-term-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("seatkit.db").path
        let server = try ServerProcess(store: store)
        let c = try HTTPConnection(port: server.port)
        #expect(try c.addShow("s", of: SampleVenues.cinemaHall(), prices: ["standard": "1", "vip": "2", "couple": "3"]) == [201, 201])
        let events = try HTTPConnection(port: server.port)
        #expect(try events.openEvents("/v1/shows/s/events") == 200)
        _ = try events.nextEvent()
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
        // The stream was ended, not cut mid-event.
        #expect(throws: HTTPConnection.Failure.self) { _ = try events.nextEvent() }
        let reopened = try SQLiteStore(path: store)
        #expect(try reopened.shows().map(\.id) == ["s"])
    }

    /// SIGTERM in the middle of a stream of holds: the process still exits promptly and cleanly (every
    /// request waiting on a commit is answered before the HTTP daemon stops).
    @Test func sigtermUnderLoadExitsPromptly() throws {
        guard ServerProcess.binaryIsBuilt() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-term2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(store: "sqlite:" + directory.appendingPathComponent("seatkit.db").path)
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let c = try HTTPConnection(port: server.port)
        #expect(try c.request("POST", "/v1/venues", headers: admin, body: SampleVenues.arena(seats: 2000).jsonBytes()).status == 201)
        #expect(
            try c.request(
                "POST", "/v1/shows",
                json:
                    #"{"id":"s","venueId":"arena-2000","startsAt":"2099-12-01T20:00:00+08:00","prices":{"categories":{"lower":"1","upper":"2"}},"policy":{"noLoneSeat":false}}"#,
                headers: admin
            ).status == 201)
        let port = server.port
        let stop = Locked(false)
        let answered = Locked(0)
        let group = DispatchGroup()
        for worker in 0..<6 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let conn = try? HTTPConnection(port: port, timeoutSeconds: 3) else { return }
                var n = 0
                while !stop.current {
                    n += 1
                    guard let r = try? hold(conn, ["\(101 + worker)-\(1 + n % 20)-\(1 + n % 5)"], show: "s") else { return }
                    if r.status == 201, let t = r.string("token") { _ = try? conn.request("DELETE", "/v1/holds/\(t)") }
                    answered.withLock { $0 += 1 }
                }
            }
        }
        // SIGTERM lands under load: once every worker has had answers (100 in all, or 10 s).
        let loaded = Date().addingTimeInterval(10)
        while answered.current < 100 && Date() < loaded { Thread.sleep(forTimeInterval: 0.01) }
        let sent = Date()
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
        stop.withLock { $0 = true }
        group.wait()
        #expect(Date().timeIntervalSince(sent) < 5)
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
    }
}
