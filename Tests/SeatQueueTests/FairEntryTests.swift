import SeatDomain
import SeatSecrets
import Testing

@testable import SeatQueue

/// A fair chance in the waiting room, on a fixed clock and seed: one place a document, a proof of work
/// each join spends once, and a registration's draw whose winners buy in slots.
@Suite struct FairEntryTests {
    static let opensAt = WaitingRoomTests.opensAt
    static let seed = WaitingRoomTests.seed

    static func drawRoom(winners: Int, drawAt: Int64, perMinute: Int = 60, early: Int = 1_440) -> WaitingRoom {
        WaitingRoom(
            showID: "premiere",
            settings: QueueSettings(
                opensAt: opensAt, admitPerMinute: perMinute, earlyMinutes: early, admissionMinutes: 10, maxEntriesPerAddress: 4, drawAt: drawAt,
                drawWinners: winners),
            seed: seed)
    }

    @Test func aDocumentHoldsOnePlaceUntilItLeavesTheLine() throws {
        var room = WaitingRoomTests.room()
        let t = Self.opensAt + 1_000
        _ = try room.join(address: "10.0.0.1", now: t, id: "a", identity: "id-1")
        #expect(throws: WaitingRoom.JoinRefusal.identityInLine) { try room.join(address: "10.9.0.1", now: t + 1, id: "b", identity: "id-1") }
        _ = try room.join(address: "10.9.0.2", now: t + 2, id: "c", identity: "id-2")
        // Let in: still its place (one admission a document).
        _ = room.advance(now: t + 3_000, freeSeats: 10)
        #expect(room.entry("a")?.state == .admitted)
        #expect(throws: WaitingRoom.JoinRefusal.identityInLine) { try room.join(address: "10.9.0.3", now: t + 3_001, id: "d", identity: "id-1") }
        // The admission lapses unused: the document may queue again.
        _ = room.advance(now: t + 3_000 + 10 * 60_000 + 1, freeSeats: 10)
        #expect(room.entry("a")?.state == .left)
        _ = try room.join(address: "10.9.0.3", now: t + 700_000, id: "e", identity: "id-1")
    }

    @Test func aChallengeJoinsOnceEvenFromTheStore() throws {
        var room = WaitingRoomTests.room()
        let t = Self.opensAt + 1_000
        _ = try room.join(address: "10.0.0.1", now: t, id: "a", proof: "p1")
        #expect(throws: WaitingRoom.JoinRefusal.proofUsed) { try room.join(address: "10.0.0.2", now: t + 1, id: "b", proof: "p1") }
        // Another instance's room learns the spent challenge from the store's rows.
        var other = WaitingRoomTests.room()
        other.apply(QueueChanges(room: nil, entries: room.takeDecisions(), revision: 1))
        #expect(throws: WaitingRoom.JoinRefusal.proofUsed) { try other.join(address: "10.0.0.3", now: t + 2, id: "c", proof: "p1") }
    }

