import Foundation
import LoopbackHTTP
import SeatDomain
import SeatJSON
import SeatMap
import SeatSamples
import SeatSecrets
import SeatServer
import SeatServerTestSupport
@testable import SeatStorage
import SharedState
import Testing

/// Shows spread over two PostgreSQL databases on two clusters (#29): `east` a schema of the test run's
/// cluster, `west` one of a cluster this suite starts itself (`scripts/pg-cluster.sh`) and stops to
/// make a shard's database go away. Two instances on both, over real HTTP.
@Suite(.serialized, .enabled(if: StoreBackend.available.contains(.postgres))) struct ShardTests {
    /// The second database machine, shared by the suite's tests (they run one at a time).
    static let westCluster = Result { try PostgresCluster() }
    static let li = ReservationTests.li
    static let admin = [("X-Admin-Key", TestServer.adminKey)]

    func twoShards() throws -> ShardList {
        let west = try Self.westCluster.get()
        return try ShardList(entries: [
            .init(name: "east", url: try StoreBackend.postgres.freshStore(in: FileManager.default.temporaryDirectory)),
            .init(name: "west", url: west.freshStore()),
        ])
    }

    /// An instance on the shards; the first seeds the sample hall and its show, the others do not.
    func server(_ shards: ShardList, seed: Bool = true) throws -> TestServer {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("operators-\(UUID().uuidString).txt").path
        try "li boxoffice \(OperatorDirectory.digest(ReservationTests.boxOfficeKey))\n".write(toFile: path, atomically: true, encoding: .utf8)
        return try TestServer(seed: seed, shards: shards) { $0.operatorsFile = path }
    }

    func createShow(_ c: HTTPConnection, _ id: String, shard: String?, day: Int = 1) throws -> HTTPConnection.Response {
        let shardMember = shard.map { #","shard":"\#($0)""# } ?? ""
        return try c.request(
            "POST", "/v1/shows",
            json:
                #"{"id":"\#(id)","venueId":"cinema-hall-3","startsAt":"2099-12-0\#(day)T21:00:00+08:00","prices":{"categories":{"standard":"40","vip":"60","couple":"90"}}\#(shardMember)}"#,
            headers: Self.admin)
    }

    /// Waits until `body` holds (the other instance learns a show or a change through its follower).
    func eventually(_ seconds: Double = 10, _ body: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try body() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try body()
    }

    /// Placement, identifiers and every cross-show read: a show goes where the request says (or by the
    /// rule), is kept only there, and both instances serve it; venues reach every shard by themselves;
    /// tokens and ids name their shard, so the other instance acts on them at once; orders, the sales
    /// and takings reports and order search read both shards.
    @Test func showsLiveOnTheirShardAndEveryInstanceServesThem() throws {
        let shards = try twoShards()
        let a = try server(shards)
        let b = try server(shards, seed: false)
        let ca = try a.connection(), cb = try b.connection()
        // The seeded show went by the rule: both shards empty, the first listed.
        #expect(try ca.request("GET", "/v1/shows/show").json?["shard"]?.stringValue == "east")
        for (id, shard) in [("w1", "west"), ("w2", "west")] {
            let made = try createShow(ca, id, shard: shard)
            #expect(made.status == 201 && made.json?["shard"]?.stringValue == shard, "\(made.status) \(made.text)")
        }
        // No shard named: the one with the fewest shows to come (east has 1, west 2), as the instance
        // knows them (B learns A's shows from the shards it follows).
        #expect(try eventually { try cb.request("GET", "/v1/shows/w2").status == 200 })
        #expect(try createShow(cb, "auto", shard: nil, day: 2).json?["shard"]?.stringValue == "east")
        let east = try PostgresStore(url: shards.entries[0].url), west = try PostgresStore(url: shards.entries[1].url)
        let eastShows = Set(try east.shows().map(\.id)), westShows = Set(try west.shows().map(\.id))
        #expect(eastShows == ["show", "auto"] && westShows == ["w1", "w2"])
        #expect(try east.venues().map(\.id) == ["cinema-hall-3"] && west.venues().map(\.id) == ["cinema-hall-3"], "the venue on both shards")
        #expect(try eventually { try cb.request("GET", "/v1/shows/w1").json?["shard"]?.stringValue == "west" })
        // The shards for the console's move dialog: a manager's, in the deployment's order, with their shows.
        let listed = try cb.request("GET", "/v1/shards", headers: Self.admin)
        let rows = listed.json?["shards"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(listed.status == 200 && rows.map { $0["name"]?.stringValue } == ["east", "west"], "\(listed.text)")
        #expect(rows.map { $0["shows"]?.intValue } == [2, 2] && rows.allSatisfy { $0["up"]?.boolValue == true }, "\(listed.text)")
        #expect(try cb.request("GET", "/v1/shards", headers: Self.li).status == 403, "a manager's view")

        // A buyer on west through instance A, confirmed through instance B: the token names its shard.
        let held = try hold(ca, ["5-1", "5-2"], show: "w1")
        let token = try #require(held.string("token"))
        #expect(held.status == 201 && token.hasPrefix("west.") && held.string("holdId")?.hasPrefix("h_west.") == true, "\(held.text)")
        let confirmed = try cb.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"WEB-W1"}"#)
        #expect(confirmed.status == 200, "\(confirmed.text)")
        #expect(try west.orders(orderRef: "WEB-W1").count == 1 && east.orders(orderRef: "WEB-W1").isEmpty)
        // Counter sales and reservations on each shard, named by it.
        let sale = try cb.request(
            "POST", "/v1/shows/show/sales", json: #"{"seats":["6-1"],"orderRef":"BOX-E1","payment":"cash","buyer":{"name":"王小明","phone":"13800138000"}}"#,
            headers: Self.li)
        #expect(sale.status == 201, "\(sale.text)")
        let salePart = try #require(sale.json?["parts"]?.arrayValue?.first?.objectValue)
        #expect(salePart["holdId"]?.stringValue?.hasPrefix("s_east.") == true)
        let blocked = try ca.request("POST", "/v1/shows/w2/reservations", json: #"{"kind":"blocked","seats":["7-1"],"reason":"camera"}"#, headers: Self.li)
        #expect(blocked.status == 201 && blocked.string("id")?.hasPrefix("r_west.") == true, "\(blocked.text)")
        let blockID = try #require(blocked.string("id"))
        #expect(try cb.request("GET", "/v1/reservations/\(blockID)", headers: Self.li).status == 200, "the other instance finds it by its id")
        #expect(try cb.request("POST", "/v1/shows/w2/sales", json: #"{"seats":["8-1"],"orderRef":"BOX-W2","payment":"card"}"#, headers: Self.li).status == 201)

        // An exchange between shows of two shards cannot be one transaction: refused, nothing changed.
        let across = try cb.request("POST", "/v1/orders/BOX-E1/exchange", json: #"{"to":{"show":"w1","seats":["9-1"]}}"#, headers: Self.li)
        #expect(across.status == 409 && across.json?["type"]?.stringValue == "/problems/across-shards", "\(across.text)")
        #expect(try cb.request("GET", "/v1/orders/BOX-E1", headers: Self.li).json?["parts"]?.arrayValue?.count == 1)

        // Orders, wherever they are, from either instance.
        #expect(try ca.request("GET", "/v1/orders/BOX-E1", headers: Self.li).status == 200)
        #expect(try ca.request("GET", "/v1/orders/WEB-W1", headers: Self.li).json?["parts"]?.arrayValue?.count == 1)
        #expect(try cb.request("GET", "/v1/orders/NOPE", headers: Self.li).status == 404)
        let found = try ca.request("GET", "/v1/orders?q=8000", headers: Self.li)
        #expect(found.status == 200 && found.json?["orders"]?.arrayValue?.first?.objectValue?["orderRef"]?.stringValue == "BOX-E1", "\(found.text)")

        // The sales report spans both shards: west's w1 and w2, east's show; the totals add up.
        #expect(try eventually { try ca.request("GET", "/v1/shows/w2").json?["seats"]?.objectValue?["sold"]?.intValue == 1 })
        #expect(try eventually { try ca.request("GET", "/v1/shows/auto").status == 200 })
        let sales = try ca.request("GET", "/v1/reports/sales?from=2099-12-01&to=2099-12-03", headers: Self.li)
        let showList = sales.json?["shows"]?.arrayValue?.compactMap { $0.objectValue }
        let shows = try #require(showList, "\(sales.text)")
        let sold = Dictionary(uniqueKeysWithValues: shows.map { ($0["showId"]?.stringValue ?? "", $0["sold"]?.intValue ?? -1) })
        #expect(sold == ["show": 1, "w1": 2, "w2": 1, "auto": 0], "\(sold)")
        #expect(sales.json?["totals"]?.arrayValue?.first?.objectValue?["sold"]?.intValue == 4)
        // Today's takings: the money of both shards' sales.
        let today = String(SeatAPITestHooks.iso(Int64(Date().timeIntervalSince1970 * 1000)).prefix(10))
        let tomorrow = String(SeatAPITestHooks.iso(Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000).prefix(10))
        let takings = try cb.request("GET", "/v1/reports/takings?from=\(today)&to=\(tomorrow)", headers: Self.li)
        #expect(takings.status == 200, "\(takings.text)")
        let entries = takings.json?["entries"]?.arrayValue?.compactMap { $0.objectValue?["showId"]?.stringValue } ?? []
        #expect(Set(entries) == ["show", "w1", "w2"], "\(takings.text)")
    }

    /// One shard down is one shard down (#29 item 2): while west's database is stopped, its shows answer
    /// 503 with Retry-After at once, east's keep selling, the show list still answers; when west returns,
    /// both instances sell on it again by themselves within seconds, and each sees what the other did.
    @Test func oneShardDownIsOneShardDown() throws {
        let shards = try twoShards()
        let west = try Self.westCluster.get()
        let a = try server(shards)
        let b = try server(shards, seed: false)
        let ca = try a.connection(), cb = try b.connection()
        #expect(try createShow(ca, "w1", shard: "west").status == 201)
        #expect(try eventually { try cb.request("GET", "/v1/shows/w1").status == 200 })
        #expect(try hold(ca, ["5-1"], show: "w1").status == 201)
        #expect(try ca.request("POST", "/v1/shows/w1/sales", json: #"{"seats":["9-1"],"orderRef":"BOX-W0","payment":"cash"}"#, headers: Self.li).status == 201)

        try west.stop()
        defer { try? west.start() }
        var slowest = 0.0, eastSold = 0
        for k in 1...12 {
            for c in [ca, cb] {
                let started = Date()
                let refused = try hold(c, ["6-\(k)"], show: "w1")
                slowest = max(slowest, Date().timeIntervalSince(started))
                #expect(refused.status == 503 && refused.headers["retry-after"] != nil, "\(refused.status) \(refused.text)")
            }
            let sold = try cb.request(
                "POST", "/v1/shows/show/sales", json: #"{"seats":["6-\#(k)"],"orderRef":"BOX-E\#(k)","payment":"cash"}"#, headers: Self.li)
            #expect(sold.status == 201, "east sells while west is down: \(sold.text)")
            if sold.status == 201 { eastSold += 1 }
            #expect(try hold(ca, ["7-\(k)"]).status == 201)
        }
        print("shard down: slowest refusal of a west show \(Int(slowest * 1000)) ms; east sold \(eastSold) of 12 at the counter meanwhile")
        #expect(slowest < 1, "a show on a shard that is down answers at once, not after a connect timeout")
        #expect(try ca.request("GET", "/v1/shows").status == 200 && cb.request("GET", "/v1/shows/w1").status == 200)
        #expect(try ca.request("GET", "/metrics").text.contains("seatkit_shard_west_up 0"), "the outage in the metrics")
        let down = try ca.request("GET", "/v1/shards", headers: Self.admin).json?["shards"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(down.map { $0["up"]?.boolValue } == [true, false] && down.last?["downSince"]?.intValue != nil, "the outage for the console: \(down)")
        let lostOrder = try ca.request("GET", "/v1/orders/BOX-W0", headers: Self.li)
        #expect(lostOrder.status == 503, "an order that may be on the missing shard is not 'not found': \(lostOrder.status)")
        // An instance started now does not know west's shows: they may be there, so not "not found".
        let late = try server(shards, seed: false)
        let cl = try late.connection()
        let unknown = try cl.request("GET", "/v1/shows/w1"), unknownHold = try hold(cl, ["8-3"], show: "w1")
        #expect(unknown.status == 503 && unknown.headers["retry-after"] != nil && unknown.text.contains("shard west"), "\(unknown.status) \(unknown.text)")
        #expect(unknownHold.status == 503, "\(unknownHold.status) \(unknownHold.text)")
        #expect(try cl.request("GET", "/v1/shows/show").status == 200, "east's shows it knows")

        try west.start()
        var recovered: Double?, last = ""
        let back = Date()
        #expect(
            try eventually(30) {
                let r = try hold(ca, ["8-1"], show: "w1")
                last = "\(r.status) \(r.text)"
                if r.status == 201 { recovered = Date().timeIntervalSince(back) }
                return r.status == 201
            }, "\(last)")
        #expect(try eventually(10) { try hold(cb, ["8-2"], show: "w1").status == 201 })
        #expect(try eventually { try ca.request("GET", "/metrics").text.contains("seatkit_shard_west_up 1") })
        print("shard back: writes on it succeed again \(String(format: "%.2f", recovered ?? -1)) s after its database started")
        // Each instance sees the other's west holds, and the order written before the outage.
        let layout = SampleVenues.cinemaHall()
        // nil while the server still answers 503 (under ThreadSanitizer the shard's return takes longer).
        func status(_ server: TestServer, _ seat: String) -> SeatStatus? {
            layout.index(ofSeatID: seat).flatMap { i in (try? server.availability("w1")).map { $0[i] } }
        }
        #expect(eventually { status(a, "8-2") == .held && status(b, "8-1") == .held })
        #expect(try cb.request("GET", "/v1/orders/BOX-W0", headers: Self.li).status == 200)
        // The late instance learns west's shows when it returns, and sells them; a show on no shard is 404 again.
        #expect(try eventually { try hold(cl, ["8-3"], show: "w1").status == 201 })
        #expect(try cl.request("GET", "/v1/shows/w1").json?["shard"]?.stringValue == "west")
        #expect(try cl.request("GET", "/v1/shows/nowhere").status == 404)
    }

    /// One shard slow is one shard slow: while west's database stalls a commit (a session holds its
    /// show's row lock, as a long transaction or a stalled disk would), holds on east go on at once,
    /// and west's waiting hold is written when the stall ends. With one writer thread for both shards,
    /// every east hold waited behind west's batch.
    @Test func aShardThatStallsDoesNotStallTheOther() throws {
        let shards = try twoShards()
        let a = try server(shards)
        let c = try a.connection()
        #expect(try createShow(c, "s1", shard: "west").status == 201)
        #expect(try hold(c, ["5-1"], show: "s1").status == 201)
        // At most 5 s: without a lane a shard, east's holds wait this long, and the test fails.
        let stall = Stall(try PostgresStore(url: shards.entries[1].url), "SELECT version FROM shows WHERE id = 's1' FOR UPDATE", atMost: 5)
        let done = DispatchGroup()
        let stalled = Locked<HTTPConnection.Response?>(nil)
        done.enter()
        Thread.detachNewThread {
            defer { done.leave() }
            let r = try? hold(try a.connection(), ["5-2"], show: "s1")
            stalled.withLock { $0 = r }
        }
        Thread.sleep(forTimeInterval: 0.3)
        var slowest = 0.0
        for k in 1...5 {
            let started = Date()
            #expect(try hold(c, ["6-\(k)"]).status == 201, "east holds while west stalls")
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        #expect(slowest > 4 || stalled.current == nil, "west's hold is still waiting for its database")
        stall.end()
        done.wait()
        print("west stalled: east's slowest hold meanwhile \(Int(slowest * 1000)) ms")
        #expect(slowest < 1, "east's holds did not wait for west's stalled commit")
        #expect(stalled.current?.status == 201, "west's hold written once the stall ended: \(stalled.current?.text ?? "no answer")")
    }

    /// One shard slow is one shard slow for following too: while west's shows table is locked (no
    /// read of it answers), the other instance still hears east's commits and applies them at once. A
    /// follower for both shards read every shard's versions after a quiet second, and waited on west.
    @Test func aStalledShardDoesNotStallFollowingTheOther() throws {
        let shards = try twoShards()
        let a = try server(shards)
        let b = try server(shards, seed: false)
        let ca = try a.connection()
        #expect(try createShow(ca, "f1", shard: "east").status == 201)
        #expect(try createShow(ca, "f2", shard: "west").status == 201)
        #expect(eventually { (try? b.availability("f1")) != nil && (try? b.availability("f2")) != nil }, "b knows both shows")
        let stall = Stall(try PostgresStore(url: shards.entries[1].url), "LOCK TABLE shows IN ACCESS EXCLUSIVE MODE", atMost: 8)
        // Past a quiet second: b's followers have each read their shard's versions once meanwhile.
        Thread.sleep(forTimeInterval: 1.5)
        let started = Date()
        #expect(try hold(ca, ["5-1", "5-2"], show: "f1").status == 201)
        let heard = eventually(5) { (try? b.availability("f1").counts.held) == 2 }
        let took = Date().timeIntervalSince(started)
        stall.end()
        print("west's shows locked: the other instance applied east's hold after \(Int(took * 1000)) ms")
        #expect(heard && took < 1, "east's commit reached the other instance while west stalled (\(Int(took * 1000)) ms)")
        #expect(try hold(ca, ["5-3"], show: "f2").status == 201, "west serves again")
    }

    /// A show moves to another shard while off sale (#29 item 1), with its sales, reservations,
    /// refunds, buyers' contacts and log; its records keep their identifiers and are found from either
    /// instance; it sells on its new shard. On sale, to a shard that does not exist or to its own
    /// shard, it is refused and nothing moves.
    @Test func anOffSaleShowMovesWithEverythingItHas() throws {
        let shards = try twoShards()
        let a = try server(shards)
        let b = try server(shards, seed: false)
        let ca = try a.connection(), cb = try b.connection()
        #expect(try createShow(ca, "m1", shard: "east").status == 201)
        let token = try #require(try hold(ca, ["5-1", "5-2"], show: "m1").string("token"))
        #expect(try ca.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"WEB-M1"}"#).status == 200)
        let sale = try ca.request(
            "POST", "/v1/shows/m1/sales", json: #"{"seats":["6-1","6-2"],"orderRef":"BOX-M1","payment":"cash","buyer":{"name":"李雷","phone":"13912345678"}}"#,
            headers: Self.li)
        #expect(sale.status == 201)
        #expect(try ca.request("POST", "/v1/orders/BOX-M1/refund", json: #"{"seats":["6-2"],"reason":"ill"}"#, headers: Self.li).status == 200)
        let blocked = try ca.request("POST", "/v1/shows/m1/reservations", json: #"{"kind":"house","seats":["7-1"],"reason":"guests"}"#, headers: Self.li)
        let blockID = try #require(blocked.string("id"))
        #expect(blockID.hasPrefix("r_east."))
        let east = try PostgresStore(url: shards.entries[0].url), west = try PostgresStore(url: shards.entries[1].url)
        let logBefore = try east.log(show: "m1", after: 0, limit: 100).count
        let tokenBefore = try ca.request("GET", "/v1/holds/\(token)")

        func move(_ c: HTTPConnection, to shard: String) throws -> HTTPConnection.Response {
            try c.request("POST", "/v1/shows/m1/move", json: #"{"shard":"\#(shard)"}"#, headers: Self.admin)
        }
        let onSale = try move(ca, to: "west")
        #expect(onSale.status == 409 && onSale.json?["type"]?.stringValue == "/problems/show-on-sale", "\(onSale.text)")
        #expect(try east.shows().contains { $0.id == "m1" } && west.shows().isEmpty, "nothing moved")
        #expect(tokenBefore.status != 404, "\(tokenBefore.text)")
        // The refusal left the shard up: the next answers are the requests' own, not 503.
        let north = try move(ca, to: "north"), home = try move(ca, to: "east")
        #expect(north.json?["type"]?.stringValue == "/problems/unknown-shard", "\(north.text)")
        #expect(home.status == 422, "\(home.text)")
        #expect(try ca.request("POST", "/v1/shows/m1/move", json: #"{"shard":"west"}"#, headers: Self.li).status == 403, "a manager's act")

        // Paused on the source database by someone neither instance has heard from yet (a CI run moved
        // a show 3 ms after the other instance paused it, and memory still said "on sale"): the
        // database's word counts.
        try east.withConnection { _ = try $0.execute("UPDATE shows SET on_sale = false WHERE id = 'm1'") }
        #expect(try cb.request("GET", "/v1/shows/m1").json?["onSale"]?.boolValue == true, "memory has not heard")
        let moved = try move(cb, to: "west")
        #expect(moved.status == 200 && moved.json?["shard"]?.stringValue == "west", "\(moved.status) \(moved.text)")
        #expect(
            try !east.shows().contains { $0.id == "m1" } && east.sales(show: "m1").isEmpty && east.log(show: "m1", after: 0, limit: 10).isEmpty,
            "nothing left behind")
        // The moves as both databases recorded them: the one refused (on sale) rolled back, the other
        // done on the source, its copy arrived on the target.
        func states(_ store: PostgresStore) throws -> [String] {
            try store.withConnection { c in
                let r = try c.execute("SELECT state FROM shard_moves WHERE show_id = 'm1' ORDER BY state")
                return r.rows.indices.map { r.text($0, 0) }
            }
        }
        #expect(try states(east) == ["rolled_back", "source_deleted"] && states(west) == ["copied"])
        #expect(try west.sales(show: "m1").count == 2 && west.activeHolds(show: "m1").count == 1)
        let log = try west.log(show: "m1", after: 0, limit: 100)
        #expect(log.count == logBefore + 1 && log.last?.entry.action == "move" && log.last?.entry.operatorName == "admin", "\(log.map(\.entry.action))")
        // The buyer's contact moved with its keyed hashes, still sealed (the box office finds it by phone below).
        let contact = try west.contacts?.contact(orderRef: "BOX-M1")
        #expect(contact?.phone?.hasPrefix("pd1.") == true && contact?.phoneTailKey != nil)

        // Either instance: the show on west, its old records by their old names, and it sells there.
        #expect(try eventually { try ca.request("GET", "/v1/shows/m1").json?["shard"]?.stringValue == "west" })
        for c in [ca, cb] {
            #expect(try c.request("GET", "/v1/reservations/\(blockID)", headers: Self.li).status == 200)
            let order = try c.request("GET", "/v1/orders/BOX-M1", headers: Self.li)
            #expect(order.status == 200 && order.json?["refunds"]?.arrayValue?.count == 1, "\(order.text)")
            let byPhone = try c.request("GET", "/v1/orders?q=5678", headers: Self.li)
            #expect(byPhone.text.contains("BOX-M1") && byPhone.text.contains("13912345678"), "found and opened on its new shard: \(byPhone.text)")
            let again = try c.request("GET", "/v1/holds/\(token)")
            #expect(again.status == tokenBefore.status && again.text == tokenBefore.text, "the buyer's token says what it said before the move")
        }
        let after = try cb.request("POST", "/v1/shows/m1/sales", json: #"{"seats":["8-1"],"orderRef":"BOX-M2","payment":"card"}"#, headers: Self.li)
        let part = after.json?["parts"]?.arrayValue?.first?.objectValue
        #expect(after.status == 201 && part?["holdId"]?.stringValue?.hasPrefix("s_west.") == true, "\(after.text)")
        #expect(eventually { (try? a.availability("m1")).map { $0 == (try? b.availability("m1")) } ?? false })
        let seats = try a.availability("m1").counts
        #expect(seats.sold == 4 && seats.blocked == 1, "5-1, 5-2, 6-1 and 8-1 sold, 7-1 kept: \(seats)")
    }

    /// A move interrupted between its two transactions (the target took its copy, the source's
    /// deletion never committed) leaves the show on both shards, recorded `copying` on the source. A
    /// running instance's coordinator round finishes the move; an instance started later settles it
    /// too, and for a show on sale again keeps it where it is and discards the target's copy.
    @Test func anInterruptedMoveIsFinishedOrUndone() throws {
        struct Interrupted: Error {}
        let shards = try twoShards()
        let a = try server(shards)
        let ca = try a.connection()
        let east = try PostgresStore(url: shards.entries[0].url), west = try PostgresStore(url: shards.entries[1].url)
        for id in ["i1", "i2"] {
            #expect(try createShow(ca, id, shard: "east", day: id == "i1" ? 1 : 2).status == 201)
            #expect(
                try ca.request("POST", "/v1/shows/\(id)/sales", json: #"{"seats":["5-1"],"orderRef":"BOX-\#(id)","payment":"cash"}"#, headers: Self.li).status
                    == 201)
            #expect(try ca.request("PATCH", "/v1/shows/\(id)", json: #"{"onSale":false}"#, headers: Self.admin).status == 200)
        }
        func interruptedMove(_ id: String) throws {
            // The process dies between the two transactions: west committed its copy, east rolled back.
            let move = ShardMove(show: id, from: "east", to: "west")
            try east.recordMove(move)
            #expect(throws: Interrupted.self) {
                _ = try east.settle(
                    move,
                    copy: { rows in
                        try west.putIn(move, rows: rows)
                        throw Interrupted()
                    }, discard: {})
            }
        }
        try interruptedMove("i1")
        // Meanwhile the show is still east's: the counter sells there, and that sale moves too.
        #expect(try ca.request("POST", "/v1/shows/i1/sales", json: #"{"seats":["5-3"],"orderRef":"BOX-I1B","payment":"cash"}"#, headers: Self.li).status == 201)
        #expect(
            try eventually { try !east.shows().contains { $0.id == "i1" } && west.sales(show: "i1").count == 2 },
            "the running instance finished the move")
        #expect(try eventually { try ca.request("GET", "/v1/shows/i1").json?["shard"]?.stringValue == "west" })
        #expect(
            try ca.request("GET", "/v1/orders/BOX-i1", headers: Self.li).status == 200
                && ca.request("GET", "/v1/orders/BOX-I1B", headers: Self.li).status == 200)

        a.app.stop()
        try interruptedMove("i2")
        #expect(try east.shows().contains { $0.id == "i2" } && west.shows().contains { $0.id == "i2" }, "on both shards")
        // On sale again before anyone repaired it (switched on in its database: no instance is running).
        try east.withConnection { _ = try $0.execute("UPDATE shows SET on_sale = true WHERE id = 'i2'") }
        // The first to open the shards repairs it, and says so to whoever watches (the server logs it).
        let opened = try ShardedStore(shards)
        let said = Locked([String]())
        opened.watcher.watchRepairs { text in said.withLock { $0.append(text) } }
        #expect(said.current.count == 1 && said.current.first?.contains("stays on east") == true, "\(said.current)")
        let b = try server(shards, seed: false)
        let cb = try b.connection()
        #expect(try east.sales(show: "i2").count == 1 && !west.shows().contains { $0.id == "i2" }, "i2 stays on east, west's copy gone")
        #expect(try west.sales(show: "i2").isEmpty && west.log(show: "i2", after: 0, limit: 10).isEmpty)
        #expect(try cb.request("GET", "/v1/shows/i2").json?["shard"]?.stringValue == "east")
        #expect(try hold(cb, ["6-1"], show: "i2").status == 201, "i2 sells on east")
        #expect(try cb.request("GET", "/v1/shows/i1").json?["shard"]?.stringValue == "west")
    }

    /// A move whose target goes away under it fails, and marks only the target down: the target's
    /// connection failure passes through the source's call (the copy is written inside the source's
    /// transaction), and was taken for the source's own, so both shards' shows answered 503.
    @Test func aMoveWhoseTargetGoesAwayMarksOnlyTheTargetDown() throws {
        let shards = try twoShards()
        let west = try Self.westCluster.get()
        do {
            let a = try server(shards)
            let c = try a.connection()
            #expect(try createShow(c, "d1", shard: "east").status == 201)
            #expect(try c.request("PATCH", "/v1/shows/d1", json: #"{"onSale":false}"#, headers: Self.admin).status == 200)
            a.app.stop()
        }
        let store = try ShardedStore(shards)
        #expect(store.status().allSatisfy { $0.outage == nil }, "both up before")
        try west.stop()
        defer { try? west.start() }
        #expect(throws: (any Error).self) { try store.move(show: "d1", to: "west") }
        let after = store.status()
        #expect(after.first { $0.name == "east" }?.outage == nil, "the source stays up: \(after)")
        #expect(after.first { $0.name == "west" }?.outage != nil, "the target is down: \(after)")
        #expect(try store.shard(forShow: "d1").name == "east" && PostgresStore(url: shards.entries[0].url).shows().contains { $0.id == "d1" })
    }

    /// A shard added to a running deployment (#29 item 1): `seatkit serve --shards FILE` reads its file
    /// again on SIGHUP. The new shard gets the venues by itself and takes shows at once; a file that
    /// drops a shard changes nothing and the server keeps serving.
    @Test func aShardIsAddedToARunningServerOnSIGHUP() throws {
        guard ServerProcess.binaryIsBuilt() else { return }
        let shards = try twoShards()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("shards-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "# the chain's shards\neast \(shards.entries[0].url)\n".write(toFile: file, atomically: true, encoding: .utf8)
        let server = try ServerProcess(store: "", samples: true, storeArguments: ["--shards", file])
        defer { server.terminate() }
        #expect(server.banner.contains("1 shards: east"))
        let c = try HTTPConnection(port: server.port)
        #expect(try createShow(c, "w1", shard: "west").json?["type"]?.stringValue == "/problems/unknown-shard")

        try "# the chain's shards\neast \(shards.entries[0].url)\nwest \(shards.entries[1].url)\n".write(toFile: file, atomically: true, encoding: .utf8)
        kill(server.process.processIdentifier, SIGHUP)
        #expect(try eventually { try createShow(c, "w1", shard: "west").status == 201 })
        let west = try PostgresStore(url: shards.entries[1].url)
        #expect(try west.shows().map(\.id) == ["w1"] && Set(west.venues().map(\.id)).isSuperset(of: ["cinema-hall-3", "imax-1"]))
        let held = try hold(c, ["5-1"], show: "w1")
        #expect(held.status == 201 && held.string("token")?.hasPrefix("west.") == true)

        // A list without east: refused whole; both shards still serve.
        try "west \(shards.entries[1].url)\n".write(toFile: file, atomically: true, encoding: .utf8)
        kill(server.process.processIdentifier, SIGHUP)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try hold(c, ["5-2"], show: "w1").status == 201 && c.request("GET", "/v1/shows/hall3-1930").json?["shard"]?.stringValue == "east")
    }

    /// Bad shard lists are refused before any database is touched, each with its place and reason; a
    /// database listed under another shard's name is refused (its identifiers would route wrongly); a
    /// The venue heat map across shards (#29 item 1): the hall's past shows on east and on west both
    /// counted, each seat's share of them sold.
    @Test func theHeatMapCountsTheShowsOfEveryShard() throws {
        let shards = try twoShards()
        let a = try server(shards)
        let c = try a.connection()
        let iso = ISO8601DateFormatter()
        for (id, shard, minutes) in [("early", "east", 10), ("late", "west", 190)] {
            let startsAt = iso.string(from: Date().addingTimeInterval(Double(minutes) * 60))
            let made = try c.request(
                "POST", "/v1/shows",
                json:
                    #"{"id":"\#(id)","venueId":"cinema-hall-3","startsAt":"\#(startsAt)","shard":"\#(shard)","prices":{"categories":{"standard":"40","vip":"60","couple":"90"}}}"#,
                headers: Self.admin)
            #expect(made.status == 201 && made.json?["shard"]?.stringValue == shard, "\(made.text)")
        }
        let token = try #require(try hold(c, ["7-1", "7-2"], show: "early").string("token"))
        #expect(try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"HEAT-1"}"#).status == 200)
        let sale = try c.request("POST", "/v1/shows/late/sales", json: #"{"seats":["7-1"],"orderRef":"HEAT-2","payment":"cash"}"#, headers: Self.li)
        #expect(sale.status == 201, "\(sale.text)")
        // Both shows over: four hours on.
        a.app.inventory.clockOffset.advance(by: 4 * 3_600_000)
        let heat = try c.request("GET", "/v1/venues/cinema-hall-3/heatmap?days=1")
        #expect(heat.status == 200 && heat.headers["x-shows-counted"] == "2", "\(heat.status) \(heat.headers)")
        #expect(heat.json?["7-1"]?.doubleValue == 1 && heat.json?["7-2"]?.doubleValue == 0.5 && heat.json?["7-3"]?.doubleValue == 0)
    }

    /// A stopped instance lets go of its shards: its listener threads end and every connection it had
    /// to them closes (with two shards the listener was never freed, and each stopped server kept its
    /// connections and store for ever).
    @Test func aStoppedInstanceLetsGoOfItsShards() throws {
        // The instance's connections to west carry a name of their own: the suite's other tests open and
        // close theirs on the same cluster meanwhile (counting every client made this test flaky in CI).
        let name = "stopped-\(UUID().uuidString.prefix(8))"
        let two = try twoShards(), westURL = two.entries[1].url
        let shards = try ShardList(entries: [
            two.entries[0], .init(name: "west", url: westURL + (westURL.contains("?") ? "&" : "?") + "application_name=\(name)"),
        ])
        let west = try PostgresStore(url: westURL)
        func connections() throws -> Int {
            try west.withConnection { c in
                Int(try c.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)'").text(0, 0)) ?? -1
            }
        }
        let before = try connections()
        do {
            let a = try server(shards)
            let c = try a.connection()
            #expect(try createShow(c, "z1", shard: "west").status == 201)
            #expect(try hold(c, ["5-1"], show: "z1").status == 201)
            #expect(try connections() > before, "the instance reaches west")
            a.app.stop()
        }
        var after = -1
        #expect(
            try eventually {
                after = try connections(); return after <= before
            }, "\(before) connections to west before the instance, \(after) after it stopped")
    }

    /// An operator reading `top -H` or `perf` sees which thread is which: a shard's writer lane and
    /// listener, the follower, the timers, by name (every SeatKit thread read the process's name before).
    @Test func theServersThreadsAreNamedForTheSystem() throws {
        let a = try server(try twoShards())
        let c = try a.connection()
        #expect(try createShow(c, "n1", shard: "west").status == 201)
        #expect(try hold(c, ["5-1"], show: "n1").status == 201, "west's lane is made by its first change")
        func names() -> Set<String> {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return Set(
                tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) })
        }
        let wanted: Set = [
            "sk-writer", "sk-writer-1", "sk-follow-east", "sk-follow-west", "sk-expiry", "sk-heartbeat", "sk-queues", "sk-pruner",
            "sk-conn-guard", "sk-shards",
        ]
        var seen = Set<String>()
        #expect(
            eventually {
                seen = names(); return wanted.isSubset(of: seen)
            }, "missing: \(wanted.subtracting(seen).sorted())")
        a.app.stop()
    }

    /// show asked for on a shard that does not exist is a 422 naming the shards, and nothing is made.
    /// Staff belong to no show (#56): every shard keeps them. A clerk made on one instance signs in on the
    /// other; with one shard's database stopped the key and the revocation still work (the other shard
    /// answers), and once it is back the shards' round brings it the revocation.
    @Test func staffAreKeptOnEveryShardAndSurviveOneDown() throws {
        let shards = try twoShards()
        let west = try Self.westCluster.get()
        let a = try server(shards), b = try server(shards, seed: false)
        let made = try a.connection().request(
            "POST", "/v1/operators", json: #"{"name":"mei","role":"boxoffice","cinemas":"all"}"#, headers: Self.admin)
        let key = try #require(made.string("key"))
        for shard in shards.entries {
            let store = try PostgresStore(url: shard.url)
            #expect(try store.allStaff().contains { $0.name == "mei" && $0.keyDigest == OperatorDirectory.digest(key) }, "\(shard.name)")
        }
        #expect(try eventually { try b.connection().request("GET", "/v1/operators/me", headers: [("X-Admin-Key", key)]).status == 200 })
        try west.stop()
        defer { try? west.start() }
        #expect(try b.connection().request("GET", "/v1/operators/me", headers: [("X-Admin-Key", key)]).status == 200)
        let disabled = try a.connection().request("PATCH", "/v1/operators/mei", json: #"{"state":"disabled"}"#, headers: Self.admin)
        #expect(disabled.status == 200, "\(disabled.text)")
        #expect(try eventually { try b.connection().request("GET", "/v1/operators/me", headers: [("X-Admin-Key", key)]).status == 401 })
        // West back: the shards' round writes the newer record there, so west alone would refuse the key too.
        try west.start()
        let westStore = try PostgresStore(url: shards.entries[1].url)
        #expect(eventually { (try? westStore.allStaff().first { $0.name == "mei" }?.state) == .disabled })
    }

    @Test func badShardsAreRefusedPrecisely() throws {
        func problem(_ make: () throws -> ShardList) -> String {
            do { _ = try make() } catch { return String(describing: error) }
            return "accepted"
        }
        let pg = "postgres://u@h/db"
        #expect(problem { try ShardList(entries: []) } == "shards: no shard is named")
        #expect(problem { try ShardList(stores: ["east=\(pg)", "east=\(pg)2"]) } == "--store shard 2 (east): the name east is also shard 1's")
        #expect(problem { try ShardList(stores: ["east=\(pg)", "west=\(pg)"]) } == "--store shard 2 (west): the same database as shard 1 (east)")
        #expect(problem { try ShardList(stores: ["east=sqlite:x.db", "west=\(pg)"]) }.contains("sqlite:x.db is not a PostgreSQL URL"))
        #expect(problem { try ShardList(stores: ["East=\(pg)", "west=\(pg)2"]) }.contains("a lowercase letter then lowercase letters and digits"))
        #expect(problem { try ShardList(file: "east \(pg)\n# a comment\n\nwest\n", path: "shards.txt") }.hasPrefix("shards.txt:4: a line is"))
        #expect(try ShardList(stores: [pg, pg + "2"]).entries.map(\.name) == ["shard1", "shard2"])

        let shards = try twoShards()
        // Swapped: the databases already say which shard they are.
        _ = try ShardedStore(shards)
        let swapped = try ShardList(entries: [.init(name: "east", url: shards.entries[1].url), .init(name: "west", url: shards.entries[0].url)])
        #expect(throws: ShardIdentityError.self) { try ShardedStore(swapped) }

        let a = try server(shards)
        let c = try a.connection()
        let unknown = try createShow(c, "x1", shard: "north")
        #expect(unknown.status == 422 && unknown.json?["type"]?.stringValue == "/problems/unknown-shard", "\(unknown.text)")
        #expect(unknown.text.contains("north") && unknown.text.contains("east, west"))
        #expect(try c.request("GET", "/v1/shows/x1").status == 404, "nothing was made")
        let oneStore = try TestServer(backend: .sqlite)
        let single = try createShow(try oneStore.connection(), "x1", shard: "east")
        #expect(single.status == 422 && single.text.contains("one store"), "\(single.text)")
        #expect(try oneStore.connection().request("GET", "/v1/shards", headers: Self.admin).text == #"{"shards":[]}"#)
    }
}

/// A database stalled by a transaction of its own holding `statement`'s locks, on a thread of its own,
/// until `end` (or `atMost` seconds): a long transaction, or a stalled disk, as the server meets it.
final class Stall: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let done = DispatchGroup()

    init(_ store: PostgresStore, _ statement: String, atMost seconds: Double) {
        let locked = DispatchSemaphore(value: 0)
        let release = release
        done.enter()
        Thread.detachNewThread { [done] in
            defer { done.leave() }
            try? store.withConnection { db in
                _ = try db.execute("BEGIN")
                _ = try db.execute(statement)
                locked.signal()
                _ = release.wait(timeout: .now() + seconds)
                _ = try db.execute("ROLLBACK")
            }
        }
        locked.wait()
    }

    /// Ends the transaction and waits for its thread.
    func end() {
        release.signal()
        done.wait()
    }
}
