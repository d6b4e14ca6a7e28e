import Foundation
import LoopbackHTTP
import SeatServerTestSupport
import SeatWire
import Testing

/// `GET /v1/venues/{id}/views/{seat}` over real HTTP: the engine's view from a seat, as JSON in the
/// language asked and as a picture; an unknown venue or seat is a 404 that names it.
@Suite struct SeatViewRouteTests {
    @Test func aSeatsViewAsWordsAndAsAPicture() throws {
        let server = try TestServer()
        let c = try server.connection()
        let zh = try c.request("GET", "/v1/venues/cinema-hall-3/views/5-1")
        #expect(zh.status == 200 && zh.headers["cache-control"] == "public, max-age=86400", "\(zh.text)")
        let view = try SeatViewResource(json: zh.body)
        // Row 5 (y 4) of the sample hall, read at real proportions: depth (4 + 2.5) × 1.9 = 12.35 before a
        // screen 12 wide, 0.5 left of the centre line: atan(5.5/12.35) + atan(6.5/12.35) = 24.00° + 27.76°.
        #expect(view.seat == "5-1" && abs(view.viewingAngle - 51.8) < 0.05 && view.verdict == "ideal" && view.words.hasPrefix("黄金视角"), "\(zh.text)")
        let en = try SeatViewResource(json: c.request("GET", "/v1/venues/cinema-hall-3/views/1-1?lang=en").body)
        #expect(en.verdict == "tooClose" && en.words == "Very close: you will turn your head to see it all")
        let picture = try c.request("GET", "/v1/venues/cinema-hall-3/views/5-1.svg?lang=en")
        #expect(picture.status == 200 && picture.headers["content-type"] == "image/svg+xml" && picture.text.contains("aria-label=\"View from the seat: "))
        let noSeat = try c.request("GET", "/v1/venues/cinema-hall-3/views/99-1")
        #expect(noSeat.status == 404 && noSeat.string("detail") == "no seat 99-1 in venue cinema-hall-3")
        #expect(try c.request("GET", "/v1/venues/nope/views/1-1").status == 404)
        #expect(try c.request("GET", "/v1/venues/cinema-hall-3/views/5-1?lang=fr").status == 400)
    }
}
