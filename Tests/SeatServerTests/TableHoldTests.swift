import Foundation
import LoopbackHTTP
import SeatJSON
import SeatServerTestSupport
import SharedState
import Testing

/// Tables (#53) over HTTP on both stores: a show sets how each table is sold; a table sold whole is held
/// whole or not at all, at its own price; a minimum is kept; two buyers racing for one table get it once.
@Suite(.serialized) struct TableHoldTests {
    static let admin = [("X-Admin-Key", TestServer.adminKey)]

    /// Samples/livehouse.json (T1 round of 4 by table, T2 round of 4 by seat, L1 long of 6, minimum 2) and
    /// its show `supper`, whose policy sells T2 whole too and whose prices give T1 its own price.
    func livehouse(_ backend: StoreBackend) throws -> TestServer {
        try TestServer.livehouse(
            backend,
            shows: [
                #"""
                {"id":"supper","venueId":"livehouse","startsAt":"2099-12-02T20:00:00+08:00",
                 "prices":{"categories":{"standard":"80.00","standing":"180.00","box":"300.00"},"tables":{"T1":"500.00"}},
                 "policy":{"maxSeats":4,"tables":{"T2":"byTable"}}}
                """#
            ])
    }

    func hold(_ c: HTTPConnection, _ seats: [String]) throws -> HTTPConnection.Response {
        try c.request("POST", "/v1/shows/supper/holds", json: #"{"seats":[\#(seats.map { "\"\($0)\"" }.joined(separator: ","))]}"#)
    }

    func violations(_ r: HTTPConnection.Response) -> [String] {
        r.json?["violations"]?.arrayValue?.compactMap { $0.objectValue?.text("rule") } ?? []
    }

    @Test(arguments: StoreBackend.available) func aTableIsHeldAsTheShowSellsIt(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        // The show says how its tables go: T2 whole (the layout said by seat).
        let summary = try c.request("GET", "/v1/shows/supper")
        #expect(summary.json?["policy"]?.objectValue?["tables"]?.objectValue?["T2"]?.stringValue == "byTable", "\(summary.text)")
        // Half of T1: refused, naming the table and the seats left out; nothing held.
        let half = try hold(c, ["T1-1", "T1-2"])
        #expect(half.status == 422 && half.string("type") == "/problems/rule-violation", "\(half.text)")
        #expect(violations(half) == ["wholeTable"], "\(half.text)")
        #expect(half.text.contains("Table 1 is sold as a whole table: choose all 4 of its seats."), "\(half.text)")
        // All of T1 at its own price (500.00, not 4 × 80.00), one choice: with 3 more seats it is 4.
        let whole = try hold(c, ["T1-1", "T1-2", "T1-3", "T1-4", "A-1", "A-2", "A-3"])
        #expect(whole.status == 201, "\(whole.text)")
        #expect(whole.string("total") == "740.00", "\(whole.text)")
        // A second buyer finds it taken.
        let late = try hold(c, ["T1-1", "T1-2", "T1-3", "T1-4"])
        #expect(late.status == 409 && late.string("type") == "/problems/seats-taken", "\(late.text)")
        // The minimum: one seat at the long table is refused, two are held; a change down to one refused.
        let one = try hold(c, ["L1-1"])
        #expect(one.status == 422 && violations(one) == ["tableMinimum"], "\(one.text)")
        let two = try hold(c, ["L1-1", "L1-2"])
        #expect(two.status == 201, "\(two.text)")
        let token = try #require(two.string("token"))
        let down = try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"remove":["L1-2"]}"#)
        #expect(down.status == 422 && violations(down) == ["tableMinimum"], "\(down.text)")
        // Confirmed whole table: a ticket a seat, each naming the table and its share of the price.
        let confirmed = try c.request("POST", "/v1/holds/\(try #require(whole.string("token")))/confirm", json: #"{"orderRef":"SUP-1"}"#)
        #expect(confirmed.status == 200, "\(confirmed.text)")
        let tickets = try c.request("GET", "/v1/orders/SUP-1/tickets", headers: Self.admin)
        let list = tickets.json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let atTable = list.filter { $0.text("row") == "1号桌 Table 1" }
        #expect(tickets.status == 200 && atTable.count == 4 && atTable.allSatisfy { $0.text("price") == "125.00" }, "\(tickets.text)")
    }

    @Test(arguments: StoreBackend.available) func aShowNamingATableTheVenueLacksIsRefused(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        let bad = try c.request(
            "POST", "/v1/shows",
            json: #"""
                {"id":"late","venueId":"livehouse","startsAt":"2099-12-03T20:00:00+08:00",
                 "prices":{"categories":{"standard":"80.00","standing":"180.00","box":"300.00"}},
                 "policy":{"tables":{"T9":"byTable","L1":{"mode":"minimum","min":9}}}}
                """#,
            headers: Self.admin)
        #expect(bad.status == 422, "\(bad.text)")
        let errors = bad.json?["errors"]?.arrayValue?.compactMap { $0.objectValue.map { "\($0.text("path")): \($0.text("message"))" } } ?? []
        #expect(errors == ["policy.tables.L1.min: 9 is more than the table's 6 seats", "policy.tables.T9: the venue has no table \"T9\""], "\(bad.text)")
        let price = try c.request(
            "POST", "/v1/shows",
            json: #"""
                {"id":"late","venueId":"livehouse","startsAt":"2099-12-03T20:00:00+08:00",
                 "prices":{"categories":{"standard":"80.00","standing":"180.00","box":"300.00"},"tables":{"T9":"1.00"}}}
                """#,
            headers: Self.admin)
        #expect(price.status == 422 && price.text.contains(#""path":"tables.T9","message":"the venue has no table \"T9\"""#), "\(price.text)")
        #expect(try c.request("GET", "/v1/shows/late").status == 404)
    }

    @Test(arguments: StoreBackend.available) func buyersRacingForOneTableGetItOnce(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let won = Locked(0), lost = Locked(0), other = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { k in
            do {
                let c = try server.connection()
                // Each asks for all of T2 (sold whole by this show); half also a row seat of their own.
                var seats = ["T2-1", "T2-2", "T2-3", "T2-4"]
                if k % 2 == 0 { seats.append("B-\(k / 2 + 1)") }
                let r = try hold(c, seats)
                if r.status == 201 {
                    won.withLock { $0 += 1 }
                } else if r.status == 409 {
                    lost.withLock { $0 += 1 }
                } else {
                    other.withLock { $0.append("\(r.status) \(r.text)") }
                }
            } catch { other.withLock { $0.append("\(error)") } }
        }
        #expect(won.withLock { $0 } == 1 && lost.withLock { $0 } == 15, "\(other.withLock { $0 })")
        // Every seat of T2 held (by the one winner), and of the row seats asked with it only the winner's.
        let picture = try server.app.inventory.pictureState(show: "supper")
        let layout = picture.venue.layout
        let heldIDs = layout.seatIndices.filter { picture.availability[$0] != .available }.map(layout.seatID)
        #expect(heldIDs.filter { $0.hasPrefix("T2-") }.count == 4, "\(heldIDs)")
        #expect(heldIDs.filter { $0.hasPrefix("B-") }.count <= 1 && heldIDs.count <= 5, "\(heldIDs)")
    }
}
