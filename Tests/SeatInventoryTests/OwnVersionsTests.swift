import Foundation
import SeatMap
import SeatStorage
import Testing

@testable import SeatInventory

/// The follower's filter of this instance's own notifications: only payloads whose every change was
/// given to this instance's writer are dropped, and each only once.
@Suite struct OwnVersionsTests {
    func take(_ own: inout OwnVersions, _ payload: String) -> Bool { own.take(notified: payload) }

    @Test func onlyAPayloadWhollyOfOwnVersionsIsDroppedAndOnlyOnce() {
        var own = OwnVersions()
        for v in [5, 6, 7] as [UInt64] { own.insert(v, show: "s") }
        // One change a notification (change by change), then a batch's deltas a line each.
        #expect(take(&own, "s\nskd1;4;5;3h"))
        #expect(!take(&own, "s\nskd1;4;5;3h"), "a version is taken once")
        #expect(take(&own, "s\nskd1;5;6;3a,4h\nskd1;6;7;9h"))
        #expect(own.kept(show: "s").isEmpty)
        // Another instance's versions, another show's, a batch of ours and theirs, what does not parse.
        own.insert(8, show: "s")
        #expect(!take(&own, "s\nskd1;8;9;1h"))
        #expect(!take(&own, "t\nskd1;7;8;1h"))
        #expect(!take(&own, "s\nskd1;7;8;1h\nskd1;8;9;2h"))
        #expect(!take(&own, "s\n"))
        #expect(!take(&own, "s"))
        #expect(!take(&own, "s\nnot a delta"))
        #expect(own.kept(show: "s") == [8], "a refused payload forgets nothing")
    }

    @Test func versionsWhoseNotificationNeverCameAreBounded() {
        var own = OwnVersions()
        for v in 1...UInt64(OwnVersions.limit * 3) { own.insert(v, show: "s") }
        let kept = own.kept(show: "s")
        #expect(kept.count <= OwnVersions.limit && kept.contains(UInt64(OwnVersions.limit * 3)))
        #expect(!kept.contains(1))
    }
}

/// A notification of a batch written whole carries its deltas a line each: the follower applies each in
/// order, and stops at a gap (the rest is read from the log).
@Suite struct BatchNotificationTests {
    @Test func eachDeltaOfABatchNotificationIsAppliedInOrder() throws {
        let (inventory, _, dir) = try sampleInventory { try SQLiteStore(path: $0) }
        defer {
            inventory.stop()
            try? FileManager.default.removeItem(at: dir)
        }
        let v = try inventory.encodedAvailability(show: "show").0
        try inventory.follow(notifications: ["show\nskd1;\(v);\(v + 1);3h\nskd1;\(v + 1);\(v + 2);4h,5h"])
        var seats = try SeatAvailability(encoded: inventory.encodedAvailability(show: "show").1)
        #expect(seats.version == v + 2 && [3, 4, 5].allSatisfy { seats[$0] == .held })
        // Already applied, then the next, then a gap: the follower applies up to the gap.
        try inventory.follow(notifications: ["show\nskd1;\(v + 1);\(v + 2);4h,5h\nskd1;\(v + 2);\(v + 3);3a\nskd1;\(v + 9);\(v + 10);6h"])
        seats = try SeatAvailability(encoded: inventory.encodedAvailability(show: "show").1)
        #expect(seats.version == v + 3 && seats[3] == .available && seats[6] == .available)
    }
}
