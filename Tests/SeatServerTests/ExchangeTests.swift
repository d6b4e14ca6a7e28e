import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatSamples
import SeatServer
import SeatServerTestSupport
import SeatWire
import SharedState
import Testing

/// Exchanges over real HTTP, on both stores: the box office moves an order to other seats or another
/// show in one step (old tickets revoked, new ones issued, the difference stated); a buyer does it
/// with the order's code within the show's policy; every bad request is a precise answer that changes
/// nothing; an exchange racing buyers for its new seats never sells a seat twice or loses the order's.
@Suite(.serialized) struct ExchangeTests {
    static let li = ReservationTests.li
    static let admin = [("X-Admin-Key", TestServer.adminKey)]
    let layout = SampleVenues.cinemaHall()

    /// A show on the sample hall starting `minutes` from now, with `details` (JSON) if given.
    func makeShow(_ c: HTTPConnection, _ id: String, startsIn minutes: Double, standard: String = "50", details: String? = nil) throws {
        let starts = ISO8601DateFormatter().string(from: Date().addingTimeInterval(minutes * 60))
        let extra = details.map { #","details":\#($0)"# } ?? ""
        let show =
            #"{"id":"\#(id)","venueId":"cinema-hall-3","startsAt":"\#(starts)","prices":{"categories":{"standard":"\#(standard)","vip":"70","couple":"120"}}\#(extra)}"#
        let made = try c.request("POST", "/v1/shows", json: show, headers: Self.admin)
        #expect(made.status == 201, "\(made.text)")
    }

    func sell(_ c: HTTPConnection, _ show: String, _ seats: [String], ref: String, force: Bool = false) throws {
        let list = seats.map { "\"\($0)\"" }.joined(separator: ",")
        let sale = try c.request(
            "POST", "/v1/shows/\(show)/sales", json: #"{"seats":[\#(list)],"orderRef":"\#(ref)","payment":"cash","force":\#(force)}"#, headers: Self.li)
        #expect(sale.status == 201, "\(sale.text)")
    }

    func tickets(_ c: HTTPConnection, _ ref: String, query: String = "", headers: [(String, String)] = li) throws -> [String: [JSONObject]] {
        let r = try c.request("GET", "/v1/orders/\(ref)/tickets\(query)", headers: headers)
        #expect(r.status == 200, "\(r.text)")
        return Dictionary(grouping: r.json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []) { $0["status"]?.stringValue ?? "" }
    }

    func statuses(_ server: TestServer, _ show: String, _ seats: [String]) throws -> [String] {
        let a = try server.availability(show)
        return seats.map { a[layout.index(ofSeatID: $0)!].name }
    }

    @Test(arguments: StoreBackend.available) func theBoxOfficeMovesAnOrderToAnotherShowAndWithinIt(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        try makeShow(c, "later", startsIn: 3 * 24 * 60)
        try sell(c, "show", ["5-1", "5-2"], ref: "BOX-1")
        let before = try tickets(c, "BOX-1")["valid"] ?? []
        #expect(before.count == 2)
        let x = try c.request(
            "POST", "/v1/orders/BOX-1/exchange", json: #"{"to":{"show":"later","seats":["6-3","6-4"]},"payment":"card","reason":"wrong day"}"#,
            headers: Self.li)
        #expect(x.status == 200, "\(x.text)")
        let answer = try ExchangeResource(json: x.body)
        #expect(answer.from.showID == "show" && answer.from.seats.map(\.seat) == ["5-1", "5-2"])
        #expect(answer.to.showID == "later" && answer.to.seats.map(\.seat) == ["6-3", "6-4"] && answer.to.holdID.hasPrefix("x_"))
        let difference = Decimal(string: answer.to.total)! - Decimal(string: answer.from.total)!
        #expect(Decimal(string: answer.difference) == difference && Decimal(string: answer.fee) == 0, "\(x.text)")
        // The order: the old part keeps its history, the new part says what it replaced, each seat given back says where it went.
        let order = answer.order
        #expect(order.parts.count == 2 && order.parts[1].exchangedFrom == order.parts[0].holdID && order.parts[1].payment == "card")
        #expect(order.parts[0].seats.isEmpty && order.parts[1].operatorName == "li")
        #expect(order.refunds.map(\.seat) == ["5-1", "5-2"] && order.refunds.allSatisfy { $0.exchangedTo == answer.to.holdID && $0.returnedTo == nil })
        #expect(try statuses(server, "show", ["5-1", "5-2"]) == ["available", "available"])
        #expect(try statuses(server, "later", ["6-3", "6-4"]) == ["sold", "sold"])
        // Old tickets revoked (the door's list too), new ones issued.
        let after = try tickets(c, "BOX-1")
        #expect(Set((after["revoked"] ?? []).compactMap { $0["ticketId"]?.stringValue }) == Set(before.compactMap { $0["ticketId"]?.stringValue }))
        #expect(
            (after["valid"] ?? []).map { $0["seat"]?.stringValue } == ["6-3", "6-4"]
                && (after["valid"] ?? []).allSatisfy { $0["showId"]?.stringValue == "later" })
        #expect(try TicketTests().issuer(c).revoked.sorted() == before.compactMap { $0["ticketId"]?.stringValue }.sorted())
        // Within the show: one step, the same order.
        let move = try c.request("POST", "/v1/orders/BOX-1/exchange", json: #"{"to":{"show":"later","best":2}}"#, headers: Self.li)
        #expect(move.status == 200, "\(move.text)")
        let moved = try ExchangeResource(json: move.body)
        #expect(moved.from.seats.map(\.seat) == ["6-3", "6-4"] && moved.to.seats.count == 2 && moved.to.showID == "later")
        #expect(try statuses(server, "later", moved.to.seats.map(\.seat)) == ["sold", "sold"])
        #expect(try statuses(server, "later", ["6-3", "6-4"]) == ["available", "available"])
        // The log says who did what.
        let log = try c.request("GET", "/v1/shows/later/log", headers: Self.li)
        #expect(log.text.contains("\"exchange\"") && log.text.contains("wrong day"), "\(log.text.prefix(400))")
        // The same after a restart.
        let view = try c.request("GET", "/v1/orders/BOX-1", headers: Self.li).text
        try server.restart()
        #expect(try server.connection().request("GET", "/v1/orders/BOX-1", headers: Self.li).text == view)
    }

    @Test(arguments: StoreBackend.available) func anExchangedTicketIsRefusedAtTheDoorAndItsReplacementLetIn(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        let door = CheckInTests()
        let codes = try door.tonight(server, c, seats: ["5-1", "5-2"], ref: "NIGHT-X")
        let x = try c.request("POST", "/v1/orders/NIGHT-X/exchange", json: #"{"to":{"show":"tonight","seats":["6-5","6-7"]}}"#, headers: Self.li)
        #expect(x.status == 200, "\(x.text)")
        for seat in ["5-1", "5-2"] {
            let old = try door.scan(c, try #require(codes[seat]))
            #expect(old["result"]?.stringValue == "revoked" && old["ok"]?.boolValue == false, "\(old)")
            #expect(old["detail"]?.stringValue?.contains("exchanged") == true, "\(old)")
        }
        let fresh = try tickets(c, "NIGHT-X")["valid"] ?? []
        #expect(fresh.map { $0["seat"]?.stringValue } == ["6-5", "6-7"])
        for t in fresh { #expect(try door.scan(c, try #require(t["code"]?.stringValue))["result"]?.stringValue == "ok") }
        let counts = try c.request("GET", "/v1/shows/tonight/report", headers: Self.li)
        #expect(counts.json?["came"]?.intValue == 2, "\(counts.text.prefix(300))")
        let day = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400)).prefix(10)
        let week = ISO8601DateFormatter().string(from: Date().addingTimeInterval(7 * 86_400)).prefix(10)
        let sales = try SalesReportResource(json: c.request("GET", "/v1/reports/sales?from=\(day)&to=\(week)", headers: Self.li).body)
        #expect(sales.shows.first { $0.showID == "tonight" }.map { ($0.came, $0.exchangedSeats) } ?? (0, 0) == (2, 2))
        #expect(sales.totals.first?.came == 2)
    }

    @Test(arguments: StoreBackend.available) func aBadExchangeIsAPreciseAnswerThatChangesNothing(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        try makeShow(c, "later", startsIn: 3 * 24 * 60)
        try sell(c, "show", ["5-1", "5-2"], ref: "BOX-2")
        try sell(c, "later", ["8-1"], ref: "BOX-3")
        let order = try c.request("GET", "/v1/orders/BOX-2", headers: Self.li).text
        var versions = try (server.availability("show").version, server.availability("later").version)
        func refused(_ body: String, _ status: Int, _ type: String, _ words: String, ref: String = "BOX-2") throws {
            let r = try c.request("POST", "/v1/orders/\(ref)/exchange", json: body, headers: Self.li)
            #expect(
                r.status == status && r.headers["content-type"] == "application/problem+json" && r.string("type") == "/problems/\(type)"
                    && (r.string("detail") ?? "").contains(words), "\(body): \(r.status) \(r.text)")
        }
        try refused(#"{"to":{"show":"later","seats":["8-1","8-2"]}}"#, 409, "seats-taken", "8-1 is sold")
        try refused(#"{"to":{"show":"later","seats":["6-1"]}}"#, 422, "invalid-body", "2 seats given back, 1 named")
        try refused(#"{"to":{"show":"later","best":3}}"#, 422, "invalid-body", "best asks for 3")
        try refused(#"{"to":{"show":"later","seats":["6-1","99-99"]}}"#, 422, "unknown-seats", "99-99")
        try refused(#"{"to":{"show":"nope","seats":["6-1","6-2"]}}"#, 404, "not-found", "nope")
        try refused(#"{"seats":["5-3"],"to":{"show":"later","seats":["6-1"]}}"#, 409, "not-in-order", "5-3")
        try refused(#"{"to":{"show":"show","seats":["5-2","5-3"]}}"#, 422, "invalid-body", "5-2 already this order's")
        try refused(#"{"to":{"show":"later","seats":["6-1","6-2"]}}"#, 404, "not-found", "no order", ref: "NOPE")
        try refused(#"{"to":{"show":"later"}}"#, 422, "invalid-body", "to: give \"seats\"")
        try refused(#"{"to":{"show":"later","seats":["6-1","6-2"]},"colour":"red"}"#, 422, "invalid-body", "colour")
        // A show in a small room (two seats, both free): three seats do not fit, whichever way they are asked for.
        let room = try VenueLayout(
            validating: VenueSpec(
                id: "studio-2", name: "放映室 Studio", zones: [Zone(id: "standard", name: "普通区 Standard", category: "standard", color: "#4A90D9")],
                rows: [
                    RowSpec(
                        id: "1", label: "1", zone: "standard",
                        seats: [SeatSpec(id: "1-1", label: "1", x: 0, y: 0), SeatSpec(id: "1-2", label: "2", x: 1, y: 0)])
                ]))
        #expect(try c.request("POST", "/v1/venues", headers: Self.admin, body: room.jsonBytes()).status == 201)
        let starts = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400))
        let studio = try c.request(
            "POST", "/v1/shows", json: #"{"id":"studio","venueId":"studio-2","startsAt":"\#(starts)","prices":{"categories":{"standard":"30"}}}"#,
            headers: Self.admin)
        #expect(studio.status == 201, "\(studio.text)")
        try sell(c, "show", ["4-1", "4-2", "4-3"], ref: "BOX-4", force: true)
        versions.0 += 1
        try refused(#"{"to":{"show":"studio","best":3}}"#, 409, "seats-taken", "no 3 free seats side by side", ref: "BOX-4")
        try refused(#"{"to":{"show":"studio","seats":["1-1","1-2"]}}"#, 422, "invalid-body", "3 seats given back, 2 named", ref: "BOX-4")
        #expect(try statuses(server, "show", ["4-1", "4-2", "4-3"]) == ["sold", "sold", "sold"])
        // A seat refunded already cannot be exchanged.
        #expect(try c.request("POST", "/v1/orders/BOX-2/refund", json: #"{"seats":["5-2"],"reason":"ill"}"#, headers: Self.li).status == 200)
        try refused(#"{"seats":["5-2"],"to":{"show":"later","seats":["6-1"]}}"#, 409, "not-in-order", "refunded or exchanged already")
        // Nothing changed but the refund: the order, and both shows' seats.
        let now = try c.request("GET", "/v1/orders/BOX-2", headers: Self.li).json
        #expect(now?["refunds"]?.arrayValue?.count == 1 && now?["parts"]?.arrayValue?.count == 1, "\(order)")
        #expect(try server.availability("later").version == versions.1 && server.availability("show").version == versions.0 + 1)
        // Without a key or a code: 401; the door may not.
        #expect(try c.request("POST", "/v1/orders/BOX-2/exchange", json: #"{"to":{"show":"later","best":1}}"#).status == 401)
        #expect(try c.request("POST", "/v1/orders/BOX-2/exchange", json: #"{"to":{"show":"later","best":1}}"#, headers: TicketTests.door).status == 403)
    }

    @Test(arguments: StoreBackend.available) func aBuyerExchangesAndRefundsWithTheOrdersCodeWithinTheShowsPolicy(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        try makeShow(
            c, "fri", startsIn: 3 * 24 * 60, details: #"{"title":{"zh":"沙丘","en":"Dune"},"duration":166,"afterSale":{"exchanges":1,"exchangeFee":"5"}}"#)
        let made = try hold(c, ["7-1", "7-2"], show: "fri")
        let code = try #require(made.string("token"), "\(made.text)")
        #expect(try c.request("POST", "/v1/holds/\(code)/confirm", json: #"{"orderRef":"WEB-1"}"#).status == 200)
        // The buyer's view: their order and what they may still do.
        let view = try c.request("GET", "/v1/orders/WEB-1?code=\(code)")
        #expect(view.status == 200, "\(view.text)")
        let terms = try #require(try OrderResource(json: view.body).afterSale?.first)
        #expect(terms.showID == "fri" && terms.exchangesLeft == 1 && Decimal(string: terms.exchangeFee) == 5 && terms.refundUntil != nil)
        #expect(try c.request("GET", "/v1/orders/WEB-1?code=not-the-code-0123456789").status == 404)
        #expect(try c.request("GET", "/v1/orders/WEB-1").status == 401)
        // Force is the box office's; then an exchange within the show, with the fee.
        let forced = try c.request("POST", "/v1/orders/WEB-1/exchange", json: #"{"to":{"show":"fri","seats":["8-1","8-2"]},"force":true,"code":"\#(code)"}"#)
        #expect(forced.status == 422 && (forced.string("detail") ?? "").contains("force is the box office's"), "\(forced.text)")
        let x = try c.request("POST", "/v1/orders/WEB-1/exchange", json: #"{"to":{"show":"fri","seats":["8-1","8-2"]},"code":"\#(code)"}"#)
        #expect(x.status == 200, "\(x.text)")
        let answer = try ExchangeResource(json: x.body)
        #expect(
            Decimal(string: answer.fee) == 10
                && Decimal(string: answer.difference) == Decimal(string: answer.to.total)! + 10 - Decimal(string: answer.from.total)!)
        #expect(answer.order.parts.last?.channel == "online" && answer.order.parts.last?.fee.flatMap { Decimal(string: $0) } == 10)
        // Once only, as the show says.
        let again = try c.request("POST", "/v1/orders/WEB-1/exchange", json: #"{"to":{"show":"fri","seats":["9-1","9-2"]},"code":"\#(code)"}"#)
        #expect(
            again.status == 409 && again.string("type") == "/problems/after-sale-closed" && (again.string("detail") ?? "").contains("1 time"), "\(again.text)")
        // The tickets by the code (and by the hold's token) are the new seats'.
        let mine = try tickets(c, "WEB-1", query: "?code=\(code)", headers: [])
        #expect((mine["valid"] ?? []).map { $0["seat"]?.stringValue } == ["8-1", "8-2"] && (mine["revoked"] ?? []).count == 2)
        let byToken = try c.request("GET", "/v1/holds/\(code)/tickets").json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(byToken.filter { $0["status"]?.stringValue == "valid" }.map { $0["seat"]?.stringValue } == ["8-1", "8-2"])
        // Add to calendar.
        let ics = try c.request("GET", "/v1/orders/WEB-1/calendar.ics?code=\(code)&lang=en")
        #expect(ics.status == 200 && ics.headers["content-type"] == "text/calendar; charset=utf-8", "\(ics.text)")
        #expect(ics.text.contains("BEGIN:VEVENT\r\n") && ics.text.contains("SUMMARY:Dune\r\n") && ics.text.contains("Seats 8-1\\, 8-2"), "\(ics.text)")
        #expect(ics.text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        // The buyer refunds one seat; it goes back on sale.
        let refund = try c.request("POST", "/v1/orders/WEB-1/refund", json: #"{"seats":["8-2"],"code":"\#(code)"}"#)
        #expect(refund.status == 200, "\(refund.text)")
        #expect(try statuses(server, "fri", ["8-1", "8-2"]) == ["sold", "available"])
        // The reports: the fee kept (in gross and net), the exchanged seats among the refunded ones, across shows too.
        let report = try ShowReportResource(json: c.request("GET", "/v1/shows/fri/report", headers: Self.li).body)
        #expect(Decimal(string: report.fees) == 10 && report.exchangedSeats == 2 && report.refundedSeats == 3, "\(report)")
        #expect(Decimal(string: report.gross)! - Decimal(string: report.refunded)! == Decimal(string: report.net)!)
        #expect(Decimal(string: report.net) == Decimal(string: answer.to.seats[0].price)! + 10, "8-1 and the fee")
        let day = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400)).prefix(10),
            week = ISO8601DateFormatter().string(from: Date().addingTimeInterval(7 * 86_400)).prefix(10)
        let sales = try SalesReportResource(json: c.request("GET", "/v1/reports/sales?from=\(day)&to=\(week)", headers: Self.li).body)
        let row = try #require(sales.shows.first { $0.showID == "fri" })
        #expect(row.exchangedSeats == 2 && row.refundedSeats == 3 && row.net == report.net && row.came == 0)
        // A box-office refund still needs a reason.
        let noReason = try c.request("POST", "/v1/orders/WEB-1/refund", json: #"{"seats":["8-1"]}"#, headers: Self.li)
        #expect(noReason.status == 422 && (noReason.string("detail") ?? "").contains("reason"), "\(noReason.text)")
    }

    /// Today's takings as a cashier signs them: an exchange is one entry of the difference and the fee
    /// (a moved order once read as 4 seats sold, ¥180 taken and ¥90 refunded), a buyer's is online money
    /// by clerk `online` (it read as a clerk named "buyer" at −¥232), and each show's sum stays its
    /// report's net when seats move between shows.
    @Test(arguments: StoreBackend.available) func anExchangeIsOneEntryOfTheDifferenceInTheTakings(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        try makeShow(c, "sat", startsIn: 3 * 24 * 60, standard: "60", details: #"{"afterSale":{"exchanges":2,"exchangeFee":"5"}}"#)
        try makeShow(c, "sun", startsIn: 4 * 24 * 60, standard: "45", details: #"{"afterSale":{"exchanges":2,"exchangeFee":"5"}}"#)
        // The counter: two seats at 60, moved by li to two at 45 on another show (¥30 back, no fee).
        try sell(c, "sat", ["5-1", "5-2"], ref: "BOX-1")
        let counter = try c.request("POST", "/v1/orders/BOX-1/exchange", json: #"{"to":{"show":"sun","seats":["5-1","5-2"]}}"#, headers: Self.li)
        #expect(counter.status == 200, "\(counter.text)")
        // A buyer: two seats at 45 online, moved to two at 60 on another show (¥30 more and ¥10 of fees).
        let made = try hold(c, ["5-3", "5-4"], show: "sun")
        let code = try #require(made.string("token"))
        #expect(try c.request("POST", "/v1/holds/\(code)/confirm", json: #"{"orderRef":"WEB-1"}"#).status == 200)
        let online = try c.request("POST", "/v1/orders/WEB-1/exchange", json: #"{"to":{"show":"sat","seats":["5-3","5-4"]},"code":"\#(code)"}"#)
        #expect(online.status == 200, "\(online.text)")

        let day = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3_600)),
            end = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3_600))
        let t = try TakingsResource(json: c.request("GET", "/v1/reports/takings?from=\(day)&to=\(end)", headers: Self.li).body)
        let kinds = t.entries.map { "\($0.kind) \($0.orderRef ?? "") \($0.clerk) \($0.payment) \($0.seats) \($0.amount)" }
        #expect(
            kinds == [
                "sale BOX-1 li cash 2 120.00", "exchange BOX-1 li cash 2 -30.00", "sale WEB-1 online online 2 90.00", "exchange WEB-1 online online 2 40.00",
            ],
            "\(kinds)")
        let exchange = try #require(t.entries.last)
        #expect(exchange.showID == "sat" && exchange.fromShowID == "sun" && exchange.givenBack.flatMap { Decimal(string: $0) } == 90)
        let total = try #require(t.totals.first)
        #expect(Decimal(string: total.taken) == 250 && Decimal(string: total.refunded) == 30 && Decimal(string: total.net) == 220, "\(total)")
        #expect(total.seatsSold == 4 && total.seatsRefunded == 0, "seats moved are not sold again nor refunded")
        // Clerks are people: li, and online money; nobody called "buyer".
        #expect(t.byClerk.map { $0.key ?? "" } == ["li", "online"], "\(t.byClerk.map(\.key))")
        #expect(t.byClerk.map { Decimal(string: $0.net)! } == [90, 130])
        // Each show's sum is its report's net.
        for show in ["sat", "sun"] {
            let report = try ShowReportResource(json: c.request("GET", "/v1/shows/\(show)/report", headers: Self.li).body)
            let sum = try #require(t.byShow.first { $0.key == show })
            #expect(Decimal(string: sum.net) == Decimal(string: report.net), "\(show): takings \(sum.net), report \(report.net)")
        }
        // The cash-up of li alone holds li's entries only.
        let li = try TakingsResource(json: c.request("GET", "/v1/reports/takings?from=\(day)&to=\(end)&clerk=li", headers: Self.li).body)
        #expect(li.entries.count == 2 && li.totals.first.map { Decimal(string: $0.net) } == 90)
    }

    @Test(arguments: StoreBackend.available) func theShowsPolicyClosesBuyersExchangesAndRefundsInTime(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        // Starting in 45 minutes: exchanges (30 minutes before) still open, refunds (60) closed.
        try makeShow(c, "soon", startsIn: 45)
        try makeShow(c, "none", startsIn: 3 * 24 * 60, details: #"{"afterSale":{"exchanges":0,"refunds":false}}"#)
        for (show, ref) in [("soon", "WEB-S"), ("none", "WEB-N")] {
            let made = try hold(c, ["7-1"], show: show)
            let code = try #require(made.string("token"))
            #expect(try c.request("POST", "/v1/holds/\(code)/confirm", json: #"{"orderRef":"\#(ref)"}"#).status == 200)
            let refund = try c.request("POST", "/v1/orders/\(ref)/refund", json: #"{"code":"\#(code)"}"#)
            #expect(refund.status == 409 && refund.string("type") == "/problems/after-sale-closed", "\(refund.text)")
            let x = try c.request("POST", "/v1/orders/\(ref)/exchange", json: #"{"to":{"show":"\#(show)","seats":["9-9"]},"code":"\#(code)"}"#)
            if show == "soon" {
                #expect(x.status == 200, "\(x.text)")
            } else {
                #expect(x.status == 409 && (x.string("detail") ?? "").contains("takes no exchanges"), "\(x.text)")
            }
        }
        #expect(try statuses(server, "none", ["7-1"]) == ["sold"])
        // A policy that cannot be read is refused where it is written, naming the member.
        let starts = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400))
        let bad = try c.request(
            "POST", "/v1/shows",
            json:
                #"{"id":"bad","venueId":"cinema-hall-3","startsAt":"\#(starts)","prices":{"categories":{"standard":"40"}},"details":{"afterSale":{"exchangeFee":"5.001","exchanges":-1,"often":true}}}"#,
            headers: Self.admin)
        #expect(bad.status == 422, "\(bad.text)")
        for member in ["details.afterSale.exchangeFee", "details.afterSale.exchanges", "details.afterSale.often"] {
            #expect(bad.text.contains(member), "\(bad.text)")
        }
    }

    /// An exchange and buyers race for the same new seats (on two instances with PostgreSQL): each round
    /// exactly one side gets them, the order always has its seats (old or new, never none, never both),
    /// and no seat is sold twice.
    @Test(arguments: StoreBackend.available) func anExchangeRacingBuyersForItsNewSeatsNeverSellsASeatTwiceNorLosesTheOrder(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let other = backend == .postgres ? try server.sibling() : server
        let c = try server.connection()
        try makeShow(c, "later", startsIn: 3 * 24 * 60)
        // The other instance learns of the new show from the store's log: raced only once it knows it (a
        // hold there before would be a 404, not a lost race; seen once in CI on a busy machine).
        let otherConnection = try other.connection()
        for _ in 0..<100 where try otherConnection.request("GET", "/v1/shows/later").status != 200 { usleep(50_000) }
        #expect(try otherConnection.request("GET", "/v1/shows/later").status == 200, "the other instance knows the show")
        let rounds = 12
        var exchanged = 0, bought = 0
        for round in 0..<rounds {
            let ref = "RACE-\(round)", old = ["10-\(round + 1)"], new = ["9-\(round + 1)"]
            try sell(c, "show", old, ref: ref, force: true)  // a single seat beside another's gap: past the lone-seat rule
            let results = Locked<[Int]>([])
            let start = DispatchSemaphore(value: 0), done = DispatchGroup()
            // Every third round the buyer is first (the exchange then finds the seat taken, on the other
            // instance with PostgreSQL); the others start together.
            let buyerFirst = round % 3 == 2
            DispatchQueue.global().async(group: done) {
                start.wait()
                if buyerFirst { while results.withLock({ $0.isEmpty }) { usleep(1000) } }
                let r = try? server.connection().request(
                    "POST", "/v1/orders/\(ref)/exchange", json: #"{"to":{"show":"later","seats":["\#(new[0])"]}}"#, headers: Self.li)
                results.withLock { $0.append(r?.status ?? 0) }
            }
            DispatchQueue.global().async(group: done) {
                start.wait()
                let r = try? hold(other.connection(), new, show: "later")
                results.withLock { $0.append(r?.status == 201 ? 1 : (r?.status ?? 0)) }
            }
            start.signal(); start.signal()
            done.wait()
            let statuses = results.withLock { $0 }
            let exchangeWon = statuses.contains(200), buyerWon = statuses.contains(1)
            #expect(exchangeWon != buyerWon, "round \(round): exactly one side gets \(new[0]): \(statuses)")
            if exchangeWon { exchanged += 1 } else { bought += 1 }
            let order = try OrderResource(json: c.request("GET", "/v1/orders/\(ref)", headers: Self.li).body)
            let has = order.parts.flatMap { p in p.seats.map { "\(p.showID)/\($0.seat)" } }
            #expect(has == (exchangeWon ? ["later/\(new[0])"] : ["show/\(old[0])"]), "round \(round): the order has \(has)")
            #expect(try self.statuses(server, "show", old) == [exchangeWon ? "available" : "sold"])
            #expect(try self.statuses(other, "later", new) == [exchangeWon ? "sold" : "held"])
        }
        #expect(bought >= rounds / 3, "the buyer a moment ahead wins: \(bought) of \(rounds)")
        print("exchange race (\(backend)): \(rounds) rounds, exchange first \(exchanged), buyer first \(bought); every order kept its seats, none sold twice")
    }
}
