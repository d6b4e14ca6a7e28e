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

/// Returned tickets in order (候补, #54 item 5) over real HTTP on both stores: seats a refund frees go
/// to the line before the public, each to the first entry that wants it, held for it `offerMinutes`;
/// unpaid, to the next; bought, the entry says so; nobody wanting them, on sale.
@Suite(.serialized) struct WaitlistTests {
    static let li = ExchangeTests.li
    static let admin = ExchangeTests.admin

    func join(_ c: HTTPConnection, _ body: String, show: String = "wl") throws -> WaitlistResource {
        let r = try c.request("POST", "/v1/shows/\(show)/waitlist", json: body)
        #expect(r.status == 201, "\(r.text)")
        return try WaitlistResource(json: r.body)
    }

    func entry(_ c: HTTPConnection, _ token: String) throws -> WaitlistResource {
        let r = try c.request("GET", "/v1/waitlist/\(token)")
        #expect(r.status == 200, "\(r.text)")
        return try WaitlistResource(json: r.body)
    }

    /// The entry once it reads `state`, or after `seconds`; with how long that took.
    func awaitState(_ c: HTTPConnection, _ token: String, _ state: String, seconds: Double = 5) throws -> (WaitlistResource, Double) {
        let start = Date()
        var now = try entry(c, token)
        while now.state != state && Date().timeIntervalSince(start) < seconds {
            usleep(50_000)
            now = try entry(c, token)
        }
        return (now, Date().timeIntervalSince(start))
    }

