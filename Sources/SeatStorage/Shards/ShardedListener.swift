import Foundation
import SeatDomain
import SharedState

/// Hears every shard's commits: a thread a shard keeps a LISTEN connection to it and puts what it hears
/// in one queue, which the follower reads. A shard that stops answering is marked down and tried again
/// every 250 ms (this is the shard's probe); once it answers again, every show it has comes out as a
/// notification without changes, which the follower reads as a gap and catches up from the shard's
/// log: what was committed there while this instance could not hear it. The follower sees one
/// listener that never fails for one shard's sake.
/// Lock: `queue` (a leaf).
final class ShardedListener: CommitListener, Sendable {
    private struct Queue {
        var payloads: [String] = []
        var stopped = false
    }

    private let queue = Locked(Queue())
    private let store: ShardedStore
    /// How many of the store's shards have their thread (shards added while running get theirs at the
    /// next wait). Lock: its own (a leaf).
    private let listening = Locked(0)

    init(store: ShardedStore) {
        self.store = store
        startThreads()
    }

    private func startThreads() {
        let shards = store.shards
        let from = listening.withLock { n in
            defer { n = shards.count }
            return n
        }
        for shard in shards.dropFirst(from) {
            NamedThread.start("sk-listen-\(shard.name)") { [weak self, store] in Self.listen(to: shard, store: store, into: { self }) }
        }
    }

    deinit { queue.withLock { $0.stopped = true } }

    func notifications(waiting milliseconds: Int32) throws -> [String] {
        if store.shards.count > listening.withLock({ $0 }) { startThreads() }
        return queue.wait(until: { !$0.payloads.isEmpty }, deadline: Date().addingTimeInterval(Double(milliseconds) / 1000)) { q, _ in
            defer { q.payloads = [] }
            return q.payloads
        }
    }

    private func put(_ payloads: [String]) {
        guard !payloads.isEmpty else { return }
        queue.withLockWakingWaiters { $0.payloads += payloads }
    }

    private var isStopped: Bool { queue.withLock { $0.stopped } }

    /// One shard's thread: ends when the listener is gone. It holds the listener only to hand over
    /// what it heard, never while it waits: two threads waiting in turn with it held kept it alive for
    /// ever (with two shards, a stopped server's listeners, connections and store were never freed).
    private static func listen(to shard: Shard, store: ShardedStore, into owner: () -> ShardedListener?) {
        var connection: OthersCommits?
        func listening() -> Bool { owner().map { !$0.isStopped } ?? false }
        while listening() {
            do {
                if connection == nil {
                    if shard.outage != nil { guard try shard.probe() else { throw StoreError.unavailable(cause: "probe") } }
                    connection = try shard.run { try $0.othersCommits() }
                    // What was committed while unheard: every show of the shard, read as a gap.
                    let shows = Array(try shard.run { try $0.showVersions() }.keys)
                    owner()?.put(shows)
                }
                // A move another instance finished: its show is on the target now, and is read from
                // there as a gap. Only the directory changes here; moves and repairs are the
                // coordinator's (`ShardedStore.round`).
                let heard = try connection!.notifications(waiting: 500).map { payload -> String in
                    let show = payload.prefix { $0 != "\n" }
                    let rest = payload.dropFirst(show.count + 1)
                    guard rest.hasPrefix(PostgresStore.moveNotice) else { return payload }
                    store.heardMove(show: String(show), notice: rest)
                    return String(show)
                }
                owner()?.put(heard)
                // A call of a request found the shard down while this connection still hears it (a
                // pooled connection broken by a restart): it answers, so it is up.
                if shard.outage != nil { try shard.probe() }
            } catch {
                if connection != nil { shard.markDown(String(describing: StoreError(error))) }
                connection = nil
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
    }
}
