import Foundation
import SeatKitCLI
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
