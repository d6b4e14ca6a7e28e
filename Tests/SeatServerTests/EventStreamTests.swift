import SeatServerTestSupport
import Foundation
import LoopbackHTTP
import SeatMap
import SeatServer
import Testing
import SharedState

@Suite(.serialized) struct EventStreamTests {
    @Test(arguments: StoreBackend.available) func twoSubscribersSeeTheSameVersionsInOrderAndAResumedOneMissesNothing(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let a = try server.connection(), b = try server.connection()
        #expect(try a.openEvents("/v1/shows/show/events") == 200)
        #expect(try b.openEvents("/v1/shows/show/events") == 200)
        let snapA = try a.nextEvent(), snapB = try b.nextEvent()
        #expect(snapA.event == "snapshot" && snapA.id == "0" && snapA.data == snapB.data)
        var start = try SeatAvailability(encoded: snapA.data)
        let c = try server.connection()
        var tokens: [String] = []
        for row in 1...3 { tokens.append(try #require(try hold(c, ["\(row)-1", "\(row)-2"]).string("token"))) }
        #expect(try c.request("DELETE", "/v1/holds/\(tokens[0])").status == 204)
        _ = try c.request("POST", "/v1/holds/\(tokens[1])/confirm", json: #"{"orderRef":"r"}"#)
        // Versions 1…5, each delta continuing the last (several versions may come as one merged delta
        // when they are published faster than a round); both subscribers are sent the same.
        var other = start
        while start.version < 5 {
            let ea = try a.nextEvent()
            #expect(ea.event == "seats")
            let delta = try AvailabilityDelta(encoded: ea.data)
            #expect(delta.fromVersion == start.version && ea.id == String(delta.toVersion))
            try start.apply(delta)
        }
        while other.version < 5 {
            let eb = try b.nextEvent()
            try other.apply(AvailabilityDelta(encoded: eb.data))
        }
        #expect(start.version == 5 && other.statuses == start.statuses)
        #expect(start.statuses == (try server.availability()).statuses)

        // A subscriber that left after version 5 comes back with Last-Event-ID and gets 6, 7, 8 in order.
        let held = try hold(c, ["4-1", "4-2"]), held2 = try hold(c, ["5-1", "5-2"])
        #expect(held.status == 201 && held2.status == 201)
        _ = try c.request("DELETE", "/v1/holds/\(tokens[2])")
        let resumed = try server.connection()
        #expect(try resumed.openEvents("/v1/shows/show/events", headers: [("Last-Event-ID", "5")]) == 200)
        let ids = try (0..<3).map { _ in try resumed.nextEvent().id ?? "" }
        #expect(ids == ["6", "7", "8"])
        // And live events after that.
        _ = try hold(c, ["6-1", "6-2"])
        #expect(try resumed.nextEvent().id == "9")
        #expect(server.app.inventory.subscriberCount >= 3)
    }

    @Test(arguments: StoreBackend.available) func aTooOldLastEventIDGetsTheWholeStateAndClientsThatLeaveAreReaped(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        _ = try hold(c, ["1-1", "1-2"])
        do {
            let s = try server.connection()
            #expect(try s.openEvents("/v1/shows/show/events", headers: [("Last-Event-ID", "999")]) == 200)
            let e = try s.nextEvent()
            #expect(e.event == "snapshot" || e.event == "reset")
            #expect(try SeatAvailability(encoded: e.data).counts.held == 2)
        }
        // The client above has gone; its hang-up (sk-streams' epoll) or a failed heartbeat (every half
        // second here) drops it. Polled up to 10 s: one run of CI's parallel suites still counted it at 3 s.
        var count = server.app.inventory.subscriberCount
        for _ in 0..<100 where count > 0 { Thread.sleep(forTimeInterval: 0.1); count = server.app.inventory.subscriberCount }
        #expect(count == 0)
    }
}

@Suite(.serialized) struct EventStreamConcurrencyTests {
    /// Viewers subscribe while buyers' changes are being published: each viewer's stream continues its
    /// first version without a gap or a repeat (each delta starts where the last ended). (Under ThreadSanitizer, in make test, this also caught a
    /// stream's connection being written without its lock while the writer published to it.)
    @Test func subscribingWhilePublishingLosesNothing() throws {
        let server = try TestServer()
        let group = DispatchGroup()
        let failures = Locked([String]())
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            guard let c = try? server.connection() else { return }
            for row in 1...10 {
                for seat in [1, 3] {
                    guard let token = try? hold(c, ["\(row)-\(seat)", "\(row)-\(seat + 1)"]).string("token") else { continue }
                    _ = try? c.request("DELETE", "/v1/holds/\(token)")
                }
            }
        }
        for k in 0..<24 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let c = try server.connection()
                    guard try c.openEvents("/v1/shows/show/events") == 200 else { throw HTTPConnection.Failure.closed }
                    let first = try c.nextEvent()
                    var version = UInt64(first.id ?? "") ?? 0
                    while version < 40 {
                        let e = try c.nextEvent()
                        guard e.event == "seats" else { continue }
                        let delta = try AvailabilityDelta(encoded: e.data)
                        if delta.fromVersion != version || e.id != String(delta.toVersion) {
                            failures.withLock { $0.append("viewer \(k): at \(version), a delta \(delta.fromVersion)…\(delta.toVersion)") }
                        }
                        version = delta.toVersion
                    }
                } catch { failures.withLock { $0.append("viewer \(k): \(error)") } }
            }
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(failures.current.isEmpty, "\(failures.current)")
    }
}
