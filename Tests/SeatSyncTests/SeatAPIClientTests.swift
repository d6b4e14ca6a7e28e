import Foundation
import SeatSamples
import SeatMap
import SeatServerTestSupport
import SeatSync
import SeatWire
import Testing

@Suite(.serialized, .timeLimit(.minutes(1))) struct SeatAPIClientTests {
    func client(_ server: TestServer) -> SeatAPIClient { SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!) }

    @Test func holdsGoThroughTheTypedClient() async throws {
        let server = try TestServer()
        let api = client(server)
        let hold = try await api.createHold(show: "show", HoldRequest(seats: ["7-1", "7-2"]))
        #expect(hold.state == .active && hold.seats == ["7-1", "7-2"] && hold.total == "116.00" && hold.token.count == 44)
        let changed = try await api.modifyHold(token: hold.token, ModifyHoldRequest(add: ["7-3"], remove: ["7-2"]))
        #expect(Set(changed.seats) == ["7-1", "7-3"])
        let extended = try await api.extendHold(token: hold.token)
        #expect(extended.extended)
        let sold = try await api.confirmHold(token: hold.token, orderRef: "C-1", idempotencyKey: "pay-1-0123456789abcdef0123456789abcdef")
        #expect(sold.state == .confirmed && sold.orderRef == "C-1")
        let again = try await api.confirmHold(token: hold.token, orderRef: "C-1", idempotencyKey: "pay-1-0123456789abcdef0123456789abcdef")
        #expect(again == sold)
        let other = try await api.createHold(show: "show", HoldRequest(seats: ["5-1", "5-2"]))
        try await api.releaseHold(token: other.token)
        await #expect(throws: APIError.self) { _ = try await api.hold(token: other.token) }
    }

    /// An app's receipt and a phone at the door: the tickets of a confirmed hold, then each scanned in once.
    @Test func ticketsAndTheDoorGoThroughTheTypedClient() async throws {
        let server = try TestServer()
        let starts = ISO8601DateFormatter().string(from: Date().addingTimeInterval(1800))
        let prices = #"{"categories":{"standard":"40","vip":"60","couple":"90"}}"#
        let made = try server.connection().request(
            "POST", "/v1/shows", json: #"{"id":"soon","venueId":"cinema-hall-3","startsAt":"\#(starts)","prices":\#(prices)}"#,
            headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(made.status == 201, "\(made.text)")
        let api = client(server)
        let hold = try await api.createHold(show: "soon", HoldRequest(seats: ["2-1", "2-2"]))
        _ = try await api.confirmHold(token: hold.token, orderRef: "APP-7")
        let tickets = try await api.tickets(token: hold.token)
        #expect(tickets.orderRef == "APP-7" && tickets.tickets.map(\.seat).sorted() == ["2-1", "2-2"])
        #expect(api.ticketPicture(code: tickets.tickets[0].code ?? "")?.absoluteString.hasSuffix(".svg") == true)
        let code = try #require(tickets.tickets[0].code)
        let first = try await api.checkIn(CheckInRequest(code: code, gate: "App gate", nonce: "app-scan-0001"), key: TestServer.adminKey)
        #expect(first.ok && first.seat == tickets.tickets[0].seat && first.ticketID == tickets.tickets[0].ticketID)
        let retry = try await api.checkIn(CheckInRequest(code: code, gate: "App gate", nonce: "app-scan-0001"), key: TestServer.adminKey)
        #expect(retry.ok && retry.replay)
        let again = try await api.checkIn(CheckInRequest(code: code, gate: "Other gate", nonce: "app-scan-0002"), key: TestServer.adminKey)
        #expect(again.result == "already_in" && again.earlier?.gate == "App gate")
        await #expect(throws: APIError.self) {
            _ = try await api.checkIn(CheckInRequest(code: code, gate: "A", nonce: "app-scan-0003"), key: "wrong-key-0123456789")
        }
    }

    @Test func showListComesBackWithCountsThatFollowTheHolds() async throws {
        let server = try TestServer()
        let api = client(server)
        _ = try await api.createHold(show: "show", HoldRequest(seats: ["7-1", "7-2"]))
        let shows = try await api.shows()
        #expect(shows.count == 1 && shows[0]["id"]?.stringValue == "show" && shows[0]["venueId"]?.stringValue == "cinema-hall-3")
        #expect(shows[0]["seats"]?.objectValue?["held"]?.intValue == 2 && shows[0]["version"]?.intValue == 1)
    }

    @Test func refusalsArriveAsTypedProblems() async throws {
        let server = try TestServer()
        let api = client(server)
        _ = try await api.createHold(show: "show", HoldRequest(seats: ["7-1", "7-2"]))
        do {
            _ = try await api.createHold(show: "show", HoldRequest(seats: ["7-2", "7-3"]))
            Issue.record("expected a conflict")
        } catch {
            guard case .problem(let p) = error else { Issue.record("\(error)"); return }
            #expect(p.status == 409 && p.slug == "seats-taken")
            #expect(p.conflicts == [ProblemDocument.Conflict(seat: "7-2", status: "held")])
        }
        do {
            _ = try await api.createHold(show: "show", HoldRequest(seats: ["5-2", "5-3"]))
            Issue.record("expected a rule violation")
        } catch {
            #expect(error.slug == "rule-violation")
            if case .problem(let p) = error {
                #expect(p.violations.first?.rule == "loneSeat" && p.violations.first?.chinese == "请不要留下单个空座：5排1座")
            }
        }
    }

    @Test func layoutIsCachedByETagAndAvailabilityFollowsDeltas() async throws {
        let server = try TestServer()
        let api = client(server)
        let first = try await api.layout(venue: "cinema-hall-3")
        let second = try await api.layout(venue: "cinema-hall-3")
        #expect(first.fingerprint == second.fingerprint && first.fingerprint == SampleVenues.cinemaHall().fingerprint)
        let metrics = try server.connection().request("GET", "/metrics").text
        #expect(metrics.contains("route=\"/v1/venues/{id}\",status=\"304\"} 1"))
        var local = try await api.availability(show: "show", layout: first)
        _ = try await api.createHold(show: "show", HoldRequest(seats: ["3-1", "3-2"]))
        let h = try await api.createHold(show: "show", HoldRequest(seats: ["4-1", "4-2"]))
        try await api.releaseHold(token: h.token)
        try local.apply(try await api.delta(show: "show", since: local.version))
        let remote = try await api.availability(show: "show")
        #expect(local.statuses == remote.statuses && local.version == remote.version)
    }

    @Test func aRetriedCreateWithTheSameKeyHoldsOnce() async throws {
        let server = try TestServer()
        let api = client(server)
        // The first answer "got lost": the client retries with the same key.
        let a = try await api.createHold(show: "show", HoldRequest(seats: ["6-1", "6-2"]), idempotencyKey: "tap-42-0123456789abcdef0123456789abcdef")
        let b = try await api.createHold(show: "show", HoldRequest(seats: ["6-1", "6-2"]), idempotencyKey: "tap-42-0123456789abcdef0123456789abcdef")
        #expect(a.token == b.token)
        #expect(try await api.availability(show: "show").counts.held == 2)
    }

    @Test func aServerThatIsGoneIsATransportError() async throws {
        let api = SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:1")!)
        do {
            _ = try await api.availability(show: "show")
            Issue.record("expected a transport error")
        } catch {
            if case .transport = error {} else { Issue.record("\(error)") }
        }
    }
}
