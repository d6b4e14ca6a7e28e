import Foundation
import SeatDomain
import SeatServerTestSupport
import Testing

@testable import SeatStorage

/// An instance's follower hears the other instances' commits and not its own: the store's listener
/// leaves out a notification sent by one of the store's own database sessions (`OthersCommits`, by
/// `PGnotify.be_pid`), however soon after the commit it arrives.
// Skipped (not passed) without PostgreSQL; with SEATKIT_REQUIRE_POSTGRES=1 and none, it runs and fails.
@Suite(.serialized, .enabled(if: StoreBackend.available.contains(.postgres))) struct OwnCommitsTests {
    let writes = BatchWriteTests()

    /// What `listener` hears within `seconds`.
    func heard(_ listener: any CommitListener, within seconds: Double) throws -> [String] {
        var out: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        repeat { out += try listener.notifications(waiting: 100) } while Date() < deadline
        return out
    }

    @Test func eachInstanceHearsTheOthersCommitsAndNeverItsOwn() throws {
        let (a, dir) = try writes.fresh()
        defer { dir.remove() }
        // A second instance on the same database and schema.
        let b = try PostgresStore(url: a.url)
        let (hearsA, hearsB) = (try a.commitListener(), try b.commitListener())
        _ = try a.commit(batch: [writes.change(writes.hold("a1", "s"), claim: [1, 2])])
        _ = try a.commit(batch: [writes.change(writes.hold("a2", "t"), claim: [3])])
        let byB = try heard(hearsB, within: 1)
        #expect(byB.map { $0.prefix { $0 != "\n" } }.sorted() == ["s", "t"], "the other instance hears both: \(byB)")
        #expect(try heard(hearsA, within: 0.5).isEmpty, "the writing instance hears none of its own")
        _ = try b.commit(batch: [writes.change(writes.hold("b1", "u"), claim: [4])])
        #expect(try heard(hearsA, within: 1).map { $0.prefix { $0 != "\n" } } == ["u"])
        #expect(try heard(hearsB, within: 0.5).isEmpty)
        // Every pooled connection of each store is known by its session; none of the other's.
        #expect(!a.backends.current.isEmpty && a.backends.current.isDisjoint(with: b.backends.current))
    }

    /// Own notifications alone do not end a wait: an empty answer tells the follower a second was
    /// quiet, and it then reads every show's version. Ending the wait at each own notification made it
    /// read them after every batch under load.
    @Test func ownCommitsDoNotCutTheWaitShort() throws {
        let (a, dir) = try writes.fresh()
        defer { dir.remove() }
        let hearsA = try a.commitListener()
        _ = try a.commit(batch: [writes.change(writes.hold("w1", "s"), claim: [1])])
        _ = try a.commit(batch: [writes.change(writes.hold("w2", "t"), claim: [2])])
        let start = ContinuousClock.now
        let heard = try hearsA.notifications(waiting: 400)
        let waited = start.duration(to: .now)
        #expect(heard.isEmpty, "\(heard)")
        #expect(waited >= .milliseconds(350), "answered after \(waited) with two own notifications waiting")
    }

    @Test func aReconnectedConnectionIsKnownByItsNewSession() throws {
        let (a, dir) = try writes.fresh()
        defer { dir.remove() }
        let b = try PostgresStore(url: a.url)
        let hearsB = try b.commitListener(), hearsA = try a.commitListener()
        let before = a.backends.current
        // The database ends A's session (as a restart or an administrator would); its next call reconnects.
        try b.withConnection { c in
            for pid in before { _ = try c.execute("SELECT pg_terminate_backend(\(pid))") }
        }
        _ = try? a.commit(batch: [writes.change(writes.hold("x", "s"), claim: [9])])
        _ = try a.commit(batch: [writes.change(writes.hold("a3", "s"), claim: [5])])
        #expect(a.backends.current.isDisjoint(with: before), "the ended sessions are forgotten: \(before) → \(a.backends.current)")
        #expect(try heard(hearsB, within: 1).contains { $0.hasPrefix("s\n") })
        #expect(try heard(hearsA, within: 0.5).isEmpty, "the new session's notifications are still its own")
    }
}
