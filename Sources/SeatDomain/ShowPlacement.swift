import Foundation

/// What a store made of several databases (shards) adds: each show lives on one shard, and the domain
/// needs to know which only to name it (in new records' identifiers, so any instance routes a token or
/// an id to its database without asking around), to place new shows, and to answer at once, without
/// waiting on a database, while a show's shard cannot be reached. A store of one database has none
/// (`SeatStore.placement` is nil). Thread-safe; every member answers from memory (no store call), so the
/// inventory may ask under its lock.
public protocol ShowPlacement: AnyObject, Sendable {
    /// The shards' names, in the order the deployment lists them.
    var shardNames: [String] { get }
    /// The shard a show lives on (nil: no such show is known).
    func shard(ofShow id: String) -> String?
    /// The place of the show's shard in `shardNames` (nil: no such show is known). A shard keeps its
    /// place while the process runs (shards are added at the end).
    func shardIndex(ofShow id: String) -> Int?
    /// What new identifiers of the show's records start with (`east.`): the shard's name and a dot.
    func idTag(show id: String) -> String
    /// Why the show's shard cannot be used now, or nil when it can.
    func outage(show id: String) -> ShardOutage?
    /// The shards that cannot be reached now.
    var unreachableShards: [String] { get }
    /// Each shard: its name, whether it answers, and its shows.
    func status() -> [ShardStatus]
    /// Stores a new show on `shard` (nil: the placement rule's choice) and returns the shard's name.
    /// Throws `PlacementError` for a shard that does not exist or cannot be reached.
    func insertShow(_ show: ShowRecord, on shard: String?) throws -> String
    /// Moves a show, with its holds, sales, refunds, log, scans, waiting room and buyers' contacts, to
    /// another shard; its records keep their identifiers. The show must be off sale (switched off,
    /// cancelled or started: `PlacementError.onSale`, checked under the show's lock in its database).
    func move(show id: String, to shard: String) throws
}

/// A shard that cannot be reached: which, since when (Unix milliseconds) and why.
public struct ShardOutage: Sendable, Hashable {
    public var shard: String
    public var since: Int64
    public var cause: String
    public init(shard: String, since: Int64, cause: String) { self.shard = shard; self.since = since; self.cause = cause }
}

/// One shard as an instance sees it.
public struct ShardStatus: Sendable, Hashable {
    public var name: String
    /// nil while it answers.
    public var outage: ShardOutage?
    public var shows: Int
    public init(name: String, outage: ShardOutage?, shows: Int) { self.name = name; self.outage = outage; self.shows = shows }
}

/// Why a show cannot be placed or moved as asked.
public enum PlacementError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownShard(String, known: [String])
    case shardUnreachable(ShardOutage)
    case unknownShow(String)
    /// A show on sale is not moved: buyers would hold seats in the database being emptied.
    case onSale(show: String)
    case alreadyThere(show: String, shard: String)

    public var description: String {
        switch self {
        case .unknownShard(let name, let known): "no shard \(name) (the shards are \(known.joined(separator: ", ")))"
        case .shardUnreachable(let o): "shard \(o.shard) cannot be reached (\(o.cause))"
        case .unknownShow(let id): "no show \(id)"
        case .onSale(let id): "show \(id) is on sale: pause its sales before moving it"
        case .alreadyThere(let id, let shard): "show \(id) is already on shard \(shard)"
        }
    }
}

extension SeatStore {
    /// One database holds everything.
    public var placement: (any ShowPlacement)? { nil }
}
