import SeatServerTestSupport
import Foundation
import LoopbackHTTP
import SeatSamples
import SeatMap
@testable import SeatServer
import Testing
import SeatSecrets
import SharedState

@Suite(.serialized) struct HoldLifecycleTests {
    @Test(arguments: StoreBackend.available) func holdModifyExtendConfirm(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let created = try hold(c, ["7-1", "7-2"])
        #expect(created.status == 201, "\(created.text)")
        let token = try #require(created.string("token"))
        // 12 digits of creation time (so store indexes grow at their end), then 128 random bits.
        #expect(token.count == 44 && token.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        let createdAt = try #require(UInt64(token.prefix(12), radix: 16))
        #expect(abs(Double(createdAt) / 1000 - Date().timeIntervalSince1970) < 60)
        #expect(created.string("total") == "116.00" && created.json?["version"]?.intValue == 1)
        #expect(created.headers["location"] == "/v1/holds/\(token)")
        // Add one, remove one, atomically; the rules hold on the result.
        let changed = try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"add":["7-3"],"remove":["7-2"]}"#)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed.json?["seats"]?.arrayValue?.compactMap(\.stringValue) == ["7-3", "7-1"])
        let a = try server.availability()
        #expect(a[SampleVenues.cinemaHall().index(ofSeatID: "7-2")!] == .available && a.counts.held == 2 && a.version == 2)
        // Extend once, not twice.
        #expect(try c.request("POST", "/v1/holds/\(token)/extend").status == 200)
        let again = try c.request("POST", "/v1/holds/\(token)/extend")
        #expect(again.status == 409 && again.string("type") == "/problems/already-extended")
        // Confirm: sold, with the order reference; confirming again with the same order is the same answer.
        let confirmed = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"ORDER-1"}"#)
        #expect(confirmed.status == 200 && confirmed.string("state") == "confirmed" && confirmed.string("orderRef") == "ORDER-1")
        let repeated = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"ORDER-1"}"#)
        #expect(repeated.status == 200 && repeated.string("holdId") == confirmed.string("holdId"))
        let other = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"ORDER-2"}"#)
        #expect(other.status == 409)
        #expect(try server.availability().counts.sold == 2)
        // A confirmed hold cannot be released.
        #expect(try c.request("DELETE", "/v1/holds/\(token)").status == 409)
    }

    @Test(arguments: StoreBackend.available) func releaseFreesTheSeatsAndTheTokenIsSpent(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let token = try #require(try hold(c, ["5-1", "5-2"]).string("token"))
        #expect(try c.request("DELETE", "/v1/holds/\(token)").status == 204)
        #expect(try server.availability().counts.available == 172)
        let gone = try c.request("GET", "/v1/holds/\(token)")
        #expect(gone.status == 410 && gone.headers["content-type"] == "application/problem+json")
        #expect(try c.request("DELETE", "/v1/holds/\(token)").status == 410)
        // Removing every seat releases the hold too.
        let t2 = try #require(try hold(c, ["5-1", "5-2"]).string("token"))
        let emptied = try c.request("POST", "/v1/holds/\(t2)/seats", json: #"{"remove":["5-1","5-2"]}"#)
        #expect(emptied.status == 200 && emptied.string("state") == "released")
        #expect(try server.availability().counts.available == 172)
    }

    @Test(arguments: StoreBackend.available) func conflictsAndRulesAreRefusedWholeAndNamed(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        #expect(try hold(c, ["7-1", "7-2"]).status == 201)
        let conflict = try hold(c, ["7-3", "7-1"])
        #expect(conflict.status == 409)
        #expect(conflict.json?["conflicts"]?.arrayValue?.first?.objectValue?["seat"]?.stringValue == "7-1")
        #expect(conflict.json?["conflicts"]?.arrayValue?.first?.objectValue?["status"]?.stringValue == "held")
        // Nothing of the refused request was applied: 7-3 is still free.
        #expect(try server.availability()[SampleVenues.cinemaHall().index(ofSeatID: "7-3")!] == .available)
        let lone = try hold(c, ["5-3", "5-2"])
        #expect(lone.status == 422 && lone.string("type") == "/problems/rule-violation")
        let v = lone.json?["violations"]?.arrayValue?.first?.objectValue
        #expect(v?["rule"]?.stringValue == "loneSeat" && v?["seats"]?.arrayValue?.compactMap(\.stringValue) == ["5-1"])
        #expect(v?["message"]?.objectValue?["zh"]?.stringValue == "请不要留下单个空座：5排1座")
        let couple = try hold(c, ["11-1"])
        #expect(couple.status == 422 && couple.json?["violations"]?.arrayValue?.first?.objectValue?["rule"]?.stringValue == "couplePair")
        let tooMany = try hold(c, (1...7).map { "3-\($0 * 2)" })
        #expect(tooMany.status == 422)
        let unknown = try hold(c, ["7-5", "99-1"])
        #expect(unknown.status == 422 && unknown.string("type") == "/problems/unknown-seats")
        #expect(try server.availability().counts.held == 2)
    }

    @Test(arguments: StoreBackend.available) func expiredHoldsReleaseTheirSeatsByThemselves(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend, holdSeconds: 60)
        let c = try server.connection()
        let token = try #require(try hold(c, ["6-1", "6-2"]).string("token"))
        #expect(try server.availability().counts.held == 2)
        server.app.inventory.clockOffset.advance(by: 61_000)
        // The sweeper runs every half second.
        var released = false
        for _ in 0..<40 where !released { Thread.sleep(forTimeInterval: 0.1); released = try server.availability().counts.held == 0 }
        #expect(released)
        #expect(try c.request("GET", "/v1/holds/\(token)").status == 410)
        #expect(try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"late"}"#).status == 410)
        #expect(server.app.inventory.metrics.value("holds_expired") == 1)
    }

    /// Sales close when the show starts: no new hold, no seat added (409 show-started, nothing changes);
    /// a hold made before the start may still shrink, and be confirmed until it expires.
    @Test(arguments: StoreBackend.available) func salesCloseWhenTheShowStarts(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let soon = ISO8601DateFormatter().string(from: Date().addingTimeInterval(120))
        #expect(
            try c.request(
                "POST", "/v1/shows",
                json:
                    "{\"id\":\"soon\",\"venueId\":\"cinema-hall-3\",\"startsAt\":\"\(soon)\",\"prices\":{\"categories\":{\"standard\":\"38\",\"vip\":\"58\",\"couple\":\"99\"}}}",
                headers: admin
            ).status == 201)
        let token = try #require(try hold(c, ["7-1", "7-2", "7-3"], show: "soon").string("token"))
        server.app.inventory.clockOffset.advance(by: 180_000)
        let before = try c.request("GET", "/v1/shows/soon/availability")
        let late = try hold(c, ["8-1"], show: "soon")
        #expect(late.status == 409 && late.string("type") == "/problems/show-started", "\(late.text)")
        // The start as kept, on the venues' clock: the same instant as written.
        let kept = try #require(try c.request("GET", "/v1/shows/soon").string("startsAt"))
        #expect(kept.hasSuffix("+08:00") && ISO8601DateFormatter().date(from: kept) == ISO8601DateFormatter().date(from: soon), "\(kept)")
        #expect(late.string("detail")?.contains(kept) == true, "\(late.text)")
        let adding = try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"add":["7-4"]}"#)
        #expect(adding.status == 409 && adding.string("type") == "/problems/show-started")
        let after = try c.request("GET", "/v1/shows/soon/availability")
        #expect(after.headers["etag"] == before.headers["etag"] && after.body == before.body)
        // What was held before the start: it may give a seat back, and be bought.
        #expect(try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"remove":["7-3"]}"#).status == 200)
        let bought = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"at-the-door"}"#)
        #expect(bought.status == 200 && bought.string("state") == "confirmed", "\(bought.text)")
        // Another show, still to come, is on sale as before.
        #expect(try hold(c, ["8-1"]).status == 201)
    }

    @Test(arguments: StoreBackend.available) func idempotencyKeysMakeRetriesSafe(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let first = try hold(c, ["8-1", "8-2"], headers: [("Idempotency-Key", "k1-0123456789abcdef0123456789abcdef")])
        let retry = try hold(c, ["8-1", "8-2"], headers: [("Idempotency-Key", "k1-0123456789abcdef0123456789abcdef")])
        #expect(first.status == 201 && retry.status == 201)
        #expect(first.string("token") == retry.string("token") && retry.headers["idempotent-replayed"] == "true")
        #expect(try server.availability().counts.held == 2 && server.app.inventory.metrics.value("holds_created") == 1)
        let reused = try hold(c, ["8-4", "8-6"], headers: [("Idempotency-Key", "k1-0123456789abcdef0123456789abcdef")])
        #expect(reused.status == 422 && reused.string("type") == "/problems/idempotency-key-reused")
        let token = first.string("token")!
        let confirmed = try c.request(
            "POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"O-9"}"#, headers: [("Idempotency-Key", "confirm-0123456789abcdef0123456789abcdef")])
        let again = try c.request(
            "POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"O-9"}"#, headers: [("Idempotency-Key", "confirm-0123456789abcdef0123456789abcdef")])
        #expect(confirmed.status == 200 && again.status == 200 && again.text == confirmed.text)
        #expect(try server.availability().counts.sold == 2)
    }

    @Test(arguments: StoreBackend.available) func availabilityIsCachedByVersionAndDeltasFollow(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let first = try c.request("GET", "/v1/shows/show/availability")
        let etag = try #require(first.headers["etag"])
        #expect(try c.request("GET", "/v1/shows/show/availability", headers: [("If-None-Match", etag)]).status == 304)
        #expect(try hold(c, ["4-1", "4-2"]).status == 201)
        #expect(try c.request("GET", "/v1/shows/show/availability", headers: [("If-None-Match", etag)]).status == 200)
        let token = try #require(try hold(c, ["2-1", "2-2"]).string("token"))
        _ = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"x"}"#)
        let delta = try AvailabilityDelta(encoded: try c.request("GET", "/v1/shows/show/availability?since=0").text)
        var replay = try SeatAvailability(encoded: first.text)
        try replay.apply(delta)
        #expect(replay.statuses == (try server.availability()).statuses)
        #expect(try c.request("GET", "/v1/shows/show/availability?since=99").status == 409, "a version ahead of the show's")
        let layout = try c.request("GET", "/v1/venues/cinema-hall-3")
        #expect(layout.headers["cache-control"]?.contains("immutable") == true)
        #expect(try c.request("GET", "/v1/venues/cinema-hall-3", headers: [("If-None-Match", layout.headers["etag"]!)]).status == 304)
        #expect(try VenueLayout(json: layout.body).fingerprint == SampleVenues.cinemaHall().fingerprint)
    }
}

