import Foundation
import LoopbackHTTP
import SeatMap
import SeatSamples
import SeatKitTestSupport
import SeatServerTestSupport
import SharedState
import Testing

/// Buyers and box-office staff racing for the same seats, on both stores: no seat is ever sold twice,
/// and the report's counts are the seats.
@Suite(.serialized) struct BoxOfficeRaceTests {
    static let li = ReservationTests.li

    struct Tally {
        var sold: [String: String] = [:]  // seat → who believes they sold or bought it
        var doubles: [String] = []
        var answers: [Int: Int] = [:]
    }

    @Test(arguments: StoreBackend.available) func buyersAndTheBoxOfficeNeverSellASeatTwice(backend: StoreBackend) throws {
        let server = try ReservationTests.server(backend)
        let layout = SampleVenues.cinemaHall()
        // Standard seats of rows 1-10, in pairs side by side: what both sides fight over.
        let pairs: [[String]] = (1...10).flatMap { row in stride(from: 1, to: 13, by: 2).map { ["\(row)-\($0)", "\(row)-\($0 + 2)"] } }
            .filter { $0.allSatisfy { layout.index(ofSeatID: $0) != nil } }
        let tally = Locked(Tally())
        @Sendable func claim(_ seats: [String], by who: String) {
            tally.withLock { t in
                for s in seats {
                    if let other = t.sold[s] { t.doubles.append("\(s): \(other) and \(who)") }
                    t.sold[s] = who
                }
            }
        }
        let group = DispatchGroup()
        for worker in 0..<24 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var rng = TestRandom(UInt64(worker + 1))
                guard let c = try? server.connection() else { return }
                for k in 0..<12 {
                    let seats = pairs[Int(rng.next() % UInt64(pairs.count))]
                    if worker < 4 {
                        // The box office: a counter sale, forced past the rules.
                        let body = #"{"seats":["\#(seats[0])","\#(seats[1])"],"orderRef":"BOX-\#(worker)-\#(k)","payment":"cash","force":true}"#
                        guard let r = try? c.request("POST", "/v1/shows/show/sales", json: body, headers: Self.li) else { continue }
                        tally.withLock { $0.answers[r.status, default: 0] += 1 }
                        if r.status == 201 { claim(seats, by: "BOX-\(worker)-\(k)") }
                    } else {
                        guard let h = try? hold(c, seats) else { continue }
                        tally.withLock { $0.answers[h.status, default: 0] += 1 }
                        guard h.status == 201, let token = h.string("token") else { continue }
                        let confirmed = try? c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"WEB-\#(worker)-\#(k)"}"#)
                        if confirmed?.status == 200 { claim(seats, by: "WEB-\(worker)-\(k)") }
                    }
                }
            }
        }
        group.wait()
        let t = tally.current
        #expect(t.doubles.isEmpty, "sold twice: \(t.doubles)")
        #expect((t.answers[409] ?? 0) > 10 && (t.answers[201] ?? 0) > 10, "the race must be real: \(t.answers)")
        #expect(Set(t.answers.keys).isSubset(of: [201, 409, 422]), "\(t.answers)")
        // The server agrees: exactly the seats someone believes they sold or bought are sold.
        let a = try server.availability()
        let sold = Set(layout.seatIndices.filter { a[$0] == .sold }.map { layout.seatID($0) })
        #expect(sold == Set(t.sold.keys))
        let report = try server.connection().request("GET", "/v1/shows/show/report", headers: Self.li)
        let byStatus = try #require(report.json?["byStatus"]?.objectValue)
        #expect(byStatus["sold"]?.intValue == sold.count)
        #expect(["available", "held", "sold", "blocked"].map { byStatus[$0]?.intValue ?? 0 }.reduce(0, +) == layout.seatCount)
    }
}
