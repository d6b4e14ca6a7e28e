import Foundation
import LoopbackHTTP
import SeatJSON
import SeatServerTestSupport
import SharedState
import Testing

/// Seasons (#53) over HTTP on both stores: the same seats in every show still to come, all shows or
/// none; a night offered for sale and taken back; the season's report; bad seasons refused by name.
@Suite(.serialized) struct SeasonTests {
    static let admin = [("X-Admin-Key", TestServer.adminKey)]
    static let nights = [("n1", "02"), ("n2", "09"), ("n3", "16")]

    func livehouse(_ backend: StoreBackend, extra: [String] = []) throws -> TestServer {
        try TestServer.livehouse(
            backend,
            shows: Self.nights.map { id, day in
                #"{"id":"\#(id)","venueId":"livehouse","startsAt":"2099-12-\#(day)T20:00:00+08:00","prices":{"categories":{"standard":"280.00","standing":"180.00","box":"300.00"}},"policy":{"maxSeats":8}}"#
            } + extra)
    }

    func makeSeason(_ c: HTTPConnection, _ shows: [String] = ["n1", "n2", "n3"], name: String = "冬季演出季 Winter season") throws -> String {
        let list = shows.map { "\"\($0)\"" }.joined(separator: ",")
        let made = try c.request("POST", "/v1/seasons", json: #"{"name":"\#(name)","shows":[\#(list)]}"#, headers: Self.admin)
        guard made.status == 201, let id = made.string("id") else { throw HTTPConnection.Failure.malformed("season refused: \(made.text)") }
        return id
    }

    /// The seat's status in a show (`available`, `held`, `sold`, `blocked`), as the show's report says it.
    func status(_ c: HTTPConnection, _ show: String, _ seat: String) throws -> String? {
        let csv = try c.request("GET", "/v1/shows/\(show)/report", headers: Self.admin + [("Accept", "text/csv")]).text
        let lines = csv.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first, let column = header.firstIndex(of: "status") else { return nil }
        return lines.first { $0.first == seat }.map { $0[column] }
    }

    @Test(arguments: StoreBackend.available) func theBoxOfficeSellsASeasonAndANightGoesBackAndComesBack(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        let season = try makeSeason(c)
        let got = try c.request("GET", "/v1/seasons/\(season)")
        #expect(got.status == 200 && got.json?["shows"]?.arrayValue?.count == 3 && got.string("venueId") == "livehouse", "\(got.text)")
        // Sold at the counter: two seats and two standing places in each of the three shows, one order.
        let sold = try c.request(
            "POST", "/v1/seasons/\(season)/sales", json: #"{"seats":["A-1","A-2"],"areas":{"floor":2},"orderRef":"SEASON-1","payment":"card"}"#,
            headers: Self.admin)
        #expect(sold.status == 201, "\(sold.text)")
        let parts = sold.json?["parts"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(parts.count == 3 && parts.allSatisfy { $0.text("channel") == "season:冬季演出季 Winter season" }, "\(sold.text)")
        #expect(parts.allSatisfy { ($0["seats"]?.arrayValue?.count ?? 0) == 4 })
        for (show, _) in Self.nights {
            #expect(try status(c, show, "A-1") == "sold")
            let buyer = try c.request("POST", "/v1/shows/\(show)/holds", json: #"{"seats":["A-1"]}"#)
            #expect(buyer.status == 409, "\(show): \(buyer.text)")
        }
        // The audit trail: each show's log says who made the season and sold it.
        let log = try c.request("GET", "/v1/shows/n2/log", headers: Self.admin).text
        #expect(log.contains("\"season\"") && log.contains("SEASON-1"), "\(log)")
        // Night 2 offered: A-1 of n2 is for sale; the season keeps n1 and n3.
        let release = try c.request("POST", "/v1/seasons/\(season)/seats/A-1/release", json: #"{"show":"n2"}"#, headers: Self.admin)
        #expect(release.status == 204, "\(release.text)")
        #expect(try status(c, "n2", "A-1") == "available" && (try status(c, "n1", "A-1")) == "sold")
        let twice = try c.request("POST", "/v1/seasons/\(season)/seats/A-1/release", json: #"{"show":"n2"}"#, headers: Self.admin)
        #expect(twice.status == 409 && twice.string("type") == "/problems/not-in-order", "\(twice.text)")
        // Someone holds it: not taken back; let go: taken back.
        let buyer = try c.request("POST", "/v1/shows/n2/holds", json: #"{"seats":["A-1"]}"#)
        #expect(buyer.status == 201, "\(buyer.text)")
        let blocked = try c.request("POST", "/v1/seasons/\(season)/seats/A-1/reclaim", json: #"{"show":"n2"}"#, headers: Self.admin)
        #expect(blocked.status == 409 && blocked.string("type") == "/problems/seats-taken", "\(blocked.text)")
        #expect(try c.request("DELETE", "/v1/holds/\(try #require(buyer.string("token")))").status == 204)
        let back = try c.request("POST", "/v1/seasons/\(season)/seats/A-1/reclaim", json: #"{"show":"n2"}"#, headers: Self.admin)
        #expect(back.status == 204, "\(back.text)")
        #expect(try status(c, "n2", "A-1") == "sold")
        // Offered again and bought by someone else: the report says released 1, resold 1.
        #expect(try c.request("POST", "/v1/seasons/\(season)/seats/A-1/release", json: #"{"show":"n2"}"#, headers: Self.admin).status == 204)
        let other = try c.request("POST", "/v1/shows/n2/holds", json: #"{"seats":["A-1"]}"#)
        let bought = try c.request("POST", "/v1/holds/\(try #require(other.string("token")))/confirm", json: #"{"orderRef":"NIGHT-2"}"#)
        #expect(bought.status == 200, "\(bought.text)")
        let late = try c.request("POST", "/v1/seasons/\(season)/seats/A-1/reclaim", json: #"{"show":"n2"}"#, headers: Self.admin)
        #expect(late.status == 409, "\(late.text)")
        let report = try c.request("GET", "/v1/seasons/\(season)/report", headers: Self.admin)
        #expect(report.status == 200, "\(report.text)")
        let nights = report.json?["nights"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(nights.map { $0["seasonSeats"]?.intValue ?? -1 } == [4, 3, 4], "\(report.text)")
        #expect(nights.map { $0["released"]?.intValue ?? -1 } == [0, 1, 0] && nights[1]["resold"]?.intValue == 1, "\(report.text)")
        // A release moves no money: each night took 2 × 280 + 2 × 180, the reclaimed sale 0.
        #expect(report.string("taken") == "2760.00" && report.json?["orders"]?.intValue == 1, "\(report.text)")
        let showReport = try c.request("GET", "/v1/shows/n2/report", headers: Self.admin)
        #expect(showReport.json?["revenue"]?.objectValue?["refunded"]?.stringValue == "0.00", "\(showReport.text)")
        // Today's takings split by channel: the season's 2760.00 (a release moves no money), the night's buyer 280.00.
        let iso = ISO8601DateFormatter()
        let from = iso.string(from: Date().addingTimeInterval(-600)), to = iso.string(from: Date().addingTimeInterval(600))
        let takings = try c.request("GET", "/v1/reports/takings?from=\(from)&to=\(to)", headers: Self.admin)
        let byChannel = (takings.json?["byChannel"]?.arrayValue ?? []).compactMap(\.objectValue).reduce(into: [String: String]()) {
            $0[$1.text("channel")] = $1.text("net")
        }
        #expect(byChannel == ["season:冬季演出季 Winter season": "2760.00", "online": "280.00"], "\(takings.text)")
        // The order: three sales, one release and its reclaimed sale.
        let order = try c.request("GET", "/v1/orders/SEASON-1", headers: Self.admin)
        #expect(order.json?["parts"]?.arrayValue?.count == 4 && order.json?["refunds"]?.arrayValue?.count == 2, "\(order.text)")
        // The holder's tickets: a valid one a seat a night (n2's A-1 revoked: released, resold to another order).
        let tickets = try c.request("GET", "/v1/orders/SEASON-1/tickets", headers: Self.admin)
        let valid = (tickets.json?["tickets"]?.arrayValue ?? []).compactMap(\.objectValue).filter { $0.text("status") == "valid" }
        #expect(tickets.status == 200 && valid.count == 11, "\(tickets.text)")
        // One night exchanged: A-2 of n3 for B-8 of n3; the other nights' A-2 stay the season's.
        let exchanged = try c.request(
            "POST", "/v1/orders/SEASON-1/exchange", json: #"{"seats":["A-2"],"fromShow":"n3","to":{"show":"n3","seats":["B-8"]}}"#, headers: Self.admin)
        #expect(exchanged.status == 200, "\(exchanged.text)")
        #expect(try status(c, "n3", "A-2") == "available" && (try status(c, "n3", "B-8")) == "sold" && (try status(c, "n1", "A-2")) == "sold")
    }

    @Test(arguments: StoreBackend.available) func aBuyersSeasonHoldIsEveryShowOrNone(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        let season = try makeSeason(c)
        // B-3 of n3 is someone's: the season hold of B-3 is refused naming the show, and holds nothing.
        let single = try c.request("POST", "/v1/shows/n3/holds", json: #"{"seats":["B-3"]}"#)
        #expect(single.status == 201)
        let refused = try c.request("POST", "/v1/seasons/\(season)/holds", json: #"{"seats":["B-3","B-4"]}"#)
        #expect(refused.status == 409 && refused.string("detail")?.hasPrefix("show n3: B-3") == true, "\(refused.text)")
        #expect(try status(c, "n1", "B-3") == "available" && (try status(c, "n2", "B-4")) == "available")
        #expect(try c.request("DELETE", "/v1/holds/\(try #require(single.string("token")))").status == 204)
        // Held: one token, a part a show, the total of the three.
        let held = try c.request("POST", "/v1/seasons/\(season)/holds", json: #"{"seats":["B-3","B-4"]}"#)
        #expect(held.status == 201, "\(held.text)")
        let token = try #require(held.string("token"))
        #expect(held.json?["parts"]?.arrayValue?.count == 3 && held.string("total") == "1680.00", "\(held.text)")
        #expect(try c.request("GET", "/v1/holds/\(token)").status == 404, "a season token is not a show's hold token")
        #expect(try c.request("GET", "/v1/seasons/\(season)/holds/\(token)").string("state") == "active")
        // Let go: every show's seats free again; held again and confirmed: every show's sold.
        #expect(try c.request("DELETE", "/v1/seasons/\(season)/holds/\(token)").status == 204)
        #expect(try status(c, "n2", "B-3") == "available")
        let again = try c.request("POST", "/v1/seasons/\(season)/holds", json: #"{"seats":["B-3","B-4"]}"#)
        let code = try #require(again.string("token"))
        let confirmed = try c.request("POST", "/v1/seasons/\(season)/holds/\(code)/confirm", json: #"{"orderRef":"WEB-SEASON-7"}"#)
        #expect(confirmed.status == 200 && confirmed.string("state") == "confirmed" && confirmed.string("orderRef") == "WEB-SEASON-7", "\(confirmed.text)")
        let order = try c.request("GET", "/v1/orders/WEB-SEASON-7", headers: Self.admin)
        #expect(order.json?["parts"]?.arrayValue?.count == 3, "\(order.text)")
        // The buyer offers a night with their code; a wrong code opens nothing.
        let wrong = try c.request("POST", "/v1/seasons/\(season)/seats/B-3/release", json: #"{"show":"n1","code":"\#(String(repeating: "0", count: 44))"}"#)
        #expect(wrong.status == 404, "\(wrong.text)")
        let own = try c.request("POST", "/v1/seasons/\(season)/seats/B-3/release", json: #"{"show":"n1","code":"\#(code)"}"#)
        #expect(own.status == 204, "\(own.text)")
        #expect(try status(c, "n1", "B-3") == "available")
        let mine = try c.request("POST", "/v1/seasons/\(season)/seats/B-3/reclaim", json: #"{"show":"n1","code":"\#(code)"}"#)
        #expect(mine.status == 204, "\(mine.text)")
    }

    @Test(arguments: StoreBackend.available) func badSeasonsAreRefusedByName(backend: StoreBackend) throws {
        let other =
            ##"{"format":"seatkit-layout","version":1,"id":"studio","name":"Studio","zones":[{"id":"z","name":"Z","category":"standard","color":"#2F6FDE"}],"rows":[{"label":"A","zone":"z","y":1,"seats":[{"id":"A-1","label":"1","x":1}]}]}"##
        let server = try livehouse(
            backend,
            extra: [
                #"{"id":"hk","venueId":"livehouse","startsAt":"2099-12-20T20:00:00+08:00","prices":{"currency":"HKD","categories":{"standard":"300.00","standing":"200.00","box":"300.00"}}}"#
            ])
        let c = try server.connection()
        let venue = try c.request("POST", "/v1/venues", headers: Self.admin, body: Array(other.utf8))
        #expect(venue.status == 201, "\(venue.text)")
        let studio = try c.request(
            "POST", "/v1/shows", json: #"{"id":"st1","venueId":"studio","startsAt":"2099-12-21T20:00:00+08:00","prices":{"categories":{"standard":"50.00"}}}"#,
            headers: Self.admin)
        #expect(studio.status == 201, "\(studio.text)")
        func refused(_ body: String, _ path: String, status: Int = 422) throws {
            let r = try c.request("POST", "/v1/seasons", json: body, headers: Self.admin)
            #expect(r.status == status && (r.string("detail")?.hasPrefix(path) ?? false), "\(body): \(r.text)")
        }
        try refused(#"{"name":"One","shows":["n1"]}"#, "shows")
        try refused(#"{"name":"","shows":["n1","n2"]}"#, "name")
        try refused(#"{"name":"Twice","shows":["n1","n1"]}"#, "shows[1]")
        try refused(#"{"name":"Ghost","shows":["n1","nope"]}"#, "shows[1]")
        try refused(#"{"name":"Two halls","shows":["n1","st1"]}"#, "shows[1]: show st1 is in venue studio")
        try refused(#"{"name":"Two currencies","shows":["n1","hk"]}"#, "shows[1]: show hk is sold in HKD")
        let season = try makeSeason(c, ["n1", "n2"])
        try refused(#"{"name":"Part","shows":["n1","n3"],"parent":"\#(season)"}"#, "shows[1]: show n3 is not in season")
        try refused(#"{"name":"Part","shows":["n1","n2"],"parent":"se_nope"}"#, "parent")
        #expect((try JSONParser.parse(c.request("GET", "/v1/seasons", headers: Self.admin).body)).arrayValue?.count == 1, "nothing made by a refusal")
        // A night of a show not in the season, a seat the season does not have, a sale of a reservation.
        let notIn = try c.request("POST", "/v1/seasons/\(season)/seats/A-1/release", json: #"{"show":"n3"}"#, headers: Self.admin)
        #expect(notIn.status == 422 && notIn.string("detail")?.hasPrefix("show: show n3 is not in season") == true, "\(notIn.text)")
        let notSold = try c.request("POST", "/v1/seasons/\(season)/seats/A-1/release", json: #"{"show":"n1"}"#, headers: Self.admin)
        #expect(notSold.status == 409 && notSold.string("type") == "/problems/not-in-order", "\(notSold.text)")
        let anonymous = try c.request("POST", "/v1/seasons/\(season)/seats/A-1/release", json: #"{"show":"n1"}"#)
        #expect(anonymous.status == 401, "\(anonymous.text)")
        let reservation = try c.request(
            "POST", "/v1/seasons/\(season)/sales", json: #"{"reservation":"r_1","orderRef":"X","payment":"cash"}"#, headers: Self.admin)
        #expect(reservation.status == 422, "\(reservation.text)")
        #expect(try c.request("GET", "/v1/seasons/se_nope").status == 404)
        // The partial season of some of a season's shows is made.
        let part = try c.request("POST", "/v1/seasons", json: #"{"name":"Opening night","shows":["n2","n1"],"parent":"\#(season)"}"#, headers: Self.admin)
        #expect(part.status == 201 && part.json?["shows"]?.arrayValue?.compactMap(\.stringValue) == ["n1", "n2"], "\(part.text)")
    }

    /// A season racing single-show buyers for the same seats: 16 seats, each wanted at once by the
    /// season (a counter sale or a buyer's season hold, in turn) and by one buyer in each of its three
    /// shows, spread over `servers`. A season that won has its seat in all three shows and no single
    /// buyer has it; one that lost left nothing: each show's taken seats are exactly the season's and
    /// its own buyers'.
    func race(_ servers: [TestServer]) throws -> (season: Int, singles: Int) {
        let c = try servers[0].connection()
        let season = try makeSeason(c)
        let seats = (1...8).flatMap { ["A-\($0)", "B-\($0)"] }
        let seasonWon = Locked([String: Int]()), singleWon = Locked([String: Set<String>]()), odd = Locked([String]())
        DispatchQueue.concurrentPerform(iterations: seats.count * 4) { k in
            let seat = seats[k / 4], actor = k % 4
            guard let c = try? servers[k % servers.count].connection() else { return odd.withLock { $0.append("no connection") } }
            let r: HTTPConnection.Response?
            if actor == 0 {
                r =
                    (k / 4) % 2 == 0
                    ? try? c.request(
                        "POST", "/v1/seasons/\(season)/sales", json: #"{"seats":["\#(seat)"],"orderRef":"S-\#(seat)","payment":"cash","force":true}"#,
                        headers: Self.admin)
                    : try? c.request("POST", "/v1/seasons/\(season)/holds", json: #"{"seats":["\#(seat)"]}"#)
                if r?.status == 201 { seasonWon.withLock { $0[seat] = r?.json?["parts"]?.arrayValue?.count ?? 0 } }
            } else {
                r = try? c.request("POST", "/v1/shows/n\(actor)/holds", json: #"{"seats":["\#(seat)"]}"#)
                if r?.status == 201 { singleWon.withLock { _ = $0["n\(actor)", default: []].insert(seat) } }
            }
            guard let r else { return odd.withLock { $0.append("\(seat): no answer") } }
            if r.status != 201 && r.status != 409 && r.string("type") != "/problems/rule-violation" {
                odd.withLock { $0.append("\(seat) by \(actor): \(r.status) \(r.text)") }
            }
        }
        #expect(odd.withLock { $0 }.isEmpty, "\(odd.withLock { $0 })")
        let won = seasonWon.withLock { $0 }, singles = singleWon.withLock { $0 }
        #expect(won.values.allSatisfy { $0 == 3 }, "a season sale of fewer than three shows: \(won)")
        for (show, _) in Self.nights {
            let mine = singles[show] ?? []
            #expect(mine.isDisjoint(with: won.keys), "show \(show): a seat the season won was also sold singly: \(mine.intersection(won.keys))")
            // Every instance, caught up, counts exactly the season's seats and the show's own buyers' taken.
            for server in servers {
                var taken = Set<String>()
                for _ in 0..<50 {
                    let csv = try server.connection().request("GET", "/v1/shows/\(show)/report", headers: Self.admin + [("Accept", "text/csv")]).text
                    taken = Set(
                        csv.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
                            .filter { seats.contains($0[0]) && $0[4] != "available" }.map { $0[0] })
                    if taken == mine.union(won.keys) { break }
                    usleep(100_000)
                }
                #expect(taken == mine.union(won.keys), "show \(show): taken \(taken.sorted()), the season's \(won.keys.sorted()), its buyers' \(mine.sorted())")
            }
        }
        return (won.count, singles.values.reduce(0) { $0 + $1.count })
    }

    @Test(arguments: StoreBackend.available) func aSeasonRacingSingleShowBuyersWinsEverywhereOrNowhere(backend: StoreBackend) throws {
        let (season, singles) = try race([try livehouse(backend)])
        print("season race (\(backend)): the season won \(season) of 16 seats in all three shows; single buyers \(singles) seat-nights")
        #expect(season + singles > 0)
    }

    @Test func aSeasonRacingSingleShowBuyersOnTwoInstancesWinsEverywhereOrNowhere() throws {
        guard StoreBackend.available.contains(.postgres) else { return }
        let a = try livehouse(.postgres)
        let b = try TestServer(backend: .postgres, seed: false, storeURL: a.storeURL)
        let (season, singles) = try race([a, b])
        print("season race (two instances): the season won \(season) of 16 seats in all three shows; single buyers \(singles) seat-nights")
        #expect(season + singles > 0)
    }
}