    @Test func theProofOfWorkIsFoundByWorkAndCheckedByOneHash() throws {
        #expect(ProofOfWork.zeroBits([0, 0, 0x10, 0xFF]) == 19 && ProofOfWork.zeroBits([0x80]) == 0 && ProofOfWork.zeroBits([0, 0]) == 16)
        let key = Array("queue key".utf8), now = Self.opensAt
        let (challenge, token) = JoinChallenge.issue(show: "premiere", bits: 12, now: now, key: key)
        #expect(challenge.bits == 12 && challenge.expiresAt == now + 300_000)
        let solution = ProofOfWork.solve(challenge: token, bits: 12)
        #expect(ProofOfWork.work(challenge: token, solution: solution) >= 12)
        let accepted = JoinChallenge.verify(token, solution: solution, show: "premiere", bits: 12, now: now + 1, key: key)
        #expect(accepted.failure == nil && (try? accepted.get())?.nonce == challenge.nonce)
        // Every way to cheat, refused with its reason.
        var wrong = solution == "0" ? "1" : "0"
        while ProofOfWork.work(challenge: token, solution: wrong) >= 12 { wrong += "1" }
        #expect(JoinChallenge.verify(token, solution: wrong, show: "premiere", bits: 12, now: now + 1, key: key).failure == .unsolved)
        #expect(JoinChallenge.verify(token, solution: solution, show: "other", bits: 12, now: now + 1, key: key).failure == .otherShow("premiere"))
        #expect(JoinChallenge.verify(token, solution: solution, show: "premiere", bits: 12, now: now + 300_000, key: key).failure == .expired)
        #expect(JoinChallenge.verify(token, solution: solution, show: "premiere", bits: 13, now: now + 1, key: key).failure == .tooEasy(asked: 13))
        #expect(JoinChallenge.verify(token, solution: solution, show: "premiere", bits: 12, now: now + 1, key: Array("another".utf8)).failure == .forged)
        let easier = token.replacingOccurrences(of: "premiere.12.", with: "premiere.2.")
        #expect(JoinChallenge.verify(easier, solution: "0", show: "premiere", bits: 2, now: now + 1, key: key).failure == .forged, "bits are signed")
        #expect(JoinChallenge.verify("pw1.premiere", solution: solution, show: "premiere", bits: 12, now: now + 1, key: key).failure == .malformed)
        #expect(!ProofOfWork.isSolved(challenge: token, solution: "12a", bits: 0) && !ProofOfWork.isSolved(challenge: token, solution: "", bits: 0))
    }

    @Test func aDrawSeatsWinnersInSlotsAndTellsTheOthers() throws {
        let drawAt = Self.opensAt - 3_600_000
        var room = Self.drawRoom(winners: 30, drawAt: drawAt)
        // 100 register over the day before; none keeps a page open.
        let registered = try (0..<100).map { k in
            try room.join(address: "10.\(k).0.1", now: drawAt - 80_000_000 + Int64(k) * 100_000, id: "r\(k)", identity: "id\(k)").id
        }
        _ = room.advance(now: drawAt - 1, freeSeats: 500)
        #expect(room.entries.allSatisfy { $0.state == .early }, "registrants do not lapse for a closed page")
        _ = room.advance(now: drawAt, freeSeats: 500)
        let draw = try #require(room.shuffle)
        #expect(draw.order == ShuffleRecord.order(registered, seed: Self.seed), "the draw is the committed seed's order")
        let winners = Array(draw.order.prefix(30))
        #expect(winners.allSatisfy { room.entry($0)?.state == .waiting } && draw.order.dropFirst(30).allSatisfy { room.entry($0)?.state == .notDrawn })
        // Each winner knows its slot: the opening, then one a second at 60 a minute.
        for (k, id) in winners.enumerated() {
            let s = try #require(room.status(of: id, now: drawAt + 1))
            #expect(s.slotAt == Self.opensAt + Int64(k) * 1_000 && s.position == k + 1, "\(s)")
        }
        // Between the draw and the opening nobody joins; afterwards the public queue behind the winners.
        #expect(throws: WaitingRoom.JoinRefusal.registrationClosed(opensAt: Self.opensAt)) {
            try room.join(address: "10.200.0.1", now: drawAt + 5, id: "late")
        }
        _ = room.advance(now: Self.opensAt - 1, freeSeats: 500)
        #expect(room.admittedCount == 0)
        let publicBuyer = try room.join(address: "10.201.0.1", now: Self.opensAt + 10, id: "public").id
        #expect(room.status(of: publicBuyer, now: Self.opensAt + 10)?.position == 31, "behind the 30 winners, not the 70 not drawn")
        // Ten seconds in: the first ten winners let in at their slots, each for admissionMinutes from its slot.
        _ = room.advance(now: Self.opensAt + 9_500, freeSeats: 500)
        #expect(room.admittedCount == 10 && room.entry(winners[9])?.admittedUntil == Self.opensAt + 9_000 + 600_000)
        #expect(room.entry(publicBuyer)?.state == .waiting)
        // After the last winner's slot, the public line moves at the rate (its page kept asking).
        for t in stride(from: Self.opensAt + 10_000, through: Self.opensAt + 40_000, by: 1_000) {
            _ = room.poll(publicBuyer, now: t)
            _ = room.advance(now: t, freeSeats: 500)
        }
        #expect(room.admittedCount == 31 && room.entry(publicBuyer)?.state == .admitted)
    }

    @Test func aDrawWithFewerRegistrantsThanWinnersDrawsEveryone() throws {
        let drawAt = Self.opensAt - 60_000
        var room = Self.drawRoom(winners: 50, drawAt: drawAt)
        for k in 0..<5 { _ = try room.join(address: "10.\(k).0.1", now: drawAt - 1_000, id: "r\(k)") }
        _ = room.advance(now: drawAt, freeSeats: 500)
        #expect(room.entries.allSatisfy { $0.state == .waiting })
        _ = room.advance(now: Self.opensAt + 5_000, freeSeats: 500)
        #expect(room.admittedCount == 5)
    }

    @Test func theDrawsSettingsAreChecked() {
        let bad = QueueSettings(opensAt: Self.opensAt, admitPerMinute: 60, earlyMinutes: 60, drawAt: Self.opensAt - 3 * 3_600_000, drawWinners: 0)
        #expect(bad.problems.map(\.path) == ["drawWinners", "drawAt"])
        #expect(QueueSettings(opensAt: Self.opensAt, admitPerMinute: 60, drawWinners: 3).problems.map(\.path) == ["drawWinners"])
        #expect(QueueSettings(opensAt: Self.opensAt, admitPerMinute: 60, proofOfWorkBits: 29).problems.map(\.path) == ["proofOfWorkBits"])
    }
}

