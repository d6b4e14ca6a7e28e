import Foundation
import SeatDomain
import SeatMap

/// Writing a batch of changes: one transaction, a few statements for the whole batch, each show's row
/// once; durable batches flushed once for the whole batch (group commit).
extension SQLiteStore {
    /// This process owns the store alone: the inventory gives versions.
    public var sharing: (any SharedStore)? { nil }

    public func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
        guard !batch.isEmpty else { return [] }
        let durable = batch.contains { $0.durable }
        try locked { db in
            let fullSync = durable && syncer == nil
            if fullSync { try db.execute("PRAGMA synchronous=FULL") }
            // Were this to fail, later batches would flush as this one did: slower, never less durable.
            defer { if fullSync { try? db.execute("PRAGMA synchronous=NORMAL") } }
            try db.transaction { try write(batch, db) }
        }
        // One flush of the log for the whole batch (group commit).
        if durable { try syncer?.waitUntilDurable() }
        return batch.map { .committed(version: $0.version, delta: $0.delta) }
    }

    /// A hold that may not be stored yet, or changed while still active and never extended: written by
    /// an upsert (the insert, or a change to the stored one while it is active).
    static let upsertHolds = MultiRowStatement(columns: 15) { values in
        """
        INSERT INTO holds(\(holdColumns)) VALUES \(values)
        ON CONFLICT(id) DO UPDATE SET state = excluded.state, expires_at = excluded.expires_at,
          extended = excluded.extended, order_ref = excluded.order_ref,
          reason = excluded.reason, operator = excluded.operator, payment = excluded.payment, prices = excluded.prices
        WHERE holds.state = 'active'
        """
    }

    /// Changes to stored holds (released, expired, confirmed, extended) by their ids, naming the holds
    /// changed: one that is not (a counter sale's, stored already finished) is then upserted alone.
    static let updateHolds = MultiRowStatement(columns: 9) { values in
        """
        UPDATE holds SET state = v.column2, expires_at = v.column3, extended = v.column4, order_ref = v.column5, reason = v.column6,
          operator = v.column7, payment = v.column8, prices = v.column9
        FROM (VALUES \(values)) AS v
        WHERE holds.id = v.column1 AND holds.state = 'active' RETURNING holds.id
        """
    }

    static let insertLog = MultiRowStatement(columns: 9) { values in
        """
        INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta)
        VALUES \(values)
        """
    }

    static let insertIdempotency = MultiRowStatement(columns: 5) { values in
        "INSERT INTO idempotency(key, fingerprint, status, body, created_at) VALUES \(values)"
    }

    /// A list of seat numbers as a JSON array, for `json_each`: one statement for any number of seats.
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
        try writeHolds(batch, db)
        try writeSeats(batch, db)
        try writePayments(batch, db)
        let now = Self.now()
        func text(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
        var log: [SQLValue] = [], kept: [SQLValue] = []
        log.reserveCapacity(batch.count * Self.insertLog.columns)
        for c in batch {
            log.append(contentsOf: [
                .text(c.showID), .integer(Int64(c.version)), .integer(now), .text(c.log.action), text(c.log.holdID), text(c.log.operatorName),
                text(c.log.reason), text(c.log.orderRef), .text(c.delta),
            ])
            if let r = c.idempotency {
                kept.append(contentsOf: [.text(r.key), .text(r.requestFingerprint), .integer(Int64(r.status)), .blob(r.body), .integer(now)])
            }
        }
        _ = try Self.insertLog.run(log, in: db)
        _ = try Self.insertIdempotency.run(kept, in: db)
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
    func writeHolds(_ batch: [StoreCommit], _ db: SQLiteDatabase) throws {
        func text(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
        func insert(_ h: HoldRecord, into values: inout [SQLValue]) {
            values.append(contentsOf: [
                .text(h.id), .text(h.tokenDigest), .text(h.showID), .text(h.state.rawValue), .integer(h.expiresAt), .integer(h.extended ? 1 : 0),
                text(h.orderRef), .integer(h.wheelchair ? 1 : 0), .integer(h.createdAt), .text(h.kind.rawValue), text(h.reason),
                text(h.operatorName), text(h.payment), text(h.prices), text(h.admission),
            ])
        }
        func mayBeNew(_ h: HoldRecord) -> Bool { h.state == .active && !h.extended }
        var fresh: [SQLValue] = [], freshCount = 0, count = 0
        for c in batch {
            for h in c.holds where mayBeNew(h) { insert(h, into: &fresh); freshCount += 1 }
            count += c.holds.count
        }
        if try Self.upsertHolds.run(fresh, in: db) != freshCount { throw DatabaseError.constraint("a hold of the batch is no longer active") }
        guard freshCount < count else { return }
        // A statement changes each hold once: a hold changed twice in the batch starts another statement.
        var updated = Set<String>(), changes: [SQLValue] = [], ids = Set<String>()
        func flush() throws {
            _ = try Self.updateHolds.run(changes, in: db) { updated.insert($0.text(0)) }
            changes = []; ids = []
        }
        for c in batch {
            for h in c.holds where !mayBeNew(h) {
                if ids.contains(h.id) { try flush() }
                changes.append(contentsOf: [
                    .text(h.id), .text(h.state.rawValue), .integer(h.expiresAt), .integer(h.extended ? 1 : 0), text(h.orderRef), text(h.reason),
                    text(h.operatorName), text(h.payment), text(h.prices),
                ])
                ids.insert(h.id)
            }
        }
        try flush()
        for c in batch {
            for h in c.holds where !mayBeNew(h) && !updated.contains(h.id) {
                var values: [SQLValue] = []
                insert(h, into: &values)
                if try Self.upsertHolds.run(values, in: db) != 1 { throw DatabaseError.constraint("hold \(h.id) is no longer active") }
            }
        }
    }

    static let insertClaims = MultiRowStatement(columns: 6) { values in
        "INSERT INTO claims(show_id, seat, status, hold_id, identity, attendee) VALUES \(values)"
    }

    /// A claim as `insertClaims` takes it.
    static func append(_ claim: Claim, of show: String, to values: inout [SQLValue]) {
        func text(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
        values.append(contentsOf: [
            .text(show), .integer(Int64(claim.seat)), .text(claim.status.name), text(claim.holdID), text(claim.identity), text(claim.attendee),
        ])
    }

    /// Frees `seats` (distinct) of `show`: each must be held or reserved.
    func free(_ seats: [Int], of show: String, _ db: SQLiteDatabase) throws {
        try db.run(
            "DELETE FROM claims WHERE show_id = ? AND status IN ('held', 'blocked') AND seat IN (SELECT value FROM json_each(?))",
            [.text(show), .text(Self.seatList(seats))])
        if db.changes != seats.count { throw DatabaseError.constraint("seats \(seats) of \(show) are no longer all held or reserved") }
    }

    /// The batch's seats in its order. Changes that only free and claim seats (holds, releases, expiries,
    /// blocks) go in together: their freed seats first, one statement a show, then their claims, so a
    /// seat freed by one change may be claimed by a later one; a change that frees a seat claimed or
    /// freed earlier in the run, or claims one twice, starts another run. Sales, refunds and show edits
    /// are written one change at a time, in between.
    func writeSeats(_ batch: [StoreCommit], _ db: SQLiteDatabase) throws {
        // The run so far, by show: seats freed (in order), seats freed or claimed, seats claimed.
        var freed: [(show: String, seats: [Int])] = [], touched: [String: Set<Int>] = [:], claimed: [String: Set<Int>] = [:]
        var claims: [SQLValue] = []
        func flush() throws {
            for (show, seats) in freed { try free(seats, of: show, db) }
            _ = try Self.insertClaims.run(claims, in: db)
            freed = []; touched = [:]; claimed = [:]; claims = []
        }
        for c in batch {
            guard c.refunds.isEmpty, c.sell.isEmpty, c.show == nil else {
                try flush()
                try writeSeats(c, db)
                continue
            }
            let frees = Set(c.delete)
            if !frees.isDisjoint(with: touched[c.showID] ?? []) || c.insert.contains(where: { claimed[c.showID]?.contains($0.seat) == true }) {
                try flush()
            }
            if !frees.isEmpty {
                if let k = freed.firstIndex(where: { $0.show == c.showID }) {
                    freed[k].seats.append(contentsOf: frees)
                } else {
                    freed.append((c.showID, Array(frees)))
                }
                touched[c.showID, default: []].formUnion(frees)
            }
            for claim in c.insert {
                touched[c.showID, default: []].insert(claim.seat)
                claimed[c.showID, default: []].insert(claim.seat)
                Self.append(claim, of: c.showID, to: &claims)
            }
        }
        try flush()
    }

    /// One change's seats (claims freed, refunds, claims made, sales) and the show's own fields.
    func writeSeats(_ c: StoreCommit, _ db: SQLiteDatabase) throws {
        if !c.delete.isEmpty { try free(Array(Set(c.delete)), of: c.showID, db) }
        // Before new claims: a refunded seat may go back to a reservation in the same change.
        for r in c.refunds {
            // The sale's own claim goes (never another sale's of the same seat); the primary key refuses
            // a seat refunded twice.
            try db.run(
                "DELETE FROM claims WHERE show_id = ? AND status = 'sold' AND hold_id = ? AND seat = ?",
                [.text(c.showID), .text(r.holdID), .integer(Int64(r.seat))])
            if db.changes != 1 { throw DatabaseError.constraint("seat \(r.seat) is no longer sold in \(r.holdID)") }
            try db.run(
                "INSERT INTO refunds(hold_id, seat, refunded_at, reason, operator, returned_to, fee) VALUES(?,?,?,?,?,?,?)",
                [
                    .text(r.holdID), .integer(Int64(r.seat)), .integer(r.refundedAt), .text(r.reason), .text(r.operatorName),
                    r.returnedTo.map { .text($0) } ?? .null, r.fee.map { .text("\($0)") } ?? .null,
                ])
        }
        // After refunds: a refunded seat may go back to a reservation (the primary key refuses a seat claimed twice).
        var claims: [SQLValue] = []
        for claim in c.insert { Self.append(claim, of: c.showID, to: &claims) }
        _ = try Self.insertClaims.run(claims, in: db)
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
    let columns: Int
    let sql: [String]

    /// `make(values)`: the statement whose rows are `values`, `(?,?,…),(?,?,…)…`.
    init(columns: Int, _ make: (String) -> String) {
        self.columns = columns
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ",") + ")"
        sql = (0...Self.largest).map { make(Array(repeating: row, count: 1 << $0).joined(separator: ",")) }
    }

    /// Runs the rows whose values, `columns` a row, are `values`, and answers the rows changed; `each`
    /// sees what a `RETURNING` clause returns.
    /// - Complexity: O(values), in at most rows / 32 + 5 statements.
    func run(_ values: [SQLValue], in db: SQLiteDatabase, each: ((SQLRow) throws -> Void)? = nil) throws -> Int {
        precondition(values.count % columns == 0, "whole rows of \(columns) values")
        let rows = values.count / columns
        var start = 0, changed = 0
        while start < rows {
            let k = min(Self.largest, Int.bitWidth - 1 - (rows - start).leadingZeroBitCount)
            let n = 1 << k
            try db.query(sql[k], bound: values[start * columns..<(start + n) * columns], row: each)
            changed += db.changes
            start += n
        }
        return changed
    }
}
