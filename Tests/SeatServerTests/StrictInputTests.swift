import Foundation
import LoopbackHTTP
import SeatJSON
import SeatSamples
import SeatServerTestSupport
import Testing

/// Input the server once took as something else: a day no month has, a year the calendar reads
/// otherwise, a period longer than a year, more gates' shows than the schema allows, and a scanner's
/// line end; and guessing that was never slowed.
@Suite(.serialized) struct StrictInputTests {
    @Test func timesAreReadStrictlyAndWrittenBackAsRead() {
        for bad in [
            "2026-02-30T10:00:00Z", "2026-02-29T10:00:00Z", "2026-04-31T10:00:00Z", "2026-13-01T10:00:00Z", "2026-12-01T24:00:00Z",
            "2026-12-01T10:60:00Z", "2026-12-01T10:00:60Z", "0000-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2026-12-01T10:00:00",
            "2026-12-01T10:00:00+0800", "2026-12-01T10:00:00.Z", "2026-12-01 10:00:00Z", "2026-12-1T10:00:00Z", " 2026-12-01T10:00:00Z",
            "2026-12-01T10:00:00Z ", "2026-12-01T10:00:00+24:00",
        ] {
            #expect(Timestamp.milliseconds(bad) == nil, "\(bad) was read")
        }
        #expect(Timestamp.milliseconds("2028-02-29T10:00:00Z") != nil)
        #expect(Timestamp.milliseconds("1970-01-01T00:00:00Z") == 0)
        #expect(Timestamp.milliseconds("2026-12-01T19:30:00+08:00") == Timestamp.milliseconds("2026-12-01T11:30:00Z"))
        #expect(Timestamp.milliseconds("2026-12-01T11:30:00.5Z")! - Timestamp.milliseconds("2026-12-01T11:30:00Z")! == 500)
        #expect(Timestamp.milliseconds("2026-12-01T11:30:00.123456Z")! % 1000 == 123)
        // What is written is read back as the same instant, over four centuries of leap days.
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let ms = Int64(rng.next() % 253_402_300_799_000)
            #expect(Timestamp.milliseconds(Timestamp.text(ms)) == ms, "\(ms) → \(Timestamp.text(ms))")
        }
        #expect(Timestamp.text(Timestamp.oneYearAfter(Timestamp.milliseconds("2028-02-29T10:00:00Z")!)) == "2029-03-01T10:00:00.000Z")
        #expect(Timestamp.text(Timestamp.oneYearAfter(Timestamp.milliseconds("2026-01-01T00:00:00Z")!)) == "2027-01-01T00:00:00.000Z")
    }

    @Test(arguments: StoreBackend.available) func aDayNoMonthHasIsRefusedWhereverATimeIsTaken(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let queue = try c.request(
            "PUT", "/v1/shows/show/queue", json: #"{"opensAt":"2026-02-30T10:00:00Z","admitPerMinute":60}"#, headers: admin)
        #expect(queue.status == 422 && queue.text.contains("opensAt"), "\(queue.status) \(queue.text)")
        #expect(try c.request("GET", "/v1/shows/show/queue", headers: admin).status == 404, "no waiting room was made")
        let show = try c.request(
            "POST", "/v1/shows",
            json: #"{"id":"feb30","venueId":"cinema-hall-3","startsAt":"2099-02-30T19:30:00+08:00","prices":{"categories":{"standard":"40"}}}"#,
            headers: admin)
        #expect(show.status == 422 && show.text.contains("startsAt"), "\(show.status) \(show.text)")
        #expect(try c.request("GET", "/v1/shows/feb30").status == 404)
        for (query, member) in [
            ("from=0000-01-01&to=2026-01-01", "from"), ("from=2026-02-30&to=2026-03-05", "from"), ("from=2026-01-01&to=2027-01-02", "to"),
            ("from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00.001Z", "to"),
        ] {
            let r = try c.request("GET", "/v1/reports/takings?\(query)", headers: admin)
            #expect(r.status == 422 && r.string("detail")?.hasPrefix(member + ":") == true, "\(query): \(r.status) \(r.text)")
            let sales = try c.request("GET", "/v1/reports/sales?\(query)", headers: admin)
            #expect(sales.status == 422, "\(query): \(sales.status)")
        }
        // A calendar year is a year, 365 days or 366.
        for query in ["from=2026-01-01&to=2027-01-01", "from=2028-01-01&to=2029-01-01"] {
            let r = try c.request("GET", "/v1/reports/takings?\(query)", headers: admin)
            #expect(r.status == 200, "\(query): \(r.status) \(r.text)")
        }
    }

    @Test(arguments: StoreBackend.available) func theDoorTakesAScannersLineEndAndNoMoreShowsThanTheSchema(backend: StoreBackend) throws {
        let server = try TicketTests().server(backend)
        let c = try server.connection()
        let sale = try c.request("POST", "/v1/shows/show/sales", json: #"{"seats":["5-1"],"orderRef":"BOX-1","payment":"cash"}"#, headers: TicketTests.li)
        #expect(sale.status == 201)
        let ticket = try c.request("GET", "/v1/orders/BOX-1/tickets", headers: TicketTests.li).json?["tickets"]?.arrayValue?.first?.objectValue
        let code = try #require(ticket?["code"]?.stringValue)
        let shows = (0..<101).map { "\"s\($0)\"" }.joined(separator: ",")
        let many = try c.request(
            "POST", "/v1/checkin", json: #"{"code":"\#(code)","gate":"Hall 3","nonce":"nonce-0001","shows":[\#(shows)]}"#, headers: TicketTests.door)
        #expect(many.status == 422 && many.text.contains("at most 100 shows"), "\(many.status) \(many.text)")
        let hundred = (0..<99).map { "\"s\($0)\"" }.joined(separator: ",") + ",\"show\""
        for (k, ending) in ["\\n", "\\r\\n", " ", "\\t"].enumerated() {
            let r = try c.request(
                "POST", "/v1/checkin", json: #"{"code":"\#(code)\#(ending)","gate":"Hall 3","nonce":"nonce-100\#(k)","shows":[\#(hundred)]}"#,
                headers: TicketTests.door)
            // The show starts in 2099: read and checked, then too early, not a 422.
            #expect(r.status == 200 && r.string("result") == "too_early", "\(ending): \(r.status) \(r.text)")
        }
    }

    /// Wrong guesses at tokens and codes from one address are slowed: the first few are 404s, then
    /// 429s with a Retry-After; another address is not slowed, nor is an operator.
    @Test(arguments: StoreBackend.available) func guessingTokensAndCodesIsSlowed(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        var statuses: [Int: Int] = [:]
        let started = Date()
        // 30 at once, then 2 a second: of 40 guesses at most 30 + 2 a second are 404s.
        for k in 0..<40 {
            let path =
                k % 3 == 0
                ? "/v1/orders/WEB-\(k)?code=guess\(k)"
                : k % 3 == 1 ? "/v1/holds/\(String(repeating: "ab", count: 16))\(k)" : "/v1/orders/WEB-\(k)/tickets?code=x\(k)"
            let r = try c.request("GET", path, headers: [("X-Forwarded-For", "198.51.100.7")])
            statuses[r.status, default: 0] += 1
            if r.status == 429 { #expect(r.headers.contains { $0.0.lowercased() == "retry-after" }) }
        }
        let seconds = Date().timeIntervalSince(started)
        #expect((statuses[429] ?? 0) >= 4 && Double(statuses[404] ?? 0) <= 31 + 2 * seconds, "\(statuses) in \(seconds) s")
        // Someone else, and the box office, are answered as before.
        let other = try c.request("GET", "/v1/holds/\(String(repeating: "cd", count: 16))", headers: [("X-Forwarded-For", "198.51.100.8")])
        #expect(other.status == 404)
        let clerk = try c.request("GET", "/v1/orders/NOPE", headers: [("X-Forwarded-For", "198.51.100.7"), ("X-Admin-Key", TestServer.adminKey)])
        #expect(clerk.status == 404)
        // A real hold is still reachable by its holder from the slowed address once the wait is over.
        let made = try hold(c, ["7-1"], headers: [("X-Forwarded-For", "198.51.100.9")])
        let token = try #require(made.string("token"))
        #expect(try c.request("GET", "/v1/holds/\(token)", headers: [("X-Forwarded-For", "198.51.100.9")]).status == 200)
    }
}

/// The venues' clock: offsets read and an instant written on one (`Timestamp.text(_:offsetMinutes:)`).
@Suite struct LocalClockTests {
    @Test func offsetsAreReadAndRefused() {
        #expect(Timestamp.offsetMinutes("+08:00") == 480 && Timestamp.offsetMinutes("-05:30") == -330 && Timestamp.offsetMinutes("Z") == 0)
        for bad in ["+8:00", "08:00", "+24:00", "+08:60", "+08:00 ", "UTC", ""] { #expect(Timestamp.offsetMinutes(bad) == nil, "\(bad)") }
    }

    @Test func anInstantOnAClockIsTheSameInstant() throws {
        let ms = try #require(Timestamp.milliseconds("2099-12-31T20:00:00Z"))
        #expect(Timestamp.text(ms, offsetMinutes: 480) == "2100-01-01T04:00:00+08:00", "the next day, year and century")
        #expect(Timestamp.text(ms + 7, offsetMinutes: -330) == "2099-12-31T14:30:00.007-05:30")
        #expect(Timestamp.text(ms, offsetMinutes: 0) == "2099-12-31T20:00:00Z")
        var random = SplitMix64(seed: 50)
        for _ in 0..<2000 {
            let t = Int64(random.next() % 4_000_000_000_000), offset = Int(random.next() % 1440) - 720
            #expect(Timestamp.milliseconds(Timestamp.text(t, offsetMinutes: offset)) == t)
        }
    }
}
