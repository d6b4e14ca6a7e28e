import CSQLite
import Foundation
import SeatDomain
import SeatJSON
import SeatMap
import SharedState

/// The embedded store: one SQLite file in WAL mode. Holds commit with `synchronous=NORMAL` (durable on
/// the next checkpoint, never corrupt). A batch holding a confirmation must survive power loss: with
/// group commit the log is flushed once for the whole batch; without, the batch commits with
/// `synchronous=FULL`. One connection, serialised by a lock: SQLite has one writer anyway.
/// Sendable: its two connections are each reached only under its own `Locked`.
public final class SQLiteStore: SeatStore, Sendable {
    /// The one read-write connection. Lock: `connection` (SQLite has one writer anyway; nothing else is
    /// taken under it but `WALSyncer`'s state, after the commit, by the confirming batch).
    private let connection: Locked<SQLiteDatabase>
    /// A second, read-only connection for the long reads a client can ask for (a `?since=` delta
    /// beyond the events kept in memory, the heat map's sales history): in WAL mode it reads a snapshot
    /// beside the writer instead of queueing behind it for the one connection.
    private let reader: Locked<SQLiteDatabase>
    public let path: String
    let syncer: WALSyncer?

    public init(path: String, groupCommit: Bool = true) throws {
        self.path = path
        syncer = groupCommit ? WALSyncer(walPath: path + "-wal") : nil
        let db = try SQLiteDatabase(path: path)
        connection = Locked(db)
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=NORMAL")
        try db.execute("PRAGMA foreign_keys=ON")
        // Deleted rows' bytes zeroed where that costs no extra write: an erased attendee or a released
        // claim's sealed attendee does not linger in the file's free space.
        try db.execute("PRAGMA secure_delete=FAST")
        // 32 MiB of page cache (the default is 2 MiB): the claims, holds and events indexes of a busy
        // store stay in memory instead of being read back from the log for every batch.
        try db.execute("PRAGMA cache_size=-32768")
        let readOnly = try SQLiteDatabase(path: path)
        try readOnly.execute("PRAGMA query_only=1")
        reader = Locked(readOnly)
        try connection.withLock { db in try Self.migrate(db) }
    }

    /// The connection, under the store's lock, for reading the schema back (tests).
    func inspect<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T { try locked(body) }

    /// `body` with the connection, under its lock.
    func locked<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        LockRules.checkStoreCall("SQLiteStore")
        return try connection.withLock { (db: inout SQLiteDatabase) throws -> T in try body(db) }
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// The rows `sql` answers, each its first `columns` columns as text (nil: NULL): what the payments'
    /// and webhooks' records are read from.
    func rows(_ db: SQLiteDatabase, _ sql: String, _ values: [SQLValue], columns: Int) throws -> [[String?]] {
        var out: [[String?]] = []
        try db.query(sql, values) { r in out.append((0..<columns).map { r.isNull(Int32($0)) ? nil : r.text(Int32($0)) }) }
        return out
    }

    /// Text values as SQLite binds them (nil: NULL).
    static func bind(_ values: [String?]) -> [SQLValue] { values.map { $0.map(SQLValue.text) ?? .null } }

    public func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws {
        try locked { db in
            try db.run(
                "INSERT INTO venues(id, fingerprint, layout, created_at) VALUES(?,?,?,?)",
                [.text(id), .text(fingerprint), .blob(layoutJSON), .integer(Self.now())])
        }
    }

    public func venues() throws -> [(id: String, layoutJSON: [UInt8])] {
        try locked { db in
            var out: [(String, [UInt8])] = []
            try db.query("SELECT id, layout FROM venues ORDER BY id") { out.append(($0.text(0), $0.blob(1))) }
            return out
        }
    }

    public func insertShow(_ s: ShowRecord) throws {
        try locked { db in
            try db.run("INSERT INTO shows(\(Self.showColumns)) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)", [.text(s.id), .text(s.venueID)] + Self.fields(of: s))
        }
    }

    public func shows() throws -> [ShowRecord] {
        try locked { db in
            var out: [ShowRecord] = []
            try db.query("SELECT \(Self.showColumns) FROM shows ORDER BY starts_at, id") { r in
                out.append(
                    ShowRecord(
                        id: r.text(0), venueID: r.text(1), startsAt: r.text(2), pricesJSON: r.text(3), policyJSON: r.text(4),
                        holdSeconds: Int(r.int(5)), version: UInt64(r.int(6)), detailsJSON: r.text(7), onSale: r.int(8) != 0,
                        cancelledAt: r.isNull(9) ? nil : r.int(9), priceRevision: Int(r.int(10)), earlierPricesJSON: r.text(11)))
            }
            return out
        }
    }