extension FairEntryTests {
    static func laneRoom(_ lanes: [QueueLane], perMinute: Int = 60) -> WaitingRoom {
        WaitingRoom(
            showID: "premiere",
            settings: QueueSettings(opensAt: opensAt, admitPerMinute: perMinute, maxEntriesPerAddress: 4, lanes: lanes), seed: seed)
    }

    /// Lets the room run a second at a time for `seconds` from `from`, every page asking: who was let in, in order.
    @discardableResult
    static func run(_ room: inout WaitingRoom, from: Int64, seconds: Int) -> [String] {
        var admitted: [String] = []
        for s in 0...seconds {
            let t = from + Int64(s) * 1_000
            WaitingRoomTests.pollAll(&room, now: t)
            admitted += room.advance(now: t, freeSeats: 10_000).admitted
        }
        return admitted
    }

    @Test func aLaneHasItsShareOfTheAdmissionsAndThePublicTheRest() throws {
        var room = Self.laneRoom([QueueLane(name: "fanclub", share: 70)])
        let t = Self.opensAt + 1_000
        // The public arrives first; the fans after.
        for k in 0..<40 { _ = try room.join(address: "10.\(k).0.1", now: t + Int64(k), id: "p\(k)") }
        for k in 0..<40 { _ = try room.join(address: "10.\(k).1.1", now: t + 100 + Int64(k), id: "f\(k)", lane: 1, pass: "pass\(k)") }
        // The fans count places among themselves.
        #expect(room.status(of: "f0", now: t + 200)?.position == 1 && room.status(of: "p39", now: t + 200)?.position == 40)
        let order = Self.run(&room, from: t + 1_000, seconds: 30).prefix(20)
        let fans = order.filter { $0.hasPrefix("f") }, public_ = order.filter { $0.hasPrefix("p") }
        #expect(order.count == 20 && (13...15).contains(fans.count), "70 % of 20 admissions to the lane: \(fans.count) fans, \(public_.count) public")
        // In line order within each lane.
        #expect(fans == (0..<fans.count).map { "f\($0)" } && public_ == (0..<public_.count).map { "p\($0)" })
        #expect(throws: WaitingRoom.JoinRefusal.passUsed) { try room.join(address: "10.99.0.1", now: t + 30_000, id: "again", lane: 1, pass: "pass3") }
    }

