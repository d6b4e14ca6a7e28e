import SeatJSON
import SeatServerTestSupport
import Foundation
import LoopbackHTTP
import SeatSamples
import SeatMap
import SeatServer
import SeatCanvas
import Testing

@Suite(.serialized) struct BadInputTests {
    /// Every bad request gets the right 4xx as problem+json and changes nothing.
    @Test(arguments: StoreBackend.available) func badRequestsAreRefusedAndChangeNothing(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let before = try server.availability()
        let cases: [(String, String, [UInt8], [(String, String)], Int, String)] = [
            ("POST", "/v1/shows/show/holds", Array("{\"seats\":[\"7-1\"".utf8), [], 400, "malformed-json"),
            ("POST", "/v1/shows/show/holds", Array("[1,2]".utf8), [], 400, "bad-request"),
            ("POST", "/v1/shows/show/holds", Array("{\"seats\":\"7-1\"}".utf8), [], 422, "invalid-body"),
            ("POST", "/v1/shows/show/holds", Array("{\"seats\":[\"7-1\"],\"colour\":1}".utf8), [], 422, "invalid-body"),
            ("POST", "/v1/shows/show/holds", Array("{\"seats\":[]}".utf8), [], 422, "no-seats"),
            ("POST", "/v1/shows/show/holds", [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D], [], 400, "malformed-json"),
            ("POST", "/v1/shows/show/holds", [], [], 400, "bad-request"),
            ("POST", "/v1/shows/nope/holds", Array("{\"seats\":[\"7-1\"]}".utf8), [], 404, "not-found"),
            ("GET", "/v1/holds/0123456789abcdef0123456789abcdef", [], [], 404, "not-found"),
            ("DELETE", "/v1/holds/not-a-token", [], [], 404, "not-found"),
            ("POST", "/v1/holds/0123456789abcdef0123456789abcdef/confirm", Array("{\"orderRef\":\"x\"}".utf8), [], 404, "not-found"),
            ("PUT", "/v1/shows/show/holds", [], [], 405, "method-not-allowed"),
            ("GET", "/v1/nothing", [], [], 404, "not-found"),
            ("POST", "/v1/venues", Array(#"{"format":"seatkit-layout"}"#.utf8), [], 401, "admin-key-required"),
            ("POST", "/v1/shows", Array("{}".utf8), [("X-Admin-Key", "wrong")], 401, "admin-key-required"),
            (
                "POST", "/v1/shows",
                Array(#"{"id":"s 2","venueId":"cinema-hall-3","startsAt":"tomorrow","prices":{"categories":{"standard":"1a"}},"holdSeconds":5}"#.utf8),
                [("X-Admin-Key", TestServer.adminKey)], 422, "invalid-body"
            ),
            ("GET", "/v1/shows/show/availability?since=abc", [], [], 400, "bad-request"),
            ("GET", "/v1/venues/cinema-hall-3/heatmap?days=0", [], [], 400, "bad-request"),
        ]
        for (method, path, body, headers, status, slug) in cases {
            let r = try c.request(method, path, headers: headers, body: body)
            #expect(r.status == status, "\(method) \(path): \(r.status) \(r.text)")
            #expect(r.headers["content-type"] == "application/problem+json", "\(method) \(path)")
            #expect(r.string("type") == "/problems/\(slug)", "\(method) \(path): \(r.text)")
            #expect(r.json?["detail"]?.stringValue?.isEmpty == false)
        }
        #expect(try server.availability() == before)
    }

    @Test(arguments: StoreBackend.available) func hugeBodiesAreRefused(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let huge = "{\"seats\":[" + String(repeating: "\"7-1\",", count: 200_000) + "\"7-2\"]}"
        let r = try c.request("POST", "/v1/shows/show/holds", json: huge)
        #expect(r.status == 413 && r.string("type") == "/problems/body-too-large")
        #expect(try server.availability().counts.held == 0)
    }

    @Test(arguments: StoreBackend.available) func aTruncatedBodyChangesNothing(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        do {
            let c = try server.connection()
            try c.sendRaw(Array("POST /v1/shows/show/holds HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"seats\":[\"7-1\"".utf8))
        }  // the connection closes here, mid-body
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try server.availability().counts.held == 0)
        #expect(try server.connection().request("GET", "/healthz").status == 200)
    }

    @Test(arguments: StoreBackend.available) func aForeignTokenCannotTouchSomeoneElsesHold(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let token = try #require(try hold(c, ["7-1", "7-2"]).string("token"))
        var forged = Array(token)
        forged[0] = forged[0] == "a" ? "b" : "a"
        let other = String(forged)
        #expect(try c.request("DELETE", "/v1/holds/\(other)").status == 404)
        #expect(try c.request("POST", "/v1/holds/\(other)/confirm", json: #"{"orderRef":"x"}"#).status == 404)
        #expect(try server.availability().counts.held == 2)
    }

    @Test(arguments: StoreBackend.available) func holdCreationIsRateLimitedPerClient(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend, holdsPerSecond: 2)
        let c = try server.connection()
        var statuses: [Int] = []
        for k in 0..<8 { statuses.append(try hold(c, ["\(k + 1)-1"]).status) }
        #expect(statuses.contains(429))
        let limited = try hold(c, ["9-1"])
        #expect(limited.status == 429 && Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        #expect(server.app.inventory.metrics.value("rate_limited") >= 1)
    }

    @Test(arguments: StoreBackend.available) func adminCanCreateVenuesAndShowsFromAnyFormat(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend, seed: false)
        let c = try server.connection()
        let seed = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Samples/imports/cinema-grid.json"))
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let venue = try c.request("POST", "/v1/venues?format=cinema-grid", headers: admin, body: [UInt8](seed))
        #expect(venue.status == 201 && venue.string("id") == "hall-7", "\(venue.text)")
        #expect(try c.request("POST", "/v1/venues?format=cinema-grid", headers: admin, body: [UInt8](seed)).status == 409)
        let show = try c.request(
            "POST", "/v1/shows",
            json: #"{"id":"h7","venueId":"hall-7","startsAt":"2099-12-02T20:00:00+08:00","prices":{"categories":{"standard":"45.00"}},"holdSeconds":300}"#,
            headers: admin)
        #expect(show.status == 201, "\(show.text)")
        #expect(show.json?["seats"]?.objectValue?["total"]?.intValue == 70)
        let list = try c.request("GET", "/v1/shows")
        let shows = try JSONParser.parse(list.body)
        #expect(list.status == 200 && shows.arrayValue?.count == 1)
        #expect(try c.request("GET", "/openapi.json").json?["openapi"]?.stringValue == "3.1.0")
        #expect(try c.request("GET", "/metrics").text.contains("seatkit_requests_total"))
    }
}

