import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatServerTestSupport
import SharedState
import Testing

/// Partners' allocations (#53) over HTTP on both stores: a channel's seats and places are not for sale
/// to anyone else; its partner holds them with its key; what the partner lets go goes back to the
/// channel; a manager moves seats in and out live and ends the channel.
@Suite(.serialized) struct ChannelTests {
    static let admin = [("X-Admin-Key", TestServer.adminKey)]

    func livehouse(_ backend: StoreBackend) throws -> TestServer {
        try TestServer.livehouse(
            backend,
            shows: [("gig", "02"), ("gig2", "03")].map { id, day in
                #"{"id":"\#(id)","venueId":"livehouse","startsAt":"2099-12-\#(day)T20:00:00+08:00","prices":{"categories":{"standard":"280.00","standing":"180.00","box":"300.00"}},"policy":{"maxSeats":8}}"#
            })
    }

    func hold(_ c: HTTPConnection, _ body: String, key: String? = nil, show: String = "gig") throws -> HTTPConnection.Response {
        try c.request("POST", "/v1/shows/\(show)/holds", json: body, headers: key.map { [("Seat-Channel", $0)] } ?? [])
    }

    func channel(_ c: HTTPConnection, _ id: String, show: String = "gig") throws -> JSONObject? {
        try list(c, show: show).first { $0.text("id") == id }
    }

    func list(_ c: HTTPConnection, show: String = "gig") throws -> [JSONObject] {
        let r = try c.request("GET", "/v1/shows/\(show)/channels", headers: Self.admin)
        return ((try? JSONParser.parse(r.body))?.arrayValue ?? []).compactMap(\.objectValue)
    }

    func floorFree(_ c: HTTPConnection) throws -> Int? {
        try c.request("GET", "/v1/shows/gig/areas").json?["areas"]?.arrayValue?.compactMap(\.objectValue).first { $0.text("id") == "floor" }?["free"]?.intValue
    }

