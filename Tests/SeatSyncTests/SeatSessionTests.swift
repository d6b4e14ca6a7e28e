import Foundation
import SeatSamples
import SeatMap
import SeatServerTestSupport
import SeatSync
import SeatWire
import Testing

@Suite(.serialized, .timeLimit(.minutes(1))) struct SeatSessionTests {
    func session(_ server: TestServer) async throws -> SeatSession {
        try await SeatSession(api: SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!), show: "show")
    }
    let hall = SampleVenues.cinemaHall()
    func seat(_ id: String) -> SeatIndex { hall.index(ofSeatID: id)! }

    @Test func twoBuyersTapTheSameSeatOneWinsTheOtherSeesWhy() async throws {
        let server = try TestServer()
        let a = try await session(server), b = try await session(server)
        await a.select(["7-1", "7-2"])
        await a.settle()
        #expect(await a.state.hold?.seats == ["7-1", "7-2"])
        // B's picture is stale: its tap shows at once, then the server says no.
        await b.select(["7-2", "7-4"])
        #expect(await b.state.selection == [seat("7-2"), seat("7-4")])
        await b.settle()
        let s = await b.state
        #expect(s.hold == nil && s.selection.isEmpty)
        #expect(s.message?.kind == .taken && s.message?.seats == ["7-2"])
        #expect(s.server[seat("7-2")] == .held && s.server[seat("7-4")] == .available)
    }

    @Test func aThreeSeatSelectionWithOneTakenRollsBackWholeAndSoldStaysSold() async throws {
        let server = try TestServer()
        let a = try await session(server), b = try await session(server)
        await a.select(["8-3"])
        await a.settle()
        #expect(await a.confirm(orderRef: "A-1")?.state == .confirmed)
        await b.select(["8-7", "8-5", "8-3"])
        await b.settle()
        let s = await b.state
        #expect(s.selection.isEmpty && s.hold == nil)
        #expect(s.server[seat("8-3")] == .sold)
        #expect(s.server[seat("8-5")] == .available && s.server[seat("8-7")] == .available)
        #expect(s.message?.english == "Taken by someone else: 8-3")
    }

    @Test func localRulesAnswerAtOnceWithoutAsking() async throws {
        let server = try TestServer()
        let a = try await session(server)
        await a.select(["11-1"])
        let s = await a.state
        #expect(s.message?.kind == .rule && s.message?.chinese.hasPrefix("情侣座需成对选择") == true && s.selection.isEmpty)
        await a.settle()
        #expect(try server.availability().counts.held == 0)
    }

    /// A message is said once: the states that follow keep showing it (live updates from other buyers),
    /// the message stream has it once; the next refusal is a second message.
    @Test func aMessageIsSaidOnceThoughLaterStatesStillShowIt() async throws {
        let server = try TestServer()
        let a = try await session(server)
        let messages = await a.messages(), states = await a.states()
        await a.startLiveUpdates()
        await a.select(["11-1"])  // half a couple seat: refused at once, with a message
        let other = try server.connection()
        for row in 1...3 { #expect(try hold(other, ["\(row)-1", "\(row)-2"]).status == 201) }
        // Three live updates later the state still carries the one message.
        var carrying = 0
        for await s in states {
            if s.message?.kind == .rule { carrying += 1 }
            if s.server.counts.held == 6 { break }
        }
        #expect(carrying >= 3, "the states keep the message: \(carrying)")
        await a.select(["11-3"])
        var said: [SessionMessage] = []
        for await m in messages {
            said.append(m)
            if said.count == 2 { break }
        }
        #expect(said.map(\.kind) == [.rule, .rule] && said.map(\.sequence) == [1, 2], "\(said)")
        #expect(said[0].seats.contains("11-1") && said[1].seats.contains("11-3"), "\(said)")
        await a.stopLiveUpdates()
    }

    @Test func changesByOthersArriveOnRefreshInVersionOrder() async throws {
        let server = try TestServer()
        let a = try await session(server), b = try await session(server)
        await a.select(["3-1", "3-2"])
        await a.select(["3-3"])
        await a.settle()
        #expect(await a.state.hold?.seats.count == 3)
        await b.refresh()
        await b.settle()
        let s = await b.state
        #expect(s.server[seat("3-1")] == .held && s.server[seat("3-3")] == .held)
        #expect(s.server.version == (try server.availability()).version)
        // Deselecting, buying: the other side follows.
        await a.deselect(["3-3"])
        _ = await a.confirm(orderRef: "A-2")
        await b.refresh()
        await b.settle()
        let t = await b.state
        #expect(t.server[seat("3-3")] == .available && t.server[seat("3-1")] == .sold)
    }

    @Test func expiryOnTheServerIsReflectedAndTheNextTapStartsANewHold() async throws {
        let server = try TestServer(holdSeconds: 30)
        let a = try await session(server)
        await a.select(["6-1", "6-2"])
        await a.settle()
        let first = await a.state.hold?.token
        server.app.inventory.clockOffset.advance(by: 31_000)
        server.app.inventory.expireDue()
        await a.refresh()
        await a.settle()
        #expect(await a.state.server[seat("6-1")] == .available)
        let afterExpiry = await a.state
        #expect(afterExpiry.hold == nil && afterExpiry.message?.kind == .expired)
        await a.select(["6-6", "6-8"])
        await a.settle()
        let s = await a.state
        #expect(s.hold != nil && s.hold?.token != first && s.hold?.seats == ["6-6", "6-8"], "\(String(describing: s.message))")
    }

    /// Back from the background after the hold expired and another buyer took its seats: a refresh
    /// alone still believes in the hold (the seats read held); resuming asks for the hold itself.
    @Test func resumingFindsTheHoldGoneEvenWhenItsSeatsWereHeldAgain() async throws {
        let server = try TestServer(holdSeconds: 30)
        let a = try await session(server)
        await a.select(["6-1", "6-2"])
        await a.settle()
        #expect(await a.state.hold != nil)
        server.app.inventory.clockOffset.advance(by: 31_000)
        server.app.inventory.expireDue()
        #expect(try hold(try server.connection(), ["6-1", "6-2"]).status == 201)
        await a.refresh()
        await a.settle()
        #expect(await a.state.hold != nil, "the picture alone cannot tell")
        await a.resume()
        await a.settle()
        let s = await a.state
        #expect(s.hold == nil && s.message?.kind == .expired && s.selection.isEmpty, "\(String(describing: s.message))")
        #expect(s.server[seat("6-1")] == .held)
        // A live hold is kept, with its new expiry when it was extended elsewhere.
        await a.select(["8-1", "8-2"])
        await a.settle()
        let token = try #require(await a.state.hold?.token)
        #expect(try server.connection().request("POST", "/v1/holds/\(token)/extend").status == 200)
        await a.resume()
        await a.settle()
        #expect(await a.state.hold?.extended == true)
    }

    @Test func theStateStreamShowsTheTapBeforeTheServerAnswers() async throws {
        let server = try TestServer()
        let a = try await session(server)
        let stream = await a.states()
        await a.select(["9-1", "9-2"])
        var sawPending = false, sawHeld = false
        for await s in stream {
            if !s.pendingAdds.isEmpty && s.hold == nil { sawPending = true }
            if s.hold != nil && s.pendingAdds.isEmpty { sawHeld = true; break }
        }
        #expect(sawPending && sawHeld)
    }
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct LiveUpdateTests {
    let hall = SampleVenues.cinemaHall()

    /// Polls until `condition` holds (live events arrive on their own schedule), for up to 5 seconds.
    func eventually(_ session: SeatSession, _ condition: @escaping @Sendable (SessionState) -> Bool) async -> Bool {
        for _ in 0..<100 {
            if condition(await session.state) { return true }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return false
    }

    /// A manager's change reaches an open session live: new prices, then sales paused.
    @Test func newPricesAndAPauseArriveLive() async throws {
        let server = try TestServer()
        let a = try await SeatSession(api: SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!), show: "show")
        let first = await a.state
        #expect(first.prices?.categoryPrices["standard"] == Decimal(string: "33.30") && first.isOnSale)
        await a.startLiveUpdates()
        for _ in 0..<100 where await !a.isLive { try? await Task.sleep(nanoseconds: 20_000_000) }
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let c = try server.connection()
        let table = #"{"currency":"CNY","categories":{"standard":"50.00","vip":"70.00","couple":"120.00"}}"#
        #expect(try c.request("PUT", "/v1/shows/show/prices", json: table, headers: admin).status == 200)
        #expect(await eventually(a) { $0.prices?.categoryPrices["standard"] == 50 && $0.show["priceRevision"]?.intValue == 1 })
        #expect(try c.request("PATCH", "/v1/shows/show", json: #"{"onSale":false}"#, headers: admin).status == 200)
        #expect(await eventually(a) { !$0.isOnSale })
        await a.stopLiveUpdates()
    }

    @Test func otherBuyersChangesArriveLiveInVersionOrder() async throws {
        let server = try TestServer()
        let api = SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let watcher = try await SeatSession(api: api, show: "show"), buyer = try await SeatSession(api: api, show: "show")
        await watcher.startLiveUpdates()
        #expect(await eventually(watcher) { _ in true })
        let s71 = hall.index(ofSeatID: "7-1")!, s51 = hall.index(ofSeatID: "5-1")!
        await buyer.select(["7-1", "7-2"])
        await buyer.settle()
        #expect(await eventually(watcher) { $0.server[s71] == .held })
        _ = await buyer.confirm(orderRef: "L-1")
        await buyer.select(["5-1", "5-2"])
        await buyer.settle()
        #expect(await eventually(watcher) { $0.server[s71] == .sold && $0.server[s51] == .held })
        let watched = await watcher.state.server, truth = try server.availability()
        #expect(watched.version == truth.version && watched.statuses == truth.statuses)
        #expect(await watcher.isLive)
        await watcher.stopLiveUpdates()
    }

    @Test func aSessionWhoseHoldExpiresOnTheServerHearsItLive() async throws {
        let server = try TestServer(holdSeconds: 30)
        let api = SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let buyer = try await SeatSession(api: api, show: "show")
        await buyer.startLiveUpdates()
        await buyer.select(["2-1", "2-2"])
        await buyer.settle()
        #expect(await buyer.state.hold != nil)
        server.app.inventory.clockOffset.advance(by: 31_000)
        #expect(await eventually(buyer) { $0.hold == nil && $0.message?.kind == .expired })
        await buyer.stopLiveUpdates()
    }

    @Test func theEventParserHandlesSplitLinesAndComments() {
        var p = EventStreamParser()
        var events = p.feed(Array("retry: 2000\n\n: ping\n\nid: 4\nevent: se".utf8))
        #expect(events.isEmpty)
        events = p.feed(Array("ats\ndata: skd1;3;4;5h\r\n\r\nid: 5\ndata: a\ndata: b\n\n".utf8))
        #expect(events == [ServerEvent(id: "4", event: "seats", data: "skd1;3;4;5h"), ServerEvent(id: "5", event: "message", data: "a\nb")])
        #expect(p.lastEventID == "5")
    }
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct ReconnectTests {
    /// The event stream is cut (server restart); changes made meanwhile reach the session when it
    /// reconnects by itself with Last-Event-ID, without a refresh.
    @Test func aCutStreamReconnectsAndCatchesUp() async throws {
        let server = try TestServer()
        let api = SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let watcher = try await SeatSession(api: api, show: "show")
        await watcher.startLiveUpdates()
        let hall = SampleVenues.cinemaHall()
        let s41 = hall.index(ofSeatID: "4-1")!, s101 = hall.index(ofSeatID: "10-1")!
        for _ in 0..<50 where !(await watcher.isLive) { try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(await watcher.isLive)
        try server.restart()
        let c = try server.connection()
        #expect(try hold(c, ["4-1", "4-2"]).status == 201)
        #expect(try hold(c, ["10-1", "10-2"]).status == 201)
        var caughtUp = false
        for _ in 0..<100 where !caughtUp {
            let s = await watcher.state.server
            caughtUp = s[s41] == .held && s[s101] == .held
            if !caughtUp { try await Task.sleep(nanoseconds: 50_000_000) }
        }
        #expect(caughtUp)
        #expect(await watcher.state.server.version == (try server.availability()).version)
        await watcher.stopLiveUpdates()
    }
}