    @Test(arguments: StoreBackend.available) func freedSeatsGoToTheLineInOrderNeverToThePublic(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        try ExchangeTests().makeShow(c, "wl", startsIn: 3 * 24 * 60, details: #"{"waitlist":{"offerMinutes":1}}"#)
        try ExchangeTests().sell(c, "wl", ["7-1", "7-2"], ref: "SOLD-1")
        // Three in line: two VIP seats together, one VIP seat, one standard seat.
        let pair = try join(c, #"{"price":"vip","count":2}"#), one = try join(c, #"{"price":"vip","count":1}"#)
        let standard = try join(c, #"{"price":"standard","count":1}"#)
        #expect([pair.position, one.position, standard.position] == [1, 2, 3] && pair.state == "waiting")
        let pairToken = try #require(pair.entry), oneToken = try #require(one.entry), standardToken = try #require(standard.entry)
        #expect(try entry(c, oneToken).entry == nil, "the token is given once")

        // A refund frees 7-1: not for the public; the pair cannot be filled by one seat, the next can.
        #expect(try c.request("POST", "/v1/orders/SOLD-1/refund", json: #"{"seats":["7-1"],"reason":"ill"}"#, headers: Self.li).status == 200)
        #expect(try ExchangeTests().statuses(server, "wl", ["7-1"]) != ["available"])
        let (offered, delay) = try awaitState(c, oneToken, "offered")
        print("waitlist offer (\(backend)): \(Int(delay * 1000)) ms after the refund")
        #expect(offered.state == "offered" && offered.offer?.seats == ["7-1"] && delay < 5, "\(offered)")
        #expect(try entry(c, pairToken).state == "waiting" && entry(c, pairToken).position == 1)
        #expect(try ExchangeTests().statuses(server, "wl", ["7-1"]) == ["held"])
        // Nobody else can take it.
        #expect(try hold(c, ["7-1"], show: "wl").status == 409)

        // Unpaid: the offer lapses, and the seat stays with the line (the pair still wants it).
        server.app.inventory.clockOffset.advance(by: 61_000)
        let (lapsed, _) = try awaitState(c, oneToken, "lapsed")
        #expect(lapsed.state == "lapsed" && lapsed.offer == nil, "\(lapsed)")
        usleep(600_000)
        #expect(try ExchangeTests().statuses(server, "wl", ["7-1"]) == ["blocked"], "kept for the line, not on sale")

        // 7-2 freed too: the pair gets both, pays (confirms), and reads bought.
        #expect(try c.request("POST", "/v1/orders/SOLD-1/refund", json: #"{"seats":["7-2"],"reason":"ill"}"#, headers: Self.li).status == 200)
        let (pairOffer, _) = try awaitState(c, pairToken, "offered")
        let offer = try #require(pairOffer.offer, "\(pairOffer)")
        #expect(Set(offer.seats) == ["7-1", "7-2"])
        // An offer holds the seats offered, no more.
        let more = try c.request("POST", "/v1/holds/\(offer.token)/seats", json: #"{"add":["9-1"]}"#)
        #expect(more.status == 409, "\(more.text)")
        let bought = try c.request("POST", "/v1/holds/\(offer.token)/confirm", json: #"{"orderRef":"WL-PAIR"}"#)
        #expect(bought.status == 200, "\(bought.text)")
        #expect(try awaitState(c, pairToken, "bought").0.state == "bought")
        #expect(try ExchangeTests().statuses(server, "wl", ["7-1", "7-2"]) == ["sold", "sold"])
        // The sale reads as the buyer's online sale.
        let order = try OrderResource(json: c.request("GET", "/v1/orders/WL-PAIR", headers: Self.li).body)
        #expect(order.parts.first?.channel == "online" && order.parts.first?.payment == "online", "\(order.parts)")

        // The standard seat's entry leaves; a refund nobody in line wants goes on sale at once.
        let left = try c.request("DELETE", "/v1/waitlist/\(standardToken)")
        #expect(try left.status == 200 && WaitlistResource(json: left.body).state == "cancelled", "\(left.text)")
        try ExchangeTests().sell(c, "wl", ["5-1"], ref: "SOLD-2")
        #expect(try c.request("POST", "/v1/orders/SOLD-2/refund", json: #"{"reason":"ill"}"#, headers: Self.li).status == 200)
        #expect(try ExchangeTests().statuses(server, "wl", ["5-1"]) == ["available"])
    }

    /// Seats given back in an exchange, and a partner's channel ending, go to the line too.
    @Test(arguments: StoreBackend.available) func exchangesAndEndedChannelsFeedTheLine(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        try ExchangeTests().makeShow(c, "wl", startsIn: 3 * 24 * 60, details: #"{"waitlist":{"offerMinutes":5}}"#)
        try ExchangeTests().sell(c, "wl", ["7-1"], ref: "X-1")
        let first = try #require(try join(c, #"{"price":"vip","count":1}"#).entry), second = try #require(try join(c, #"{"price":"vip","count":1}"#).entry)
        // The box office moves X-1 to a standard seat: 7-1 goes to the first in line.
        let x = try c.request("POST", "/v1/orders/X-1/exchange", json: #"{"to":{"show":"wl","seats":["9-1"]},"force":true}"#, headers: Self.li)
        #expect(x.status == 200, "\(x.text)")
        let (one, _) = try awaitState(c, first, "offered")
        #expect(one.offer?.seats == ["7-1"], "\(one)")
        // A partner's channel of 7-3 ends unsold: 7-3 goes to the second, not on sale.
        let at = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 1.5).rounded(.up)))
        let channel = try c.request("POST", "/v1/shows/wl/channels", json: #"{"name":"Maoyan","seats":["7-3"],"releaseAt":"\#(at)"}"#, headers: Self.admin)
        #expect(channel.status == 201, "\(channel.text)")
        let (two, _) = try awaitState(c, second, "offered", seconds: 6)
        #expect(two.offer?.seats == ["7-3"], "\(two)")
        #expect(try ExchangeTests().statuses(server, "wl", ["7-1", "7-3", "9-1"]) == ["held", "held", "sold"])
    }

    @Test(arguments: StoreBackend.available) func aRealNameEntryNamesItsAttendeesWhenJoining(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        try ExchangeTests().makeShow(c, "wlrn", startsIn: 3 * 24 * 60, details: #"{"waitlist":{"offerMinutes":5},"realName":"perTicket"}"#)
        try ExchangeTests().sell(c, "wlrn", ["7-1", "7-2"], ref: "RN-SOLD")
        let a = RealNameTests.idCard(21), b = RealNameTests.idCard(22)
        var slip = Array(b)
        slip[17] = slip[17] == "1" ? "2" : "1"
        let person = { (name: String, number: String) in #"{"name":"\#(name)","idType":"idCard","idNumber":"\#(number)"}"# }
        // Each wrong list refused naming what is wrong; none joins.
        for (body, status, words) in [
            (#"{"price":"vip","count":2,"attendees":[\#(person("王小明", a))]}"#, 422, "one attendee a seat"),
            (#"{"price":"vip","count":2,"attendees":[\#(person("王小明", a)),\#(person("李雷", String(slip)))]}"#, 422, "attendees[1].idNumber"),
            (#"{"price":"vip","count":2,"attendees":[\#(person("王小明", a)),\#(person("王小明", a))]}"#, 409, "the same document"),
            (#"{"price":"vip","count":1,"attendees":[{"seat":"7-1","name":"王小明","idType":"idCard","idNumber":"\#(a)"}]}"#, 422, "attendees[0].seat"),
        ] {
            let r = try c.request("POST", "/v1/shows/wlrn/waitlist", json: body)
            #expect(r.status == status && r.text.contains(words), "\(r.text)")
        }
        let entry = try join(c, #"{"price":"vip","count":2,"attendees":[\#(person("王小明", a)),\#(person("李雷", b))]}"#, show: "wlrn")
        #expect(entry.position == 1, "the refused ones never joined")
        let token = try #require(entry.entry)
        // Both seats refunded: the offer's hold names the two, masked; the buyer pays without naming anyone.
        #expect(try c.request("POST", "/v1/orders/RN-SOLD/refund", json: #"{"seats":["7-1","7-2"],"reason":"ill"}"#, headers: Self.li).status == 200)
        let (offered, _) = try awaitState(c, token, "offered")
        let offer = try #require(offered.offer, "\(offered)")
        let deadline = Date().addingTimeInterval(3)
        var hold = try c.request("GET", "/v1/holds/\(offer.token)")
        while (hold.json?["attendees"]?.arrayValue?.count ?? 0) < 2 && Date() < deadline {
            usleep(50_000)
            hold = try c.request("GET", "/v1/holds/\(offer.token)")
        }
        let names = hold.json?["attendees"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue } ?? []
        #expect(names.sorted() == ["李*", "王*明"].sorted() && !hold.text.contains(a), "\(hold.text)")
        let bought = try c.request("POST", "/v1/holds/\(offer.token)/confirm", json: #"{"orderRef":"WL-RN"}"#)
        #expect(bought.status == 200, "\(bought.text)")
    }

    @Test(arguments: StoreBackend.available) func badWaitlistRequestsArePreciseAndChangeNothing(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        try ExchangeTests().makeShow(c, "wl", startsIn: 3 * 24 * 60, details: #"{"waitlist":{}}"#)
        try ExchangeTests().makeShow(c, "plain", startsIn: 4 * 24 * 60)
        func refused(_ body: String, show: String = "wl", _ status: Int, _ words: String) throws {
            let r = try c.request("POST", "/v1/shows/\(show)/waitlist", json: body)
            #expect(r.status == status && r.text.contains(words), "\(body) → \(r.status) \(r.text)")
        }
        try refused(#"{"count":1}"#, show: "plain", 409, "keeps no waitlist")
        try refused(#"{"count":1}"#, show: "nope", 404, "nope")
        try refused(#"{"price":"gold","count":1}"#, 422, "no category")
        try refused(#"{"zone":"roof","count":1}"#, 422, "no zone")
        try refused(#"{"price":"vip","zone":"stalls","count":1}"#, 422, "not both")
        try refused(#"{"count":0}"#, 422, "count: 1 to 50")
        try refused(#"{"count":7}"#, 422, "the show's limit")
        try refused(#"{"count":1,"seats":["7-1"]}"#, 422, "seats: unknown member")
        #expect(try c.request("GET", "/v1/waitlist/wl_00000000000000000000000000000000").status == 404)
        let made = try join(c, #"{"count":1}"#)
        #expect(made.position == 1, "nothing refused joined the line")
        // A waitlist of 0 minutes, or with an unknown member, is refused with its path.
        let bad = try c.request(
            "PATCH", "/v1/shows/wl", json: #"{"details":{"waitlist":{"offerMinutes":0}}}"#, headers: Self.admin)
        #expect((400...422).contains(bad.status) && bad.text.contains("details.waitlist.offerMinutes"), "\(bad.text)")
    }

    /// Two instances on PostgreSQL: 30 in line, 30 sales refunded at once, half on each instance: every
    /// freed seat goes to the line (none on sale), each entry gets one seat, and the offers are made in
    /// line order (an earlier entry's offer never ends later than a later entry's).
    @Test(arguments: StoreBackend.available.filter { $0 == .postgres }) func twoInstancesOfferEveryFreedSeatInLineOrder(backend: StoreBackend) throws {
        let a = try TicketTests().server(backend)
        let b = try a.sibling()
        let servers = [a, b]
        let c = try a.connection()
        try ExchangeTests().makeShow(c, "wq", startsIn: 3 * 24 * 60, details: #"{"waitlist":{"offerMinutes":5}}"#)
        let layout = SampleVenues.cinemaHall()
        let standard = (0..<layout.seatCount).map { layout.seatID($0) }.filter { id in
            layout.zone(of: layout.index(ofSeatID: id)!).category == "standard" && layout.table(of: layout.index(ofSeatID: id)!) == nil
        }
        let seats = Array(standard.prefix(30))
        for (k, seat) in seats.enumerated() { try ExchangeTests().sell(c, "wq", [seat], ref: "Q-\(k)", force: true) }
        var tokens: [String] = []
        for k in 0..<30 {
            let r = try servers[k % 2].connection().request("POST", "/v1/shows/wq/waitlist", json: #"{"price":"standard","count":1}"#)
            #expect(r.status == 201, "\(r.text)")
            tokens.append(try #require(try WaitlistResource(json: r.body).entry))
        }
        let refunded = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 30) { k in
            guard let conn = try? servers[k % 2].connection(timeoutSeconds: 30) else { return }
            let r = try? conn.request("POST", "/v1/orders/Q-\(k)/refund", json: #"{"reason":"returned"}"#, headers: Self.li)
            if r?.status == 200 { refunded.withLock { $0 += 1 } }
        }
        #expect(refunded.withLock { $0 } == 30)
        let deadline = Date().addingTimeInterval(10)
        var entries: [WaitlistResource] = []
        repeat {
            usleep(100_000)
            entries = try tokens.enumerated().map { k, t in try WaitlistResource(json: servers[k % 2].connection().request("GET", "/v1/waitlist/\(t)").body) }
        } while Date() < deadline && entries.contains { $0.state != "offered" }
        let offered = entries.compactMap(\.offer)
        let given = offered.flatMap(\.seats)
        let lost = Set(seats).subtracting(given).count
        print("waitlist across two instances: 30 refunded, \(offered.count) offered, \(Set(given).count) distinct seats, lost \(lost)")
        #expect(offered.count == 30 && given.count == 30 && Set(given) == Set(seats) && lost == 0, "\(entries.filter { $0.state != "offered" })")
        let ends = offered.map(\.expiresAt)
        #expect(zip(ends, ends.dropFirst()).allSatisfy { $0 <= $1 }, "offers in line order: \(ends)")
        // Each instance's memory follows the other's commits a moment later: its availability is waited for.
        let shown = Date().addingTimeInterval(3)
        while Date() < shown, try !ExchangeTests().statuses(a, "wq", seats).allSatisfy({ $0 == "held" }) { usleep(50_000) }
        #expect(try ExchangeTests().statuses(a, "wq", seats).allSatisfy { $0 == "held" }, "none went on sale")
    }
}
