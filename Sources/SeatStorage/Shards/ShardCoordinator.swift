import Foundation
import SeatDomain
import SharedState

/// What changes where shows live, apart from the store's routing: moves (each recorded in both
/// databases as it goes, `ShardMove`), the repair of moves a crash or an outage left unsettled, the
/// copying of venues to every shard, and the rule that places a new show. Generic over the shard so
/// the tests drive it over `FakeShard`, in memory, through every interleaving of a move with a kill.
/// Run by the app: `ShardedStore` makes it and settles what it finds at opening; the server's
/// `sk-shards` thread runs `round()` every 2 s.
/// Lock: `inFlight` (a leaf). The callbacks are called with no lock held.
final class ShardCoordinator<S: MovingShard>: Sendable {
    /// The listed shards, in order (those down answer `StoreError.unavailable`).
    let shards: @Sendable () -> [S]
    /// Told where a show is once a move is settled (`movedFrom`: the shard it left, when it moved).
    let placed: @Sendable (_ show: String, _ shard: String, _ movedFrom: String?) -> Void
    /// Told each repair in words (the server logs them).
    let note: @Sendable (String) -> Void
    /// The moves this process is making now: a repair round leaves them to their mover.
    private let inFlight = Locked(Set<String>())

    init(
        shards: @escaping @Sendable () -> [S], placed: @escaping @Sendable (String, String, String?) -> Void,
        note: @escaping @Sendable (String) -> Void
    ) {
        self.shards = shards; self.placed = placed; self.note = note
    }

    /// Moves a show off sale from `source` to `target`: recorded `copying` on the source, then settled
    /// (copied, then the source's rows deleted). Throws the reason it was rolled back (on sale, no such
    /// show); a failure to reach either database leaves it `copying` for a repair round to settle.
    func move(show: String, from source: S, to target: S) throws {
        let move = ShardMove(show: show, from: source.name, to: target.name)
        inFlight.withLock { _ = $0.insert(move.id) }
        defer { inFlight.withLock { _ = $0.remove(move.id) } }
        try source.recordMove(move)
        switch try settle(move, source: source, target: target) {
        case .moved, .alreadySettled(.sourceDeleted): return
        case .rolledBack(let why): throw why
        case .alreadySettled: throw StoreError.conflict("\(move) was rolled back by another instance meanwhile")
        }
    }

    /// Settles one move as its rows and the show's switch say; a copy the target refuses (not an
    /// outage: a write it cannot take) rolls the move back, and the refusal is thrown.
    func settle(_ move: ShardMove, source: S, target: S) throws -> ShardMoveSettlement {
        let settlement: ShardMoveSettlement
        do {
            settlement = try source.settle(move, copy: { try target.putIn(move, rows: $0) }, discard: { try target.discardCopy(move) })
        } catch let error where !Self.isOutage(error) {
            if try source.abandon(move, discard: { try target.discardCopy(move) }) == .rolledBack { placed(move.show, move.from, nil) }
            throw error
        }
        placed(move.show, settlement.shard(of: move), settlement == .moved ? move.from : nil)
        return settlement
    }

    /// Settles every move a reachable shard records as `copying` (a mover killed or cut off midway),
    /// except this process's own in flight; each repair said to `note`. One whose source or target
    /// cannot be reached keeps its show on the source and waits for a later round.
    /// - Returns: the moves still unsettled.
    /// - Complexity: one read a shard, and a settlement (three transactions) a move found.
    @discardableResult
    func repair() -> [ShardMove] {
        let all = shards()
        var left: [ShardMove] = []
        for source in all {
            guard let moves = try? source.unsettledMoves() else { continue }
            for move in moves where !inFlight.withLock({ $0.contains(move.id) }) {
                guard let target = all.first(where: { $0.name == move.to }) else {
                    left.append(move)
                    continue
                }
                do {
                    switch try settle(move, source: source, target: target) {
                    case .moved: note("\(move) was interrupted; finished")
                    case .rolledBack(.onSale):
                        note("\(move) was interrupted and the show is on sale again; it stays on \(move.from), the copy on \(move.to) discarded")
                    case .rolledBack(let why): note("\(move) was interrupted and rolled back: \(why)")
                    case .alreadySettled: break
                    }
                } catch {
                    placed(move.show, move.from, nil)
                    note("\(move) was interrupted and could not be settled yet: \(error)")
                    left.append(move)
                }
            }
        }
        return left
    }

    /// Every venue on every shard of `among` that answers (default: all): a venue made while a shard
    /// was down reaches it here. A shard that cannot be read or written is left for the next round.
    func copyMissingVenues(among: [S]? = nil) {
        let live = (among ?? shards()).compactMap { shard in (try? shard.venueFingerprints()).map { (shard, $0) } }
        guard live.count > 1 else { return }
        let union = Set(live.flatMap(\.1.keys))
        for (shard, has) in live {
            for id in union.subtracting(has.keys).sorted() {
                guard let venue = live.lazy.compactMap({ $0.1[id] == nil ? nil : try? $0.0.venue(id: id) }).first else { continue }
                try? shard.insertVenue(id: id, fingerprint: venue.fingerprint, layoutJSON: venue.layout)
            }
        }
    }

    /// The placement rule, for a new show the request places nowhere: of the shards that answer, the
    /// one with the fewest shows still to start (a chain's busy evenings spread evenly), the first
    /// listed on a tie.
    /// - Complexity: O(shards).
    static func leastBusy(_ candidates: [S], upcoming: [String: Int]) -> S? {
        candidates.enumerated().min { (upcoming[$0.element.name] ?? 0, $0.offset) < (upcoming[$1.element.name] ?? 0, $1.offset) }?.element
    }

    /// A failure to reach a database (try again later), not a refusal of what was asked.
    static func isOutage(_ error: any Error) -> Bool {
        if case .unavailable = StoreError(error) { return true }
        return false
    }
}
