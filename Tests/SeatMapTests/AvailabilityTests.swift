import Testing
@testable import SeatMap

@Suite struct AvailabilityTests {
    @Test func newAvailabilityIsAllFree() {
        let a = SeatAvailability(seatCount: 1000)
        #expect(a.counts.available == 1000)
        #expect((0..<1000).allSatisfy { a[$0] == .available })
    }

    @Test func aSnapshotNeverChangesUnderItsHolder() {
        var live = SeatAvailability(seatCount: 100_000)
        let snapshot = live
        live.setStatus(.sold, for: 77_777)
        live.setStatus(.held, for: 3)
        #expect(snapshot[77_777] == .available && snapshot[3] == .available)
        #expect(snapshot.counts.available == 100_000)
        #expect(live[77_777] == .sold && live[3] == .held)
        #expect(live.counts.sold == 1 && live.counts.held == 1 && live.counts.available == 99_998)
        let other = live.settingStatus(.blocked, for: 3)
        #expect(live[3] == .held && other[3] == .blocked)
    }

    @Test(arguments: [1, 511, 512, 513, 40_000, 262_145])
    func randomChangesMatchAPlainArray(seatCount: Int) {
        var rng = TestRandom(UInt64(seatCount))
        var a = SeatAvailability(seatCount: seatCount)
        var model = [SeatStatus](repeating: .available, count: seatCount)
        var snapshots: [(SeatAvailability, [SeatStatus])] = []
        for step in 0..<3000 {
            let i = rng.int(seatCount), s = SeatStatus.allCases[rng.int(4)]
            let previous = a.setStatus(s, for: i)
            #expect(previous == model[i])
            model[i] = s
            if step % 500 == 0 { snapshots.append((a, model)) }
        }
        #expect(a.statuses == model)
        for s in SeatStatus.allCases { #expect(a.counts[s] == model.filter { $0 == s }.count) }
        for (snap, expected) in snapshots { #expect(snap.statuses == expected) }
    }

    @Test func encodingRoundTripsAndIsCompact() throws {
        let layout = venue(["SSSSSS", "SSSSSS"])
        var a = availability(layout, ["aassha", "bbbbaa"])
        a.commit(version: 42)
        let text = a.encoded()
        #expect(text == "ska1;\(layout.fingerprintHex);42;12;2a2sha4b2a")
        let back = try SeatAvailability(encoded: text, layout: layout)
        #expect(back == a)
        #expect(back.counts == a.counts)
    }

    @Test func largeEncodingsRoundTrip() throws {
        var rng = TestRandom(9)
        var a = SeatAvailability(seatCount: 100_001)
        for _ in 0..<20_000 { a.setStatus(SeatStatus.allCases[rng.int(4)], for: rng.int(100_001)) }
        a.commit(version: 7)
        let back = try SeatAvailability(encoded: a.encoded())
        #expect(back.statuses == a.statuses)
        #expect(back.version == 7)
    }

    @Test(arguments: [
        ("ska2;0000000000000000;1;3;3a", "expected prefix"),
        ("ska1;00;1;3;3a", "16 hex digits"),
        ("ska1;0000000000000000;x;3;3a", "version must be"),
        ("ska1;0000000000000000;1;-3;3a", "seat count must be"),
        ("ska1;0000000000000000;1;3;2a", "runs cover 2 seats, expected 3"),
        ("ska1;0000000000000000;1;3;4a", "run longer than the seat count"),
        ("ska1;0000000000000000;1;3;2a1x", "unknown status code \"x\""),
        ("ska1;0000000000000000;1;3;0a3a", "run length 0"),
        ("ska1;0000000000000000;1;3;3", "without a status code"),
        ("ska1;0000000000000000;1;3", "missing seat count"),
    ])
    func malformedEncodingsAreRejected(text: String, reason: String) {
        #expect {
            try SeatAvailability(encoded: text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func anEncodingForAnotherHallIsRejected() {
        let small = venue(["SSS"]), other = venue(["S_SS"])
        let text = SeatAvailability(layout: small).encoded()
        #expect(throws: AvailabilityError.wrongLayout(expected: other.fingerprintHex, found: small.fingerprintHex)) {
            try SeatAvailability(encoded: text, layout: other)
        }
    }

    @Test func deltasApplyAtomicallyAndInOrder() throws {
        var a = SeatAvailability(seatCount: 10, version: 5)
        let d = AvailabilityDelta(fromVersion: 5, toVersion: 6, changes: [SeatChange(seat: 1, status: .held), SeatChange(seat: 2, status: .sold)])
        try a.apply(d)
        #expect(a.version == 6 && a[1] == .held && a[2] == .sold)
        let stale = AvailabilityDelta(fromVersion: 5, toVersion: 7, changes: [SeatChange(seat: 3, status: .sold)])
        #expect(throws: AvailabilityError.versionMismatch(current: 6, deltaFrom: 5)) { try a.apply(stale) }
        let bad = AvailabilityDelta(fromVersion: 6, toVersion: 7, changes: [SeatChange(seat: 4, status: .sold), SeatChange(seat: 10, status: .sold)])
        #expect(throws: AvailabilityError.seatOutOfRange(10, count: 10)) { try a.apply(bad) }
        #expect(a[4] == .available && a.version == 6)
    }

    @Test func deltaEncodingRoundTrips() throws {
        let d = AvailabilityDelta(
            fromVersion: 41, toVersion: 42,
            changes: [SeatChange(seat: 17, status: .held), SeatChange(seat: 18, status: .held), SeatChange(seat: 3, status: .available)])
        #expect(d.encoded() == "skd1;41;42;17h,18h,3a")
        #expect(try AvailabilityDelta(encoded: d.encoded()) == d)
        #expect(throws: AvailabilityError.self) { try AvailabilityDelta(encoded: "skd1;41;42;17q") }
        #expect(throws: AvailabilityError.self) { try AvailabilityDelta(encoded: "skd1;41;42;17h,,3a") }
    }

    @Test func deltaSinceAnOlderSnapshotReplaysToTheNewer() throws {
        var a = SeatAvailability(seatCount: 2000, version: 1)
        let old = a
        a.setStatus(.sold, for: 5); a.setStatus(.held, for: 1999); a.commit(version: 2)
        let d = a.delta(since: old)
        #expect(d.changes == [SeatChange(seat: 5, status: .sold), SeatChange(seat: 1999, status: .held)])
        var replay = old
        try replay.apply(d)
        #expect(replay == a)
    }

    @Test func storageIsUnderOneByteASeat() {
        let a = SeatAvailability(seatCount: 100_000)
        #expect(Double(a.storageByteCount) / 100_000 < 1)
    }
}
