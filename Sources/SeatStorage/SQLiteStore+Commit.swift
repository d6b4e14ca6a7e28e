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

    /// A hold that may not be stored yet, or changed while still active and never extended: written by
    /// an upsert (the insert, or a change to the stored one while it is active).
    static let upsertHolds = MultiRowStatement { rows in
        """
        INSERT INTO holds(\(holdColumns)) VALUES \(MultiRowStatement.values(columns: 14, rows: rows))
        ON CONFLICT(id) DO UPDATE SET state = excluded.state, expires_at = excluded.expires_at,
          extended = excluded.extended, order_ref = excluded.order_ref,
          reason = excluded.reason, operator = excluded.operator, payment = excluded.payment, prices = excluded.prices
        WHERE holds.state = 'active'
        """
    }

    /// Changes to stored holds (released, expired, confirmed, extended) by their ids, naming the holds
    /// changed: one that is not (a counter sale's, stored already finished) is then upserted alone.
    static let updateHolds = MultiRowStatement { rows in
        """
        UPDATE holds SET state = v.column2, expires_at = v.column3, extended = v.column4, order_ref = v.column5, reason = v.column6,
          operator = v.column7, payment = v.column8, prices = v.column9
        FROM (VALUES \(MultiRowStatement.values(columns: 9, rows: rows))) AS v
        WHERE holds.id = v.column1 AND holds.state = 'active' RETURNING holds.id
        """
    }

    static let insertLog = MultiRowStatement { rows in
        """
        INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta)
        VALUES \(MultiRowStatement.values(columns: 9, rows: rows))
        """
    }

    static let insertIdempotency = MultiRowStatement { rows in
        "INSERT INTO idempotency(key, fingerprint, status, body, created_at) VALUES \(MultiRowStatement.values(columns: 5, rows: rows))"
    }

    /// A list of seat numbers as a JSON array, for `json_each`: one statement per change, whatever
    /// its number of seats.
    private static func seatList<S: Sequence<Int>>(_ seats: S) -> String {
        var out = "["
        for (k, seat) in seats.enumerated() { if k > 0 { out += "," }; out += String(seat) }
        return out + "]"
    }

    /// One batch. Rows of one kind go in together, a few statements for the whole batch instead of one
    /// a change (SQLite's cost a statement, not a row, was most of the writer's: see BENCHMARKS.md):
    /// every hold record first (claims name their hold), then each change's seats in the batch's order
    /// (a seat freed by one change may be claimed by the next), then the log lines and kept answers, and
    /// each show's row once (its version checked against the batch's first change, which also proves
    /// the batch's versions follow on). Any refusal fails the whole batch, as before.
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
        }
        try writeHolds(batch.flatMap(\.holds), db)
        try writeSeats(batch, db)
        let now = Self.now()
        func text(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
        _ = try Self.insertLog.run(
            batch.map { c in
                [
                    .text(c.showID), .integer(Int64(c.version)), .integer(now), .text(c.log.action), text(c.log.holdID), text(c.log.operatorName),
                    text(c.log.reason), text(c.log.orderRef), .text(c.delta),
                ]
            }, in: db)
        _ = try Self.insertIdempotency.run(
            batch.compactMap(\.idempotency).map { r in
                [.text(r.key), .text(r.requestFingerprint), .integer(Int64(r.status)), .blob(r.body), .integer(now)]
            }, in: db)
        for show in order {
            let v = versions[show]!
            try db.run("UPDATE shows SET version = ? WHERE id = ? AND version = ?", [.integer(Int64(v.last)), .text(show), .integer(Int64(v.first - 1))])
            if db.changes != 1 { throw DatabaseError.constraint("show \(show) is not at version \(v.first - 1)") }
        }
    }

    /// The batch's hold records: first those that may be new (active and never extended), upserted;
    /// then changes to stored holds, by id. The batch's order is kept for each hold: once a hold is
    /// extended or finished, every later record of it is too, so its possibly-new records come first.
    /// A hold changes only while it is active (the same rule as the shared store's).
    func writeHolds(_ holds: [HoldRecord], _ db: SQLiteDatabase) throws {
        func text(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
        func row(_ h: HoldRecord) -> [SQLValue] {
            [
                .text(h.id), .text(h.tokenDigest), .text(h.showID), .text(h.state.rawValue), .integer(h.expiresAt), .integer(h.extended ? 1 : 0),
                text(h.orderRef), .integer(h.wheelchair ? 1 : 0), .integer(h.createdAt), .text(h.kind.rawValue), text(h.reason),
                text(h.operatorName), text(h.payment), text(h.prices),
            ]
        }
        let mayBeNew = holds.filter { $0.state == .active && !$0.extended }
        if try Self.upsertHolds.run(mayBeNew.map(row), in: db) != mayBeNew.count {
            throw DatabaseError.constraint("a hold of \(mayBeNew.map(\.id)) is no longer active")
        }
        let stored = holds.filter { $0.state != .active || $0.extended }
        guard !stored.isEmpty else { return }
        // A statement changes each hold once: a hold changed twice in the batch starts another statement.
        var updated = Set<String>(), group: [HoldRecord] = [], ids = Set<String>()
        func flush() throws {
            let rows = group.map { h -> [SQLValue] in
                [
                    .text(h.id), .text(h.state.rawValue), .integer(h.expiresAt), .integer(h.extended ? 1 : 0), text(h.orderRef), text(h.reason),
                    text(h.operatorName), text(h.payment), text(h.prices),
                ]
            }
            _ = try Self.updateHolds.run(rows, in: db) { updated.insert($0.text(0)) }
            group = []; ids = []
        }
        for h in stored {
            if ids.contains(h.id) { try flush() }
            group.append(h); ids.insert(h.id)
        }
        try flush()
        for h in stored where !updated.contains(h.id) {
            if try Self.upsertHolds.run([row(h)], in: db) != 1 { throw DatabaseError.constraint("hold \(h.id) is no longer active") }
        }
    }

    static let insertClaims = MultiRowStatement { rows in
        "INSERT INTO claims(show_id, seat, status, hold_id) VALUES \(MultiRowStatement.values(columns: 4, rows: rows))"
    }

    /// The batch's seats in its order. Changes that only free and claim seats (holds, releases, expiries,
    /// blocks) go in together: their freed seats first, one statement a show, then their claims, so a
    /// seat freed by one change may be claimed by a later one; a change that frees a seat claimed or
    /// freed earlier in the run, or claims one twice, starts another run. Sales, refunds and show edits
    /// are written one change at a time, in between.
    func writeSeats(_ batch: [StoreCommit], _ db: SQLiteDatabase) throws {
        struct Key: Hashable { var show: String; var seat: Int }
        var freed: [String: [Int]] = [:], freedOrder: [String] = [], claims: [Claim] = [], claimShows: [String] = []
        var touched = Set<Key>(), claimed = Set<Key>()
        func flush() throws {
            for show in freedOrder {
                let seats = freed[show]!
                try db.run(
                    "DELETE FROM claims WHERE show_id = ? AND status IN ('held', 'blocked') AND seat IN (SELECT value FROM json_each(?))",
                    [.text(show), .text(Self.seatList(seats))])
                if db.changes != seats.count { throw DatabaseError.constraint("seats \(seats) of \(show) are no longer all held or reserved") }
            }
            _ = try Self.insertClaims.run(
                zip(claimShows, claims).map { show, c in [.text(show), .integer(Int64(c.seat)), .text(c.status.name), c.holdID.map { .text($0) } ?? .null] },
                in: db)
            freed = [:]; freedOrder = []; claims = []; claimShows = []; touched = []; claimed = []
        }
        for c in batch {
            guard c.refunds.isEmpty, c.sell.isEmpty, c.show == nil else {
                try flush()
                try writeSeats(c, db)
                continue
            }
            let frees = Set(c.delete).map { Key(show: c.showID, seat: $0) }, claiming = c.insert.map { Key(show: c.showID, seat: $0.seat) }
            if frees.contains(where: touched.contains) || claiming.contains(where: claimed.contains) { try flush() }
            if !frees.isEmpty {
                if freed[c.showID] == nil { freedOrder.append(c.showID) }
                freed[c.showID, default: []].append(contentsOf: frees.map(\.seat))
            }
            touched.formUnion(frees)
            touched.formUnion(claiming)
            claimed.formUnion(claiming)
            claims.append(contentsOf: c.insert)
            claimShows.append(contentsOf: repeatElement(c.showID, count: c.insert.count))
        }
        try flush()
    }

    /// One change's seats (claims freed, refunds, claims made, sales) and the show's own fields.
    func writeSeats(_ c: StoreCommit, _ db: SQLiteDatabase) throws {
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
    }
}

