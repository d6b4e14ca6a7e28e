import Dispatch
import Foundation
import LoopbackHTTP
import SeatJSON
import SeatQueue
import SeatSecrets
import SeatServerTestSupport
import SeatWire
import SharedState
import Testing

@testable import SeatServer

/// #54 item 4 over real HTTP, on both stores: a proof of work at joining, one place a document on a
/// real-name show (and the admission buys for that document), a registration's draw anyone can check.
@Suite(.serialized) struct QueueFairnessTests {
    static let admin = QueueTests.admin
    static func now() -> Int64 { QueueTests.now() }

    static func join(_ c: HTTPConnection, _ address: String, show: String, body: String = "") throws -> HTTPConnection.Response {
        body.isEmpty
            ? try c.request("POST", "/v1/shows/\(show)/queue", headers: [("X-Forwarded-For", address)])
            : try c.request("POST", "/v1/shows/\(show)/queue", json: body, headers: [("X-Forwarded-For", address)])
    }

    static func document(_ number: String) -> String { #"{"idType":"idCard","idNumber":"\#(number)"}"# }

    /// The lanes' rules live in the wire (to name a bad body's member) and in the room (for its own
    /// callers): two modules, one rule.
    @Test func theWireAndTheRoomAgreeOnLanes() {
        let cases: [[(String, Int)]] = [
            [], [("fanclub", 70)], [("fanclub", 70), ("members", 40)], [("Fan Club", 10)], [("public", 10)], [("a", 0)], [("a", 101)],
            [("a", 10), ("a", 10)], [("a", 1), ("b", 1), ("c", 1), ("d", 1), ("e", 1)], [(String(repeating: "x", count: 33), 5)],
        ]
        for lanes in cases {
            let wire = QueueSettingsRequest.laneProblems(lanes.map { QueueLaneSetting(name: $0.0, share: $0.1) }).map(\.path)
            let room = QueueLane.problems(lanes.map { QueueLane(name: $0.0, share: $0.1) }).map(\.path)
            #expect(wire == room, "\(lanes): wire \(wire), room \(room)")
        }
        #expect(QueueSettingsRequest.proofOfWorkBitsRange == QueueSettings.proofOfWorkBitsRange)
        #expect(QueueSettingsRequest.drawWinnersRange == QueueSettings.drawWinnersRange)
    }

    @Test(arguments: StoreBackend.available) func aRoomAsksAProofOfWorkEachJoinSpendsOnce(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let put = try c.request(
            "PUT", "/v1/shows/show/queue",
            json: #"{"opensAt":"\#(Timestamp.text(Self.now() - 1_000))","admitPerMinute":1,"proofOfWorkBits":10}"#, headers: Self.admin)
        #expect(put.status == 200 && put.json?["proofOfWorkBits"]?.intValue == 10, "\(put.text)")
        let bare = try Self.join(c, "10.1.0.1", show: "show")
        #expect(bare.status == 403 && bare.string("type") == "/problems/proof-of-work-required" && bare.json?["bits"]?.intValue == 10, "\(bare.text)")
        let issued = try c.request("GET", "/v1/shows/show/queue/challenge")
        let challenge = try #require(issued.string("challenge"), "\(issued.text)")
        #expect(issued.json?["bits"]?.intValue == 10)
        // What a native app does: solve with the same rule, no browser.
        let solution = ProofOfWork.solve(challenge: challenge, bits: 10)
        let body = #"{"challenge":"\#(challenge)","solution":"\#(solution)"}"#
        let joined = try Self.join(c, "10.1.0.2", show: "show", body: body)
        #expect(joined.status == 201, "\(joined.text)")
        let again = try Self.join(c, "10.1.0.3", show: "show", body: body)
        #expect(again.status == 409 && again.string("type") == "/problems/proof-of-work-used", "\(again.text)")
        // A wrong solution, a forged challenge, a malformed solution: each refused, nobody added.
        let other = try #require(try c.request("GET", "/v1/shows/show/queue/challenge").string("challenge"))
        var wrong = 0
        while ProofOfWork.isSolved(challenge: other, solution: String(wrong), bits: 10) { wrong += 1 }
        let unsolved = try Self.join(c, "10.1.0.4", show: "show", body: #"{"challenge":"\#(other)","solution":"\#(wrong)"}"#)
        #expect(unsolved.status == 403 && unsolved.string("type") == "/problems/proof-of-work-invalid", "\(unsolved.text)")
        let forged = String(other.dropLast(4)) + "0000"
        let forgedJoin = try Self.join(
            c, "10.1.0.5", show: "show", body: #"{"challenge":"\#(forged)","solution":"\#(ProofOfWork.solve(challenge: forged, bits: 10))"}"#)
        #expect(forgedJoin.status == 403 && forgedJoin.string("detail")?.contains("signature") == true, "\(forgedJoin.text)")
        let letters = try Self.join(c, "10.1.0.6", show: "show", body: #"{"challenge":"\#(other)","solution":"12ab"}"#)
        #expect(letters.status == 422 && letters.text.contains("solution"), "\(letters.text)")
        let room = try #require(try c.request("GET", "/v1/shows/show/queue", headers: Self.admin).json)
        #expect(room["length"]?.intValue == 1, "only the one good join is in line: \(room)")
    }

    @Test(arguments: StoreBackend.available) func aRealNameRoomTakesOnePlaceADocumentAndItsAdmissionBuysForIt(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        try RealNameTests.realNameShow(c)
        #expect(
            try c.request("PUT", "/v1/shows/rn/queue", json: QueueTests.settings(opensIn: -1_000, perMinute: 600), headers: Self.admin).status == 200)
        let mine = RealNameTests.idCard(7), friend = RealNameTests.idCard(8)
        let none = try Self.join(c, "10.2.0.1", show: "rn")
        #expect(none.status == 422 && none.string("type") == "/problems/identity-required", "\(none.text)")
        var badDigit = Array(mine)
        badDigit[17] = badDigit[17] == "1" ? "2" : "1"
        let bad = try Self.join(c, "10.2.0.2", show: "rn", body: Self.document(String(badDigit)))
        #expect(bad.status == 422 && bad.text.contains("idNumber"), "\(bad.text)")
        let joined = try Self.join(c, "10.2.0.3", show: "rn", body: Self.document(mine))
        #expect(joined.status == 201, "\(joined.text)")
        let entry = try #require(joined.string("entry"))
        // The same document from elsewhere: one place a document, not one an address.
        let twice = try Self.join(c, "10.77.0.9", show: "rn", body: Self.document(mine))
        #expect(twice.status == 409 && twice.string("type") == "/problems/id-in-line", "\(twice.text)")
        let place = try QueueTests.waitFor(c, entry) { $0["admission"] != nil }
        let admission = try #require(place["admission"]?.stringValue, "\(place)")
        // The admission buys for the document that queued: held for a friend alone, it is not sold.
        let held = try c.request(
            "POST", "/v1/shows/rn/holds", json: #"{"seats":["7-1","7-2"],"attendees":[\#(RealNameTests.attendee("7-1", "李雷", friend))]}"#,
            headers: [("Seat-Admission", admission)])
        #expect(held.status == 201, "the picker holds on the first tap: \(held.text)")
        let token = try #require(held.string("token"))
        let refused = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"RN-Q1"}"#)
        #expect(refused.status == 422 && refused.string("type") == "/problems/attendees-required" && refused.text.contains("waiting room"), "\(refused.text)")
        let sold = try c.request(
            "POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"RN-Q1","attendees":[\#(RealNameTests.attendee("7-2", "王小明", mine))]}"#)
        #expect(sold.status == 200, "\(sold.text)")
        // The store keeps the document's keyed hash, never its number.
        #expect(!(try PersonalDataTests.storeText(server)).contains(mine))
    }

    @Test(arguments: StoreBackend.available) func aDrawIsMadeFromTheCommittedSeedAndWinnersBuyInTheirSlots(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let t0 = Self.now()
        let put = try c.request(
            "PUT", "/v1/shows/show/queue",
            json:
                #"{"opensAt":"\#(Timestamp.text(t0 + 5_000))","admitPerMinute":60,"earlyMinutes":60,"drawAt":"\#(Timestamp.text(t0 + 2_500))","drawWinners":3}"#,
            headers: Self.admin)
        #expect(put.status == 200 && put.json?["drawWinners"]?.intValue == 3, "\(put.text)")
        let entries = try (0..<8).map { k in try #require(Self.join(c, "10.3.\(k).1", show: "show").string("entry")) }
        let before = try #require(try c.request("GET", "/v1/shows/show/queue/draw").json)
        #expect(before["seed"] == nil && before["order"]?.arrayValue?.isEmpty == true)
        #expect(try c.request("GET", "/v1/shows/show/queue", headers: Self.admin).json?["registered"]?.intValue == 8)
        // Nobody's page stays open; the draw is made at drawAt all the same.
        Thread.sleep(forTimeInterval: max(0, Double(t0 + 3_800 - Self.now()) / 1000))
        let late = try Self.join(c, "10.4.0.1", show: "show")
        #expect(late.status == 409 && late.string("type") == "/problems/registration-closed", "\(late.text)")
        let draw = try #require(try c.request("GET", "/v1/shows/show/queue/draw").json)
        let seedHex = try #require(draw["seed"]?.stringValue, "\(draw)")
        let seed = stride(from: 0, to: 64, by: 2).map { k in UInt8(seedHex.dropFirst(k).prefix(2), radix: 16)! }
        #expect(ShuffleRecord.commitment(of: seed) == before["seedCommitment"]?.stringValue, "the seed committed to before")
        let order = draw["order"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(order == ShuffleRecord.order(entries.map(QueueDesk.entryKey), seed: seed) && draw["winners"]?.intValue == 3, "reproducible: \(draw)")
        let byKey = Dictionary(uniqueKeysWithValues: entries.map { (QueueDesk.entryKey($0), $0) })
        let winners = order.prefix(3).map { byKey[$0]! }, losers = order.dropFirst(3).map { byKey[$0]! }
        for (k, w) in winners.enumerated() {
            let p = try QueueTests.place(c, w)
            #expect(p["state"]?.stringValue == "waiting" && p["slotAt"]?.stringValue == Timestamp.text(t0 + 5_000 + Int64(k) * 1_000), "\(p)")
        }
        #expect(try losers.allSatisfy { try QueueTests.place(c, $0)["state"]?.stringValue == "notDrawn" })
        // The first winner is let in at the opening, without having kept a page open.
        let first = try QueueTests.waitFor(c, winners[0], within: 8) { $0["admission"] != nil }
        #expect(first["state"]?.stringValue == "admitted", "\(first)")
    }

    @Test(arguments: StoreBackend.available) func aFanClubLaneGoesFirstWithItsPasses(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let bad = try c.request(
            "PUT", "/v1/shows/show/queue",
            json: #"{"opensAt":"\#(Timestamp.text(Self.now() - 1_000))","admitPerMinute":6,"lanes":[{"name":"fanclub","share":120}]}"#,
            headers: Self.admin)
        #expect(bad.status == 422 && bad.text.contains("lanes[0].share"), "\(bad.text)")
        // Six a minute, opened a second ago, every admission to the fan club while it has anyone.
        let put = try c.request(
            "PUT", "/v1/shows/show/queue",
            json: #"{"opensAt":"\#(Timestamp.text(Self.now() - 1_000))","admitPerMinute":6,"lanes":[{"name":"fanclub","share":100}]}"#, headers: Self.admin)
        #expect(put.status == 200, "\(put.text)")
        let issued = try c.request("POST", "/v1/shows/show/queue/lanes/fanclub/passes", json: #"{"count":2}"#, headers: Self.admin)
        let passes = issued.json?["passes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(issued.status == 201 && passes.count == 2, "\(issued.text)")
        #expect(try c.request("POST", "/v1/shows/show/queue/lanes/vip/passes", json: #"{"count":2}"#, headers: Self.admin).status == 404)
        #expect(try c.request("POST", "/v1/shows/show/queue/lanes/fanclub/passes", json: #"{"count":2}"#).status == 401)
        // The public joins first; a fan after, with a pass.
        let early = try #require(Self.join(c, "10.6.0.1", show: "show").string("entry"))
        let late = try #require(Self.join(c, "10.6.0.2", show: "show").string("entry"))
        let fan = try Self.join(c, "10.6.1.1", show: "show", body: #"{"lanePass":"\#(passes[0])"}"#)
        #expect(fan.status == 201 && fan.string("lane") == "fanclub" && fan.json?["position"]?.intValue == 1, "\(fan.text)")
        let again = try Self.join(c, "10.6.1.2", show: "show", body: #"{"lanePass":"\#(passes[0])"}"#)
        #expect(again.status == 409 && again.string("type") == "/problems/lane-pass-used", "\(again.text)")
        let forged = try Self.join(c, "10.6.1.3", show: "show", body: #"{"lanePass":"\#(passes[1].dropLast(2))00"}"#)
        #expect(forged.status == 403 && forged.string("type") == "/problems/lane-pass-invalid", "\(forged.text)")
        let fanEntry = try #require(fan.string("entry"))
        let letIn = try QueueTests.waitFor(c, fanEntry, alsoAsking: [early, late]) { $0["admission"] != nil }
        #expect(letIn["state"]?.stringValue == "admitted", "\(letIn)")
        #expect(try QueueTests.place(c, early)["state"]?.stringValue == "waiting", "the public waits behind the fan club")
        let room = try #require(try c.request("GET", "/v1/shows/show/queue", headers: Self.admin).json)
        let lane = room["lanes"]?.arrayValue?.first?.objectValue
        #expect(lane?["name"]?.stringValue == "fanclub" && lane?["admitted"]?.intValue == 1 && lane?["waiting"]?.intValue == 0, "\(room)")
    }

    /// 200 buyers with 120 documents join at once through two instances: exactly one place a document.
    @Test(.enabled(if: StoreBackend.available.contains(.postgres))) func twoInstancesGiveOnePlaceADocument() throws {
        let a = try TestServer(backend: .postgres), b = try a.sibling()
        let ca = try a.connection()
        try RealNameTests.realNameShow(ca)
        #expect(
            try ca.request("PUT", "/v1/shows/rn/queue", json: QueueTests.settings(opensIn: 60_000, perMinute: 1), headers: Self.admin).status == 200)
        // B knows the show and the room before the rush (within a tick in service; a test races at once).
        let cb = try b.connection(), known = Date().addingTimeInterval(10)
        while Date() < known,
            try cb.request("GET", "/v1/shows/rn").status != 200 || cb.request("GET", "/v1/shows/rn/queue", headers: Self.admin).status != 200
        {
            usleep(50_000)
        }
        let statuses = Locked([Int: Int]())
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            guard let c = try? (worker % 2 == 0 ? a : b).connection() else { return }
            for k in stride(from: worker, to: 200, by: 8) {
                let r = try? Self.join(c, "10.\(k).0.1", show: "rn", body: Self.document(RealNameTests.idCard(k % 120)))
                statuses.withLock { $0[r?.status ?? 0, default: 0] += 1 }
            }
        }
        let counts = statuses.withLock { $0 }
        print("200 joins, 120 documents, two instances: \(counts)")
        #expect(counts == [201: 120, 409: 80], "\(counts)")
        // A takes in B's joins within its tick.
        var room = try #require(try ca.request("GET", "/v1/shows/rn/queue", headers: Self.admin).json)
        let caughtUp = Date().addingTimeInterval(5)
        while room["length"]?.intValue != 120 && Date() < caughtUp {
            usleep(100_000)
            room = try #require(try ca.request("GET", "/v1/shows/rn/queue", headers: Self.admin).json)
        }
        #expect(room["length"]?.intValue == 120, "\(room)")
    }
}
