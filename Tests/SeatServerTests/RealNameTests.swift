import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatSamples
import SeatServerTestSupport
import SharedState
import Testing

/// #54 item 1: a real-name show's holds carry their attendees; a document has one seat a show, which
/// the store holds across instances; bad documents are refused naming the member and change nothing.
@Suite(.serialized) struct RealNameTests {
    static let admin = [("X-Admin-Key", TestServer.adminKey)]

    /// A valid mainland ID card number: region 110105, born on `day` of 1990, sequence `n`, its check character.
    static func idCard(_ n: Int, day: Int = 1) -> String {
        let body = "110105" + "199001" + String(format: "%02d", day) + String(format: "%03d", n % 1000)
        let digits = body.map { Int(String($0))! }
        return body + String(Character(IdentityDocument.checkCharacter(digits)))
    }

    /// A show of the sample hall selling by real name (`realName` is the details' member).
    static func realNameShow(
        _ c: HTTPConnection, id: String = "rn", day: Int = 2, realName: String = #""perTicket""#, policy: String? = nil, venue: String = "cinema-hall-3"
    ) throws {
        let r = try c.request(
            "POST", "/v1/shows",
            json: #"{"id":"\#(id)","venueId":"\#(venue)","startsAt":"2099-12-\#(String(format: "%02d", day))T19:30:00+08:00","#
                + #""prices":{"categories":{"standard":"33.30","vip":"58","couple":"99.90","premium":"80"}},"details":{"title":"演唱会","realName":\#(realName)}"#
                + (policy.map { #","policy":"# + $0 } ?? "") + "}",
            headers: admin)
        #expect(r.status == 201, "\(r.text)")
    }

    static func attendee(_ seat: String?, _ name: String, _ number: String, type: String = "idCard", phone: String? = nil) -> String {
        var parts: [String] = []
        if let seat { parts.append(#""seat":"\#(seat)""#) }
        parts.append(#""name":"\#(name)","idType":"\#(type)","idNumber":"\#(number)""#)
        if let phone { parts.append(#""phone":"\#(phone)""#) }
        return "{" + parts.joined(separator: ",") + "}"
    }

    static func hold(_ c: HTTPConnection, _ seats: [String], _ attendees: [String], show: String = "rn") throws -> HTTPConnection.Response {
        let list = seats.map { "\"\($0)\"" }.joined(separator: ",")
        return try c.request("POST", "/v1/shows/\(show)/holds", json: #"{"seats":[\#(list)],"attendees":[\#(attendees.joined(separator: ","))]}"#)
    }

    @Test(arguments: StoreBackend.available) func aDocumentHasOneSeatAShowAndIsShownMasked(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        try Self.realNameShow(c)
        let a = Self.idCard(1), b = Self.idCard(2)
        let first = try Self.hold(c, ["7-1", "7-2"], [Self.attendee("7-1", "王小明", a), Self.attendee("7-2", "Anna Schmidt", b, type: "idCard")])
        #expect(first.status == 201, "\(first.text)")
        let shown = first.json?["attendees"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(shown.map { $0["name"]?.stringValue } == ["王*明", "A*** ******t"])
        #expect(shown.first?["idNumber"]?.stringValue == "110***********" + String(a.suffix(4)))
        #expect(!first.text.contains(a) && !first.text.contains("王小明"), "never in the clear: \(first.text)")
        // The same document for another seat: refused, naming this seat and the one the document has.
        let again = try Self.hold(c, ["8-1"], [Self.attendee("8-1", "王小明", a)])
        #expect(again.status == 409 && again.string("type") == "/problems/id-already-used", "\(again.text)")
        #expect(again.text.contains("8-1") && again.text.contains("7-1") && !again.text.contains("Anna"), "\(again.text)")
        #expect(try server.availability("rn").counts.held == 2, "nothing else held")
        // Two seats of one request with one document.
        let twice = try Self.hold(c, ["9-1", "9-2"], [Self.attendee("9-1", "李雷", Self.idCard(3)), Self.attendee("9-2", "李雷", Self.idCard(3))])
        #expect(twice.status == 409 && twice.string("type") == "/problems/id-already-used", "\(twice.text)")
        // Released: the document is free again.
        let token = try #require(first.string("token"))
        #expect(try c.request("DELETE", "/v1/holds/\(token)").status == 204)
        let after = try Self.hold(c, ["8-1"], [Self.attendee("8-1", "王小明", a)])
        #expect(after.status == 201, "\(after.text)")
        // Kept in the store: after a restart the document still has its seat, shown masked.
        try server.restart()
        let c2 = try server.connection()
        let fourth = try Self.hold(c2, ["10-1"], [Self.attendee("10-1", "王小明", a)])
        #expect(fourth.status == 409 && fourth.text.contains("8-1"), "\(fourth.text)")
        let read = try c2.request("GET", "/v1/holds/\(try #require(after.string("token")))")
        #expect(read.json?["attendees"]?.arrayValue?.first?.objectValue?["name"]?.stringValue == "王*明", "\(read.text)")
    }

    @Test(arguments: StoreBackend.available) func aSaleNeedsEveryAttendeeByItsConfirm(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        try Self.realNameShow(c)
        let h = try Self.hold(c, ["5-1", "5-2"], [Self.attendee("5-1", "张三", Self.idCard(10))])
        #expect(h.status == 201, "\(h.text)")
        let token = try #require(h.string("token"))
        let missing = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"RN-1"}"#)
        #expect(missing.status == 422 && missing.string("type") == "/problems/attendees-required" && missing.text.contains("5-2"), "\(missing.text)")
        #expect(try server.availability("rn").counts.sold == 0)
        // Given with the confirm: sold, both attendees bound.
        let sold = try c.request(
            "POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"RN-1","attendees":[\#(Self.attendee("5-2", "李四", Self.idCard(11)))]}"#)
        #expect(sold.status == 200 && sold.string("state") == "confirmed", "\(sold.text)")
        #expect(sold.json?["attendees"]?.arrayValue?.count == 2, "\(sold.text)")
        #expect(try server.availability("rn").counts.sold == 2)
        // A sold seat's document stays used.
        let reuse = try Self.hold(c, ["10-1"], [Self.attendee("10-1", "李四", Self.idCard(11))])
        #expect(reuse.status == 409, "\(reuse.text)")
        // PUT attendees names them on a live hold; a hold of a show without real names takes none.
        let h2 = try Self.hold(c, ["6-1"], [])
        #expect(h2.status == 201)
        let t2 = try #require(h2.string("token"))
        let named = try c.request("PUT", "/v1/holds/\(t2)/attendees", json: #"{"attendees":[\#(Self.attendee("6-1", "赵五", Self.idCard(12)))]}"#)
        #expect(named.status == 200 && named.json?["attendees"]?.arrayValue?.count == 1, "\(named.text)")
        #expect(try c.request("POST", "/v1/holds/\(t2)/confirm", json: #"{"orderRef":"RN-2"}"#).status == 200)
        let plain = try SeatServerTestSupport.hold(c, ["3-1"])
        let t3 = try #require(plain.string("token"))
        let notHere = try c.request("PUT", "/v1/holds/\(t3)/attendees", json: #"{"attendees":[\#(Self.attendee("3-1", "赵五", Self.idCard(13)))]}"#)
        #expect(notHere.status == 422 && notHere.text.contains("does not sell by real name"), "\(notHere.text)")
    }

    /// Bad documents, names, types and seats: a 422 naming the member; nothing held.
    @Test(arguments: StoreBackend.available) func badAttendeesAreNamedAndChangeNothing(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        try Self.realNameShow(c, realName: #"{"mode":"perTicket","idTypes":["idCard"]}"#)
        let good = Self.idCard(20)
        var wrongCheck = Array(good)
        wrongCheck[17] = wrongCheck[17] == "1" ? "2" : "1"
        let cases: [(String, String)] = [
            (Self.attendee("4-1", "王小明", String(wrongCheck)), "attendees[0].idNumber: not a valid ID card number: the check character"),
            (Self.attendee("4-1", "王小明", String(good.prefix(17))), "expected 18 characters, got 17"),
            (Self.attendee("4-1", "王小明", "11010519900101ABCD"), "expected 17 digits then a digit or X"),
            (Self.attendee("4-1", "王小明", "E12345678", type: "passport"), "attendees[0].idType: show rn takes idCard, not passport"),
            (Self.attendee("4-1", "王小明", good, type: "library"), "attendees[0].idType: expected one of idCard"),
            (Self.attendee("4-1", "Bob3", good), "attendees[0].name: letters only"),
            (Self.attendee("9-9", "王小明", good), "attendees[0].seat: 9-9 is not a seat of this hold"),
            (Self.attendee(nil, "王小明", good), "attendees[0].seat: name the seat"),
            (Self.attendee("4-1", "王小明", good, phone: "call me"), "attendees[0].phone"),
        ]
        for (body, says) in cases {
            let r = try Self.hold(c, ["4-1"], [body])
            #expect(r.status == 422 && r.text.contains(says), "\(says): \(r.status) \(r.text)")
        }
        #expect(try server.availability("rn").counts.held == 0, "nothing held")
        let ok = try Self.hold(c, ["4-1"], [Self.attendee("4-1", "王小明", good)])
        #expect(ok.status == 201, "the same document, valid: \(ok.text)")
    }

    /// perOrder (一单一证): one document an order, at most maxTicketsPerId seats; moved to the first seat
    /// when the seat it sat in is let go.
    @Test(arguments: StoreBackend.available) func perOrderTakesOneDocumentAnOrder(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        try Self.realNameShow(c, realName: #"{"mode":"perOrder","maxTicketsPerId":3}"#)
        let doc = Self.idCard(30)
        let tooMany = try Self.hold(c, ["2-1", "2-2", "2-3", "2-4"], [Self.attendee(nil, "王小明", doc)])
        #expect(tooMany.status == 409 && tooMany.string("type") == "/problems/purchase-limit", "\(tooMany.text)")
        let h = try Self.hold(c, ["2-1", "2-2"], [Self.attendee(nil, "王小明", doc)])
        #expect(h.status == 201 && h.json?["attendees"]?.arrayValue?.count == 1, "\(h.text)")
        let token = try #require(h.string("token"))
        let moved = try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"add":["2-3","2-4"],"remove":["2-1","2-2"]}"#)
        #expect(moved.status == 200, "\(moved.text)")
        #expect(moved.json?["attendees"]?.arrayValue?.first?.objectValue?["seat"]?.stringValue == "2-3", "\(moved.text)")
        let other = try Self.hold(c, ["3-1"], [Self.attendee(nil, "王小明", doc)])
        #expect(other.status == 409, "one order a document: \(other.text)")
        #expect(try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"PO-1"}"#).status == 200)
        #expect(try server.availability("rn").counts.sold == 2)
    }

    /// Two instances on one PostgreSQL: 200 buyers with 120 documents race for the show's seats, each
    /// holding a seat with its document and confirming it. One live hold a document at any time and
    /// never two sales: the store's unique index decides between instances.
    @Test(arguments: StoreBackend.available.filter { $0 == .postgres }) func documentsRaceAcrossInstances(backend: StoreBackend) throws {
        let a = try TestServer(backend: backend)
        // A hall of more seats than buyers, each buyer a seat of its own: only documents are contested. Seats
        // taken one by one: no rule refuses a lone seat here.
        let imax = SampleVenues.imaxHall()
        #expect(try a.connection().request("POST", "/v1/venues", headers: Self.admin, body: imax.jsonBytes()).status == 201)
        try Self.realNameShow(
            try a.connection(), policy: #"{"noLoneSeat":false,"couplesTogether":false,"wheelchairOnRequest":false,"companionWithWheelchair":false}"#,
            venue: imax.id)
        let b = try a.sibling()
        let seats = (0..<imax.seatCount).map { imax.seatID($0) }
        try #require(seats.count >= 200)
        let servers = [a, b]
        struct Outcome: Sendable { var document: Int; var held: Bool; var sold: Bool; var status: Int; var text = "" }
        let outcomes = Locked<[Outcome]>([])
        DispatchQueue.concurrentPerform(iterations: 200) { k in
            // 80 documents bought by two buyers at the same moment, one on each instance (memory there may not
            // know the other's hold yet), and 40 by one.
            let document = k < 160 ? k / 2 : k - 80
            guard let c = try? servers[k % 2].connection(timeoutSeconds: 30) else { return }
            let seat = seats[k]
            let h = try? Self.hold(c, [seat], [Self.attendee(seat, "观众", Self.idCard(document, day: 1 + document / 100))])
            var outcome = Outcome(document: document, held: h?.status == 201, sold: false, status: h?.status ?? 0, text: h?.text ?? "")
            if let token = h?.string("token") {
                let r = try? servers[(k + 1) % 2].connection(timeoutSeconds: 30).request(
                    "POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"R-\#(k)"}"#)
                outcome.sold = r?.status == 200
            }
            outcomes.withLock { $0.append(outcome) }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.count == 200, "every buyer answered")
        #expect(all.allSatisfy { [201, 409].contains($0.status) }, "\(all.filter { ![201, 409].contains($0.status) }.prefix(2).map(\.text))")
        let soldByDocument = Dictionary(grouping: all.filter(\.sold), by: \.document).mapValues(\.count)
        #expect(soldByDocument.values.allSatisfy { $0 == 1 }, "never two sales for one document: \(soldByDocument.filter { $0.value > 1 })")
        let store = try a.openStore()
        let identities = try store.claims(show: "rn").compactMap(\.identity)
        #expect(identities.count == Set(identities).count && identities.count == soldByDocument.count, "one claim a document in the store")
        let byStore = all.filter { $0.text.contains("at the same moment elsewhere") }.count
        let others = all.filter { $0.status == 409 && !$0.text.contains("/problems/id-already-used") }
        #expect(others.isEmpty, "refused for another reason than its document: \(others.prefix(2).map(\.text))")
        print(
            "documents race: \(all.filter(\.held).count) holds, \(all.filter { $0.status == 409 }.count) refused (\(byStore) by the store's index),"
                + " \(soldByDocument.count) documents sold once, lost 0")
    }
}

/// #54 item 1: attendee books — a buyer's saved attendees, reused across orders, never shown unmasked.
@Suite(.serialized) struct AttendeeBookTests {
    @Test(arguments: StoreBackend.available) func savedAttendeesAreReusedAndStillOneASeat(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        try RealNameTests.realNameShow(c)
        let made = try c.request("POST", "/v1/attendee-books", json: "{}")
        #expect(made.status == 201, "\(made.text)")
        let book = try #require(made.string("book"))
        let (a, b) = (RealNameTests.idCard(501), RealNameTests.idCard(502))
        var wrong = Array(a)
        wrong[17] = wrong[17] == "1" ? "2" : "1"
        let bad = try c.request("POST", "/v1/attendee-books/\(book)/attendees", json: #"{"name":"王小明","idType":"idCard","idNumber":"\#(String(wrong))"}"#)
        #expect(bad.status == 422 && bad.text.contains("idNumber") && bad.text.contains("check character"), "\(bad.text)")
        let first = try c.request("POST", "/v1/attendee-books/\(book)/attendees", json: #"{"name":"王小明","idType":"idCard","idNumber":"\#(a)"}"#)
        let second = try c.request("POST", "/v1/attendee-books/\(book)/attendees", json: #"{"name":"李雷","idType":"idCard","idNumber":"\#(b)"}"#)
        #expect(first.status == 201 && second.status == 201, "\(first.text) \(second.text)")
        let again = try c.request("POST", "/v1/attendee-books/\(book)/attendees", json: #"{"name":"王小明","idType":"idCard","idNumber":"\#(a.lowercased())"}"#)
        let ids = [first, second, again].map { $0.json?["attendees"]?.arrayValue?.first?.objectValue?["id"]?.stringValue }
        #expect(ids[0] != nil && ids[0] == ids[2] && ids[0] != ids[1], "the same document is one entry: \(ids)")
        let listed = try c.request("GET", "/v1/attendee-books/\(book)")
        #expect(listed.json?["attendees"]?.arrayValue?.count == 2 && !listed.text.contains(a) && listed.text.contains("王*明"), "\(listed.text)")
        // A hold names saved attendees with the book: bound and masked as typed ones.
        let h = try c.request(
            "POST", "/v1/shows/rn/holds",
            json: #"{"seats":["7-1","7-2"],"book":"\#(book)","attendees":[{"seat":"7-1","saved":"\#(ids[0]!)"},{"seat":"7-2","saved":"\#(ids[1]!)"}]}"#)
        #expect(h.status == 201 && h.json?["attendees"]?.arrayValue?.count == 2, "\(h.text)")
        // The same saved attendee for another hold: one seat a document, as ever.
        let twice = try c.request(
            "POST", "/v1/shows/rn/holds", json: #"{"seats":["9-1"],"book":"\#(book)","attendees":[{"seat":"9-1","saved":"\#(ids[0]!)"}]}"#)
        #expect(twice.status == 409 && twice.string("type") == "/problems/id-already-used", "\(twice.text)")
        let noBook = try c.request("POST", "/v1/shows/rn/holds", json: #"{"seats":["9-1"],"attendees":[{"seat":"9-1","saved":"\#(ids[0]!)"}]}"#)
        #expect(noBook.status == 422 && noBook.text.contains("book"), "\(noBook.text)")
        let otherBook = try #require(try c.request("POST", "/v1/attendee-books", json: "{}").string("book"))
        let notThere = try c.request(
            "POST", "/v1/shows/rn/holds", json: #"{"seats":["9-1"],"book":"\#(otherBook)","attendees":[{"seat":"9-1","saved":"\#(ids[1]!)"}]}"#)
        #expect(notThere.status == 422 && notThere.text.contains("attendees[0].saved"), "another book's attendee: \(notThere.text)")
        #expect(try c.request("DELETE", "/v1/attendee-books/\(book)/attendees/\(ids[1]!)").status == 204)
        #expect(try c.request("DELETE", "/v1/attendee-books/\(book)/attendees/\(ids[1]!)").status == 404)
        #expect(try c.request("GET", "/v1/attendee-books/\(book)").json?["attendees"]?.arrayValue?.count == 1)
        #expect(try c.request("GET", "/v1/attendee-books/not-a-book").status == 404)
    }
}
