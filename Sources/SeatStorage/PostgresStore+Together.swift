import Foundation
import SeatDomain

/// A batch written whole: a dozen set-wide statements in place of ten statements and a subtransaction a
/// change. Hold + release on a hot show spent 884 µs of database CPU a pair in `seatkit_commit`'s loop
/// (a savepoint each, and batches of 32 overflow PostgreSQL's cache of 64 subtransactions a transaction).
extension PostgresStore {
    /// Whether a batch can be written as a whole and still read as if change by change: no hold in two
    /// of its changes, no seat of a show freed, claimed or sold twice, nor sold beside anything else, a
    /// seat freed and claimed again only in that order (the statements run in it: frees, claims, sales),
    /// no refunds and no show rows (rare, and order-sensitive), one hold in a change that frees or sells
    /// seats (migration 8 pairs each such seat with it). Any other batch goes through
    /// `seatkit_commit` alone.
    /// - Complexity: O(n) in the seats and holds of the batch.
    static func writesTogether(_ batch: [StoreCommit]) -> Bool {
        var seats: [SeatKey: Touch] = [:], holds = Set<String>()
        for c in batch {
            if !c.refunds.isEmpty || c.show != nil { return false }
            for h in c.holds where !holds.insert(h.id).inserted { return false }
            // Freed and sold seats are checked against their change's hold: one hold a change.
            if (!c.delete.isEmpty || !c.sell.isEmpty) && c.holds.count != 1 { return false }
            for seat in c.delete {
                guard seats.updateValue(.freed, forKey: SeatKey(show: c.showID, seat: seat)) == nil else { return false }
            }
            for claim in c.insert {
                let before = seats.updateValue(.claimed, forKey: SeatKey(show: c.showID, seat: claim.seat))
                guard before == nil || before == .freed else { return false }
            }
            for seat in c.sell {
                guard seats.updateValue(.sold, forKey: SeatKey(show: c.showID, seat: seat)) == nil else { return false }
            }
        }
        return true
    }

    enum Touch { case freed, claimed, sold }

    struct SeatKey: Hashable {
        let show: String
        let seat: Int
    }
}
