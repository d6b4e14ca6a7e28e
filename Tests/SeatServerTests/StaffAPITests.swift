import Foundation
import LoopbackHTTP
import SeatDomain
import SeatJSON
import SeatSamples
import SeatServer
import SeatServerTestSupport
import Testing

/// The staff routes over HTTP (#56): head office makes cinemas and a cinema's manager; that manager
/// adds clerks of their own cinema only and sees only them; disabling, a new key and removal take effect
/// at once; every change is in the staff log with who made it; bad input is named and changes nothing.
@Suite struct StaffAPITests {
    static let admin = [("X-Admin-Key", TestServer.adminKey)]

    static func server(_ backend: StoreBackend) throws -> TestServer {
        let server = try TestServer(backend: backend)
        try server.app.inventory.addVenue(SampleVenues.imaxHall())
        return server
    }

    static func send(_ s: TestServer, _ method: String, _ path: String, _ body: String? = nil, key: String) throws -> HTTPConnection.Response {
        let c = try s.connection()
        let headers = [("X-Admin-Key", key)]
        return try body.map { try c.request(method, path, json: $0, headers: headers) } ?? c.request(method, path, headers: headers)
    }

    static func list(_ r: HTTPConnection.Response) -> [JSONObject] {
        ((try? JSONParser.parse(r.body))?.arrayValue ?? []).compactMap(\.objectValue)
    }

