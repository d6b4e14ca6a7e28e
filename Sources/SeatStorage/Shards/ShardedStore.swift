import Foundation
import SeatDomain
import SeatJSON
import SeatMap
import SharedState

/// Several PostgreSQL databases (shards) as one store: each show lives on one shard, with its holds,
/// sales, refunds, log, kept answers, waiting room and scans; venues are on every shard. Every instance
/// talks to every shard and routes each call by what it names:
/// - a show: the directory (show → shard), learnt from the shards' own show rows, so there is nothing
///   to keep in step: where a show's row is, the show is;
/// - a hold's token or id, a reservation or a sale: the shard's name inside it (`east.…`, `h_east.…`,
///   written there by the inventory through `ShowPlacement.idTag`);
/// - an order reference, which the client chooses and so names no shard: every shard at once.
/// Calls that span shows read every shard that answers, in parallel. A shard that cannot be reached is
/// skipped by those and refuses at once the calls routed to it (`Shard`), so one shard down is one
/// shard down. A batch is split by shard and each part committed on its own shard, in parallel; a part
/// that fails is refused change by change, the other parts stand.
/// Lock: `directory` (a leaf; no database is called under it).
public final class ShardedStore: SeatStore, SharedStore, Sendable {
    /// The shards, in the order listed; only ever appended to (`add`), so a shard's index stays its own.
    /// Lock: `list` (a leaf).
    private let list: Locked<[Shard]>
    /// Told when a shard goes down or comes back (`SeatServerApp` logs it).
    public let watcher = ShardWatcher()
    var shards: [Shard] { list.withLock { $0 } }
    func named(_ name: String) -> Shard? { shards.first { $0.name == name } }
    struct Directory {
        /// Each known show's shard (its index).
        var shardOf: [String: Int] = [:]
        /// Each known show's start in Unix milliseconds (for the placement rule: fewest shows to come;
        /// compared as instants, not as text: starts carry their own offsets).
        var startsAt: [String: Int64] = [:]
        /// By a shard's name, the shards that took shows from it: its records' identifiers name it, but
        /// a moved show's records are kept there.
        var movedTo: [String: Set<Int>] = [:]
    }

    let directory = Locked(Directory())
    /// Moves, their repairs, venues on every shard and the placement rule (run by the app: `round()`).
    let coordinator: ShardCoordinator<Shard>

    /// Opens every shard it can reach now; one that cannot be reached is opened when it returns. A
    /// database that says it is another shard stops it (`ShardIdentityError`), as does reaching none.
    /// Moves left unsettled (a mover killed midway) are settled before it answers anything.
    public init(_ list: ShardList) throws {
        let watcher = self.watcher
        let shards = list.entries.enumerated().map { Shard(name: $1.name, url: $1.url, index: $0, watcher: watcher) }
        let all = Locked(shards), directory = self.directory
        self.list = all
        coordinator = ShardCoordinator(
            shards: { all.withLock { $0 } },
            placed: { show, name, from in Self.place(show, on: name, movedFrom: from, shards: all.withLock { $0 }, in: directory) },
            note: { watcher.tellRepair($0) })
        var firstFailure: String?
        for shard in shards where try !shard.probe() { firstFailure = firstFailure ?? "\(shard.name): \(shard.outage?.cause ?? "")" }
        guard shards.contains(where: { $0.outage == nil }) else {
            throw StoreError.unavailable(cause: "no shard can be reached (\(firstFailure ?? ""))")
        }
        for shard in shards where shard.outage == nil {
            let shows = try shard.run { try $0.shows() }
            learn(shows, on: shard)
            learnMoves(on: shard)
        }
        coordinator.repair()
        coordinator.copyMissingVenues()
    }

    /// One round of the coordinator's work (the server's `sk-shards` thread, every 2 s): unsettled
    /// moves settled, venues copied where missing. (Where each show is, is read again by every read
    /// of all shards' shows: the follower's, every second.)
    public func round() {
        coordinator.repair()
        coordinator.copyMissingVenues()
        try? copyNewestStaff()
    }

