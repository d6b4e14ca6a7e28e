import SeatSecrets
import Testing

@testable import SeatQueue

/// The waiting room's rules on a fixed clock and seed: who gets in, in what order, when, and what each
/// page is told.
@Suite struct WaitingRoomTests {
    static let opensAt: Int64 = 1_796_155_200_000  // 2026-12-01T20:00:00Z
    static let seed = Array("a fixed seed for the tests, 32 b".utf8)

    static func room(admitPerMinute: Int = 60, early: Int = 30, admission: Int = 10, perAddress: Int = 4) -> WaitingRoom {
        WaitingRoom(
            showID: "premiere",
            settings: QueueSettings(
                opensAt: opensAt, admitPerMinute: admitPerMinute, earlyMinutes: early, admissionMinutes: admission, maxEntriesPerAddress: perAddress),
            seed: seed)
    }

    /// Every entry polls, so no one is taken for gone.
    static func pollAll(_ room: inout WaitingRoom, now: Int64) { for e in room.entries { _ = room.poll(e.id, now: now) } }

    @Test func earlyArrivalsAreShuffledAtOpeningByTheSeedAndLaterOnesKeepTheirOrder() throws {
        var room = Self.room()
        let early = try (0..<200).map { k in try room.join(address: "10.0.\(k / 4).1", now: Self.opensAt - 600_000 + Int64(k), id: "e\(k)").id }
        #expect(room.entries.allSatisfy { $0.state == .early } && room.status(of: "e0", now: Self.opensAt - 1)?.position == nil)
        Self.pollAll(&room, now: Self.opensAt - 1_000)  // their pages keep asking
        _ = room.advance(now: Self.opensAt, freeSeats: 1000)
        let late = try (0..<50).map { k in try room.join(address: "10.1.\(k).1", now: Self.opensAt + 1 + Int64(k), id: "l\(k)").id }
        let shuffle = try #require(room.shuffle)
        #expect(Set(shuffle.order) == Set(early) && shuffle.order != early, "every early arrival placed, not in arrival order")
        #expect(shuffle.order == ShuffleRecord.order(early, seed: Self.seed) && shuffle.isFaithful(to: early), "the seed recomputes it")
        #expect(ShuffleRecord.order(early, seed: Array("another seed".utf8)) != shuffle.order)
        // The first arrival is not favoured: its place is anywhere (here, by this seed, not first).
        let places = early.map { id in room.status(of: id, now: Self.opensAt + 100)!.position! }
        #expect(Set(places) == Set(1...200))
        // A crude uniformity check: the first half of the arrivals take about half of the first half of the places.
        let firstHalfFront = early.prefix(100).filter { room.status(of: $0, now: Self.opensAt + 100)!.position! <= 100 }.count
        #expect((35...65).contains(firstHalfFront), "\(firstHalfFront) of 100 early birds in the front half")
        #expect(late.map { room.status(of: $0, now: Self.opensAt + 100)!.position! } == Array(201...250), "after opening, strict arrival order")
        #expect(room.seedCommitment == ShuffleRecord.commitment(of: Self.seed) && room.seedCommitment.count == 64)
    }

    @Test func buyersAreLetInAtTheRateAndNoMoreThanSeatsAreFree() throws {
        var room = Self.room(admitPerMinute: 60)  // one a second
        for k in 0..<100 { _ = try room.join(address: "a\(k)", now: Self.opensAt + Int64(k), id: "b\(k)") }
        var admitted: [String] = []
        var now = Self.opensAt + 100
        _ = room.advance(now: now, freeSeats: 500)
        for _ in 0..<30 {
            now += 1_000
            Self.pollAll(&room, now: now)
            admitted += room.advance(now: now, freeSeats: 500).admitted
        }
        #expect(admitted.count == 30, "30 s at 60 a minute: \(admitted.count)")
        #expect(admitted == (0..<30).map { "b\($0)" }, "in line order")
        #expect(room.poll("b30", now: now)?.position == 1 && room.poll("b99", now: now)?.ahead == 69)
        #expect(room.poll("b99", now: now)?.etaSeconds == 70, "70 ahead and itself at one a second")
        // Seats are the limit: with 3 free and 30 inside who have not held yet, nobody more comes in.
        now += 10_000
        Self.pollAll(&room, now: now)
        #expect(room.advance(now: now, freeSeats: 3).admitted.isEmpty)
        // Those inside hold (their admissions are used): the next are let in.
        for id in admitted { room.used(id) }
        now += 1_000
        Self.pollAll(&room, now: now)
        #expect(room.advance(now: now, freeSeats: 3).admitted.count == 3, "five seconds' credit, three seats")
    }