/// One statement's SQL for 1, 2, 4, … 32 rows of one shape: n rows go in as n's binary digits of
/// statements (a batch of 45 log lines: 32 + 8 + 4 + 1), each prepared once.
struct MultiRowStatement: Sendable {
    static let largest = 5
    let sql: [String]

    /// `make(n)`: the statement of n rows.
    init(_ make: (Int) -> String) { sql = (0...Self.largest).map { make(1 << $0) } }

    /// `(?,?,…),(?,?,…)…`: `rows` rows of `columns` parameters.
    static func values(columns: Int, rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ",") + ")"
        return Array(repeating: row, count: rows).joined(separator: ",")
    }

    /// Runs `rows` (each the same number of values) and answers the rows changed; `each` sees what
    /// a `RETURNING` clause returns.
    /// - Complexity: O(rows), in at most rows / 32 + 5 statements.
    func run(_ rows: [[SQLValue]], in db: SQLiteDatabase, each: ((SQLRow) throws -> Void)? = nil) throws -> Int {
        var start = 0, changed = 0
        while start < rows.count {
            let left = rows.count - start
            let k = min(Self.largest, Int.bitWidth - 1 - left.leadingZeroBitCount)
            let n = 1 << k
            try db.query(sql[k], Array(rows[start..<start + n].joined()), row: each)
            changed += db.changes
            start += n
        }
        return changed
    }
}
