import Foundation
import SeatDomain

/// One move of a show from one shard to another. Both databases record it (`shard_moves`, migration
/// 19): the source's row says where the move stands (`copying`, then `sourceDeleted` or
/// `rolledBack`), the target's row that its copy arrived (`copied`) or was discarded (`rolledBack`).
/// What a repair does follows from these rows and the show's sale switch alone, never from how long
/// ago something was heard (the store once inferred an interrupted move from a copy heard 2 s before).
struct ShardMove: Sendable, Hashable, CustomStringConvertible {
    /// Unguessable only to keep two moves of one show apart; it carries no authority.
    var id: String
    var show: String
    var from: String
    var to: String

    init(id: String = UUID().uuidString.lowercased(), show: String, from: String, to: String) {
        self.id = id; self.show = show; self.from = from; self.to = to
    }

    var description: String { "show \(show): a move from shard \(from) to \(to)" }
}

/// Where a move stands, as its rows record it.
enum ShardMoveState: String, Sendable, CaseIterable {
    /// On the source, before anything is copied: the show is still the source's, and serves from there.
    case copying
    /// On the target, in the transaction that wrote its copy.
    case copied
    /// On the source, in the transaction that deleted its rows: the move is done, the show the target's.
    case sourceDeleted = "source_deleted"
    /// On both: the move will not happen; the show stays on the source, the target's copy is gone.
    case rolledBack = "rolled_back"

    /// Whether nothing more happens to the move.
    var isSettled: Bool { self == .sourceDeleted || self == .rolledBack }
}

/// What settling a move did (`MovingShard.settle`).
enum ShardMoveSettlement: Sendable, Equatable {
    /// The rows copied to the target and deleted here: the show is the target's.
    case moved
    /// Rolled back, and why: the show on sale (buyers would hold seats in a database being emptied)
    /// or gone from the source. The show stays where it is; the target's copy was discarded.
    case rolledBack(PlacementError)
    /// Settled before (by the mover or another instance's repair): its state, nothing done now.
    case alreadySettled(ShardMoveState)

    /// The shard the show is on after this, given the move.
    func shard(of move: ShardMove) -> String {
        switch self {
        case .moved, .alreadySettled(.sourceDeleted): move.to
        default: move.from
        }
    }
}

/// A shard as the coordinator moves shows through it: each call one transaction on its database
/// (`Shard` over PostgreSQL; the tests' `FakeShard` in memory). The source holds the show's row and
/// the move's row locked while the target writes, so a change of the show waits for the move, and two
/// instances settling one move take turns.
protocol MovingShard: AnyObject, Sendable {
    var name: String { get }

    /// Source: `move` recorded as `copying` (its own transaction, before anything is copied).
    func recordMove(_ move: ShardMove) throws

    /// Source, in one transaction holding the show's row and the move's: a move still `copying` is
    /// done (the show off sale: its rows handed to `copy`, the target's transaction, then deleted here,
    /// recorded `sourceDeleted`) or rolled back (on sale, or no show: `discard`, the target's
    /// transaction, then recorded `rolledBack`). A settled move is left as it is. `copy` or `discard`
    /// throwing rolls this transaction back (the move stays `copying`).
    func settle(_ move: ShardMove, copy: ([String: String]) throws -> Void, discard: () throws -> Void) throws -> ShardMoveSettlement

    /// Source: a move still `copying` rolled back whatever the show's switch (`discard` first, under the
    /// same locks), for a copy the target refused; the state after.
    func abandon(_ move: ShardMove, discard: () throws -> Void) throws -> ShardMoveState

    /// Source: its moves still `copying`.
    func unsettledMoves() throws -> [ShardMove]

    /// Target: the show's rows replaced by `rows` and the move recorded `copied`, in one transaction.
    func putIn(_ move: ShardMove, rows: [String: String]) throws

    /// Target: the move's copy deleted if it arrived, the move recorded `rolledBack`, in one transaction.
    func discardCopy(_ move: ShardMove) throws

    /// Every venue it has: id and fingerprint.
    func venueFingerprints() throws -> [String: String]
    /// A venue's fingerprint and layout.
    func venue(id: String) throws -> (fingerprint: String, layout: [UInt8])?
    /// Stores a venue copied from another shard.
    func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws
}
