import Foundation
import LoopbackHTTP
import SeatJSON
@testable import SeatServer
import SeatServerTestSupport
import SeatWire
import Testing

/// docs/API.md's examples are what a real server answers: a buyer's and a box office's day, sent to a
/// `TestServer`, every answer checked against the operation the route table documents for it
/// (`ExampleBook`), and the exchange written between the examples markers of docs/API.md. A change
/// to an answer fails here until recorded on purpose: `SEATKIT_RECORD=1 swift test --filter APIExamplesTests`.
@Suite struct APIExamplesTests {
    static let begin = "<!-- examples: written by APIExamplesTests (SEATKIT_RECORD=1 swift test --filter APIExamplesTests) -->"
    static let end = "<!-- examples: end -->"

    @Test func theDocumentedExamplesAreARealServersAnswers() throws {
        let server = try TestServer()
        var book = ExampleBook(server)
        try buyer(&book)
        try boxOffice(&book)
        try manager(&book)
        #expect(book.checked >= 30)

        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../docs/API.md").standardized
        let doc = try String(contentsOf: url, encoding: .utf8)
        guard let a = doc.range(of: Self.begin), let b = doc.range(of: Self.end, range: a.upperBound..<doc.endIndex) else {
            Issue.record("docs/API.md has no examples markers")
            return
        }
        let written = String(doc[a.upperBound..<b.lowerBound])
        let fresh = "\n\n" + book.markdown
        if ProcessInfo.processInfo.environment["SEATKIT_RECORD"] == "1" {
            try (String(doc[..<a.upperBound]) + fresh + String(doc[b.lowerBound...])).write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded docs/API.md's examples: review the diff, then run again without SEATKIT_RECORD")
        } else {
            #expect(written == fresh, "docs/API.md's examples differ from what the server answers; re-record with SEATKIT_RECORD=1")
        }
    }