    static func cinema(_ s: TestServer, _ name: String, _ venues: [String]) throws -> String {
        let r = try send(
            s, "POST", "/v1/cinemas", #"{"name":"\#(name)","venues":[\#(venues.map { "\"\($0)\"" }.joined(separator: ","))]}"#, key: TestServer.adminKey)
        #expect(r.status == 201, "\(r.text)")
        return try #require(r.string("id"))
    }

    @Test(arguments: StoreBackend.available) func aCinemasManagerManagesTheirCinemaOnly(backend: StoreBackend) throws {
        let s = try Self.server(backend)
        let north = try Self.cinema(s, "北城影城", ["cinema-hall-3"]), south = try Self.cinema(s, "南城影城", ["imax-1"])
        let made = try Self.send(s, "POST", "/v1/operators", #"{"name":"north.mgr","role":"manager","cinemas":["\#(north)"]}"#, key: TestServer.adminKey)
        #expect(made.status == 201)
        let managerKey = try #require(made.string("key"))
        #expect(made.headers["location"] == "/v1/operators/north.mgr")
        // Outside their cinema, or every cinema: refused, naming the cinema, nothing made.
        let south403 = try Self.send(s, "POST", "/v1/operators", #"{"name":"li","role":"boxoffice","cinemas":["\#(south)"]}"#, key: managerKey)
        #expect(south403.status == 403 && south403.string("type")?.hasSuffix("outside-your-cinemas") == true)
        #expect(south403.string("detail") == "north.mgr does not act for 南城影城")
        let all403 = try Self.send(s, "POST", "/v1/operators", #"{"name":"li","role":"boxoffice","cinemas":"all"}"#, key: managerKey)
        #expect(all403.status == 403)
        #expect(try Self.send(s, "POST", "/v1/cinemas", #"{"name":"西城","venues":[]}"#, key: managerKey).status == 403)
        // Within it: a clerk, whose key signs in as a box office of that cinema.
        let clerk = try Self.send(s, "POST", "/v1/operators", #"{"name":"li","role":"boxoffice","cinemas":["\#(north)"]}"#, key: managerKey)
        #expect(clerk.status == 201)
        let clerkKey = try #require(clerk.string("key"))
        #expect(try Self.send(s, "GET", "/v1/operators/me", key: clerkKey).string("role") == "boxoffice")
        #expect(try Self.send(s, "POST", "/v1/operators", #"{"name":"wang","role":"door","cinemas":["\#(south)"]}"#, key: TestServer.adminKey).status == 201)
        // Each sees whom they manage: head office everyone, the cinema's manager their cinema's.
        func names(_ key: String) throws -> [String] {
            Self.list(try Self.send(s, "GET", "/v1/operators", key: key)).compactMap { $0["name"]?.stringValue }
        }
        #expect(try names(TestServer.adminKey) == ["li", "north.mgr", "wang"])
        #expect(try names(managerKey) == ["li", "north.mgr"])
        #expect(try Self.send(s, "GET", "/v1/operators", key: clerkKey).status == 403)
        #expect(try Self.send(s, "PATCH", "/v1/operators/wang", #"{"state":"disabled"}"#, key: managerKey).status == 403)
        let cinemas = Self.list(try Self.send(s, "GET", "/v1/cinemas", key: clerkKey)).compactMap { $0["name"]?.stringValue }
        #expect(cinemas == ["北城影城"])
        // Disabled: the key opens nothing; enabled: it does again; a new key: the old one stops.
        #expect(try Self.send(s, "PATCH", "/v1/operators/li", #"{"state":"disabled"}"#, key: managerKey).string("state") == "disabled")
        #expect(try Self.send(s, "GET", "/v1/operators/me", key: clerkKey).status == 401)
        #expect(try Self.send(s, "PATCH", "/v1/operators/li", #"{"state":"active"}"#, key: managerKey).status == 200)
        #expect(try Self.send(s, "GET", "/v1/operators/me", key: clerkKey).status == 200)
        let reset = try Self.send(s, "PATCH", "/v1/operators/li", #"{"resetKey":true}"#, key: managerKey)
        let newKey = try #require(reset.string("key"))
        #expect(try Self.send(s, "GET", "/v1/operators/me", key: clerkKey).status == 401)
        #expect(try Self.send(s, "GET", "/v1/operators/me", key: newKey).status == 200)
        #expect(try Self.send(s, "GET", "/v1/operators", key: TestServer.adminKey).text.contains(newKey) == false)
        // A manager cannot lock themselves out; another manager can remove them.
        #expect(try Self.send(s, "PATCH", "/v1/operators/north.mgr", #"{"state":"disabled"}"#, key: managerKey).status == 409)
        #expect(try Self.send(s, "DELETE", "/v1/operators/li", key: managerKey).status == 204)
        #expect(try Self.send(s, "GET", "/v1/operators/me", key: newKey).status == 401)
        #expect(try Self.send(s, "PATCH", "/v1/operators/li", #"{"state":"active"}"#, key: managerKey).status == 404)
        let again = try Self.send(s, "POST", "/v1/operators", #"{"name":"li","role":"boxoffice","cinemas":["\#(north)"]}"#, key: managerKey)
        #expect(again.status == 409 && again.string("detail")?.contains("never given twice") == true)
        // The log: every change, who made it, no key.
        let log = try Self.send(s, "GET", "/v1/staff/log", key: TestServer.adminKey)
        let lines = Self.list(log)
        #expect(lines.map { $0["action"]?.stringValue ?? "" }.filter { $0.hasPrefix("operator") || $0 == "key-reset" }.count == 7)
        #expect(lines.first { $0["action"]?.stringValue == "key-reset" }?["operator"]?.stringValue == "north.mgr")
        #expect(!log.text.contains(newKey) && !log.text.contains(clerkKey))
        let theirs = Self.list(try Self.send(s, "GET", "/v1/staff/log", key: managerKey)).compactMap { $0["subject"]?.stringValue }
        #expect(Set(theirs).isSubset(of: ["li", "north.mgr", north]))
    }

    @Test(arguments: StoreBackend.available) func badStaffInputIsNamedAndChangesNothing(backend: StoreBackend) throws {
        let s = try Self.server(backend)
        let north = try Self.cinema(s, "北城影城", ["cinema-hall-3"])
        let cases: [(String, String, String, Int, String)] = [
            ("POST", "/v1/operators", #"{"name":"me","role":"door","cinemas":"all"}"#, 422, "name: me is kept"),
            ("POST", "/v1/operators", #"{"name":"a b","role":"door","cinemas":"all"}"#, 422, "name: operator name"),
            ("POST", "/v1/operators", #"{"name":"zhao","role":"cashier","cinemas":"all"}"#, 422, "role: one of door, boxoffice, manager or checkout"),
            ("POST", "/v1/operators", #"{"name":"zhao","role":"door","cinemas":["c_000000000000"]}"#, 422, "cinemas[0]: no cinema c_000000000000"),
            ("POST", "/v1/operators", #"{"name":"zhao","role":"door","cinemas":[]}"#, 422, "cinemas: 1 to 100 cinemas"),
            ("POST", "/v1/operators", #"{"name":"zhao","role":"door"}"#, 422, "cinemas"),
            ("POST", "/v1/cinemas", #"{"name":"东城","venues":["nowhere"]}"#, 422, "venues[0]: no venue nowhere"),
            ("POST", "/v1/cinemas", #"{"name":"东城","venues":["cinema-hall-3"]}"#, 409, "venues[0]: cinema-hall-3 is in cinema 北城影城"),
            ("POST", "/v1/cinemas", #"{"name":"北城影城","venues":[]}"#, 409, "is called 北城影城"),
            ("PATCH", "/v1/cinemas/\(north)", #"{}"#, 422, "nothing to change"),
            ("PATCH", "/v1/cinemas/c_000000000000", #"{"name":"x"}"#, 404, "no cinema"),
            ("PATCH", "/v1/cinemas/\(north)", #"{"name":"北城","venues":null}"#, 422, "venues: null is not a value here"),
            ("PATCH", "/v1/operators/nobody", #"{"role":null}"#, 422, "role: null is not a value here"),
            ("PATCH", "/v1/operators/nobody", #"{"state":"disabled"}"#, 404, "no operator nobody"),
        ]
        for (method, path, body, status, detail) in cases {
            let r = try Self.send(s, method, path, body, key: TestServer.adminKey)
            #expect(r.status == status, "\(path) \(body): \(r.status) \(r.text)")
            #expect(r.headers["content-type"] == "application/problem+json")
            #expect(r.string("detail")?.contains(detail) == true, "\(body): \(r.string("detail") ?? r.text)")
        }
        #expect(Self.list(try Self.send(s, "GET", "/v1/operators", key: TestServer.adminKey)).isEmpty)
        #expect(Self.list(try Self.send(s, "GET", "/v1/cinemas", key: TestServer.adminKey)).count == 1)
        #expect(Self.list(try Self.send(s, "GET", "/v1/staff/log", key: TestServer.adminKey)).count == 1)
    }

    /// A key reset on one instance stops the old key on the other within a second.
    @Test(.enabled(if: StoreBackend.available.contains(.postgres))) func aKeyResetOnOneInstanceStopsTheOldKeyOnTheOther() throws {
        let a = try Self.server(.postgres)
        let b = try a.sibling()
        let made = try Self.send(a, "POST", "/v1/operators", #"{"name":"li","role":"boxoffice","cinemas":"all"}"#, key: TestServer.adminKey)
        let old = try #require(made.string("key"))
        let started = Date()
        while try Self.send(b, "GET", "/v1/operators/me", key: old).status != 200 && Date().timeIntervalSince(started) < 3 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(try Self.send(b, "GET", "/v1/operators/me", key: old).status == 200)
        let reset = Date()
        let new = try #require(try Self.send(a, "PATCH", "/v1/operators/li", #"{"resetKey":true}"#, key: TestServer.adminKey).string("key"))
        while try Self.send(b, "GET", "/v1/operators/me", key: old).status != 401 && Date().timeIntervalSince(reset) < 3 { Thread.sleep(forTimeInterval: 0.02) }
        let took = Date().timeIntervalSince(reset)
        print("StaffAPITests: the old key refused on the other instance \(Int(took * 1000)) ms after the reset")
        #expect(took < 1)
        #expect(try Self.send(b, "GET", "/v1/operators/me", key: new).status == 200)
    }
}
