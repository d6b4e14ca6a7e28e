import Foundation
import SeatDomain
import SeatMap
import SharedState

/// `SeatStore` over the shards: routed by show or by identifier, or read from every shard that answers.
extension ShardedStore {
    /// On every shard that answers (one down gets it when it returns: `copyMissingVenues`). A conflict
    /// only when every shard already had it.
    public func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws {
        let live = reachable
        guard !live.isEmpty else { throw StoreError.unavailable(cause: "no shard can be reached") }
        let outcomes = try inParallel(live) { store -> Error? in
            do { try store.insertVenue(id: id, fingerprint: fingerprint, layoutJSON: layoutJSON) } catch {
                if StoreError(error).isConflict { return error }
                throw error
            }
            return nil
        }.map { try $0.get() }
        if let conflict = outcomes.first(where: { $0 != nil }), outcomes.allSatisfy({ $0 != nil }) { throw conflict! }
    }

    public func venues() throws -> [(id: String, layoutJSON: [UInt8])] {
        var seen = Set<String>(), out: [(id: String, layoutJSON: [UInt8])] = []
        for list in try everyShard({ try $0.venues() }) { for v in list where seen.insert(v.id).inserted { out.append(v) } }
        return out.sorted { $0.id < $1.id }
    }

    public func insertShow(_ show: ShowRecord) throws { _ = try insertShow(show, on: nil) }

    /// Every show on every shard that answers, in start order.
    public func shows() throws -> [ShowRecord] {
        let live = reachable
        let lists = try inParallel(live) { try $0.shows() }.map { try $0.get() }
        for (shard, list) in zip(live, lists) { learn(list, on: shard) }
        relearn(zip(live, lists).map { ($0, Set($1.map(\.id))) })
        let owner = directory.withLock { $0.shardOf }
        // A show id on two shards (made on both at once): the directory's shard is the one served.
        return zip(live, lists).flatMap { shard, list in list.filter { owner[$0.id] == shard.index } }
            .sorted { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }
    }

    public func claims(show: String) throws -> [Claim] { try shard(forShow: show).run { try $0.claims(show: show) } }
    public func attendeeClaims(show: String, holdID: String) throws -> [Claim] {
        try shard(forShow: show).run { try $0.attendeeClaims(show: show, holdID: holdID) }
    }
    public func activeHolds() throws -> [HoldRecord] { try everyShard { try $0.activeHolds() }.flatMap { $0 } }
    public func activeHolds(show: String) throws -> [HoldRecord] { try shard(forShow: show).run { try $0.activeHolds(show: show) } }

    public func hold(tokenDigest: String) throws -> HoldRecord? {
        try first(among: shards(forRecord: tokenDigest)) { try $0.hold(tokenDigest: tokenDigest) }
    }

    public func holdWithSeats(tokenDigest: String) throws -> (record: HoldRecord, seats: [Int])? {
        try first(among: shards(forRecord: tokenDigest)) { try $0.holdWithSeats(tokenDigest: tokenDigest) }
    }

    public func holdWithSeats(id: String) throws -> (record: HoldRecord, seats: [Int])? {
        try first(among: shards(forRecord: id)) { try $0.holdWithSeats(id: id) }
    }

    public func holdSeats(holdID: String) throws -> [Int] {
        try first(among: shards(forRecord: holdID)) { store -> [Int]? in
            let seats = try store.holdSeats(holdID: holdID)
            return seats.isEmpty ? nil : seats
        } ?? []
    }

