import Foundation
import SeatDomain
import SeatJSON

/// Where shows live: the directory the store keeps (`learn`), and the rule for new shows.
extension ShardedStore: ShowPlacement {
    public var shardNames: [String] { shards.map(\.name) }

    public func shard(ofShow id: String) -> String? { directory.withLock { $0.shardOf[id] }.map { shards[$0].name } }

    public func shardIndex(ofShow id: String) -> Int? { directory.withLock { $0.shardOf[id] } }

    /// `east.`: a show nobody has placed yet (being made) is tagged by the shard it is being made on.
    public func idTag(show id: String) -> String { (shard(ofShow: id) ?? shards[0].name) + "." }

    public func outage(show id: String) -> ShardOutage? {
        guard let k = directory.withLock({ $0.shardOf[id] }) else { return nil }
        return shards[k].outage
    }

    public var unreachableShards: [String] { shards.filter { $0.outage != nil }.map(\.name) }

    public func status() -> [ShardStatus] {
        let counts = directory.withLock { d in d.shardOf.values.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 } }
        return shards.map { ShardStatus(name: $0.name, outage: $0.outage, shows: counts[$0.index] ?? 0) }
    }

    /// The placement rule's choice (`ShardCoordinator.leastBusy`) among the shards that answer now.
    func placementChoice(now: Int64) -> Shard? {
        let upcoming = directory.withLock { d in
            d.shardOf.reduce(into: [Int: Int]()) { counts, entry in
                if (d.startsAt[entry.key] ?? 0) > now { counts[entry.value, default: 0] += 1 }
            }
        }
        let all = shards
        return ShardCoordinator.leastBusy(reachable, upcoming: Dictionary(uniqueKeysWithValues: upcoming.map { (all[$0.key].name, $0.value) }))
    }

    public func insertShow(_ show: ShowRecord, on requested: String?) throws -> String {
        let target: Shard
        if let requested {
            guard let named = named(requested) else { throw PlacementError.unknownShard(requested, known: shardNames) }
            if let outage = named.outage { throw PlacementError.shardUnreachable(outage) }
            target = named
        } else {
            guard let chosen = placementChoice(now: Shard.now()) else {
                throw StoreError.unavailable(cause: "no shard can be reached")
            }
            target = chosen
        }
        // The id is unique per shard; on another shard it would be a second show of that id.
        if let other = shard(ofShow: show.id), other != target.name {
            throw StoreError.conflict("show \(show.id) already exists on shard \(other)")
        }
        try target.run { try $0.insertShow(show) }
        directory.withLock { d in
            d.shardOf[show.id] = target.index
            d.startsAt[show.id] = Timestamp.milliseconds(show.startsAt)
        }
        return target.name
    }

    /// Moves an off-sale show to the shard named `name` (`ShardCoordinator.move`: recorded as it goes,
    /// settled by a repair round if this process dies or loses a database midway). Requests on the show
    /// wait on its row in the source database meanwhile, then find it gone and are refused; memory
    /// reloads it from its new shard.
    public func move(show id: String, to name: String) throws {
        guard let target = named(name) else { throw PlacementError.unknownShard(name, known: shardNames) }
        guard let k = directory.withLock({ $0.shardOf[id] }) else { throw PlacementError.unknownShow(id) }
        let source = shards[k]
        guard source !== target else { throw PlacementError.alreadyThere(show: id, shard: name) }
        for shard in [source, target] { if let outage = shard.outage { throw PlacementError.shardUnreachable(outage) } }
        try coordinator.move(show: id, from: source, to: target)
    }
}