    @Test func aPageThatStopsAskingAndAnUnusedAdmissionGiveThePlaceUpAndNobodyMovesBack() throws {
        var room = Self.room(admitPerMinute: 6, admission: 1)  // one every ten seconds, a minute to hold
        for k in 0..<10 { _ = try room.join(address: "a\(k)", now: Self.opensAt + Int64(k), id: "b\(k)") }
        var now = Self.opensAt + 10
        _ = room.advance(now: now, freeSeats: 100)
        var positions: [String: Int] = [:]
        for k in 0..<10 { positions["b\(k)"] = room.poll("b\(k)", now: now)!.position! }
        var leftAt: [String: Int] = [:]
        // b3 stops asking; everyone else keeps asking for 75 s.
        for step in 1...75 {
            now += 1_000
            for k in 0..<10 where k != 3 { _ = room.poll("b\(k)", now: now) }
            for id in room.advance(now: now, freeSeats: 100).left { leftAt[id] = step }
            for k in 0..<10 {
                guard let s = room.status(of: "b\(k)", now: now), s.state == .waiting else { continue }
                #expect(s.position! <= positions["b\(k)"]!, "step \(step): b\(k) moved back")
                positions["b\(k)"] = s.position!
            }
        }
        #expect(leftAt["b3"] == 31, "gone 30 s after its last question: \(leftAt)")
        #expect(room.entry("b0")?.state == .left && leftAt["b0"] == 70, "admitted at 10 s, its minute unused: \(leftAt)")
        #expect(room.entry("b4")?.state == .admitted, "b3 gone, b4 was next: in at 40 s")
    }

    @Test func soldOutIsSaidToEveryoneAtOnceAndJoiningIsRefused() throws {
        var room = Self.room()
        for k in 0..<5 { _ = try room.join(address: "a\(k)", now: Self.opensAt - 1_000 + Int64(k), id: "b\(k)") }
        let step = room.advance(now: Self.opensAt + 10, freeSeats: 0)
        #expect(step.soldOut && step.opened)
        #expect(room.entries.allSatisfy { $0.state == .soldOut })
        #expect(throws: WaitingRoom.JoinRefusal.soldOut) { try room.join(address: "x", now: Self.opensAt + 20, id: "late") }
    }

