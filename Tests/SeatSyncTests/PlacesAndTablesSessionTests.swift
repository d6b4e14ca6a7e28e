import Foundation
import SeatMap
import SeatServerTestSupport
import SeatSync
import SeatWire
import Testing

/// A native picker's session on the livehouse (#53): standing places by count beside seats, a table
/// taken by one tap as the show says, an area that has not so many free said in words.
/// (Two minutes at most: the limit catches a hang; under ThreadSanitizer the async tests wait for the
/// test pool's two threads behind the server suites' blocking ones, and this one once waited 60 s.)
@Suite(.serialized, .timeLimit(.minutes(2))) struct PlacesAndTablesSessionTests {

    func livehouse() throws -> TestServer {
        try TestServer.livehouse(shows: [
            #"""
            {"id":"show","venueId":"livehouse","startsAt":"2099-12-02T20:00:00+08:00",
             "prices":{"categories":{"standard":"80.00","standing":"180.00","box":"300.00"},"tables":{"T1":"500.00"}},
             "policy":{"maxSeats":8}}
            """#
        ])
    }

    func session(_ server: TestServer) async throws -> SeatSession {
        try await SeatSession(api: SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!), show: "show")
    }

    @Test func placesByCountBesideATableTakenWithOneTap() async throws {
        let server = try livehouse()
        let a = try await session(server)
        // One tap on a seat of table 1 (sold whole): all four held, at the table's own price.
        await a.tap("T1-2")
        await a.settle()
        #expect(await a.state.hold?.seats.sorted() == ["T1-1", "T1-2", "T1-3", "T1-4"])
        #expect(await a.state.hold?.total == "500.00")
        // Two standing places by count, beside the table.
        await a.setPlaces("floor", count: 2)
        await a.settle()
        #expect(await a.places(in: "floor") == 2)
        #expect(await a.state.hold?.total == "860.00")
        // Down to one, then a tap on the table again lets it go: one place left.
        await a.setPlaces("floor", count: 1)
        await a.tap("T1-4")
        await a.settle()
        let s = await a.state
        #expect(s.hold?.seats.count == 1 && s.hold?.seats.first?.hasPrefix("floor:") == true, "\(s.hold?.seats ?? [])")
        // The long table's minimum: one tap holds two together.
        await a.tap("L1-1")
        await a.settle()
        #expect(await a.state.hold?.seats.filter { $0.hasPrefix("L1-") }.sorted() == ["L1-1", "L1-2"])
    }

    @Test func moreThanAreFreeIsSaidAndNothingChanges() async throws {
        let server = try livehouse()
        let a = try await session(server), b = try await session(server)
        await a.setPlaces("lounge", count: 5)
        await a.settle()
        #expect(await a.places(in: "lounge") == 5)
        // The lounge is one party's: the other buyer is told, in words, and holds nothing.
        await b.setPlaces("lounge", count: 4)
        await b.settle()
        let s = await b.state
        #expect(s.hold == nil)
        #expect(s.message?.kind == .taken && s.message?.english.hasPrefix("Not so many places left in Lounge") == true, "\(String(describing: s.message))")
    }
}
