import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatSamples
import SeatSecrets
@testable import SeatServer
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
        // Its QR code as SVG: at error correction M the smallest version whose alphanumeric capacity
        // holds the code (138 characters: version 6, 41 modules), the three finder squares in their
        // corners, a quiet zone of 4; only a code this server signed is drawn.
        let code = try #require(tickets.first?["code"]?.stringValue)
        let picture = try c.request("GET", "/v1/tickets/\(code).svg")
        #expect(picture.status == 200 && picture.headers["content-type"] == "image/svg+xml", "\(picture.status) \(picture.text)")
        let version = try #require([(5, 122), (6, 154), (7, 178), (8, 221)].first { $0.1 >= code.count }?.0)
        let width = 17 + 4 * version
        #expect(
            picture.text.contains(#"viewBox="0 0 \#(width + 8) \#(width + 8)""#) && picture.text.contains("seat 7-1, show show"), "\(picture.text.prefix(300))")
        let modules = try #require(TicketPicture.modules(code))
        #expect(modules.count == width, "\(code.count) characters")
        for (x0, y0) in [(0, 0), (width - 7, 0), (0, width - 7)] {
            let ring = (0..<7).allSatisfy { k in modules[y0][x0 + k] && modules[y0 + 6][x0 + k] && modules[y0 + k][x0] && modules[y0 + k][x0 + 6] }
            #expect(ring && modules[y0 + 3][x0 + 3] && !modules[y0 + 1][x0 + 1], "finder square at \(x0), \(y0)")
        }
        #expect(picture.text.contains("M\(4) \(4)h7v1h-7z"), "the top-left finder's first row drawn inside the quiet zone")
        // The PNG: 8 pixels a module with the quiet zone, 1-bit greyscale (read back by ZXing in test_door).
        let png = try c.request("GET", "/v1/tickets/\(code).png")
        #expect(png.status == 200 && png.headers["content-type"] == "image/png")
        let side = UInt32((width + 8) * 8)
        #expect(Array(png.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: png.body[12..<16], as: UTF8.self) == "IHDR")
        #expect(
            png.body[16..<24].elementsEqual(
                [side >> 24, side >> 16 & 0xFF, side >> 8 & 0xFF, side & 0xFF, side >> 24, side >> 16 & 0xFF, side >> 8 & 0xFF, side & 0xFF].map(UInt8.init)))
        #expect(png.body[24] == 1 && png.body[25] == 0, "1 bit, greyscale")
        #expect(try c.request("GET", "/v1/tickets/\(code)").status == 404)
        #expect(try c.request("GET", "/v1/tickets/\(code).gif").status == 404)
        let forged = TicketIssuer(secret: Array("another cinema's secret".utf8)).code(show: "show", seat: 3, seatName: "1-4", sale: "h_x")
        #expect(try c.request("GET", "/v1/tickets/\(forged).svg").status == 404)
        #expect(try c.request("GET", "/v1/tickets/HELLO.svg").status == 404)
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

    /// A cancelled show's tickets all fall: the issuer lists every one for an offline gate, the order
    /// says revoked (with no code to show), and the gate online says so too.
    @Test(arguments: StoreBackend.available) func aCancelledShowRevokesEveryTicket(backend: StoreBackend) throws {
        let server = try server(backend)
        let c = try server.connection()
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        #expect(
            try c.request("POST", "/v1/shows/show/sales", json: #"{"seats":["5-1","5-2"],"orderRef":"BOX-1","payment":"cash"}"#, headers: Self.li).status == 201
        )
        #expect(try c.request("POST", "/v1/orders/BOX-1/refund", json: #"{"seats":["5-2"],"reason":"wrong day"}"#, headers: Self.li).status == 200)
        let made = try c.request("POST", "/v1/shows/show/holds", json: #"{"seats":["7-1","7-2"]}"#)
        let token = try #require(made.string("token"), "\(made.text)")
        #expect(try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"WEB-1"}"#).status == 200)
        let before = try c.request("GET", "/v1/holds/\(token)/tickets").json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let codes = before.compactMap { $0["code"]?.stringValue }
        #expect(try codes.count == 2 && issuer(c).revoked.count == 1)

        #expect(try c.request("POST", "/v1/shows/show/cancel", json: #"{"reason":"projector failure"}"#, headers: admin).status == 200)
        let boxOffice = try c.request("GET", "/v1/orders/BOX-1/tickets", headers: Self.li).json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let online = try c.request("GET", "/v1/holds/\(token)/tickets").json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let all = boxOffice + online
        #expect(
            all.count == 4 && all.allSatisfy { $0["status"]?.stringValue == "revoked" && $0["code"] == .null && $0["revokedAt"]?.stringValue != nil }, "\(all)")
        let revoked = try issuer(c).revoked
        #expect(Set(revoked) == Set(all.compactMap { $0["ticketId"]?.stringValue }) && revoked.count == 4, "\(revoked)")
        for code in codes {
            let scan = try c.request(
                "POST", "/v1/checkin", json: #"{"code":"\#(code)","gate":"Hall 3","nonce":"n-\#(UUID().uuidString)"}"#, headers: Self.door)
            #expect(scan.string("result") == "revoked", "\(scan.text)")
        }
    }
}
