import Foundation
import SeatDomain

/// Shows and shards, when the store has several (`placement`).
extension Inventory {
    /// Moves an off-sale show to another shard (`ShowPlacement.move`), then reads it back from there
    /// and writes the move in its log (a version of its own: who moved it, from where, to where).
    /// Requests on the show meanwhile wait on its row in the source database, then are refused and
    /// answered from the reloaded show.
    public func moveShow(_ id: String, to shard: String, by operatorName: String) throws(Refusal) {
        guard let placement else {
            throw Refusal.invalid(path: "shard", "this server keeps every show in one store: there is no shard \(shard) to move it to")
        }
        let now = clock()
        let from = try locked { (m: Memory) throws(Refusal) -> String in
            let state = try state(forShow: id, in: m)
            if summary(of: state, now: now).open {
                throw Refusal(.showOnSale, detail: "show \(id) is on sale: pause its sales before moving it to another shard")
            }
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
}
