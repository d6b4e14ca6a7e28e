import Foundation
import SeatDomain

/// One shard as a part a follower thread follows on its own (`sk-follow-NAME`): a shard whose
/// database stalls stalls only its own follower, never the following of the other shards' shows (one
/// follower for every shard once waited on all of them).
final class FollowedShard: FollowedPart {
    let shard: Shard
    let store: ShardedStore

    init(shard: Shard, store: ShardedStore) { self.shard = shard; self.store = store }

    var partName: String { shard.name }

    /// Probes the shard first while it is down (the follower asks again every 250 ms): this is what
    /// brings a shard back up once its database answers.
    func commitListener() throws -> any CommitListener {
        if shard.outage != nil { guard try shard.probe() else { throw StoreError.unavailable(cause: "shard \(shard.name) cannot be reached") } }
        return ShardListener(shard: shard, store: store)
    }

    /// The shard's shows that the directory puts on it (a move's copy not yet settled is left out).
    func showVersions() throws -> [String: UInt64] {
        let versions = try shard.run { try $0.showVersions() }
        store.relearn([(shard, Set(versions.keys))])
        let owner = store.directory.withLock { $0.shardOf }
        return versions.filter { owner[$0.key] == shard.index }
    }
}

/// A shard's commits by other instances, heard on a LISTEN connection, on its follower's thread. While
/// the shard is down each call probes it (the follower calls again every 250 ms); once it answers
/// again, every show of the shard comes out as a notification without changes, which the follower
/// reads as a gap: what was committed there while this instance could not hear it. A move another
/// instance finished (`show`, `skmove;FROM;TO`) changes the directory, then is a gap too.
/// Used by one thread (its follower).
final class ShardListener: CommitListener {
    let shard: Shard
    let store: ShardedStore
    private var connection: OthersCommits?

    init(shard: Shard, store: ShardedStore) { self.shard = shard; self.store = store }

    func notifications(waiting milliseconds: Int32) throws -> [String] {
        guard let connection else {
            if shard.outage != nil { guard try shard.probe() else { throw StoreError.unavailable(cause: "shard \(shard.name) cannot be reached") } }
            connection = try shard.run { try $0.othersCommits() }
            return Array(try shard.run { try $0.showVersions() }.keys)
        }
        do {
            let heard = try connection.notifications(waiting: milliseconds).map { payload -> String in
                let show = payload.prefix { $0 != "\n" }
                let rest = payload.dropFirst(show.count + 1)
                guard rest.hasPrefix(PostgresStore.moveNotice) else { return payload }
                store.heardMove(show: String(show), notice: rest)
                return String(show)
            }
            // A request's call found the shard down while this connection still hears it (a pooled
            // connection broken by a restart): it answers, so it is up.
            if shard.outage != nil { try shard.probe() }
            return heard
        } catch {
            shard.markDown(String(describing: StoreError(error)))
            self.connection = nil
            throw error
        }
    }
}