    static let showColumns = "id, venue_id, starts_at, prices, policy, hold_seconds, version, details, on_sale, cancelled_at, price_revision, earlier_prices"

    /// A show's columns after its id and venue, in `showColumns` order.
    static func fields(of s: ShowRecord) -> [SQLValue] {
        [
            .text(s.startsAt), .text(s.pricesJSON), .text(s.policyJSON), .integer(Int64(s.holdSeconds)), .integer(Int64(s.version)),
            .text(s.detailsJSON), .integer(s.onSale ? 1 : 0), s.cancelledAt.map { .integer($0) } ?? .null, .integer(Int64(s.priceRevision)),
            .text(s.earlierPricesJSON),
        ]
    }

    /// `body` on the read-only connection: reads polled every 250 ms (the staff's revision) never queue
    /// behind the writer's batches.
    func reading<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        LockRules.checkStoreCall("SQLiteStore")
        return try reader.withLock { try body($0) }
    }

    public func log(show: String, after version: UInt64, limit: Int) throws -> [LogRecord] {
        LockRules.checkStoreCall("SQLiteStore")
        return try reader.withLock { db in
            var out: [LogRecord] = []
            try db.query(
                """
                SELECT version, created_at, action, hold_id, operator, reason, order_ref, delta FROM show_log
                WHERE show_id = ? AND version > ? ORDER BY version LIMIT ?
                """, [.text(show), .integer(Int64(min(version, UInt64(Int64.max)))), .integer(Int64(limit))]
            ) { r in
                func text(_ k: Int32) -> String? { r.isNull(k) ? nil : r.text(k) }
                out.append(
                    LogRecord(
                        version: UInt64(r.int(0)), at: r.int(1),
                        entry: LogEntry(action: r.text(2), holdID: text(3), operatorName: text(4), reason: text(5), orderRef: text(6)), delta: r.text(7)))
            }
            return out
        }
    }

    public func claims(show: String) throws -> [Claim] {
        try locked { db in
            var out: [Claim] = []
            try db.query("SELECT seat, status, hold_id, identity, attendee FROM claims WHERE show_id = ?", [.text(show)]) { r in
                out.append(
                    Claim(
                        seat: Int(r.int(0)), status: SeatStatus(name: r.text(1)) ?? .blocked, holdID: r.isNull(2) ? nil : r.text(2),
                        identity: r.isNull(3) ? nil : r.text(3), attendee: r.isNull(4) ? nil : r.text(4)))
            }
            return out
        }
    }

    static let holdColumns =
        "id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment, prices, admission"
    static func hold(_ r: SQLRow) -> HoldRecord {
        HoldRecord(
            id: r.text(0), tokenDigest: r.text(1), showID: r.text(2), state: HoldState(rawValue: r.text(3)) ?? .released,
            expiresAt: r.int(4), extended: r.int(5) != 0, orderRef: r.isNull(6) ? nil : r.text(6), wheelchair: r.int(7) != 0,
            createdAt: r.int(8), kind: HoldKind(rawValue: r.text(9)) ?? .buyer, reason: r.isNull(10) ? nil : r.text(10),
            operatorName: r.isNull(11) ? nil : r.text(11), payment: r.isNull(12) ? nil : r.text(12), prices: r.isNull(13) ? nil : r.text(13),
            admission: r.isNull(14) ? nil : r.text(14))
    }

    public func activeHolds() throws -> [HoldRecord] {
        try locked { db in
            var out: [HoldRecord] = []
            try db.query("SELECT \(Self.holdColumns) FROM holds WHERE state = 'active'") { out.append(Self.hold($0)) }
            return out
        }
    }

    public func hold(tokenDigest: String) throws -> HoldRecord? {
        try locked { db in
            var out: HoldRecord?
            try db.query("SELECT \(Self.holdColumns) FROM holds WHERE token = ?", [.text(tokenDigest)]) { out = Self.hold($0) }
            return out
        }
    }

    public func orders(orderRef: String) throws -> [(record: HoldRecord, seats: [Int])] {
        try confirmed(where: "order_ref = ?", orderRef)
    }

    public func sales(show: String) throws -> [(record: HoldRecord, seats: [Int])] { try confirmed(where: "show_id = ?", show) }

    public func holdWithSeats(id: String) throws -> (record: HoldRecord, seats: [Int])? {
        try locked { db in
            var record: HoldRecord?
            try db.query("SELECT \(Self.holdColumns) FROM holds WHERE id = ?", [.text(id)]) { record = Self.hold($0) }
            guard let record else { return nil }
            var seats: [Int] = []
            try db.query("SELECT seat FROM claims WHERE hold_id = ? ORDER BY seat", [.text(id)]) { seats.append(Int($0.int(0))) }
            return (record, seats)
        }
    }

    /// Confirmed holds matching `condition` (one `?`), each with its sold seats.
    private func confirmed(where condition: String, _ value: String) throws -> [(record: HoldRecord, seats: [Int])] {
        try locked { db in
            var records: [HoldRecord] = []
            try db.query("SELECT \(Self.holdColumns) FROM holds WHERE \(condition) AND state = 'confirmed' ORDER BY created_at, id", [.text(value)]) {
                records.append(Self.hold($0))
            }
            return try records.map { r in
                var seats: [Int] = []
                try db.query("SELECT seat FROM claims WHERE hold_id = ? AND status = 'sold' ORDER BY seat", [.text(r.id)]) { seats.append(Int($0.int(0))) }
                return (r, seats)
            }
        }
    }

    public func refunds(holdIDs: [String]) throws -> [RefundRecord] {
        try locked { db in
            var out: [RefundRecord] = []
            for id in holdIDs {
                try db.query(
                    "SELECT hold_id, seat, refunded_at, reason, operator, returned_to, fee FROM refunds WHERE hold_id = ? ORDER BY refunded_at, seat",
                    [.text(id)]
                ) {
                    out.append(
                        RefundRecord(
                            holdID: $0.text(0), seat: Int($0.int(1)), refundedAt: $0.int(2), reason: $0.text(3), operatorName: $0.text(4),
                            returnedTo: $0.isNull(5) ? nil : $0.text(5), fee: $0.isNull(6) ? nil : Decimal(string: $0.text(6))))
                }
            }
            return out
        }
    }

    public func holdSeats(holdID: String) throws -> [Int] {
        try locked { db in
            var out: [Int] = []
            try db.query("SELECT seat FROM claims WHERE hold_id = ? ORDER BY seat", [.text(holdID)]) { out.append(Int($0.int(0))) }
            return out
        }
    }

    public func showVersions() throws -> [String: UInt64] {
        Dictionary(uniqueKeysWithValues: try shows().map { ($0.id, $0.version) })
    }

    /// fsyncs issued for group commits so far (for the benchmark).
    public var groupSyncs: Int { syncer?.syncCount ?? 0 }

    public func events(show: String, after version: UInt64, limit: Int) throws -> [(version: UInt64, delta: String)]? {
        LockRules.checkStoreCall("SQLiteStore")
        return try reader.withLock { db in
            var out: [(UInt64, String)] = []
            try db.query(
                "SELECT version, delta FROM show_log WHERE show_id = ? AND version > ? ORDER BY version LIMIT ?",
                [.text(show), .integer(Int64(version)), .integer(Int64(limit))]
            ) { out.append((UInt64($0.int(0)), $0.text(1))) }
            if let first = out.first, first.0 != version + 1 { return nil }
            return out
        }
    }

    public func storedResponse(key: String) throws -> StoredResponse? {
        try locked { db in
            var out: StoredResponse?
            try db.query("SELECT key, fingerprint, status, body FROM idempotency WHERE key = ?", [.text(key)]) {
                out = StoredResponse(key: $0.text(0), requestFingerprint: $0.text(1), status: Int($0.int(2)), body: $0.blob(3))
            }
            return out
        }
    }

    public func prune(idempotencyMilliseconds: Int64) throws {
        try locked { db in try db.run("DELETE FROM idempotency WHERE created_at < ?", [.integer(Self.now() - idempotencyMilliseconds)]) }
    }

    public func salesHistory(venue: String, since: Date, until: Date) throws -> (shows: Int, soldCounts: [Int: Int]) {
        LockRules.checkStoreCall("SQLiteStore")
        return try reader.withLock { db in
            // Start times carry their own offsets, so they are compared as instants, not as text.
            var past: [String] = []
            try db.query("SELECT id, starts_at FROM shows WHERE venue_id = ?", [.text(venue)]) { r in
                if let t = Timestamp.date(r.text(1)), t >= since, t <= until { past.append(r.text(0)) }
            }
            var counts: [Int: Int] = [:]
            for show in past {
                try db.query("SELECT seat FROM claims WHERE show_id = ? AND status = 'sold'", [.text(show)]) { counts[Int($0.int(0)), default: 0] += 1 }
            }
            return (past.count, counts)
        }
    }
}
