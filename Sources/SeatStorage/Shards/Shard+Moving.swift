import Foundation
import SeatDomain

/// A PostgreSQL shard as the coordinator moves shows through it: each call on its database, through
/// `run` (a failure to reach it marks it down and is `StoreError.unavailable`).
extension Shard: MovingShard {
    func recordMove(_ move: ShardMove) throws { try run { try $0.recordMove(move) } }

    func settle(_ move: ShardMove, copy: ([String: String]) throws -> Void, discard: () throws -> Void) throws -> ShardMoveSettlement {
        try run { try $0.settle(move, copy: copy, discard: discard) }
    }

    func abandon(_ move: ShardMove, discard: () throws -> Void) throws -> ShardMoveState { try run { try $0.abandon(move, discard: discard) } }

    func unsettledMoves() throws -> [ShardMove] { try run { try $0.unsettledMoves() } }

    func putIn(_ move: ShardMove, rows: [String: String]) throws { try run { try $0.putIn(move, rows: rows) } }

    func discardCopy(_ move: ShardMove) throws { try run { try $0.discardCopy(move) } }

    func venueFingerprints() throws -> [String: String] { try run { try $0.venueIDsAndFingerprints() } }

    func venue(id: String) throws -> (fingerprint: String, layout: [UInt8])? { try run { try $0.venue(id: id) } }

    func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws {
        try run { try $0.insertVenue(id: id, fingerprint: fingerprint, layoutJSON: layoutJSON) }
    }
}