@Suite struct RenderTests {
    @Test(arguments: [Int64(0), 951_782_400_000, 1_796_040_430_632, -1, 4_102_444_800_999, 1_709_164_800_000])
    func timestampsMatchFoundation(ms: Int64) {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(SeatAPITestHooks.iso(ms) == f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)))
    }
}

@Suite(.serialized) struct StoreDeltaTests {
    /// After a restart memory has no recent events: a client coming back with its version still gets
    /// a delta, merged from the show's log in the store (it was a 410 and a whole-state fetch).
    @Test(arguments: StoreBackend.available) func aDeltaFromBeforeARestartComesFromTheShowsLog(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        for row in 1...3 { #expect(try hold(c, ["\(row)-1", "\(row)-2"]).status == 201) }
        try server.restart()
        let r = try server.connection().request("GET", "/v1/shows/show/availability?since=1")
        #expect(r.status == 200, "\(r.text)")
        let delta = try AvailabilityDelta(encoded: r.text)
        let layout = SampleVenues.cinemaHall()
        #expect(delta.fromVersion == 1 && delta.toVersion == 3)
        #expect(Set(delta.changes.map(\.seat)) == Set(["2-1", "2-2", "3-1", "3-2"].map { layout.index(ofSeatID: $0)! }))
        #expect(server.app.inventory.metrics.value("deltas_from_store") == 1)
    }
}

@Suite(.serialized) struct PruneTests {
    @Test(arguments: StoreBackend.available) func oldIdempotencyAnswersArePrunedAndTheLogIsKept(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        for row in 1...4 {
            #expect(try hold(c, ["\(row)-1", "\(row)-2"], headers: [("Idempotency-Key", "p-\(row)-0123456789abcdef0123456789abcdef")]).status == 201)
        }
        let kept = Secrets.idempotencyDigest(scope: "hold:show", key: "p-1-0123456789abcdef0123456789abcdef")
        #expect(try server.app.inventory.store.storedResponse(key: kept) != nil)
        try server.app.inventory.store.prune(idempotencyMilliseconds: -1)
        #expect(try server.app.inventory.store.storedResponse(key: kept) == nil)
        // Deltas come from the recent versions in memory; the store's log is the show's record, kept whole.
        #expect(try c.request("GET", "/v1/shows/show/availability?since=0").status == 200)
        #expect(try server.app.inventory.store.events(show: "show", after: 0, limit: 10)?.map(\.version) == [1, 2, 3, 4])
    }
}

/// Confirm, release and a change racing on one hold (#26 item 4): one wins; every loser is told how the
/// hold ended (409 confirmed, 410 released), never "no hold with this token" for a token that was good.
@Suite(.serialized) struct HoldRaceLoserTests {
    @Test(arguments: StoreBackend.available) func losersAreToldHowTheHoldEnded(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        // A show without the lone-seat rule, so the rounds' leftovers never refuse the next hold.
        let show = try server.connection().request(
            "POST", "/v1/shows",
            json:
                #"{"id":"race","venueId":"cinema-hall-3","startsAt":"2099-01-01T19:00:00+08:00","prices":{"categories":{"standard":"1","vip":"2","couple":"3"}},"policy":{"noLoneSeat":false}}"#,
            headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(show.status == 201, "\(show.text)")
        let answers = Locked([String: Int]())
        for round in 0..<40 {
            // A fresh pair each round (a confirmation sells it): rows 1-10, pairs side by side from the aisle.
            let row = round % 10 + 1, first = 2 * (round / 10) + 1
            let made = try hold(try server.connection(), ["\(row)-\(first)", "\(row)-\(first + 1)"], show: "race")
            guard made.status == 201, let token = made.string("token") else { Issue.record("round \(round): \(made.status) \(made.text)"); continue }
            let group = DispatchGroup()
            let requests: [(String, String, String?)] = [
                ("confirm", "POST /v1/holds/\(token)/confirm", #"{"orderRef":"RACE-\#(round)"}"#),
                ("release", "DELETE /v1/holds/\(token)", nil),
                ("modify", "POST /v1/holds/\(token)/seats", #"{"remove":["\#(row)-\#(first + 1)"]}"#),
                ("read", "GET /v1/holds/\(token)", nil),
            ]
            for (name, line, body) in requests {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                    let r = try? server.connection().request(parts[0], parts[1], json: body ?? "", headers: [])
                    answers.withLock { $0["\(name) \(r?.status ?? 0)", default: 0] += 1 }
                }
            }
            group.wait()
            // Whatever won, the hold is over or changed: release what is left so the row is free again.
            _ = try? server.connection().request("DELETE", "/v1/holds/\(token)")
        }
        let seen = answers.withLock { $0 }
        #expect(!seen.keys.contains { $0.hasSuffix(" 404") || $0.hasSuffix(" 0") || $0.hasSuffix(" 500") }, "\(seen)")
        #expect(seen.keys.allSatisfy { ["200", "201", "204", "409", "410"].contains(String($0.split(separator: " ")[1])) }, "\(seen)")
    }
}