    /// Records that `show` is on the shard named `name` (a move settled, or heard of).
    static func place(_ show: String, on name: String, movedFrom: String?, shards: [Shard], in directory: Locked<Directory>) {
        guard let k = shards.first(where: { $0.name == name })?.index else { return }
        directory.withLock { d in
            d.shardOf[show] = k
            if let movedFrom { d.movedTo[movedFrom, default: []].insert(k) }
        }
    }

    /// A move another instance finished, as its source's notification says (`show`, `skmove;FROM;TO`).
    func heardMove(show: String, notice: Substring) {
        let parts = notice.dropFirst(PostgresStore.moveNotice.count).split(separator: ";")
        guard parts.count == 2 else { return }
        Self.place(show, on: String(parts[1]), movedFrom: String(parts[0]), shards: shards, in: directory)
    }

    public var sharing: (any SharedStore)? { self }
    public var placement: (any ShowPlacement)? { self }
    public var waitingRooms: (any QueueStore)? { self }
    public var door: (any DoorStore)? { self }
    public var contacts: (any ContactStore)? { self }

    /// The shards that answer now.
    var reachable: [Shard] { shards.filter { $0.outage == nil } }

    /// Records where these shows are (read from `shard`).
    func learn(_ shows: [ShowRecord], on shard: Shard) {
        directory.withLock { d in
            for s in shows where d.shardOf[s.id] == nil || d.shardOf[s.id] == shard.index {
                d.shardOf[s.id] = shard.index
                d.startsAt[s.id] = Timestamp.milliseconds(s.startsAt)
            }
        }
    }

    /// Which shards' shows `shard` took (read once it answers; a move made here adds its own).
    func learnMoves(on shard: Shard) {
        guard let from = try? shard.run({ try $0.movedFrom() }) else { return }
        directory.withLock { d in for name in from { d.movedTo[name, default: []].insert(shard.index) } }
    }

    /// A round of reading every shard that answers (`ids` by shard): a show its directory shard no
    /// longer has but another has was moved there.
    func relearn(_ ids: [(shard: Shard, ids: Set<String>)]) {
        let moved = directory.withLock { d in
            let changes = Self.relocated(d.shardOf, read: ids.map { ($0.shard.index, $0.ids) })
            for (id, k) in changes { d.shardOf[id] = k }
            return changes
        }
        for k in Set(moved.values) { learnMoves(on: shards[k]) }
    }

    /// The rule that reads where shows are from the shards' own rows (`read`: each shard that answered
    /// and its shows), given the directory `shardOf`: a show not known yet is where it was found; a
    /// known show its shard no longer has, found on another, moved there. A show on two shards (an
    /// unsettled move's copy) stays where it is. The changes, by show.
    /// - Complexity: O(shows read).
    static func relocated<Shard: Hashable>(_ shardOf: [String: Shard], read: [(shard: Shard, ids: Set<String>)]) -> [String: Shard] {
        let byShard = Dictionary(read.map { ($0.shard, $0.ids) }, uniquingKeysWith: { a, _ in a })
        var changes: [String: Shard] = [:]
        for (shard, ids) in read {
            for id in ids {
                guard let owner = changes[id] ?? shardOf[id] else {
                    changes[id] = shard
                    continue
                }
                if owner != shard, let ownerIDs = byShard[owner], !ownerIDs.contains(id) { changes[id] = shard }
            }
        }
        return changes
    }

    /// The shard a show lives on; `StoreError.unavailable` (a 503 to retry) when no shard has it yet:
    /// the show was made on a shard this instance has not read since.
    func shard(forShow id: String) throws -> Shard {
        if let k = directory.withLock({ $0.shardOf[id] }) { return shards[k] }
        for shard in reachable {
            let versions = try shard.run { try $0.showVersions() }
            if versions[id] != nil {
                directory.withLock { d in if d.shardOf[id] == nil { d.shardOf[id] = shard.index } }
                return shard
            }
        }
        if let down = shards.first(where: { $0.outage != nil }) {
            throw StoreError.unavailable(cause: "show \(id) is on no reachable shard (\(down.name) cannot be reached)")
        }
        throw StoreError.unavailable(cause: "show \(id) is on no shard")
    }

