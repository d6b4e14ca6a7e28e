import SeatDomain
import SharedState

/// The other instances' commits, as a LISTEN connection hears them: a notification sent by one of
/// this store's own connections (its `PGnotify.be_pid` is one of `own`, the sessions they are
/// connected as) is this instance's, already applied by its writer, and left out before the follower
/// sees it. It once was told by the versions the writer recorded, which the database's notification
/// could outrun (40 % of them in `SeatKitBench shards`: the follower then waited up to 250 ms for the
/// writer's batch in flight); the session that sent it is known the moment it arrives.
/// Used by one thread (the follower, or a shard's listening thread).
final class OthersCommits: CommitListener {
    let connection: PostgresConnection
    /// Lock: its own (a leaf, the store's `backends`).
    let own: Locked<Set<Int32>>

    init(connection: PostgresConnection, own: Locked<Set<Int32>>) { self.connection = connection; self.own = own }

    /// Waits the whole time for another instance's commit: own notifications alone do not end the
    /// wait. An empty answer means a quiet second to the follower, which then reads every show's
    /// version; answering at each own notification made it do that read after every batch under load
    /// (10–17 % more database CPU a hold + release in `scripts/compare-holds.sh`).
    /// - Complexity: O(notifications heard).
    func notifications(waiting milliseconds: Int32) throws -> [String] {
        let deadline = ContinuousClock.now + .milliseconds(Int(milliseconds))
        var left = milliseconds
        while true {
            let heard = try connection.heard(waiting: left)
            guard !heard.isEmpty else { return [] }
            let mine = own.withLock { $0 }
            let others = heard.compactMap { mine.contains($0.sender) ? nil : $0.payload }
            if !others.isEmpty { return others }
            left = Int32(max(0, ContinuousClock.now.duration(to: deadline) / .milliseconds(1)))
            if left <= 0 { return [] }
        }
    }
}
