import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatSamples
import SeatSecrets
import SeatServer
import SeatServerTestSupport
import Testing

/// Blocks and house seats over real HTTP, on both stores: the box office's reservations ride the
/// buyers' machinery (one version, one event) and never sell a seat twice.
@Suite(.serialized) struct ReservationTests {
    static let boxOfficeKey = "li-boxoffice-key-4d8e6a0c2f"

    static func server(_ backend: StoreBackend) throws -> TestServer {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("operators-\(UUID().uuidString).txt").path
        try "li boxoffice \(OperatorDirectory.digest(boxOfficeKey))\n".write(toFile: path, atomically: true, encoding: .utf8)
        return try TestServer(backend: backend) { $0.operatorsFile = path }
    }

    static let li = [("Authorization", "Bearer \(boxOfficeKey)")]

    func reserve(_ c: HTTPConnection, _ body: String, show: String = "show") throws -> HTTPConnection.Response {
        try c.request("POST", "/v1/shows/\(show)/reservations", json: body, headers: Self.li)
    }

    @Test(arguments: StoreBackend.available) func aBlockTurnsSeatsUnavailableForEveryoneInOneVersion(backend: StoreBackend) throws {
        let server = try Self.server(backend)
        let viewer = try server.connection()
        #expect(try viewer.openEvents("/v1/shows/show/events") == 200)
        let snapshot = try viewer.nextEvent()
        let c = try server.connection()
        let made = try reserve(c, #"{"kind":"blocked","seats":["7-1","7-2"],"reason":"broken seats"}"#)
        #expect(made.status == 201, "\(made.text)")
        let id = try #require(made.string("id"))
        #expect(made.headers["location"] == "/v1/reservations/\(id)" && made.string("operator") == "li" && made.json?["releaseAt"] == .null)
        // One event, one version: both seats not for sale; the viewer never sees the reason or who.
        let event = try viewer.nextEvent()
        #expect(event.event == "seats" && event.id == String((Int(snapshot.id ?? "0") ?? 0) + 1))
        let delta = try AvailabilityDelta(encoded: event.data)
        #expect(delta.changes.count == 2 && delta.changes.allSatisfy { $0.status == .blocked })
        #expect(!event.data.contains("broken") && !event.data.contains("li"))
        let layout = SampleVenues.cinemaHall()
        #expect(try server.availability()[layout.index(ofSeatID: "7-1")!] == .blocked)
        // A buyer's hold on a blocked seat is a 409 naming it; on free seats it works as before.
        let refused = try hold(c, ["7-2", "7-3"])
        #expect(refused.status == 409 && refused.text.contains("7-2"))
        #expect(try hold(c, ["5-1", "5-2"]).status == 201)
        // All or none: a held seat in a new block refuses the whole block, naming it.
        let clash = try reserve(c, #"{"kind":"blocked","seats":["6-1","5-1"],"reason":"camera"}"#)
        #expect(clash.status == 409 && clash.text.contains("5-1"))
        #expect(try server.availability()[layout.index(ofSeatID: "6-1")!] == .available)
        // Kept in the store with its reason and who made it: a restarted server has it as it was.
        try server.restart()
        let c2 = try server.connection()
        let kept = try c2.request("GET", "/v1/reservations/\(id)", headers: Self.li)
        #expect(kept.status == 200 && kept.string("reason") == "broken seats" && kept.string("operator") == "li" && kept.string("kind") == "blocked")
        #expect(try server.availability()[layout.index(ofSeatID: "7-1")!] == .blocked)
        // Listed, found, changed, released.
        let list = try c2.request("GET", "/v1/shows/show/reservations", headers: Self.li)
        #expect(list.status == 200 && list.text.contains(id) && list.text.contains("broken seats"))
        let changed = try c2.request("POST", "/v1/reservations/\(id)/seats", json: #"{"add":["7-3"],"remove":["7-1"]}"#, headers: Self.li)
        #expect(changed.status == 200 && Set(changed.json?["seats"]?.arrayValue?.compactMap(\.stringValue) ?? []) == ["7-2", "7-3"], "\(changed.text)")
        #expect(try server.availability()[layout.index(ofSeatID: "7-1")!] == .available)
        #expect(try c2.request("DELETE", "/v1/reservations/\(id)", headers: Self.li).status == 204)
        #expect(try server.availability()[layout.index(ofSeatID: "7-3")!] == .available)
        #expect(try c2.request("GET", "/v1/reservations/\(id)", headers: Self.li).status == 404)
        #expect(try hold(c2, ["7-1", "7-2"]).status == 201, "the seats are on sale again")
    }

    @Test(arguments: StoreBackend.available) func houseSeatsReleaseThemselvesAtTheirTime(backend: StoreBackend) throws {
        let server = try Self.server(backend)
        let c = try server.connection()
        let made = try reserve(c, #"{"kind":"house","seats":["8-1","8-2"],"reason":"director's guests","releaseAt":"30 minutes before start"}"#)
        #expect(made.status == 201, "\(made.text)")
        // The sample show starts in the future; its release time is 30 minutes before that.
        let layout = SampleVenues.cinemaHall()
        #expect(try server.availability()[layout.index(ofSeatID: "8-1")!] == .blocked)
        let releaseAt = try #require(made.string("releaseAt"))
        let at = try #require(ISO8601DateFormatter().date(from: releaseAt.replacingOccurrences(of: #"\.\d+"#, with: "", options: .regularExpression)))
        server.app.inventory.clockOffset.advance(by: Int64((at.timeIntervalSinceNow + 1) * 1000))
        _ = server.app.inventory.expireDue()
        #expect(try server.availability()[layout.index(ofSeatID: "8-1")!] == .available, "released at its time")
        #expect(try c.request("GET", "/v1/reservations/\(made.string("id") ?? "")", headers: Self.li).status == 404)
    }

    /// Times the server writes (`….000Z`) are taken when read back (#26 item 6), and seats are kept no
    /// longer than the show runs (item 8: a house reservation once accepted a release years after it).
    @Test(arguments: StoreBackend.available) func timesTheServerWritesAreReadBackAndKeepingEndsWithTheShow(backend: StoreBackend) throws {
        let server = try Self.server(backend)
        let c = try server.connection()
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let made = try reserve(c, #"{"kind":"house","seats":["8-1"],"reason":"guests","releaseAt":"30 minutes before start"}"#)
        let written = try #require(made.string("releaseAt"))
        #expect(written.hasSuffix(".000Z"), "the server writes milliseconds: \(written)")
        // The same text sent back: a reservation, a show's start, a new show.
        let again = try reserve(c, #"{"kind":"house","seats":["8-2"],"reason":"guests","releaseAt":"\#(written)"}"#)
        #expect(again.status == 201 && again.string("releaseAt") == written, "\(again.status) \(again.text)")
        let show = try c.request("GET", "/v1/shows/show").string("startsAt") ?? ""
        let fractional = show.contains(".") ? show : "2099-12-01T11:30:00.000Z"
        let edit = try c.request("PATCH", "/v1/shows/show", json: #"{"startsAt":"\#(fractional)"}"#, headers: admin)
        #expect(edit.status == 200, "\(edit.status) \(edit.text)")
        let created = try c.request(
            "POST", "/v1/shows",
            json:
                #"{"id":"late","venueId":"cinema-hall-3","startsAt":"2099-12-02T11:30:00.250Z","prices":{"categories":{"standard":"1","vip":"2","couple":"3"}},"details":{"duration":120}}"#,
            headers: admin)
        #expect(created.status == 201, "\(created.status) \(created.text)")
        // Kept until the show ends at most: its start plus its running time (120 minutes), or 4 hours without one.
        let atEnd = try reserve(c, #"{"kind":"house","seats":["8-3"],"reason":"guests","releaseAt":"2099-12-02T13:30:00.250Z"}"#, show: "late")
        #expect(atEnd.status == 201, "\(atEnd.status) \(atEnd.text)")
        let after = try reserve(c, #"{"kind":"house","seats":["8-4"],"reason":"guests","releaseAt":"2099-12-02T13:31:00Z"}"#, show: "late")
        #expect(after.status == 422 && after.string("detail")?.contains("after show late ends (2099-12-02T13:30:00.250Z)") == true, "\(after.text)")
        let years = try reserve(c, #"{"kind":"blocked","seats":["8-4"],"reason":"broken","releaseAt":"2199-01-01T00:00:00Z"}"#)
        #expect(years.status == 422 && years.headers["content-type"] == "application/problem+json", "\(years.text)")
        #expect(try server.availability("late").counts.blocked == 1 && server.availability().counts.blocked == 2, "refusals changed nothing")
    }

    @Test func badRequestsAndWhoMayReserve() throws {
        let server = try Self.server(.sqlite)
        let c = try server.connection()
        let block = #"{"kind":"blocked","seats":["7-1"],"reason":"x"}"#
        #expect(try c.request("POST", "/v1/shows/show/reservations", json: block).status == 401)
        #expect(try c.request("GET", "/v1/shows/show/reservations").status == 401)
        for (body, member) in [
            (#"{"kind":"buyer","seats":["7-1"],"reason":"x"}"#, "kind"),
            (#"{"kind":"blocked","seats":[],"reason":"x"}"#, ""),
            (#"{"kind":"blocked","seats":["7-1"],"reason":" "}"#, "reason"),
            (#"{"kind":"blocked","seats":["7-1"]}"#, "reason"),
            (#"{"kind":"house","seats":["7-1"],"reason":"x","releaseAt":"soon"}"#, "releaseAt"),
            (#"{"kind":"house","seats":["7-1"],"reason":"x","releaseAt":"2001-01-01T00:00:00Z"}"#, ""),
            (#"{"kind":"blocked","seats":["99-99"],"reason":"x"}"#, ""),
            (#"{"kind":"blocked","seats":["7-1"],"reason":"x","color":"red"}"#, "color"),
        ] {
            let r = try reserve(c, body)
            #expect(r.status == 422 && r.headers["content-type"] == "application/problem+json", "\(body): \(r.status) \(r.text)")
            if !member.isEmpty { #expect(r.text.contains(member), "\(body): \(r.text)") }
        }
        #expect(try server.availability().counts.blocked == 0, "nothing changed")
        #expect(try reserve(c, block, show: "nope").status == 404)
        #expect(try c.request("DELETE", "/v1/reservations/r_0", headers: Self.li).status == 404)
        // The admin (a manager) may reserve too; the log says who.
        let admin = try c.request("POST", "/v1/shows/show/reservations", json: block, headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(admin.status == 201 && admin.string("operator") == "admin")
    }
}

/// Two instances on one PostgreSQL store: a block made on one turns the seats unavailable on the other
/// (its subscribers and its buyers), and the other can sell and release what the first reserved.
@Suite(.serialized) struct SharedReservationTests {
    @Test(.enabled(if: StoreBackend.available.contains(.postgres))) func aBlockOnOneInstanceHoldsOnTheOther() throws {
        let a = try ReservationTests.server(.postgres)
        var options = a.app.options
        options.port = 0
        let b = try TestServer(backend: .postgres, seed: false, storeURL: a.storeURL) { $0.operatorsFile = options.operatorsFile }
        let layout = SampleVenues.cinemaHall()
        let viewer = try b.connection()
        #expect(try viewer.openEvents("/v1/shows/show/events") == 200)
        _ = try viewer.nextEvent()
        let made = try a.connection().request(
            "POST", "/v1/shows/show/reservations", json: #"{"kind":"house","seats":["7-1","7-2"],"reason":"guests"}"#, headers: ReservationTests.li)
        #expect(made.status == 201)
        let rid = try #require(made.string("id"))
        // B's subscriber sees the seats go, and B's buyers cannot have them.
        let delta = try AvailabilityDelta(encoded: try viewer.nextEvent().data)
        #expect(delta.changes.allSatisfy { $0.status == .blocked } && delta.changes.count == 2)
        #expect(try hold(try b.connection(), ["7-1"]).status == 409)
        // B finds it by id and lists it (read from the store: A made it), and sells it.
        #expect(try b.connection().request("GET", "/v1/reservations/\(rid)", headers: ReservationTests.li).string("reason") == "guests")
        #expect(try b.connection().request("GET", "/v1/shows/show/reservations", headers: ReservationTests.li).text.contains(rid))
        var sold = try b.connection().request(
            "POST", "/v1/shows/show/sales", json: #"{"reservation":"\#(rid)","orderRef":"GUEST-1","payment":"comp"}"#, headers: ReservationTests.li)
        for _ in 0..<50 where sold.status == 404 {
            Thread.sleep(forTimeInterval: 0.05)
            sold = try b.connection().request(
                "POST", "/v1/shows/show/sales", json: #"{"reservation":"\#(rid)","orderRef":"GUEST-1","payment":"comp"}"#, headers: ReservationTests.li)
        }
        #expect(sold.status == 201, "\(sold.text)")
        var seen = try a.availability()
        for _ in 0..<50 where seen[layout.index(ofSeatID: "7-1")!] != .sold {
            Thread.sleep(forTimeInterval: 0.05)
            seen = try a.availability()
        }
        #expect(seen[layout.index(ofSeatID: "7-1")!] == .sold, "A sees B's sale")
    }
}

/// `GET /v1/operators/me`: the console's sign-in says who a key is and what the role may do.
@Suite struct SignedInOperatorTests {
    @Test func aKeySaysWhoAndWhatItMayDo() throws {
        let server = try ReservationTests.server(.sqlite)
        let c = try server.connection()
        let clerk = try c.request("GET", "/v1/operators/me", headers: ReservationTests.li)
        #expect(clerk.status == 200)
        let me = try #require(try JSONParser.parse(Array(clerk.text.utf8)).objectValue)
        #expect(me["name"]?.stringValue == "li" && me["role"]?.stringValue == "boxoffice")
        let may = Set(try #require(me["may"]?.arrayValue).compactMap(\.stringValue))
        #expect(may.isSuperset(of: ["block", "keep", "sell", "refund", "reports"]) && !may.contains("prices"))
        let admin = try c.request("GET", "/v1/operators/me", headers: [("X-Admin-Key", TestServer.adminKey)])
        let adminMay = try #require(try JSONParser.parse(Array(admin.text.utf8)).objectValue?["may"]?.arrayValue).compactMap(\.stringValue)
        #expect(admin.status == 200 && adminMay.contains("prices") && adminMay.contains("shows"))
        let nobody = try c.request("GET", "/v1/operators/me")
        #expect(nobody.status == 401 && nobody.headers["content-type"] == "application/problem+json")
        #expect(try c.request("GET", "/v1/operators/me", headers: [("Authorization", "Bearer not-a-key-of-anyone")]).status == 401)
    }
}
