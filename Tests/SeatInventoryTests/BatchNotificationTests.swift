import Foundation
import SeatDomain
import SeatMap
import SeatStorage
import Testing

@testable import SeatInventory

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