@Suite(.serialized) struct HeatmapEndpointTests {
    @Test(arguments: StoreBackend.available) func theHeatMapIsTheShareOfShowsInWhichEachSeatSold(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend, seed: true)
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let c = try server.connection()
        // A show starting in ten minutes: 7-1 and 7-2 sell while it is on sale; then the server's clock
        // moves an hour on, so it is a past show (the first show is still to come and is not counted).
        let soon = ISO8601DateFormatter().string(from: Date().addingTimeInterval(600))
        #expect(
            try c.request(
                "POST", "/v1/shows",
                json:
                    "{\"id\":\"second\",\"venueId\":\"cinema-hall-3\",\"startsAt\":\"\(soon)\",\"prices\":{\"categories\":{\"standard\":\"1\",\"vip\":\"2\",\"couple\":\"3\"}}}",
                headers: admin
            ).status == 201)
        let token = try #require(try hold(c, ["7-1", "7-2"], show: "second").string("token"))
        #expect(try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"h"}"#).status == 200)
        #expect(try c.request("GET", "/v1/venues/cinema-hall-3/heatmap?days=1").headers["x-shows-counted"] == "0")
        server.app.inventory.clockOffset.advance(by: 3_600_000)
        let recent = try c.request("GET", "/v1/venues/cinema-hall-3/heatmap?days=1")
        #expect(recent.status == 200 && recent.headers["x-shows-counted"] == "1")
        #expect(recent.json?["7-1"]?.doubleValue == 1 && recent.json?["7-3"]?.doubleValue == 0)
        #expect(recent.json?.count == 172)
        // The map it gives draws: SeatCanvas reads it as a heat map.
        #expect((try? SeatHeatmap(json: recent.body, layout: SampleVenues.cinemaHall())) != nil)
        // As the overlay a page draws: levels by seat, the engine's colours, averages by row and zone.
        let overlay = try c.request("GET", "/v1/venues/cinema-hall-3/heatmap?days=1&shape=levels")
        let doc = try #require(overlay.json)
        let hall = SampleVenues.cinemaHall()
        let levels = try #require(doc["levels"]?.arrayValue).compactMap(\.intValue)
        #expect(overlay.status == 200 && doc["shows"]?.intValue == 1 && levels.count == 172)
        let sold = try #require(hall.index(ofSeatID: "7-1")), unsold = try #require(hall.index(ofSeatID: "7-3"))
        #expect(levels[sold] == 100 && levels[unsold] == 0)
        let palette = try #require(doc["palette"]?.arrayValue).compactMap(\.stringValue)
        #expect(palette.count == 101 && palette[100] == SeatHeatmap.color(1) && palette[0] == SeatHeatmap.color(0))
        let row7 = try #require(doc["rows"]?.arrayValue?.first { $0.objectValue?["id"]?.stringValue == "7" }?.objectValue)
        let seatsInRow7 = hall.rows.first { $0.label == "7" }!.seats.count
        #expect(row7["average"]?.doubleValue == ((2 / Double(seatsInRow7)) * 1000).rounded() / 1000)
        #expect(try c.request("GET", "/v1/venues/cinema-hall-3/heatmap?shape=pie").status == 400)
        #expect(try c.request("GET", "/v1/venues/nowhere/heatmap").status == 404)
    }
}
