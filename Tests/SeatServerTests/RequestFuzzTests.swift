import Foundation
import LoopbackHTTP
import SeatKitTestSupport
import SeatMap
import SeatServerTestSupport
import Testing

/// Every request body the API takes, fed extreme numbers, NaN spelled every way, -0, 2^63, huge arrays and
/// odd strings (seeded, bounded: `SEATKIT_FUZZ_SEED` varies them): the server answers each with a 2xx or a
/// 4xx problem document, never a 5xx, and keeps selling. A trap would end the test process: the run fails.
@Suite(.serialized) struct RequestFuzzTests {
    static let admin = [("X-Admin-Key", TestServer.adminKey)]

    /// (method, path, a valid body). `{token}` is a live hold's token on show `tokens`, made anew for each
    /// case on seats S1 and S2 (S3 beside them), which no other case touches.
    static let bodies: [(String, String, String)] = [
        (
            "POST", "/v1/venues",
            ##"{"format":"seatkit-layout","version":1,"id":"fuzz-v","name":"F","stage":{"label":"S","x":1,"y":-2,"width":4},"zones":[{"id":"z","name":"Z","category":"standard","color":"#112233"}],"rows":[{"label":"A","zone":"z","y":0,"seats":[{"id":"A1","label":"1","x":0},{"id":"A2","label":"2","x":1}]}]}"##
        ),
        (
            "POST", "/v1/shows",
            #"{"id":"fuzz-s","venueId":"cinema-hall-3","startsAt":"2099-01-01T19:00:00+08:00","holdSeconds":600,"prices":{"currency":"CNY","minorUnits":2,"categories":{"standard":"33.30","vip":"58","couple":"99.90"},"adjustments":[{"row":"1","amount":"-5.00"},{"zone":"vip","multiplier":"1.2"}]},"policy":{"maxSeats":6,"noLoneSeat":true},"details":{"title":{"zh":"电影","en":"Film"},"duration":120}}"#
        ),
        ("PATCH", "/v1/shows/show", #"{"startsAt":"2099-12-01T19:30:00+08:00","holdSeconds":300,"details":{"duration":90},"onSale":true}"#),
        (
            "PUT", "/v1/shows/show/prices",
            #"{"currency":"CNY","minorUnits":2,"categories":{"standard":"30","vip":"50","couple":"90"},"adjustments":[{"seat":"7-1","amount":"1.50"}]}"#
        ),
        ("POST", "/v1/shows/show/holds", #"{"seats":["7-1","7-2"],"wheelchair":false}"#),
        ("POST", "/v1/holds/{token}/seats", #"{"add":["S3"],"remove":["S2"]}"#),
        ("POST", "/v1/holds/{token}/confirm", #"{"orderRef":"FUZZ-1"}"#),
        ("POST", "/v1/shows/show/reservations", #"{"kind":"house","seats":["9-1","9-2"],"reason":"guests","releaseAt":"30 minutes before start"}"#),
        ("POST", "/v1/shows/show/sales", #"{"seats":["10-1","10-2"],"orderRef":"FUZZ-BOX","payment":"cash","force":false}"#),
        ("POST", "/v1/orders/FUZZ-BOX/refund", #"{"seats":["10-1"],"reason":"fuzz","returnTo":"sale"}"#),
        ("POST", "/v1/shows/show/cancel", #"{"reason":"fuzz"}"#),
    ]

    @Test func everyBodyWithExtremeValuesIsA2xxOrA4xxAndTheServerKeepsSelling() throws {
        let server = try TestServer()
        let c = try HTTPConnection(port: server.port, timeoutSeconds: 30)
        var rng = TestRandom(seed: JSONFuzz.seed(20_261_202))
        var statuses: [Int: Int] = [:]
        let tokens = try c.request(
            "POST", "/v1/shows",
            json:
                #"{"id":"tokens","venueId":"cinema-hall-3","startsAt":"2099-01-01T19:00:00+08:00","prices":{"categories":{"standard":"1","vip":"2","couple":"3"}},"policy":{"noLoneSeat":false}}"#,
            headers: Self.admin)
        #expect(tokens.status == 201, "\(tokens.text)")
        var pair = 0
        for (method, template, body) in Self.bodies {
            let fuzz = JSONFuzz(Array(body.utf8))
            for k in 0..<40 {
                var path = template
                var (bytes, what) = k == 0 ? (Array(body.utf8), "as written") : fuzz.mutation(&rng)
                if path.contains("{token}") {
                    // A fresh hold on seats of its own (rows 2-10, triples from the aisle), released after; a
                    // pair a confirmation sold is not used again.
                    let row = pair % 9 + 2, first = 3 * (pair / 9) + 1
                    let made = try hold(c, ["\(row)-\(first)", "\(row)-\(first + 1)"], show: "tokens")
                    guard let token = made.string("token") else { Issue.record("no hold: \(made.text)"); continue }
                    path = path.replacingOccurrences(of: "{token}", with: token)
                    let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"S1\"", with: "\"\(row)-\(first)\"")
                        .replacingOccurrences(of: "\"S2\"", with: "\"\(row)-\(first + 1)\"").replacingOccurrences(of: "\"S3\"", with: "\"\(row)-\(first + 2)\"")
                    bytes = Array(text.utf8)
                }
                let r = try c.request(method, path, headers: Self.admin + [("Content-Type", "application/json")], body: bytes)
                statuses[r.status, default: 0] += 1
                #expect(r.status < 500, "\(method) \(template) \(what): \(r.status) \(r.text.prefix(300))")
                if r.status >= 400 {
                    #expect(r.headers["content-type"] == "application/problem+json" && r.string("detail")?.isEmpty == false, "\(method) \(template) \(what)")
                }
                if path != template {
                    let released = try c.request("DELETE", path.components(separatedBy: "/seats")[0].components(separatedBy: "/confirm")[0])
                    if released.status != 204 { pair += 1 }
                }
            }
        }
        // Still up and selling (on a show the fuzz did not cancel).
        #expect(try server.connection().request("GET", "/healthz").status == 200)
        let sale = try c.request(
            "POST", "/v1/shows",
            json:
                #"{"id":"after","venueId":"cinema-hall-3","startsAt":"2099-01-01T19:00:00+08:00","prices":{"categories":{"standard":"1","vip":"2","couple":"3"}}}"#,
            headers: Self.admin)
        #expect(sale.status == 201, "\(sale.text)")
        #expect(try hold(c, ["5-1", "5-2"], show: "after").status == 201)
        #expect(pair > 0, "some confirmations went through")
        #expect(statuses.keys.contains { $0 >= 200 && $0 < 300 } && statuses.keys.contains { $0 >= 400 }, "\(statuses)")
    }

    /// Every number a query or header carries, at its extremes: `?since=18446744073709551615` once overflowed
    /// `since + cheapDeltaSpan` and stopped the server (SIGILL). Each is a 2xx or a 4xx, and it keeps selling.
    @Test func everyQueryNumberAtItsExtremesIsA2xxOrA4xx() throws {
        let server = try TestServer()
        let c = try HTTPConnection(port: server.port, timeoutSeconds: 30)
        let values =
            JSONFuzz.extremeNumbers + ["18446744073709551615", "18446744073709551616", "9007199254740992", "99999999999999999999", "", "abc", "+1", " 1"]
        let queries = [
            "/v1/shows/show/availability?since=", "/v1/shows/show/best?count=", "/v1/shows/show/log?since=", "/v1/shows/show/log?limit=",
            "/v1/venues/cinema-hall-3/heatmap?days=", "/v1/reports/sales?from=2026-01-01T00:00:00Z&to=", "/v1/shows/show/seatmap.svg?lang=",
            "/v1/venues/cinema-hall-3/geometry?lang=",
        ]
        for query in queries {
            for value in values {
                let path = query + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)
                let r = try c.request("GET", path, headers: Self.admin)
                #expect(r.status < 500, "\(path): \(r.status) \(r.text.prefix(200))")
            }
        }
        for value in values where !value.isEmpty && !value.contains(" ") {
            // A stream's Last-Event-ID: an id past any version starts a fresh stream.
            let s = try HTTPConnection(port: server.port, timeoutSeconds: 5)
            #expect(try s.openEvents("/v1/shows/show/events", headers: [("Last-Event-ID", value)]) == 200, "Last-Event-ID \(value)")
        }
        #expect(try hold(c, ["7-1", "7-2"]).status == 201, "the server keeps selling")
    }

    /// The outside test's case: a manager's two-seat upload with a coordinate of 1e17 ended `seatkit serve`
    /// (SIGILL). Now a 422 naming the seat's field, and the server keeps selling.
    @Test func aTwoSeatUploadWithACoordinateOf1e17IsA422() throws {
        let server = try TestServer()
        let c = try server.connection()
        let upload = try c.request(
            "POST", "/v1/venues?format=seed&id=big",
            headers: Self.admin + [("Content-Type", "application/json")],
            body: Array(#"{"screeningId":"big","seats":[{"id":"A1","row":"A","col":1},{"id":"A2","row":"A","col":1e17}]}"#.utf8))
        #expect(upload.status == 422 && upload.headers["content-type"] == "application/problem+json", "\(upload.status) \(upload.text)")
        #expect(upload.text.contains("seats[1].col"), "\(upload.text)")
        let native = try c.request(
            "POST", "/v1/venues", headers: Self.admin + [("Content-Type", "application/json")],
            body: Array(
                ##"{"format":"seatkit-layout","version":1,"id":"big2","name":"B","zones":[{"id":"z","name":"Z","category":"z","color":"#112233"}],"rows":[{"label":"A","zone":"z","seats":[{"id":"A1","label":"1","x":0,"y":0},{"id":"A2","label":"2","x":1e17,"y":0}]}]}"##
                    .utf8))
        #expect(native.status == 422 && native.text.contains("rows[0].seats[1].x"), "\(native.status) \(native.text)")
        #expect(try hold(c, ["7-1", "7-2"]).status == 201, "the server keeps selling")
    }
}