    @Test func aLaneWithAllTheShareGoesFirstAndThePublicAfter() throws {
        var room = Self.laneRoom([QueueLane(name: "fanclub", share: 100)])
        let t = Self.opensAt + 1_000
        for k in 0..<5 { _ = try room.join(address: "10.\(k).0.1", now: t + Int64(k), id: "p\(k)") }
        for k in 0..<5 { _ = try room.join(address: "10.\(k).1.1", now: t + 10 + Int64(k), id: "f\(k)", lane: 1, pass: "pass\(k)") }
        #expect((room.status(of: "p0", now: t + 20)?.etaSeconds ?? 0) >= 6, "the public waits for every fan too")
        let order = Self.run(&room, from: t + 1_000, seconds: 12)
        #expect(order == ["f0", "f1", "f2", "f3", "f4", "p0", "p1", "p2", "p3", "p4"], "the fans first, then the public in its order")
        // A lane removed: its buyers wait in the public line (the store's word is what counts).
        room.changeLanes(to: [])
        #expect(room.entries.allSatisfy { $0.lane == 0 })
        #expect(QueueLane.problems([QueueLane(name: "fans", share: 60), QueueLane(name: "fans", share: 50)]).map(\.path) == ["lanes[1].name", "lanes"])
        #expect(QueueLane.parse(QueueLane.text([QueueLane(name: "a-1", share: 5)])) == [QueueLane(name: "a-1", share: 5)])
    }

    /// Another instance's mirror learns a lane and the entries joined in it from one read of the store,
    /// and keeps each entry's lane by name when the lanes change.
    @Test func aMirrorReadsLanesAndTheirEntriesTogether() throws {
        var writer = Self.laneRoom([QueueLane(name: "members", share: 20), QueueLane(name: "fanclub", share: 50)])
        let t = Self.opensAt + 1_000
        _ = try writer.join(address: "10.1.0.1", now: t, id: "p0")
        _ = try writer.join(address: "10.2.0.1", now: t + 1, id: "f0", lane: 2, pass: "pass-f0")
        _ = try writer.join(address: "10.3.0.1", now: t + 2, id: "f1", lane: 2, pass: "pass-f1")
        var mirror = Self.laneRoom([])
        mirror.apply(QueueChanges(room: writer.record(), entries: writer.takeDecisions(), revision: 3))
        #expect(mirror.entry("f1")?.lane == 2 && mirror.status(of: "f1", now: t + 3)?.position == 2, "in the fan club's lane, second")
        #expect(mirror.status(of: "p0", now: t + 3)?.position == 1)
        // The members' lane removed: the fans stay fans (by name), now lane 1.
        var changed = writer.record()
        changed.lanes = QueueLane.text([QueueLane(name: "fanclub", share: 50)])
        mirror.apply(QueueChanges(room: changed, entries: [], revision: 4))
        #expect(mirror.entry("f0")?.lane == 1 && mirror.status(of: "f0", now: t + 3)?.position == 1)
        #expect(throws: WaitingRoom.JoinRefusal.passUsed) { try mirror.join(address: "10.4.0.1", now: t + 4, id: "x", lane: 1, pass: "pass-f0") }
    }

    @Test func theCountTreeFindsTheFirstSetPlace() {
        var tree = CountTree()
        tree.grow(to: 3000)
        #expect(tree.firstSet(from: 0) == nil)
        for p in [5, 17, 2048, 2999] { tree.add(1, at: p) }
        #expect(tree.firstSet(from: 0) == 5 && tree.firstSet(from: 6) == 17 && tree.firstSet(from: 18) == 2048 && tree.firstSet(from: 2049) == 2999)
        #expect(tree.firstSet(from: 3000) == nil && tree.total == 4)
    }
}

extension Result {
    var failure: Failure? { if case .failure(let f) = self { f } else { nil } }
}
