import Foundation
import SeatJSON
import SeatServerTestSupport
import LoopbackHTTP
import SeatKitTestSupport
import SeatMap
import Testing

/// `seatkit serve` seeds the sample shows for tomorrow; a sample store kept from an earlier day gets
/// tomorrow's shows again (dated ids), since sales of the old ones closed when they started.
@Suite(.serialized) struct SampleShowTests {
    @Test func aSampleStoreFromAnEarlierDayGetsTomorrowsShows() throws {
        guard ServerProcess.binaryIsBuilt() else { return }
        let dir = try TestDirectory()
        defer { dir.remove() }
        let store = "sqlite:" + dir.url.appendingPathComponent("demo.db").path
        let first = try ServerProcess(store: store, samples: true)
        #expect(first.banner.contains("shows on sale:  arena-concert, hall3-1930, imax-2000, hall3-2145"), "\(first.banner)")
        first.terminate()

        // Three days later (the server's clock moved on): the first shows have started.
        let later = try ServerProcess(store: store, environment: ["SEATKIT_CLOCK_OFFSET_MS": String(3 * 86_400_000)], samples: true)
        defer { later.terminate() }
        let day = ISO8601DateFormatter().string(from: Date().addingTimeInterval(4 * 86_400)).prefix(10)
        #expect(later.banner.contains("shows on sale:  arena-concert-\(day), hall3-1930-\(day), imax-2000-\(day), hall3-2145-\(day)"), "\(later.banner)")
        let c = try HTTPConnection(port: later.port)
        let closed = try hold(c, ["7-1"], show: "hall3-1930")
        #expect(closed.status == 409 && closed.string("type") == "/problems/show-started", "\(closed.text)")
        #expect(try hold(c, ["7-1"], show: "hall3-1930-\(day)").status == 201)
        #expect(try JSONParser.parse(c.request("GET", "/v1/shows").body).arrayValue?.count == 8)
    }
}
