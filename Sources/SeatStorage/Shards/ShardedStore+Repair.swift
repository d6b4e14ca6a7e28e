import Foundation
import SeatDomain

/// Moves interrupted between their two transactions (`move`): the target committed its copy, the
/// source's deletion never did, so the show is on both shards. The source's copy stayed the show (it
/// may have sold at the counter since); the target's is the copy of a moment.
extension ShardedStore {
    /// Finds shows on two shards where one of them last took the show from the other, serves the
    /// source's copy, and finishes the move (the show was off sale when it was asked for); a show that
    /// went on sale since stays where it is and the target's copy is discarded. Each repair said in
    /// words to the watcher (`ShardWatcher.watchRepairs`). A shard that cannot be reached leaves its shows for the next read.
    /// - Complexity: O(shows) in memory; two reads a shard for each show found twice.
    func finishInterruptedMoves(_ lists: [(shard: Shard, ids: Set<String>)]) {
        var holders: [String: [Shard]] = [:]
        for (shard, ids) in lists { for id in ids { holders[id, default: []].append(shard) } }
        for (id, found) in holders where found.count > 1 {
            let arrivals = found.map { shard in (shard, try? shard.run { try $0.lastArrival(show: id) } ?? nil) }
            // The target: it last took the show from another holder, after that holder last took it.
            guard
                let (target, arrival) = arrivals.first(where: { _, a in found.contains { $0.name == a?.from } }).map({ ($0.0, $0.1!) }),
                let source = found.first(where: { $0.name == arrival.from }),
                (arrivals.first { $0.0 === source }?.1?.at ?? 0) < arrival.at
            else { continue }
            directory.withLock { $0.shardOf[id] = source.index }
            do {
                try move(show: id, to: target.name)
                note("show \(id): a move from shard \(source.name) to \(target.name) was interrupted; finished")
            } catch PlacementError.unknownShow {
                // Not interrupted after all: another instance's move, read between its two transactions,
                // has finished since (its source row was locked until then).
                directory.withLock { $0.shardOf[id] = target.index }
            } catch PlacementError.onSale {
                do {
                    try target.run { try $0.discard(show: id, from: source.name) }
                    note(
                        "show \(id): a move from shard \(source.name) to \(target.name) was interrupted and the show is on sale again; it stays on \(source.name), the copy on \(target.name) discarded"
                    )
                } catch {
                    note("show \(id): the copy an interrupted move left on shard \(target.name) could not be discarded: \(error)")
                }
            } catch {
                note("show \(id): a move from shard \(source.name) to \(target.name) was interrupted and could not be finished yet: \(error)")
            }
        }
    }

    /// A show heard of on a shard other than the one the directory puts it on: a move's copy arriving
    /// there. Checked by `checkArrivals` once a move had time to finish. (A show the directory does not
    /// know yet is new, not moved: the follower learns it.)
    func heard(show id: String, on shard: Shard) {
        guard let k = directory.withLock({ $0.shardOf[id] }), k != shard.index else { return }
        arrivals.withLock { $0[id] = $0[id] ?? Shard.now() }
    }

    /// The arrivals heard at least 2 s ago (a move's two transactions are milliseconds apart, so one
    /// still on two shards then was interrupted): every reachable shard's shows read, where each show
    /// is learnt again, and interrupted moves finished. Called by the listener threads; each arrival
    /// is checked once.
    func checkArrivals() {
        let now = Shard.now()
        let due = arrivals.withLock { a -> [String] in
            let due = a.filter { now - $0.value >= 2000 }.map(\.key)
            for id in due { a[id] = nil }
            return due
        }
        guard !due.isEmpty else { return }
        let lists = reachable.compactMap { shard in (try? shard.run { try $0.showVersions() }).map { (shard: shard, ids: Set($0.keys)) } }
        relearn(lists)
        finishInterruptedMoves(lists)
    }

    private func note(_ text: String) { watcher.tellRepair(text) }
}