    /// The shard a record's identifier names (`east.…`, `h_east.…`); nil when it names none.
    func shard(forRecord id: String) -> Shard? {
        var rest = Substring(id)
        if rest.count > 2, rest.dropFirst().first == "_" { rest = rest.dropFirst(2) }
        guard let dot = rest.prefix(13).firstIndex(of: ".") else { return nil }
        return named(String(rest[..<dot]))
    }

    /// The shards to look for a record in: the one its identifier names and those it moved shows to,
    /// else every shard that answers (records made before the deployment had shards carry no name).
    func shards(forRecord id: String) -> [Shard] {
        guard let one = shard(forRecord: id) else { return reachable }
        let moved = directory.withLock { $0.movedTo[one.name] ?? [] }
        return [one] + moved.sorted().map { shards[$0] }.filter { $0 !== one }
    }

    /// `body` on each shard that answers, in parallel; the results in shard order. A shard that stops
    /// answering meanwhile is left out (it is marked down): a read across shows never waits on one shard.
    func everyShard<T: Sendable>(_ body: @escaping (PostgresStore) throws -> T) throws -> [T] {
        var out: [T] = []
        for result in inParallel(reachable, body) {
            switch result {
            case .success(let value): out.append(value)
            case .failure(let error): if case .unavailable = StoreError(error) { continue } else { throw error }
            }
        }
        return out
    }

    /// `body` on each of `among`, in parallel (one thread a shard; one shard is called in place).
    func inParallel<T: Sendable>(_ among: [Shard], _ body: @escaping (PostgresStore) throws -> T) -> [Result<T, Error>] {
        inParallel(count: among.count) { k in try among[k].run(body) }
    }

    /// `body(k)` for each k below `count`, in parallel (one is called in place); the results in order.
    func inParallel<T: Sendable>(count: Int, _ body: @escaping (Int) throws -> T) -> [Result<T, Error>] {
        if count == 1 { return [Result { try body(0) }] }
        // Called by this thread's workers only while it waits for them (concurrentPerform returns after).
        nonisolated(unsafe) let body = body
        let results = SharedResults<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { k in results.set(k, Result { try body(k) }) }
        return results.all
    }

    /// The first record one of `among` has.
    func first<T>(among: [Shard], _ body: @escaping (PostgresStore) throws -> T?) throws -> T? {
        for shard in among { if let found = try shard.run(body) { return found } }
        return nil
    }

    /// A running deployment's longer list (`seatkit serve --shards FILE` read again on SIGHUP): the
    /// shards it adds are opened (checked to be who they say) and get every venue; the names added.
    /// Shards are not removed or pointed elsewhere while running: such a list is refused whole, naming
    /// the shard, and nothing changes.
    public func add(_ new: ShardList) throws -> [String] {
        let current = shards
        for shard in current {
            guard let entry = new.entries.first(where: { $0.name == shard.name }) else {
                throw ShardList.Problem(place: "shard \(shard.name)", message: "is missing from the new list: a shard is not removed while running")
            }
            guard Shard.withConnectTimeout(entry.url) == shard.url else {
                throw ShardList.Problem(place: "shard \(shard.name)", message: "has another URL in the new list: restart to change a shard's URL")
            }
        }
        let added = new.entries.filter { e in !current.contains { $0.name == e.name } }
        let fresh = added.enumerated().map { Shard(name: $1.name, url: $1.url, index: current.count + $0, watcher: watcher) }
        // Checked before any is added: a database that says it is another shard is refused. Given the
        // venues before it takes shows (a show made on it at once must find its venue there).
        for shard in fresh { try shard.probe() }
        coordinator.copyMissingVenues(among: reachable + fresh)
        list.withLock { $0 += fresh }
        for shard in fresh where shard.outage == nil {
            if let shows = try? shard.run({ try $0.shows() }) { learn(shows, on: shard) }
            learnMoves(on: shard)
        }
        coordinator.copyMissingVenues()
        return fresh.map(\.name)
    }
}