    @Test func joiningHasItsLimits() throws {
        var room = Self.room(perAddress: 2)
        #expect(throws: WaitingRoom.JoinRefusal.tooEarly(from: Self.opensAt - 30 * 60_000)) {
            try room.join(address: "a", now: Self.opensAt - 31 * 60_000, id: "x")
        }
        _ = try room.join(address: "office", now: Self.opensAt - 1_000, id: "o1")
        _ = try room.join(address: "office", now: Self.opensAt - 900, id: "o2")
        #expect(throws: WaitingRoom.JoinRefusal.tooManyEntries(limit: 2)) { try room.join(address: "office", now: Self.opensAt - 800, id: "o3") }
        // Once a place is done with (here: let in), the address may join again.
        _ = room.advance(now: Self.opensAt + 1_000, freeSeats: 10)
        #expect(room.entry("o1")?.state == .admitted || room.entry("o2")?.state == .admitted)
        _ = try room.join(address: "office", now: Self.opensAt + 1_100, id: "o3")
        let bad = QueueSettings(opensAt: 0, admitPerMinute: 0, earlyMinutes: -1, admissionMinutes: 61, maxEntriesPerAddress: 1).problems
        #expect(bad.map(\.path) == ["admitPerMinute", "earlyMinutes", "admissionMinutes"])
    }

    /// A network (an IPv4 /24, an IPv6 /64) holds at most its cap of places, whatever its addresses;
    /// the line takes at most its cap of arrivals a second. 250 loopback addresses once made 2,000
    /// places in 1.2 s past the per-address limit.
    @Test func aNetworkAndASecondHaveTheirLimitsToo() throws {
        var settings = QueueSettings(opensAt: Self.opensAt, admitPerMinute: 60, maxEntriesPerAddress: 8, maxEntriesPerNetwork: 10, maxJoinsPerSecond: 1_000)
        var room = WaitingRoom(showID: "premiere", settings: settings, seed: Self.seed)
        var joined = 0, refusedForNetwork = 0
        for host in 1...250 {
            do {
                _ = try room.join(address: QueueDesk.addressKey("203.0.113.\(host)"), now: Self.opensAt - 60_000 + Int64(host * 10), id: "n\(host)")
                joined += 1
            } catch WaitingRoom.JoinRefusal.tooManyFromNetwork(let limit) {
                #expect(limit == 10)
                refusedForNetwork += 1
            }
        }
        #expect(joined == 10 && refusedForNetwork == 240)
        // Another network joins as before; so does an IPv6 /64 until its own cap.
        _ = try room.join(address: QueueDesk.addressKey("198.51.100.7"), now: Self.opensAt - 50_000, id: "other")
        for k in 0..<10 { _ = try room.join(address: QueueDesk.addressKey("2001:db8:0:7::\(k + 1)"), now: Self.opensAt - 40_000 + Int64(k), id: "v6-\(k)") }
        #expect(throws: WaitingRoom.JoinRefusal.tooManyFromNetwork(limit: 10)) {
            try room.join(address: QueueDesk.addressKey("2001:0db8:0000:0007:ffff::9"), now: Self.opensAt - 39_000, id: "v6-more")
        }
        #expect(room.length == 21)

        settings.maxJoinsPerSecond = 5
        room = WaitingRoom(showID: "premiere", settings: settings, seed: Self.seed)
        for k in 0..<5 { _ = try room.join(address: QueueDesk.addressKey("10.0.\(k).1"), now: Self.opensAt + Int64(k * 100), id: "s\(k)") }
        #expect(throws: WaitingRoom.JoinRefusal.busy(limit: 5)) {
            try room.join(address: QueueDesk.addressKey("10.0.9.1"), now: Self.opensAt + 900, id: "s5")
        }
        // A second later the line takes arrivals again.
        _ = try room.join(address: QueueDesk.addressKey("10.0.9.1"), now: Self.opensAt + 1_050, id: "s5")
        #expect(
            QueueSettings(opensAt: 0, admitPerMinute: 1, maxEntriesPerAddress: 8, maxEntriesPerNetwork: 4, maxJoinsPerSecond: 0).problems.map(\.path)
                == ["maxJoinsPerSecond", "maxEntriesPerNetwork"])
    }

    @Test func anAddressIsCountedInItsNetwork() {
        for (address, network) in [
            ("203.0.113.7", "203.0.113"), ("203.0.113.250", "203.0.113"), ("2001:db8:0:7::1", "2001:db8:0:7"),
            ("2001:0DB8:0000:0007:abcd:1:2:3", "2001:db8:0:7"), ("::ffff:203.0.113.9", "203.0.113"), ("fe80::1%eth0", "fe80:0:0:0"),
            ("::1", "0:0:0:0"), ("not an address", "not an address"), ("1.2.3", "1.2.3"), ("2001:db8::1::2", "2001:db8::1::2"),
        ] {
            #expect(QueueDesk.network(of: address) == network, "\(address)")
        }
        #expect(QueueDesk.addressKey("203.0.113.7").prefix(17) == QueueDesk.addressKey("203.0.113.8").prefix(17))
        #expect(QueueDesk.addressKey("203.0.113.7") != QueueDesk.addressKey("203.0.113.8"))
    }

    @Test func switchingTheQueueOffLetsEveryoneInAtOnce() throws {
        var room = Self.room(admitPerMinute: 1)
        for k in 0..<20 { _ = try room.join(address: "a\(k)", now: Self.opensAt + Int64(k), id: "b\(k)") }
        let all = room.admitEveryone(now: Self.opensAt + 100)
        #expect(all == (0..<20).map { "b\($0)" } && room.length == 0)
    }

    @Test func anAdmissionIsTheServersForThisShowAndNotExpired() throws {
        let key = Array("queue key of the server, 32 byte".utf8)
        let token = Admission(showID: "premiere", entryID: "0123abcd", expiresAt: Self.opensAt + 600_000).token(key: key)
        #expect(token.hasPrefix("sa1.premiere.0123abcd."))
        #expect(try Admission.verify(token, show: "premiere", now: Self.opensAt, key: key).get().entryID == "0123abcd")
        #expect(Admission.verify(token, show: "premiere", now: Self.opensAt + 600_000, key: key) == .failure(.expired(at: Self.opensAt + 600_000)))
        #expect(Admission.verify(token, show: "other", now: Self.opensAt, key: key) == .failure(.otherShow("premiere")))
        #expect(Admission.verify(token, show: "premiere", now: Self.opensAt, key: Array("another key".utf8)) == .failure(.forged))
        let longer = token.replacingOccurrences(of: ".\(Self.opensAt + 600_000).", with: ".\(Self.opensAt + 6_000_000).")
        #expect(Admission.verify(longer, show: "premiere", now: Self.opensAt, key: key) == .failure(.forged), "a changed expiry breaks the signature")
        for bad in ["", "sa1.premiere", "sa2.premiere.0123abcd.1.00", token + "0", token.uppercased()] {
            #expect(Admission.verify(bad, show: "premiere", now: Self.opensAt, key: key) == .failure(.malformed), "\(bad)")
        }
    }

    @Test func theCountTreeCountsWhoIsAhead() {
        var tree = CountTree()
        tree.grow(to: 3000)
        for k in stride(from: 0, to: 3000, by: 3) { tree.add(1, at: k) }
        #expect(tree.before(0) == 0 && tree.before(1) == 1 && tree.before(3000) == 1000 && tree.before(1500) == 500)
        tree.add(-1, at: 0)
        tree.grow(to: 10_000)
        #expect(tree.before(3000) == 999 && tree.count(at: 3) == 1 && tree.count(at: 4) == 0)
    }
}