    /// Each shard's part of the batch on its shard, in parallel. A part whose shard fails is refused
    /// change by change (nothing of it was written, or, if the connection broke during its commit, the
    /// reload that follows reads what was); the other parts stand. Changes linked all or none on two
    /// shards are refused: no transaction spans two databases.
    public func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
        guard !batch.isEmpty else { return [] }
        var parts: [Int: [Int]] = [:], outcomes = [CommitOutcome?](repeating: nil, count: batch.count)
        var k = 0
        while k < batch.count {
            var group = [k]
            while batch[group.last!].allOrNoneWithNext && group.last! + 1 < batch.count { group.append(group.last! + 1) }
            k = group.last! + 1
            let homes = group.map { try? shard(forShow: batch[$0].showID).index }
            guard let home = homes[0], homes.allSatisfy({ $0 == home }) else {
                let refusal = StoreError.unavailable(cause: "changes linked all or none are on different shards (or a shard unknown)")
                for i in group { outcomes[i] = .refused(refusal) }
                continue
            }
            parts[home, default: []].append(contentsOf: group)
        }
        let work = parts.sorted { $0.key < $1.key }
        let batches = work.map { (shards[$0.key], $0.value.map { batch[$0] }) }
        let results = inParallel(count: batches.count) { k in try batches[k].0.run { try $0.commit(batch: batches[k].1) } }
        for ((_, indices), result) in zip(work, results) {
            switch result {
            case .success(let done): for (i, o) in zip(indices, done) { outcomes[i] = o }
            case .failure(let error):
                let refusal = StoreError(error)
                for i in indices { outcomes[i] = .refused(refusal) }
            }
        }
        return outcomes.map { $0! }
    }

    /// Every shard that answers; a show on none of them is unknown to the caller, which skips it.
    public func showVersions() throws -> [String: UInt64] {
        let live = reachable
        let results = inParallel(live) { try $0.showVersions() }
        var out: [String: UInt64] = [:]
        // A shard that stopped answering meanwhile: its shows are compared when it returns.
        let answered = zip(live, results).compactMap { shard, result in (try? result.get()).map { (shard, $0) } }
        relearn(answered.map { ($0.0, Set($0.1.keys)) })
        let owner = directory.withLock { $0.shardOf }
        for (shard, versions) in answered { for (id, v) in versions where owner[id] == shard.index { out[id] = v } }
        return out
    }

    public func events(show: String, after version: UInt64, limit: Int) throws -> [(version: UInt64, delta: String)]? {
        try shard(forShow: show).run { try $0.events(show: show, after: version, limit: limit) }
    }

    /// A kept answer is on the shard of the show whose change kept it: with no show given, every shard.
    public func storedResponse(key: String) throws -> StoredResponse? {
        try everyShard { try $0.storedResponse(key: key) }.compactMap { $0 }.first
    }

    public func storedResponse(key: String, show: String?) throws -> StoredResponse? {
        guard let show, let home = try? shard(forShow: show) else { return try storedResponse(key: key) }
        return try home.run { try $0.storedResponse(key: key) }
    }

    public func prune(idempotencyMilliseconds: Int64) throws { _ = try everyShard { try $0.prune(idempotencyMilliseconds: idempotencyMilliseconds) } }

    public func salesHistory(venue: String, since: Date, until: Date) throws -> (shows: Int, soldCounts: [Int: Int]) {
        try everyShard { try $0.salesHistory(venue: venue, since: since, until: until) }.reduce(into: (0, [Int: Int]())) { sum, part in
            sum.0 += part.shows
            for (seat, n) in part.soldCounts { sum.1[seat, default: 0] += n }
        }
    }

    /// An order's sales on every shard that answers, oldest first (the inventory tells "not found" from
    /// "maybe on a shard that is down": `ShowPlacement.unreachableShards`).
    public func orders(orderRef: String) throws -> [(record: HoldRecord, seats: [Int])] {
        let found = try everyShard { try $0.orders(orderRef: orderRef) }.flatMap { $0 }
        return found.sorted { ($0.record.createdAt, $0.record.id) < ($1.record.createdAt, $1.record.id) }
    }

    public func sales(show: String) throws -> [(record: HoldRecord, seats: [Int])] { try shard(forShow: show).run { try $0.sales(show: show) } }

    public func refunds(holdIDs: [String]) throws -> [RefundRecord] {
        var byShard: [Int: [String]] = [:]
        for id in holdIDs { for s in shards(forRecord: id) { byShard[s.index, default: []].append(id) } }
        var out: [RefundRecord] = []
        for (k, ids) in byShard.sorted(by: { $0.key < $1.key }) { out += try shards[k].run { try $0.refunds(holdIDs: ids) } }
        return out.sorted { ($0.refundedAt, $0.seat) < ($1.refundedAt, $1.seat) }
    }

    public func log(show: String, after version: UInt64, limit: Int) throws -> [LogRecord] {
        try shard(forShow: show).run { try $0.log(show: show, after: version, limit: limit) }
    }

    // MARK: SharedStore

    public func dueHolds(at time: Int64) throws -> [HoldRecord] { try everyShard { try $0.dueHolds(at: time) }.flatMap { $0 } }

    public func advanceVersion(show: String, from expected: UInt64, past: UInt64, changes: [SeatChange]) throws -> Bool {
        try shard(forShow: show).run { try $0.advanceVersion(show: show, from: expected, past: past, changes: changes) }
    }

    /// The first shard's listener (a follower a shard is what the server runs: `followedParts`).
    public func commitListener() throws -> any CommitListener { try followedParts()[0].commitListener() }

    /// A part a shard, in the listed order (a shard added while running is a part from then on).
    public func followedParts() -> [any FollowedPart] { shards.map { FollowedShard(shard: $0, store: self) } }
}

/// Results filled by parallel workers, one slot each, read by the caller once they are done: a
/// `Locked` box of `Sendable` results (a store's rows are values). Lock: its own (a leaf).
final class SharedResults<T: Sendable>: Sendable {
    private let slots: Locked<[Result<T, Error>?]>
    init(count: Int) { slots = Locked([Result<T, Error>?](repeating: nil, count: count)) }
    func set(_ k: Int, _ r: Result<T, Error>) { slots.withLock { $0[k] = r } }
    var all: [Result<T, Error>] { slots.withLock { $0.map { $0! } } }
}