    @Test(arguments: StoreBackend.available) func aPartnerSellsItsChannelAndNobodyElseCan(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        let made = try c.request(
            "POST", "/v1/shows/gig/channels", json: #"{"name":"Damai","seats":["A-1","A-2","A-3","A-4"],"areas":{"floor":10}}"#, headers: Self.admin)
        #expect(made.status == 201, "\(made.text)")
        let id = try #require(made.string("id")), key = try #require(made.string("key"))
        #expect(id.hasPrefix("c_") && made.json?["seats"]?.arrayValue?.count == 14)
        // The public: the channel's seats are not for sale, its places not counted free.
        let public1 = try hold(c, #"{"seats":["A-1"]}"#)
        #expect(public1.status == 409 && public1.string("type") == "/problems/seats-taken", "\(public1.text)")
        #expect(try floorFree(c) == 90)
        // The partner: seats and places from its channel; the key stays out of the list.
        let partner = try hold(c, #"{"seats":["A-1","A-2"],"areas":{"floor":2}}"#, key: key)
        #expect(partner.status == 201, "\(partner.text)")
        #expect(try channel(c, id)?["held"]?.intValue == 4 && (try channel(c, id)?["seats"]?.arrayValue?.count) == 10)
        #expect(try c.request("GET", "/v1/shows/gig/channels", headers: Self.admin).text.contains(key) == false)
        // Let go: back to the channel, still not the public's.
        #expect(try c.request("DELETE", "/v1/holds/\(try #require(partner.string("token")))").status == 204)
        #expect(try channel(c, id)?["held"]?.intValue == 0 && (try channel(c, id)?["seats"]?.arrayValue?.count) == 14)
        #expect(try hold(c, #"{"seats":["A-2"]}"#).status == 409)
        #expect(try floorFree(c) == 90)
        // Bought by the partner: sold.
        let bought = try hold(c, #"{"seats":["A-1"],"areas":{"floor":1}}"#, key: key)
        #expect(bought.status == 201, "\(bought.text)")
        let confirmed = try c.request("POST", "/v1/holds/\(try #require(bought.string("token")))/confirm", json: #"{"orderRef":"DAMAI-1"}"#)
        #expect(confirmed.status == 200, "\(confirmed.text)")
        #expect(try channel(c, id)?["seats"]?.arrayValue?.count == 12)
        // The partner's own order number: the order's reference; the same number again is the same
        // answer, under another hold a 409; a buyer's hold has none.
        let second = try hold(c, #"{"areas":{"floor":1}}"#, key: key)
        let secondToken = try #require(second.string("token"))
        let external = try c.request("POST", "/v1/holds/\(secondToken)/confirm", json: #"{"externalOrderId":"DM-2026-0001"}"#)
        #expect(external.status == 200 && external.string("orderRef") == "DM-2026-0001", "\(external.text)")
        let again = try c.request("POST", "/v1/holds/\(secondToken)/confirm", json: #"{"externalOrderId":"DM-2026-0001"}"#)
        #expect(again.status == 200 && again.string("orderRef") == "DM-2026-0001", "\(again.text)")
        let third = try hold(c, #"{"areas":{"floor":1}}"#, key: key)
        let reused = try c.request("POST", "/v1/holds/\(try #require(third.string("token")))/confirm", json: #"{"externalOrderId":"DM-2026-0001"}"#)
        #expect(reused.status == 409 && reused.string("type") == "/problems/order-exists", "\(reused.text)")
        #expect(try c.request("DELETE", "/v1/holds/\(try #require(third.string("token")))").status == 204)
        let buyer = try hold(c, #"{"seats":["B-8"]}"#)
        let notPartner = try c.request("POST", "/v1/holds/\(try #require(buyer.string("token")))/confirm", json: #"{"externalOrderId":"X-1"}"#)
        #expect(notPartner.status == 422 && notPartner.text.contains("only a partner's hold"), "\(notPartner.text)")
        let long = try c.request("POST", "/v1/holds/\(secondToken)/confirm", json: #"{"externalOrderId":"\#(String(repeating: "x", count: 65))"}"#)
        #expect(long.status == 422 && long.text.contains("at most 64 characters"), "\(long.text)")
        let order = try c.request("GET", "/v1/orders/DM-2026-0001", headers: Self.admin)
        #expect(order.status == 200 && order.text.contains(#""channel":"partner:Damai","payment":"partner""#), "\(order.text)")
        // The show's takings split by channel: the partner's two sales (A-1 and a place, then a place) beside nobody else's.
        let report = try c.request("GET", "/v1/shows/gig/report", headers: Self.admin)
        #expect(report.status == 200 && report.text.contains(#""byChannel":{"partner:Damai":"#), "\(report.text)")
        // A seat the channel does not have, a key of nothing, a key of another show: each said, nothing held.
        let outside = try hold(c, #"{"seats":["B-1"]}"#, key: key)
        #expect(outside.status == 409 && outside.text.contains("not in channel Damai: B-1"), "\(outside.text)")
        let nothing = try hold(c, #"{"seats":["A-2"]}"#, key: "not-a-key")
        #expect(nothing.status == 403 && nothing.string("type") == "/problems/channel-key", "\(nothing.text)")
        let other = try hold(c, #"{"seats":["A-2"]}"#, key: key, show: "gig2")
        #expect(other.status == 403 && other.text.contains("a channel of show gig, not of gig2"), "\(other.text)")
        // The best two side by side in the channel's allocation: from what it still has (A-2…A-4).
        let best = try c.request("GET", "/v1/shows/gig/best?count=2&zone=stalls", headers: [("Seat-Channel", key)])
        let bestSeats = best.json?["seats"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(best.status == 200 && bestSeats.count == 2 && bestSeats.allSatisfy { ["A-2", "A-3", "A-4"].contains($0) }, "\(best.text)")
        #expect(try hold(c, #"{"seats":[\#(bestSeats.map { "\"\($0)\"" }.joined(separator: ","))]}"#, key: key).status == 201)
        #expect(try c.request("GET", "/v1/shows/gig/best?count=2", headers: [("Seat-Channel", "nope")]).status == 403)
        let tooMany = try hold(c, #"{"areas":{"floor":10}}"#, key: key)
        #expect(tooMany.status == 409 && tooMany.string("detail") == "floor: the channel has 8 of its places, 10 asked", "\(tooMany.text)")
    }

    @Test(arguments: StoreBackend.available) func aPartnersHoldChangesWithinItsChannel(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        let made = try c.request(
            "POST", "/v1/shows/gig/channels", json: #"{"name":"Damai","seats":["A-1","A-2","A-3"],"areas":{"floor":5}}"#, headers: Self.admin)
        let id = try #require(made.string("id")), key = try #require(made.string("key"))
        let held = try hold(c, #"{"seats":["A-1"]}"#, key: key)
        let token = try #require(held.string("token"))
        // A seat of the channel added, a place by count: from the channel.
        let grown = try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"add":["A-2"],"areas":{"floor":2}}"#)
        #expect(grown.status == 200 && grown.json?["seats"]?.arrayValue?.count == 4, "\(grown.text)")
        #expect(try channel(c, id)?["seats"]?.arrayValue?.count == 4 && (try channel(c, id)?["held"]?.intValue) == 4)
        // A seat outside the channel: refused by name, nothing changed.
        let outside = try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"add":["B-1"]}"#)
        #expect(outside.status == 409 && outside.string("detail") == "not in channel Damai: B-1", "\(outside.text)")
        // One seat and one place let go: back to the channel, still not the public's.
        let shrunk = try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"remove":["A-1"],"areas":{"floor":1}}"#)
        #expect(shrunk.status == 200 && shrunk.json?["seats"]?.arrayValue?.count == 2, "\(shrunk.text)")
        #expect(try channel(c, id)?["seats"]?.arrayValue?.count == 6 && (try channel(c, id)?["held"]?.intValue) == 2)
        #expect(try hold(c, #"{"seats":["A-1"]}"#).status == 409)
        #expect(try floorFree(c) == 95)
        // Everything let go: the hold ends, the channel whole again.
        let emptied = try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"remove":["A-2"],"areas":{"floor":0}}"#)
        #expect(emptied.status == 200 && emptied.string("state") == "released", "\(emptied.text)")
        #expect(try channel(c, id)?["seats"]?.arrayValue?.count == 8 && (try channel(c, id)?["held"]?.intValue) == 0)
        // The partner's page reads the channel's availability: its seats free, every other not.
        let a = try c.request("GET", "/v1/shows/gig/availability", headers: [("Seat-Channel", key)])
        let mine = try SeatAvailability(encoded: a.text)
        #expect(mine.counts.available == 8, "\(a.text)")
        let wrong = String(key.dropLast()) + (key.hasSuffix("0") ? "1" : "0")
        #expect(try c.request("GET", "/v1/shows/gig/availability", headers: [("Seat-Channel", wrong)]).status == 403)
        #expect(try c.request("GET", "/v1/shows/gig/availability?since=0", headers: [("Seat-Channel", key)]).status == 422)
        #expect(try c.request("GET", "/v1/shows/gig/availability", headers: [("Seat-Channel", String(repeating: "0", count: 201))]).status == 400)
    }

    @Test(arguments: StoreBackend.available) func aChannelSellsAtItsOwnPrices(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        let bad = try c.request(
            "POST", "/v1/shows/gig/channels", json: #"{"name":"Damai","seats":["A-1"],"prices":{"vip":"100.00"}}"#, headers: Self.admin)
        #expect(bad.status == 422 && bad.string("detail")?.hasPrefix(#"prices.vip: show gig has no category "vip""#) == true, "\(bad.text)")
        let cents = try c.request(
            "POST", "/v1/shows/gig/channels", json: #"{"name":"Damai","seats":["A-1"],"prices":{"standard":"250.001"}}"#, headers: Self.admin)
        #expect(cents.status == 422 && cents.string("detail")?.hasPrefix("prices.standard: 250.001 has more decimals") == true, "\(cents.text)")
        #expect(try list(c).isEmpty, "nothing made by a refusal")
        // The partner's net rate for stalls; standing at the show's price.
        let made = try c.request(
            "POST", "/v1/shows/gig/channels", json: #"{"name":"Damai","seats":["A-1","A-2"],"areas":{"floor":4},"prices":{"standard":"250.00"}}"#,
            headers: Self.admin)
        #expect(made.status == 201 && made.json?["prices"]?.objectValue?["standard"]?.stringValue == "250.00", "\(made.text)")
        let key = try #require(made.string("key"))
        let held = try hold(c, #"{"seats":["A-1"],"areas":{"floor":1}}"#, key: key)
        #expect(held.string("total") == "430.00", "\(held.text)")
        let token = try #require(held.string("token"))
        let grown = try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"add":["A-2"]}"#)
        #expect(grown.string("total") == "680.00", "\(grown.text)")
        let sold = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"externalOrderId":"DM-NET-1"}"#)
        #expect(sold.status == 200, "\(sold.text)")
        let report = try c.request("GET", "/v1/shows/gig/report", headers: Self.admin)
        #expect(report.json?["revenue"]?.objectValue?["byChannel"]?.objectValue?["partner:Damai"]?.stringValue == "680.00", "\(report.text)")
    }

    @Test(arguments: StoreBackend.available) func aManagerMovesSeatsAndEndsTheChannel(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        let made = try c.request("POST", "/v1/shows/gig/channels", json: #"{"name":"Tour","seats":["B-1","B-2","B-3"]}"#, headers: Self.admin)
        #expect(made.status == 201, "\(made.text)")
        let id = try #require(made.string("id")), key = try #require(made.string("key"))
        // Live: one seat out (the public may have it), one in.
        let moved = try c.request("POST", "/v1/channels/\(id)/seats", json: #"{"add":["B-4"],"remove":["B-3"]}"#, headers: Self.admin)
        #expect(moved.status == 200 && moved.json?["seats"]?.arrayValue?.compactMap(\.stringValue) == ["B-1", "B-2", "B-4"], "\(moved.text)")
        #expect(try hold(c, #"{"seats":["B-3"]}"#).status == 201)
        // The partner holds B-1; the channel ends: B-2 and B-4 go public at once, B-1 when the partner lets go.
        let partner = try hold(c, #"{"seats":["B-1"]}"#, key: key)
        #expect(partner.status == 201, "\(partner.text)")
        #expect(try c.request("DELETE", "/v1/channels/\(id)", headers: Self.admin).status == 204)
        #expect(try hold(c, #"{"seats":["B-2","B-4"]}"#).status == 201)
        #expect(try hold(c, #"{"seats":["B-5"]}"#, key: key).status == 403)
        #expect(try c.request("DELETE", "/v1/holds/\(try #require(partner.string("token")))").status == 204)
        #expect(try hold(c, #"{"seats":["B-1"]}"#).status == 201)
        // A channel is not the box office's reservation.
        #expect(try c.request("GET", "/v1/reservations/\(id)", headers: Self.admin).status == 404)
    }

    @Test(arguments: StoreBackend.available) func badChannelsAreRefusedByName(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        let cases: [(String, Int, String)] = [
            (#"{"seats":["A-1"]}"#, 422, "name"),
            (#"{"name":"X"}"#, 422, "give the channel's seats"),
            (#"{"name":"X","seats":["Z-9"]}"#, 422, "Z-9"),
            (#"{"name":"X","areas":{"floor":101}}"#, 409, "area-full"),
            (#"{"name":"X","seats":["A-1"],"releaseAt":"2001-01-01T00:00:00Z"}"#, 422, "releaseAt"),
        ]
        for (body, status, says) in cases {
            let r = try c.request("POST", "/v1/shows/gig/channels", json: body, headers: Self.admin)
            #expect(r.status == status && r.text.contains(says), "\(body): \(r.text)")
        }
        #expect(try list(c).isEmpty)
        // Without a manager's key: refused.
        #expect(try c.request("POST", "/v1/shows/gig/channels", json: #"{"name":"X","seats":["A-1"]}"#).status == 401)
    }

    /// A partner and the public racing at the edge of a channel, split between two instances on one
    /// PostgreSQL store: the partner's buyers on row A (the channel's), the public on rows A and B. No
    /// public hold ever has a channel seat, no partner's hold a seat outside it, no seat two claims,
    /// and both instances say the same of the channel afterwards.
    @Test func aPartnerAndThePublicRaceAtTheChannelsEdgeOnTwoInstances() throws {
        guard StoreBackend.available.contains(.postgres) else { return }
        let a = try livehouse(.postgres)
        let b = try TestServer(backend: .postgres, seed: false, storeURL: a.storeURL)
        let ca = try a.connection()
        let row = (1...8).map { "\"A-\($0)\"" }.joined(separator: ",")
        let made = try ca.request("POST", "/v1/shows/gig/channels", json: #"{"name":"Maoyan","seats":[\#(row)],"areas":{"floor":20}}"#, headers: Self.admin)
        #expect(made.status == 201, "\(made.text)")
        let key = try #require(made.string("key")), id = try #require(made.string("id"))
        let publicGot = Locked([String]()), partnerGot = Locked([String]()), odd = Locked([String]())
        DispatchQueue.concurrentPerform(iterations: 64) { k in
            guard let c = try? (k % 2 == 0 ? a : b).connection() else { return }
            let partner = k % 4 < 2
            for attempt in 0..<6 {
                let seat = partner ? "A-\(1 + (k + attempt) % 8)" : "\(attempt % 2 == 0 ? "A" : "B")-\(1 + (k + attempt) % 8)"
                let places = partner && attempt % 3 == 0 ? #","areas":{"floor":1}"# : ""
                guard let r = try? hold(c, #"{"seats":["\#(seat)"]\#(places)}"#, key: partner ? key : nil) else { return }
                if r.status == 201 {
                    let seats = r.json?["seats"]?.arrayValue?.compactMap(\.stringValue) ?? []
                    (partner ? partnerGot : publicGot).withLock { $0 += seats }
                } else if r.status != 409 && r.string("type") != "/problems/rule-violation" {
                    odd.withLock { $0.append("\(r.status) \(r.text)") }
                }
            }
        }
        #expect(odd.withLock { $0 }.isEmpty, "\(odd.withLock { $0 })")
        let publicSeats = publicGot.withLock { $0 }, partnerSeats = partnerGot.withLock { $0 }
        #expect(!publicSeats.contains { $0.hasPrefix("A-") || $0.hasPrefix("floor:") }, "the public took a channel seat: \(publicSeats)")
        #expect(partnerSeats.allSatisfy { $0.hasPrefix("A-") || $0.hasPrefix("floor:") }, "a partner took a seat outside: \(partnerSeats)")
        #expect(Set(publicSeats + partnerSeats).count == publicSeats.count + partnerSeats.count, "a seat held twice")
        // Both instances, caught up, say the same of the channel: its 28 less what the partner holds.
        var seen: [[Int]] = []
        for _ in 0..<50 {
            seen = try [a, b].map { s in
                let ch = try channel(try s.connection(), id)
                return [ch?["seats"]?.arrayValue?.count ?? -1, ch?["held"]?.intValue ?? -1]
            }
            if seen[0] == seen[1] && seen[0] == [28 - partnerSeats.count, partnerSeats.count] { break }
            usleep(100_000)
        }
        print("channel race: the partner holds \(partnerSeats.count), the public \(publicSeats.count); the instances say \(seen)")
        #expect(seen[0] == seen[1] && seen[0] == [28 - partnerSeats.count, partnerSeats.count], "\(seen)")
    }

    /// `releaseAt` under load: a channel of row A and 20 floor places released 1.5 s after it is made,
    /// while a partner and the public hold as fast as they can on `servers`. Before the instant no
    /// public hold has a channel seat; after it the partner's key opens nothing (403) and the public
    /// takes what the partner had not; no seat is held twice; every instance lists no channel, and the
    /// log says the channel ended.
    func releaseUnderLoad(_ servers: [TestServer]) throws -> (partner: Int, publicAfter: Int) {
        let c = try servers[0].connection()
        // A whole second: the ISO 8601 text carries no fraction.
        let releaseAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 1.5).rounded(.up))
        let iso = ISO8601DateFormatter().string(from: releaseAt)
        let row = (1...8).map { "\"A-\($0)\"" }.joined(separator: ",")
        let made = try c.request(
            "POST", "/v1/shows/gig/channels", json: #"{"name":"Maoyan","seats":[\#(row)],"areas":{"floor":20},"releaseAt":"\#(iso)"}"#, headers: Self.admin)
        let key = try #require(made.string("key"), "\(made.text)"), id = try #require(made.string("id"))
        let partnerGot = Locked([String]()), publicGot = Locked([String]()), odd = Locked([String]())
        let channelSeats = Set((1...8).map { "A-\($0)" })
        DispatchQueue.concurrentPerform(iterations: 16) { k in
            guard let c = try? servers[k % servers.count].connection() else { return }
            let partner = k % 2 == 0
            var n = 0
            while Date() < releaseAt.addingTimeInterval(2.5) {
                n += 1
                let started = Date()
                let body = n % 3 == 0 ? #"{"areas":{"floor":1}}"# : #"{"seats":["A-\#(1 + (k + n) % 8)"]}"#
                guard let r = try? hold(c, body, key: partner ? key : nil) else { return }
                let seats = r.json?["seats"]?.arrayValue?.compactMap(\.stringValue) ?? []
                switch (r.status, partner) {
                case (201, true) where n % 2 == 0:
                    // Let go at once: back to the channel before the release, to the public after it.
                    _ = try? c.request("DELETE", "/v1/holds/\(r.string("token") ?? "")")
                case (201, true):
                    partnerGot.withLock { $0 += seats }
                    if started > releaseAt.addingTimeInterval(1.2) { odd.withLock { $0.append("a partner's hold after the release: \(seats)") } }
                case (201, false):
                    publicGot.withLock { $0 += seats }
                    if started < releaseAt.addingTimeInterval(-0.05), seats.contains(where: channelSeats.contains) {
                        odd.withLock { $0.append("the public took \(seats) before the release") }
                    }
                case (403, true), (409, _): break
                case (422, _) where r.string("type") == "/problems/rule-violation": break
                default: odd.withLock { $0.append("\(r.status) \(r.text)") }
                }
                if r.status == 403 && Date() < releaseAt.addingTimeInterval(-0.05) {
                    odd.withLock { $0.append("the key refused before the release: \(r.text)") }
                }
            }
        }
        #expect(odd.withLock { $0 }.isEmpty, "\(odd.withLock { $0 })")
        let partnerSeats = partnerGot.withLock { $0 }, publicSeats = publicGot.withLock { $0 }
        #expect(Set(partnerSeats + publicSeats).count == partnerSeats.count + publicSeats.count, "a seat held twice")
        let publicAfter = publicSeats.filter(channelSeats.contains).count
        #expect(publicAfter > 0, "the public took none of the channel's seats after its release")
        for server in servers {
            let s = try server.connection()
            #expect(try list(s).isEmpty, "an instance still lists the channel")
            // The whole log, page by page.
            var log = "", since: Int? = 0
            while let from = since {
                let page = try s.request("GET", "/v1/shows/gig/log?since=\(from)", headers: Self.admin)
                log += page.text
                since = page.json?["next"]?.intValue
            }
            #expect(log.contains(#""action":"expire","by":"\#(id)""#), "the log: \(log.suffix(600))")
        }
        return (partnerSeats.count, publicAfter)
    }

    @Test(arguments: StoreBackend.available) func aChannelReleasesAtItsTimeUnderLoad(backend: StoreBackend) throws {
        let (partner, publicAfter) = try releaseUnderLoad([try livehouse(backend)])
        print("channel release under load (\(backend)): the partner held \(partner), the public \(publicAfter) of its row's seats after releaseAt")
    }

    @Test func aChannelReleasesAtItsTimeUnderLoadOnTwoInstances() throws {
        guard StoreBackend.available.contains(.postgres) else { return }
        let a = try livehouse(.postgres)
        let b = try TestServer(backend: .postgres, seed: false, storeURL: a.storeURL)
        let (partner, publicAfter) = try releaseUnderLoad([a, b])
        print("channel release under load (two instances): the partner held \(partner), the public \(publicAfter) of its row's seats after releaseAt")
    }
}
