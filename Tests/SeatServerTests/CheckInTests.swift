import Foundation
import LoopbackHTTP
import SeatJSON
import SeatSecrets
import SeatServer
import SeatServerTestSupport
import SeatTickets
import SeatWire
import SharedState
import Testing

/// The door over real HTTP, on both stores: a real ticket lets one person in once; a forged, altered,
/// refunded, early or another show's ticket is told why; a retried scan counts once; counts by gate add up.
@Suite(.serialized) struct CheckInTests {
    static let door = TicketTests.door
    static let li = ReservationTests.li

    /// A show starting in 30 minutes (doors open), with `seats` sold at the counter as order `ref`: its tickets' codes by seat.
    func tonight(_ server: TestServer, _ c: HTTPConnection, id: String = "tonight", startsIn minutes: Double = 30, seats: [String], ref: String) throws
        -> [String: String]
    {
        let starts = ISO8601DateFormatter().string(from: Date().addingTimeInterval(minutes * 60))
        let show = #"{"id":"\#(id)","venueId":"cinema-hall-3","startsAt":"\#(starts)","prices":{"categories":{"standard":"40","vip":"60","couple":"90"}}}"#
        let made = try c.request("POST", "/v1/shows", json: show, headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(made.status == 201, "\(made.text)")
        let seatList = seats.map { "\"\($0)\"" }.joined(separator: ",")
        let sale = try c.request(
            "POST", "/v1/shows/\(id)/sales", json: #"{"seats":[\#(seatList)],"orderRef":"\#(ref)","payment":"cash"}"#, headers: Self.li)
        #expect(sale.status == 201, "\(sale.text)")
        let list = try c.request("GET", "/v1/orders/\(ref)/tickets", headers: Self.li).json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["seat"]?.stringValue ?? "", $0["code"]?.stringValue ?? "") })
    }

    func scan(_ c: HTTPConnection, _ code: String, gate: String = "A", direction: String = "in", nonce: String = UUID().uuidString, shows: [String] = [])
        throws -> JSONObject
    {
        let body = CheckInRequest(code: code, gate: gate, direction: direction, nonce: nonce, shows: shows)
        let r = try c.request("POST", "/v1/checkin", json: String(decoding: body.jsonBytes(), as: UTF8.self), headers: Self.door)
        #expect(r.status == 200, "\(r.status) \(r.text)")
        return try #require(r.json)
    }

    @Test(arguments: StoreBackend.available) func aTicketLetsOnePersonInOnceAndEveryRedSaysWhy(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        let codes = try tonight(server, c, seats: ["5-1", "5-2", "5-3"], ref: "NIGHT-1")
        let code = try #require(codes["5-1"])
        let first = try scan(c, code, gate: "Hall 3 left", nonce: "scan-0001")
        #expect(first["result"]?.stringValue == "ok" && first["ok"]?.boolValue == true && first["seat"]?.stringValue == "5-1", "\(first)")
        // The scanner retries the same scan (its answer was lost): the same green, counted once.
        let retry = try scan(c, code, gate: "Hall 3 left", nonce: "scan-0001")
        #expect(retry["result"]?.stringValue == "ok" && retry["replay"]?.boolValue == true, "\(retry)")
        // A screenshot of it at the other door: red, with when, where and by whom it went in.
        let again = try scan(c, code, gate: "Hall 3 right")
        #expect(again["result"]?.stringValue == "already_in" && again["ok"]?.boolValue == false, "\(again)")
        let earlier = again["earlier"]?.objectValue
        #expect(earlier?["gate"]?.stringValue == "Hall 3 left" && earlier?["operator"]?.stringValue == "wang")
        // Out and back in.
        #expect(try scan(c, code, gate: "Hall 3 right", direction: "out")["result"]?.stringValue == "ok")
        #expect(try scan(c, code, gate: "Hall 3 right", direction: "out")["result"]?.stringValue == "not_in")
        #expect(try scan(c, code, gate: "Hall 3 left")["result"]?.stringValue == "ok")
        // Refunded: revoked, even though its signature is good.
        #expect(try c.request("POST", "/v1/orders/NIGHT-1/refund", json: #"{"seats":["5-2"],"reason":"ill"}"#, headers: Self.li).status == 200)
        let refunded = try scan(c, try #require(codes["5-2"]))
        #expect(refunded["result"]?.stringValue == "revoked" && (refunded["detail"]?.stringValue ?? "").contains("refunded"), "\(refunded)")
        // A gate for another show; a bit flipped; a code of another cinema (another secret); not a code at all.
        #expect(try scan(c, try #require(codes["5-3"]), shows: ["show"])["result"]?.stringValue == "wrong_show")
        var flipped = Array(code)
        flipped[20] = flipped[20] == "A" ? "B" : "A"
        #expect(try scan(c, String(flipped))["result"]?.stringValue == "invalid")
        let foreign = TicketIssuer(secret: Array("another cinema's secret".utf8)).code(show: "tonight", seat: 3, seatName: "1-4", sale: "h_x")
        let forged = try scan(c, foreign)
        #expect(forged["result"]?.stringValue == "invalid" && (forged["detail"]?.stringValue ?? "").contains("signature"), "\(forged)")
        #expect(try scan(c, "https://example.com/ticket/5-3")["result"]?.stringValue == "invalid")
        #expect(try scan(c, String(code.dropLast(30)))["result"]?.stringValue == "invalid")
        // Too early: a show starting in five hours.
        let later = try tonight(server, c, id: "late", startsIn: 300, seats: ["6-1"], ref: "LATE-1")
        #expect(try scan(c, try #require(later["6-1"]))["result"]?.stringValue == "too_early")
        // Counted once each, by gate; refused scans count nothing; the same after a restart.
        let counts = try c.request("GET", "/v1/shows/tonight/checkin", headers: Self.door)
        #expect(counts.status == 200, "\(counts.text)")
        #expect(counts.text == #"{"showId":"tonight","inside":1,"gates":[{"gate":"Hall 3 left","in":2,"out":0},{"gate":"Hall 3 right","in":0,"out":1}]}"#)
        // The door's audit: the recorded scans, newest first (the retry and the refused scans are not there).
        let audit = try c.request("GET", "/v1/shows/tonight/checkin?scans=10", headers: Self.door)
        let scans = audit.json?["scans"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(
            scans.map {
                "\($0["seat"]?.stringValue ?? "") \($0["direction"]?.stringValue ?? "") \($0["gate"]?.stringValue ?? "") \($0["operator"]?.stringValue ?? "")"
            }
                == ["5-1 in Hall 3 left wang", "5-1 out Hall 3 right wang", "5-1 in Hall 3 left wang"], "\(audit.text)")
        #expect(try c.request("GET", "/v1/shows/tonight/checkin?scans=many", headers: Self.door).status == 400)
        // The show's report says how many came (a ticket once, however often it went out and back in).
        let report = try c.request("GET", "/v1/shows/tonight/report", headers: Self.li)
        #expect(report.json?["came"]?.intValue == 1 && report.json?["inside"]?.intValue == 1, "\(report.text)")
        try server.restart()
        #expect(try server.connection().request("GET", "/v1/shows/tonight/checkin", headers: Self.door).text == counts.text)
    }

    @Test(arguments: StoreBackend.available) func badScansAre422NamingTheFieldAndOnlyOperatorsScan(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        let codes = try tonight(server, c, seats: ["5-1"], ref: "NIGHT-2")
        for (body, field) in [
            (#"{"code":"SK1A","gate":"A"}"#, "nonce"), (#"{"code":"SK1A","gate":"","nonce":"12345678"}"#, "gate"),
            (#"{"code":"SK1A","gate":"A","nonce":"short"}"#, "nonce"), (#"{"code":"SK1A","gate":"A","nonce":"12345678","direction":"sideways"}"#, "direction"),
            (#"{"code":"SK1A","gate":"A","nonce":"12345678","direction":null}"#, "direction"),
            (#"{"code":"SK1A","gate":"A","nonce":"12345678","shows":["a b"]}"#, "shows[0]"), (#"{"gate":"A","nonce":"12345678"}"#, "code"),
            (#"{"code":"SK1A","gate":"A","nonce":"12345678","color":"red"}"#, "color"),
        ] {
            let r = try c.request("POST", "/v1/checkin", json: body, headers: Self.door)
            #expect(r.status == 422 && r.text.contains(field), "\(body): \(r.status) \(r.text)")
        }
        let code = try #require(codes["5-1"])
        let ok = String(decoding: CheckInRequest(code: code, gate: "A", nonce: "n-00000001").jsonBytes(), as: UTF8.self)
        #expect(try c.request("POST", "/v1/checkin", json: ok).status == 401)
        // The same nonce sent with another ticket's scan is not that scan.
        #expect(try c.request("POST", "/v1/checkin", json: ok, headers: Self.door).status == 200)
        let out = String(decoding: CheckInRequest(code: code, gate: "A", direction: "out", nonce: "n-00000001").jsonBytes(), as: UTF8.self)
        #expect(try c.request("POST", "/v1/checkin", json: out, headers: Self.door).status == 422)
        #expect(try c.request("GET", "/v1/shows/nope/checkin", headers: Self.door).status == 404)
        #expect(try c.request("GET", "/v1/shows/tonight/checkin").status == 401)
    }

    /// Two instances on one PostgreSQL, eight gates on each, the same ticket scanned at all sixteen at
    /// once, five times over (a ticket each round): each time one gate lets it in, fifteen say already_in.
    @Test(.enabled(if: StoreBackend.available.contains(.postgres))) func sixteenGatesOnTwoInstancesLetATicketInOnce() throws {
        let a = try TicketTests().server(.postgres)
        let c = try a.connection()
        let codes = try tonight(a, c, seats: (1...8).map { "5-\($0)" }, ref: "NIGHT-3")
        let operators = try #require(a.options.operatorsFile)
        let b = try TestServer(backend: .postgres, seed: false, storeURL: a.storeURL) { $0.operatorsFile = operators }
        let gates = [a, b].flatMap { server in (0..<8).map { (server, $0) } }
        for seat in 1...5 {
            let code = try #require(codes["5-\(seat)"])
            let results = Locked([String]())
            DispatchQueue.concurrentPerform(iterations: gates.count) { k in
                let (server, gate) = gates[k]
                let answer = (try? server.connection()).flatMap { try? scan($0, code, gate: "\(server === a ? "A" : "B")\(gate)") }
                results.withLock { $0.append(answer?["result"]?.stringValue ?? "no answer") }
            }
            let all = results.withLock { $0 }
            #expect(all.filter { $0 == "ok" }.count == 1 && all.filter { $0 == "already_in" }.count == 15, "seat 5-\(seat): \(all)")
        }
        let counts = try b.connection().request("GET", "/v1/shows/tonight/checkin", headers: Self.door)
        #expect(counts.json?["inside"]?.intValue == 5, "\(counts.text)")
        let entered = counts.json?["gates"]?.arrayValue?.compactMap { $0.objectValue?["in"]?.intValue }.reduce(0, +)
        #expect(entered == 5, "each ticket counted once across the gates: \(counts.text)")
    }
}
