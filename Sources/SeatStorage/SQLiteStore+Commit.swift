import Foundation
import SeatMap

/// Writing a batch of changes: one transaction, a few statements a change, each show's row once;
/// durable batches flushed once for the whole batch (group commit).
extension SQLiteStore {
    public var assignsVersions: Bool { false }

    public func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
        guard !batch.isEmpty else { return [] }
        let durable = batch.contains { $0.durable }
        try locked { db in
            let fullSync = durable && syncer == nil
            if fullSync { try db.execute("PRAGMA synchronous=FULL") }
            defer { if fullSync { try? db.execute("PRAGMA synchronous=NORMAL") } }
            try db.transaction { try write(batch, db) }
        }
        // One flush of the log for the whole batch (group commit).
        if durable { try syncer?.waitUntilDurable() }
        return batch.map { .committed(version: $0.version, delta: $0.delta) }
    }

    /// Made once: interpolated at each write it was a new 400-byte string every hold and release.
    static let upsertHold = """
        INSERT INTO holds(\(holdColumns)) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)
        ON CONFLICT(id) DO UPDATE SET state = excluded.state, expires_at = excluded.expires_at,
          extended = excluded.extended, order_ref = excluded.order_ref,
          reason = excluded.reason, operator = excluded.operator, payment = excluded.payment, prices = excluded.prices
        WHERE holds.state = 'active'
        """

    static let updateHold = """
        UPDATE holds SET state = ?, expires_at = ?, extended = ?, order_ref = ?, reason = ?, operator = ?, payment = ?, prices = ?
        WHERE id = ? AND state = 'active'
        """

    /// A list of seat numbers as a JSON array, for `json_each`: one statement per change, whatever
    /// its number of seats.
    private static func seatList<S: Sequence<Int>>(_ seats: S) -> String {
        var out = "["
        for (k, seat) in seats.enumerated() { if k > 0 { out += "," }; out += String(seat) }
        return out + "]"
    }

    /// One batch: a few statements per change, and each show's row written once (its version checked
    /// against the batch's first change, which also proves the batch's versions follow on).
    func write(_ batch: [StoreCommit], _ db: SQLiteDatabase) throws {
        var versions: [String: (first: UInt64, last: UInt64)] = [:]
        var order: [String] = []
        for c in batch {
            if let v = versions[c.showID] {
                guard c.version == v.last + 1 else { throw DatabaseError.constraint("show \(c.showID): version \(c.version) does not follow \(v.last)") }
                versions[c.showID]!.last = c.version
            } else {
                versions[c.showID] = (c.version, c.version); order.append(c.showID)
            }
            try write(c, db)
        }
        for show in order {
            let v = versions[show]!
            try db.run("UPDATE shows SET version = ? WHERE id = ? AND version = ?", [.integer(Int64(v.last)), .text(show), .integer(Int64(v.first - 1))])
            if db.changes != 1 { throw DatabaseError.constraint("show \(show) is not at version \(v.first - 1)") }
        }
    }

    func write(_ c: StoreCommit, _ db: SQLiteDatabase) throws {
        for h in c.holds {
            if h.state != .active || h.extended {
                // Most likely a change to a hold already stored (released, expired, confirmed, extended):
                // one UPDATE by its key, not an INSERT that fails into its ON CONFLICT.
                try db.run(
                    Self.updateHold,
                    [
                        .text(h.state.rawValue), .integer(h.expiresAt), .integer(h.extended ? 1 : 0), h.orderRef.map { .text($0) } ?? .null,
                        h.reason.map { .text($0) } ?? .null, h.operatorName.map { .text($0) } ?? .null, h.payment.map { .text($0) } ?? .null,
                        h.prices.map { .text($0) } ?? .null, .text(h.id),
                    ])
                if db.changes == 1 { continue }
            }
            try db.run(
                Self.upsertHold,
                [
                    .text(h.id), .text(h.tokenDigest), .text(h.showID), .text(h.state.rawValue), .integer(h.expiresAt),
                    .integer(h.extended ? 1 : 0), h.orderRef.map { .text($0) } ?? .null, .integer(h.wheelchair ? 1 : 0),
                    .integer(h.createdAt), .text(h.kind.rawValue), h.reason.map { .text($0) } ?? .null, h.operatorName.map { .text($0) } ?? .null,
                    h.payment.map { .text($0) } ?? .null, h.prices.map { .text($0) } ?? .null,
                ])
            // A hold changes only while it is active (the same rule as the shared store's).
            if db.changes != 1 { throw DatabaseError.constraint("hold \(h.id) is no longer active") }
        }
        if !c.delete.isEmpty {
            try db.run(
                "DELETE FROM claims WHERE show_id = ? AND status IN ('held', 'blocked') AND seat IN (SELECT value FROM json_each(?))",
                [.text(c.showID), .text(Self.seatList(c.delete))])
            if db.changes != Set(c.delete).count { throw DatabaseError.constraint("seats \(c.delete) are no longer all held or reserved") }
        }
        // Before new claims: a refunded seat may go back to a reservation in the same change.
        for r in c.refunds {
            // The sale's own claim goes (never another sale's of the same seat); the primary key refuses
            // a seat refunded twice.
            try db.run(
                "DELETE FROM claims WHERE show_id = ? AND status = 'sold' AND hold_id = ? AND seat = ?",
                [.text(c.showID), .text(r.holdID), .integer(Int64(r.seat))])
            if db.changes != 1 { throw DatabaseError.constraint("seat \(r.seat) is no longer sold in \(r.holdID)") }
            try db.run(
                "INSERT INTO refunds(hold_id, seat, refunded_at, reason, operator, returned_to) VALUES(?,?,?,?,?,?)",
                [
                    .text(r.holdID), .integer(Int64(r.seat)), .integer(r.refundedAt), .text(r.reason), .text(r.operatorName),
                    r.returnedTo.map { .text($0) } ?? .null,
                ])
        }
        // Claims of one status and hold go in together (the primary key refuses a seat claimed twice).
        var groups: [(status: SeatStatus, holdID: String?, seats: [Int])] = []
        for claim in c.insert {
            if let k = groups.firstIndex(where: { $0.status == claim.status && $0.holdID == claim.holdID }) {
                groups[k].seats.append(claim.seat)
            } else {
                groups.append((claim.status, claim.holdID, [claim.seat]))
            }
        }
        for g in groups {
            try db.run(
                "INSERT INTO claims(show_id, seat, status, hold_id) SELECT ?, value, ?, ? FROM json_each(?)",
                [.text(c.showID), .text(g.status.name), g.holdID.map { .text($0) } ?? .null, .text(Self.seatList(g.seats))])
        }
        if !c.sell.isEmpty {
            try db.run(
                "UPDATE claims SET status = 'sold' WHERE show_id = ? AND status IN ('held', 'blocked') AND seat IN (SELECT value FROM json_each(?))",
                [.text(c.showID), .text(Self.seatList(c.sell))])
            if db.changes != Set(c.sell).count { throw DatabaseError.constraint("seats \(c.sell) are not all held or reserved") }
        }
        if let show = c.show {
            try db.run(
                """
                UPDATE shows SET starts_at = ?, prices = ?, policy = ?, hold_seconds = ?, details = ?, on_sale = ?, cancelled_at = ?,
                  price_revision = ?, earlier_prices = ? WHERE id = ?
                """,
                Self.fields(of: show).enumerated().filter { $0.offset != 4 }.map(\.element) + [.text(c.showID)])
        }
        let now = Self.now(), log = c.log
        func text(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
        try db.run(
            "INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta) VALUES(?,?,?,?,?,?,?,?,?)",
            [
                .text(c.showID), .integer(Int64(c.version)), .integer(now), .text(log.action), text(log.holdID), text(log.operatorName),
                text(log.reason), text(log.orderRef), .text(c.delta),
            ])
        if let r = c.idempotency {
            try db.run(
                "INSERT INTO idempotency(key, fingerprint, status, body, created_at) VALUES(?,?,?,?,?)",
                [.text(r.key), .text(r.requestFingerprint), .integer(Int64(r.status)), .blob(r.body), .integer(Self.now())])
        }
    }
}
