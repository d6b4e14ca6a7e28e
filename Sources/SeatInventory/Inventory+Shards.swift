import Foundation
import SeatDomain

/// Shows and shards, when the store has several (`placement`).
extension Inventory {
    /// Moves an off-sale show to another shard (`ShowPlacement.move`), then reads it back from there
    /// and writes the move in its log (a version of its own: who moved it, from where, to where).
    /// Requests on the show meanwhile wait on its row in the source database, then are refused and
    /// answered from the reloaded show. A show on sale there is refused (`PlacementError.onSale`).
    public func moveShow(_ id: String, to shard: String, by operatorName: String) throws(Refusal) {
        guard let placement else {
            throw Refusal.invalid(path: "shard", "this server keeps every show in one store: there is no shard \(shard) to move it to")
        }
        // Whether it is on sale is the source database's to say, under the show's row lock: this
        // instance may not have heard yet of a pause made on another (a CI run moved a show 3 ms after
        // another instance paused it, and memory still said "on sale").
        let from = try locked { (m: Memory) throws(Refusal) -> String in
            _ = try state(forShow: id, in: m)
            return placement.shard(ofShow: id) ?? "?"
        }
        do { try placement.move(show: id, to: shard) } catch let e as PlacementError { throw Self.placementRefusal(e) } catch {
            throw Self.storeRefusal(error)
        }
        locked { m in _ = m.staleShows.insert(id) }
        reloadStaleShows()
        try wait(try beginLogAct(show: id, action: "move", what: "from shard \(from) to shard \(shard)", by: operatorName))
        metrics.count("shows_moved")
    }

    /// A placement the store refused, in the API's words.
    static func placementRefusal(_ e: PlacementError) -> Refusal {
        switch e {
        case .unknownShard(let name, let known) where known.isEmpty:
            Refusal.invalid(path: "shard", "this server keeps every show in one store: there is no shard \(name) to choose")
        case .unknownShard(let name, let known):
            Refusal(
                .unknownShard, detail: "shard: no shard \(name); the shards are \(known.joined(separator: ", "))",
                details: [.errors([("shard", "no shard \(name); the shards are \(known.joined(separator: ", "))")])])
        case .shardUnreachable(let outage):
            Refusal(.storeUnavailable, detail: "shard \(outage.shard) cannot be reached right now; try again shortly, or choose another shard")
        case .unknownShow(let id): Refusal(.notFound, detail: "no show \(id)")
        case .onSale(let id): Refusal(.showOnSale, detail: "show \(id) is on sale: pause its sales before moving it to another shard")
        case .alreadyThere(let id, let shard): Refusal.invalid(path: "shard", "show \(id) is already on shard \(shard)")
        }
    }
}
