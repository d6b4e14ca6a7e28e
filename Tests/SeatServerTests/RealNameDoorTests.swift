import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatSecrets
import SeatServerTestSupport
import SeatTickets
import SeatWire
import Testing

/// #54 item 3: a real-name ticket carries its attendee; the door checks the document typed or read
/// against it, online and offline; a transfer re-binds it and revokes the old code everywhere; a ticket
/// sold without a name is bound before the show.
@Suite(.serialized) struct RealNameDoorTests {
    static let door = TicketTests.door
    static let li = ReservationTests.li

    /// A real-name show starting in 60 minutes (doors open), transfers until 30 minutes before, bindings until 10.
    static func tonight(_ c: HTTPConnection) throws {
        let starts = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600))
        let made = try c.request(
            "POST", "/v1/shows",
            json: #"{"id":"rn","venueId":"cinema-hall-3","startsAt":"\#(starts)","prices":{"categories":{"standard":"40","vip":"60","couple":"90"}},"#
                + #""details":{"realName":{"mode":"perTicket","transferMinutes":30,"transfers":1,"bindByMinutes":10}}}"#,
            headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(made.status == 201, "\(made.text)")
    }

    func scan(_ c: HTTPConnection, _ code: String, id: String? = nil) throws -> JSONObject {
        let body = CheckInRequest(code: code, gate: "A", nonce: UUID().uuidString, idNumber: id)
        let r = try c.request("POST", "/v1/checkin", json: String(decoding: body.jsonBytes(), as: UTF8.self), headers: Self.door)
        #expect(r.status == 200, "\(r.text)")
        return r.json ?? JSONObject()
    }

    static func tickets(_ c: HTTPConnection, token: String) throws -> [String: JSONObject] {
        let list = try c.request("GET", "/v1/holds/\(token)/tickets").json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["seat"]?.stringValue ?? "", $0) })
    }

    @Test(arguments: StoreBackend.available) func theDoorChecksTheDocumentOnlineAndOffline(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        try Self.tonight(c)
        let (a, b) = (RealNameTests.idCard(401), RealNameTests.idCard(402))
        let h = try RealNameTests.hold(c, ["7-1", "7-2"], [RealNameTests.attendee("7-1", "王小明", a), RealNameTests.attendee("7-2", "李雷", b)])
        let token = try #require(h.string("token"))
        #expect(try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"RD-1"}"#).status == 200)
        let tickets = try Self.tickets(c, token: token)
        let code = try #require(tickets["7-1"]?["code"]?.stringValue)
        #expect(tickets["7-1"]?["attendee"]?.stringValue == "王*明")
        // Online: the document first, then in.
        let ask = try scan(c, code)
        #expect(ask["result"]?.stringValue == "id_required" && ask["attendee"]?.stringValue == "王*明", "\(ask)")
        let wrong = try scan(c, code, id: b)
        #expect(wrong["result"]?.stringValue == "wrong_person" && wrong["reason"]?.stringValue == "wrongPerson", "\(wrong)")
        // Longer than the schema's 40 characters, even if only by spaces: refused, as the contract test found.
        let padded = #"{"code":"\#(code)","gate":"A","nonce":"\#(UUID().uuidString)","idNumber":" 00\#(String(repeating: " ", count: 38))"}"#
        #expect(try c.request("POST", "/v1/checkin", json: padded, headers: Self.door).status == 422)
        let null = #"{"code":"\#(code)","gate":"A","nonce":"\#(UUID().uuidString)","idNumber":null}"#
        #expect(try c.request("POST", "/v1/checkin", json: null, headers: Self.door).status == 422, "null is no number")
        let typed = " " + a.prefix(6) + " " + a.dropFirst(6).lowercased() + "\n"
        let ok = try scan(c, code, id: typed)
        #expect(ok["result"]?.stringValue == "ok", "typed with spaces and lower case: \(ok)")
        // Offline: the ticket's binding against the show's door key (what door-offline.js computes).
        let issuer = try c.request("GET", "/v1/shows/rn/issuer", headers: Self.door)
        let doorKey = try #require(issuer.string("doorKey").map(Self.bytes))
        let read = try TicketCode.read(code).ticket
        #expect(read.binding == TicketCode.binding(key: doorKey, document: "idCard:" + a))
        #expect(read.binding != TicketCode.binding(key: doorKey, document: "idCard:" + b), "another document does not match")
        #expect(read.attendee == "王*明")
        #expect(try c.request("GET", "/v1/shows/show/issuer", headers: Self.door).string("doorKey") == nil, "a show without real names has none")
    }

    @Test(arguments: StoreBackend.available) func aTransferRevokesTheOldCodeEverywhere(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        try Self.tonight(c)
        let (a, b, other) = (RealNameTests.idCard(411), RealNameTests.idCard(412), RealNameTests.idCard(413))
        let h = try RealNameTests.hold(c, ["7-1", "7-2"], [RealNameTests.attendee("7-1", "王小明", a), RealNameTests.attendee("7-2", "韩梅梅", other)])
        let token = try #require(h.string("token"))
        #expect(try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"RD-2"}"#).status == 200)
        let old = try #require(try Self.tickets(c, token: token)["7-1"]?["code"]?.stringValue)
        let to = #"{"name":"李雷","idType":"idCard","idNumber":"\#(b)"}"#
        // Not without the order's code (or a box office key); not to a document with a seat of the show.
        #expect(try c.request("POST", "/v1/tickets/\(old)/transfer", json: #"{"to":\#(to)}"#).status == 401)
        #expect(try c.request("POST", "/v1/tickets/\(old)/transfer", json: #"{"to":\#(to),"code":"not-the-code"}"#).status == 404)
        let taken = try c.request(
            "POST", "/v1/tickets/\(old)/transfer", json: #"{"to":{"name":"韩梅梅","idType":"idCard","idNumber":"\#(other)"},"code":"\#(token)"}"#)
        #expect(taken.status == 409 && taken.string("type") == "/problems/id-already-used", "\(taken.text)")
        let bad = try c.request("POST", "/v1/tickets/\(old)/transfer", json: #"{"to":{"name":"李雷","idType":"idCard","idNumber":"123"},"code":"\#(token)"}"#)
        #expect(bad.status == 422 && bad.text.contains("idNumber"), "\(bad.text)")
        let moved = try c.request("POST", "/v1/tickets/\(old)/transfer", json: #"{"to":\#(to),"code":"\#(token)"}"#)
        #expect(moved.status == 200, "\(moved.text)")
        let fresh = try #require(moved.json?["tickets"]?.arrayValue?.first?.objectValue)
        let new = try #require(fresh["code"]?.stringValue)
        #expect(new != old && fresh["attendee"]?.stringValue == "李*")
        // The old code: refused at the door as transferred, and on the offline list.
        let refused = try scan(c, old, id: a)
        #expect(refused["result"]?.stringValue == "revoked" && refused["reason"]?.stringValue == "transferred", "\(refused)")
        let issuer = try c.request("GET", "/v1/shows/rn/issuer", headers: Self.door)
        let revoked = issuer.json?["revoked"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let (oldID, newID) = (try TicketCode.read(old).ticket.idHex, try TicketCode.read(new).ticket.idHex)
        #expect(revoked.contains(oldID) && !revoked.contains(newID))
        // The new code lets the new attendee in, not the old.
        #expect(try scan(c, new, id: a)["result"]?.stringValue == "wrong_person")
        #expect(try scan(c, new, id: b)["result"]?.stringValue == "ok")
        // Once only (the show's policy), and nothing changed by the refusal.
        let again = try c.request(
            "POST", "/v1/tickets/\(new)/transfer",
            json: #"{"to":{"name":"赵五","idType":"idCard","idNumber":"\#(RealNameTests.idCard(414))"},"code":"\#(token)"}"#)
        #expect(again.status == 409 && again.string("type") == "/problems/after-sale-closed", "\(again.text)")
        #expect(try scan(c, new, id: b)["result"]?.stringValue == "already_in", "the ticket still stands")
        // The old code transferred no more.
        #expect(try c.request("POST", "/v1/tickets/\(old)/transfer", json: #"{"to":\#(to),"code":"\#(token)"}"#).status == 409)
        // Too late: transfers close 30 minutes before the start.
        server.app.inventory.clockOffset.advance(by: 40 * 60_000)
        let other2 = try #require(try Self.tickets(c, token: token)["7-2"]?["code"]?.stringValue)
        let late = try c.request(
            "POST", "/v1/tickets/\(other2)/transfer",
            json: #"{"to":{"name":"赵五","idType":"idCard","idNumber":"\#(RealNameTests.idCard(415))"},"code":"\#(token)"}"#)
        #expect(late.status == 409 && late.text.contains("closed"), "\(late.text)")
        let log = try c.request("GET", "/v1/shows/rn/log", headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(log.text.contains("transfer") && log.text.contains("buyer") && !log.text.contains(b), "\(log.text)")
    }

    /// Sold at the counter without a name: refused at the door as unbound until the box office binds it.
    @Test(arguments: StoreBackend.available) func aTicketSoldWithoutANameIsBoundBeforeTheDoor(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        try Self.tonight(c)
        let sale = try c.request("POST", "/v1/shows/rn/sales", json: #"{"seats":["9-1"],"orderRef":"RD-3","payment":"cash"}"#, headers: Self.li)
        #expect(sale.status == 201, "\(sale.text)")
        let code = try #require(
            try c.request("GET", "/v1/orders/RD-3/tickets", headers: Self.li).json?["tickets"]?.arrayValue?.first?.objectValue?["code"]?.stringValue)
        #expect(try scan(c, code)["result"]?.stringValue == "unbound")
        // The box office's list of tickets to bind, with the deadline.
        let list = try c.request("GET", "/v1/shows/rn/unbound", headers: Self.li)
        let listed = list.json?["tickets"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(list.status == 200 && listed.map { $0["seat"]?.stringValue } == ["9-1"] && listed.first?["orderRef"]?.stringValue == "RD-3", "\(list.text)")
        #expect(list.string("bindBy") != nil)
        #expect(try c.request("GET", "/v1/shows/show/unbound", headers: Self.li).status == 422, "a show without real names has none")
        let doc = RealNameTests.idCard(421)
        let bound = try c.request(
            "POST", "/v1/tickets/\(code)/transfer", json: #"{"to":{"name":"张三","idType":"idCard","idNumber":"\#(doc)"}}"#, headers: Self.li)
        #expect(bound.status == 200, "\(bound.text)")
        let new = try #require(bound.json?["tickets"]?.arrayValue?.first?.objectValue?["code"]?.stringValue)
        #expect(try scan(c, code, id: doc)["reason"]?.stringValue == "transferred", "the unbound code is replaced")
        #expect(try scan(c, new, id: doc)["result"]?.stringValue == "ok")
        #expect(try c.request("GET", "/v1/shows/rn/unbound", headers: Self.li).json?["tickets"]?.arrayValue?.isEmpty == true, "none left")
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = [], it = hex.makeIterator()
        while let a = it.next(), let b = it.next() { out.append(UInt8(String([a, b]), radix: 16)!) }
        return out
    }
}
