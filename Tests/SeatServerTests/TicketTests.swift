import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatSamples
import SeatSecrets
import SeatServer
import SeatServerTestSupport
import SeatTickets
import Testing

/// Tickets over real HTTP, on both stores: every seat sold online or at the counter has one, signed
/// with its show's key; a scanner checks it with the public key alone; a refund revokes it.
@Suite(.serialized) struct TicketTests {
    static let doorKey = "door-key-of-wang-0123456789"
    static let door = [("Authorization", "Bearer \(doorKey)")]
    static let li = ReservationTests.li

    func server(_ backend: StoreBackend) throws -> TestServer {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("operators-\(UUID().uuidString).txt").path
        try "li boxoffice \(OperatorDirectory.digest(ReservationTests.boxOfficeKey))\nwang door \(OperatorDirectory.digest(Self.doorKey))\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        return try TestServer(backend: backend) { $0.operatorsFile = path }
    }

    /// The show's public key as the door gets it, and its revoked ticket ids.
    func issuer(_ c: HTTPConnection, show: String = "show") throws -> (publicKey: [UInt8], revoked: [String]) {
        let r = try c.request("GET", "/v1/shows/\(show)/issuer", headers: Self.door)
        #expect(r.status == 200 && r.string("algorithm") == "Ed25519", "\(r.status) \(r.text)")
        let hex = try #require(r.string("publicKey"))
        var key: [UInt8] = []
        var it = hex.makeIterator()
        while let a = it.next(), let b = it.next() { key.append(UInt8(String([a, b]), radix: 16)!) }
        return (key, r.json?["revoked"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    @Test(arguments: StoreBackend.available) func aBuyersConfirmedHoldHasATicketASeatThatTheDoorCanCheckOffline(backend: StoreBackend) throws {
        let server = try server(backend)
        let c = try server.connection()
        let made = try c.request("POST", "/v1/shows/show/holds", json: #"{"seats":["7-1","7-2"]}"#)
        let token = try #require(made.string("token"), "\(made.text)")
        let early = try c.request("GET", "/v1/holds/\(token)/tickets")
        #expect(early.status == 409 && early.string("type") == "/problems/not-confirmed", "\(early.status) \(early.text)")
        #expect(try c.request("GET", "/v1/holds/no-such-token-0123456789/tickets").status == 404)
        #expect(try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"WEB-7"}"#).status == 200)
        let list = try c.request("GET", "/v1/holds/\(token)/tickets")
        #expect(list.status == 200 && list.string("orderRef") == "WEB-7", "\(list.status) \(list.text)")
        let tickets = list.json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(tickets.map { $0["seat"]?.stringValue } == ["7-1", "7-2"] && tickets.allSatisfy { $0["status"]?.stringValue == "valid" })
        let (publicKey, revoked) = try issuer(c)
        #expect(revoked.isEmpty)
        let layout = SampleVenues.cinemaHall()
        for t in tickets {
            let code = try #require(t["code"]?.stringValue)
            let ticket = try #require(try TicketCode.verified(code, publicKey: publicKey), "\(code) does not verify")
            #expect(ticket.show == "show" && layout.seatID(ticket.seat) == t["seat"]?.stringValue && ticket.idHex == t["ticketId"]?.stringValue)
        }
        // The same after a restart (the key is drawn from the secret, the sale is in the store).
        try server.restart()
        let again = try server.connection().request("GET", "/v1/holds/\(token)/tickets")
        #expect(again.text == list.text)
    }

    @Test(arguments: StoreBackend.available) func aRefundRevokesItsTicketAndTheDoorMayOnlyScan(backend: StoreBackend) throws {
        let server = try server(backend)
        let c = try server.connection()
        let sale = try c.request("POST", "/v1/shows/show/sales", json: #"{"seats":["5-1","5-2","5-3"],"orderRef":"BOX-9","payment":"cash"}"#, headers: Self.li)
        #expect(sale.status == 201, "\(sale.text)")
        let before = try c.request("GET", "/v1/orders/BOX-9/tickets", headers: Self.li)
        #expect(before.status == 200, "\(before.text)")
        // In the hall's seat order; each ticket's id by its seat.
        let listed = before.json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let ids = Dictionary(uniqueKeysWithValues: listed.map { ($0["seat"]?.stringValue ?? "", $0["ticketId"]?.stringValue ?? "") })
        #expect(Set(ids.keys) == ["5-1", "5-2", "5-3"] && Set(ids.values).count == 3)
        let refund = try c.request("POST", "/v1/orders/BOX-9/refund", json: #"{"seats":["5-2"],"reason":"wrong day"}"#, headers: Self.li)
        #expect(refund.status == 200, "\(refund.text)")
        let after = try c.request("GET", "/v1/orders/BOX-9/tickets", headers: Self.li).json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let bySeat = Dictionary(uniqueKeysWithValues: after.map { ($0["seat"]?.stringValue ?? "", $0) })
        #expect(after.map { $0["seat"]?.stringValue } == listed.map { $0["seat"]?.stringValue }, "the same tickets, the same order")
        #expect(bySeat.mapValues { $0["status"]?.stringValue ?? "" } == ["5-1": "valid", "5-2": "revoked", "5-3": "valid"])
        let revoked = try #require(bySeat["5-2"])
        #expect(revoked["code"] == .null && revoked["revokedAt"]?.stringValue != nil && revoked["ticketId"]?.stringValue == ids["5-2"])
        #expect(bySeat["5-1"]?["code"]?.stringValue != nil)
        #expect(try issuer(c).revoked == [ids["5-2"]!])
        // The seat sold again is a new ticket: another sale, another id.
        #expect(try c.request("POST", "/v1/shows/show/sales", json: #"{"seats":["5-2"],"orderRef":"BOX-10","payment":"card"}"#, headers: Self.li).status == 201)
        let resold = try c.request("GET", "/v1/orders/BOX-10/tickets", headers: Self.li).json?["tickets"]?.arrayValue?.first?.objectValue
        #expect(resold?["status"]?.stringValue == "valid" && resold?["ticketId"]?.stringValue != ids["5-2"])
        // The door scans and does nothing else; nobody without a key gets the issuer.
        let me = try c.request("GET", "/v1/operators/me", headers: Self.door)
        #expect(me.status == 200 && me.string("role") == "door" && me.json?["may"]?.arrayValue?.compactMap(\.stringValue) == ["scan"], "\(me.text)")
        #expect(try c.request("GET", "/v1/orders/BOX-9/tickets", headers: Self.door).status == 403)
        #expect(try c.request("POST", "/v1/shows/show/sales", json: #"{"seats":["6-1"],"orderRef":"D-1","payment":"cash"}"#, headers: Self.door).status == 403)
        #expect(try c.request("GET", "/v1/shows/show/issuer").status == 401)
        #expect(try c.request("GET", "/v1/shows/nope/issuer", headers: Self.door).status == 404)
        #expect(try c.request("GET", "/v1/orders/NOPE/tickets", headers: Self.li).status == 404)
    }
}