    func buyer(_ book: inout ExampleBook) throws {
        try book.exchange("A show: what buyers are told, its rules, prices and seats by status", "GET", "/v1/shows/show")
        try book.exchange("The best two seats side by side (nothing is held yet)", "GET", "/v1/shows/show/best?count=2")
        let hold = try book.exchange(
            "Hold them: all or none. The token is the only key to this hold", "POST", "/v1/shows/show/holds", body: #"{"seats":["7-1","7-2"]}"#,
            headers: [("Idempotency-Key", "3f1c9a52-7d0e-4b8a-9c65-0e2f4d7a1b38")])
        let token = try #require(hold?.text("token"))
        try book.exchange("Someone else was faster", "POST", "/v1/shows/show/holds", body: #"{"seats":["7-2","7-3"]}"#)
        try book.exchange("A rule of the show says no", "POST", "/v1/shows/show/holds", body: #"{"seats":["5-2","5-3"]}"#)
        try book.exchange("A malformed request names each member", "POST", "/v1/shows/show/holds", body: #"{"seats":["", 7],"wheel":true}"#)
        try book.exchange("Change the hold's seats at once", "POST", "/v1/holds/\(token)/seats", body: #"{"add":["7-3"],"remove":["7-2"]}"#)
        try book.exchange("More time, once", "POST", "/v1/holds/\(token)/extend")
        try book.exchange("Pay: the seats are sold", "POST", "/v1/holds/\(token)/confirm", body: #"{"orderRef":"A-1001"}"#)
        try book.exchange("A confirmed hold is done", "GET", "/v1/holds/\(token)")
        try book.exchange("Its tickets: a code a seat for the QR, signed with the show's key", "GET", "/v1/holds/\(token)/tickets")
        try book.exchange(
            "The buyer's own order, by the code in the receipt's link: what they may still do (the show's afterSale policy)", "GET",
            "/v1/orders/A-1001?code=\(token)")
        try book.exchange(
            "The buyer changes seats themselves, with the code", "POST", "/v1/orders/A-1001/exchange",
            body: #"{"to":{"show":"show","seats":["6-1","6-3"]},"code":"\#(token)"}"#)
        try book.exchange(
            "Once, as the show allows", "POST", "/v1/orders/A-1001/exchange", body: #"{"to":{"show":"show","seats":["6-5","6-7"]},"code":"\#(token)"}"#)
        let other = try #require(try book.exchange("Another hold", "POST", "/v1/shows/show/holds", body: #"{"seats":["8-7","8-8"]}"#, written: false))
        let second = other.text("token")
        try book.exchange("Let a hold go", "DELETE", "/v1/holds/\(second)")
        try book.exchange("A released hold is gone", "GET", "/v1/holds/\(second)")
        try book.exchange("Free seats, zone by zone", "GET", "/v1/shows/show/free-seats", written: false)
        try book.exchange("Shows", "GET", "/v1/shows", written: false)
        try book.exchange("Venues", "GET", "/v1/venues")
    }

    func boxOffice(_ book: inout ExampleBook) throws {
        try book.exchange("Who the key is", "GET", "/v1/operators/me", operatorKey: true)
        try book.exchange("Without a key", "GET", "/v1/operators/me")
        let kept = try book.exchange(
            "Keep seats for guests until half an hour before the start", "POST", "/v1/shows/show/reservations",
            body: #"{"kind":"house","seats":["9-7","9-8"],"reason":"director's guests","releaseAt":"30 minutes before start"}"#, operatorKey: true)
        let reservation = try #require(kept?.text("id"))
        try book.exchange(
            "Block a broken seat", "POST", "/v1/shows/show/reservations",
            body: #"{"kind":"blocked","seats":["3-1"],"reason":"broken armrest"}"#, operatorKey: true, written: false)
        try book.exchange("The show's reservations", "GET", "/v1/shows/show/reservations", operatorKey: true)
        try book.exchange(
            "A guest takes one seat back", "POST", "/v1/reservations/\(reservation)/seats", body: #"{"remove":["9-8"]}"#,
            operatorKey: true)
        try book.exchange(
            "Sell at the counter", "POST", "/v1/shows/show/sales",
            body: #"{"seats":["10-7","10-8"],"orderRef":"BOX-1","payment":"cash"}"#, operatorKey: true)
        let printed = try book.exchange("The order's tickets, to print at the counter", "GET", "/v1/orders/BOX-1/tickets", operatorKey: true)
        let code = try #require(printed?["tickets"]?.arrayValue?.first?.objectValue?["code"]?.stringValue)
        try book.exchange(
            "A ticket scanned at the door before the doors open (two hours before the show): red, and why", "POST", "/v1/checkin",
            body: #"{"code":"\#(code)","gate":"Hall 3 door","nonce":"scan-7f3e2a91"}"#, operatorKey: true)
        try book.exchange(
            "A code that is not this cinema's", "POST", "/v1/checkin",
            body: #"{"code":"SK1AAAAAAAAAAAAAAAAAAAAA","gate":"Hall 3 door","nonce":"scan-7f3e2a92"}"#,
            operatorKey: true)
        try book.exchange("The door's counts, by gate", "GET", "/v1/shows/show/checkin", operatorKey: true)
        try book.exchange("What a scanner needs to check the show's tickets offline", "GET", "/v1/shows/show/issuer", operatorKey: true)
        try book.exchange(
            "Sell the guests' seat", "POST", "/v1/shows/show/sales",
            body: #"{"reservation":"\#(reservation)","orderRef":"BOX-2","payment":"comp"}"#, operatorKey: true)
        try book.exchange(
            "The show's rules hold at the counter too, unless forced", "POST", "/v1/shows/show/sales",
            body: #"{"seats":["5-2","5-3"],"orderRef":"BOX-4","payment":"card"}"#, operatorKey: true)
        try book.exchange(
            "A seat already sold", "POST", "/v1/shows/show/sales",
            body: #"{"seats":["10-8"],"orderRef":"BOX-3","payment":"card"}"#, operatorKey: true)
        try book.exchange(
            "Refund one seat", "POST", "/v1/orders/BOX-1/refund", body: #"{"seats":["10-8"],"reason":"customer could not come"}"#,
            operatorKey: true)
        try book.exchange(
            "Move the rest of the order to the best free seat, in one step: the old ticket revoked, a new one issued", "POST",
            "/v1/orders/BOX-1/exchange", body: #"{"to":{"show":"show","best":1},"reason":"wanted the aisle"}"#, operatorKey: true)
        try book.exchange(
            "An exchange to a seat someone has", "POST", "/v1/orders/BOX-1/exchange", body: #"{"to":{"show":"show","seats":["7-1"]}}"#,
            operatorKey: true)
        try book.exchange("An online order", "GET", "/v1/orders/A-1001", operatorKey: true)
        try book.exchange("What the show sold", "GET", "/v1/shows/show/report", operatorKey: true)
        try book.exchange("Sales across shows", "GET", "/v1/reports/sales?from=2099-12-01&to=2099-12-02", operatorKey: true)
        try book.exchange("The show's log, a page of three", "GET", "/v1/shows/show/log?limit=3", operatorKey: true)
    }

    func manager(_ book: inout ExampleBook) throws {
        try book.exchange("Pause sales", "PATCH", "/v1/shows/show", body: #"{"onSale":false}"#, operatorKey: true, written: false)
        try book.exchange("While sales are paused, buyers are told", "POST", "/v1/shows/show/holds", body: #"{"seats":["12-1"]}"#)
        try book.exchange(
            "New prices from now on", "PUT", "/v1/shows/show/prices",
            body: #"{"currency":"CNY","categories":{"standard":"35.00","vip":"60.00","couple":"99.90"}}"#, operatorKey: true, written: false)
        try book.exchange(
            "A new show", "POST", "/v1/shows",
            body:
                #"{"id":"late-1","venueId":"cinema-hall-3","startsAt":"2099-12-02T22:30:00+08:00","prices":{"categories":{"standard":"30","vip":"50","couple":"90"}},"details":{"title":{"zh":"午夜场","en":"Midnight screening"},"duration":118}}"#,
            operatorKey: true)
        try book.exchange("Without an operator's key, no manager's operation", "POST", "/v1/shows/late-1/cancel", body: #"{"reason":"projector failure"}"#)
        try book.exchange(
            "Cancel it: holds and reservations released, the orders to refund listed", "POST", "/v1/shows/late-1/cancel",
            body: #"{"reason":"projector failure"}"#, operatorKey: true)
    }
}
