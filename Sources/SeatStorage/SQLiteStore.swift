import CSQLite
import Foundation
import SeatMap
import SeatSecrets
import SharedState

/// The embedded store: one SQLite file in WAL mode. Holds commit with `synchronous=NORMAL` (durable on
/// the next checkpoint, never corrupt). A batch holding a confirmation must survive power loss: with
/// group commit the log is flushed once for the whole batch; without, the batch commits with
/// `synchronous=FULL`. One connection, serialised by a lock: SQLite has one writer anyway.
public final class SQLiteStore: SeatStore, @unchecked Sendable {
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
        // 32 MiB of page cache (the default is 2 MiB): the claims, holds and events indexes of a busy
        // store stay in memory instead of being read back from the log for every batch.
        try db.execute("PRAGMA cache_size=-32768")
        let readOnly = try SQLiteDatabase(path: path)
        try readOnly.execute("PRAGMA query_only=1")
        reader = Locked(readOnly)
        try connection.withLock { db in try Self.migrate(db) }
    }

    /// Schema migrations, each applied once in order (the version is kept in `PRAGMA user_version`).
    static let migrations: [String] = [
        """
        CREATE TABLE venues(id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, layout BLOB NOT NULL, created_at INTEGER NOT NULL);
        CREATE TABLE shows(id TEXT PRIMARY KEY, venue_id TEXT NOT NULL REFERENCES venues(id), starts_at TEXT NOT NULL,
                           prices TEXT NOT NULL, policy TEXT NOT NULL, hold_seconds INTEGER NOT NULL, version INTEGER NOT NULL);
        CREATE TABLE holds(id TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE, show_id TEXT NOT NULL REFERENCES shows(id),
                           state TEXT NOT NULL CHECK(state IN ('active','released','expired','confirmed')),
                           expires_at INTEGER NOT NULL, extended INTEGER NOT NULL, order_ref TEXT, wheelchair INTEGER NOT NULL,
                           created_at INTEGER NOT NULL);
        CREATE INDEX holds_active ON holds(state) WHERE state = 'active';
        CREATE TABLE claims(show_id TEXT NOT NULL REFERENCES shows(id), seat INTEGER NOT NULL,
                            status TEXT NOT NULL CHECK(status IN ('held','sold','blocked')), hold_id TEXT REFERENCES holds(id),
                            PRIMARY KEY(show_id, seat)) WITHOUT ROWID;
        CREATE TABLE events(show_id TEXT NOT NULL, version INTEGER NOT NULL, delta TEXT NOT NULL, created_at INTEGER NOT NULL,
                            PRIMARY KEY(show_id, version)) WITHOUT ROWID;
        CREATE TABLE idempotency(key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER NOT NULL, body BLOB NOT NULL,
                                 created_at INTEGER NOT NULL);
        """,
        // 2: tokens kept as digests (`Secrets.tokenDigest`, rewritten by `hashPlainTokens`); kept answers
        // from before were in the clear (with their hold tokens) and keyed by the client's key: dropped.
        "DELETE FROM idempotency;",
        // 3: box-office reservations are holds of another kind, with the reason and who made them.
        """
        ALTER TABLE holds ADD COLUMN kind TEXT NOT NULL DEFAULT 'buyer' CHECK(kind IN ('buyer','blocked','house','counter'));
        ALTER TABLE holds ADD COLUMN reason TEXT;
        ALTER TABLE holds ADD COLUMN operator TEXT;
        ALTER TABLE holds ADD COLUMN payment TEXT;
        CREATE INDEX holds_order ON holds(order_ref) WHERE order_ref IS NOT NULL;
        CREATE TABLE refunds(hold_id TEXT NOT NULL REFERENCES holds(id), seat INTEGER NOT NULL, refunded_at INTEGER NOT NULL,
                             reason TEXT NOT NULL, operator TEXT NOT NULL, PRIMARY KEY(hold_id, seat)) WITHOUT ROWID;
        """,
        // 4: shows that change after on-sale (prices by revision, details, on-sale, cancelled), what each
        // hold's seats cost, and the show's log: the event log with who did what and why, kept with the
        // show (the old event log becomes its first lines; one table, so a change is one insert: a second
        // copy of every delta cost the writer 19 % more CPU a hold).
        """
        ALTER TABLE shows ADD COLUMN details TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE shows ADD COLUMN on_sale INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE shows ADD COLUMN cancelled_at INTEGER;
        ALTER TABLE shows ADD COLUMN price_revision INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE shows ADD COLUMN earlier_prices TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE holds ADD COLUMN prices TEXT;
        ALTER TABLE refunds ADD COLUMN returned_to TEXT;
        CREATE TABLE show_log(show_id TEXT NOT NULL, version INTEGER NOT NULL, created_at INTEGER NOT NULL, action TEXT NOT NULL,
                              hold_id TEXT, operator TEXT, reason TEXT, order_ref TEXT, delta TEXT NOT NULL,
                              PRIMARY KEY(show_id, version)) WITHOUT ROWID;
        INSERT INTO show_log(show_id, version, created_at, action, delta) SELECT show_id, version, created_at, 'change', delta FROM events;
        DROP TABLE events;
        """,
    ]

    static func migrate(_ db: SQLiteDatabase) throws {
        var version = 0
        try db.query("PRAGMA user_version") { version = Int($0.int(0)) }
        for (k, sql) in Self.migrations.enumerated() where k >= version {
            try db.transaction {
                try db.execute(sql)
                if k == 1 { try hashPlainTokens(db) }
                try db.execute("PRAGMA user_version = \(k + 1)")
            }
        }
    }

    /// Migration 2's data step: every token stored in the clear by an older version becomes its digest.
    private static func hashPlainTokens(_ db: SQLiteDatabase) throws {
        var plain: [(String, String)] = []
        try db.query("SELECT id, token FROM holds WHERE length(token) <> \(Secrets.tokenDigestLength)") { plain.append(($0.text(0), $0.text(1))) }
        for (id, token) in plain { try db.run("UPDATE holds SET token = ? WHERE id = ?", [.text(Secrets.tokenDigest(token)), .text(id)]) }
    }

    /// The connection, under the store's lock, for reading the schema back (tests).
    func inspect<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T { try locked(body) }

    /// `body` with the connection, under its lock.
    private func locked<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try connection.withLock { (db: inout SQLiteDatabase) throws -> T in try body(db) }
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

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

    public func log(show: String, after version: UInt64, limit: Int) throws -> [LogRecord] {
        try reader.withLock { db in
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
            try db.query("SELECT seat, status, hold_id FROM claims WHERE show_id = ?", [.text(show)]) { r in
                out.append(Claim(seat: Int(r.int(0)), status: SeatStatus(name: r.text(1)) ?? .blocked, holdID: r.isNull(2) ? nil : r.text(2)))
            }
            return out
        }
    }

    static let holdColumns = "id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment, prices"
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

    static func hold(_ r: SQLRow) -> HoldRecord {
        HoldRecord(
            id: r.text(0), tokenDigest: r.text(1), showID: r.text(2), state: HoldState(rawValue: r.text(3)) ?? .released,
            expiresAt: r.int(4), extended: r.int(5) != 0, orderRef: r.isNull(6) ? nil : r.text(6), wheelchair: r.int(7) != 0,
            createdAt: r.int(8), kind: HoldKind(rawValue: r.text(9)) ?? .buyer, reason: r.isNull(10) ? nil : r.text(10),
            operatorName: r.isNull(11) ? nil : r.text(11), payment: r.isNull(12) ? nil : r.text(12), prices: r.isNull(13) ? nil : r.text(13))
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
                    "SELECT hold_id, seat, refunded_at, reason, operator, returned_to FROM refunds WHERE hold_id = ? ORDER BY refunded_at, seat", [.text(id)]
                ) {
                    out.append(
                        RefundRecord(
                            holdID: $0.text(0), seat: Int($0.int(1)), refundedAt: $0.int(2), reason: $0.text(3), operatorName: $0.text(4),
                            returnedTo: $0.isNull(5) ? nil : $0.text(5)))
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

    /// A list of seat numbers as a JSON array, for `json_each`: one statement per change, whatever
    /// its number of seats.
    private static func seatList<S: Sequence<Int>>(_ seats: S) -> String {
        var out = "["
        for (k, seat) in seats.enumerated() { if k > 0 { out += "," }; out += String(seat) }
        return out + "]"
    }

    /// One batch: a few statements per change, and each show's row written once (its version checked
    /// against the batch's first change, which also proves the batch's versions follow on).
    private func write(_ batch: [StoreCommit], _ db: SQLiteDatabase) throws {
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

    private func write(_ c: StoreCommit, _ db: SQLiteDatabase) throws {
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

    /// fsyncs issued for group commits so far (for the benchmark).
    public var groupSyncs: Int { syncer?.syncCount ?? 0 }

    public func events(show: String, after version: UInt64, limit: Int) throws -> [(version: UInt64, delta: String)]? {
        try reader.withLock { db in
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
        try reader.withLock { db in
            // Start times carry their own offsets, so they are compared as instants, not as text.
            let parser = ISO8601DateFormatter()
            var past: [String] = []
            try db.query("SELECT id, starts_at FROM shows WHERE venue_id = ?", [.text(venue)]) { r in
                if let t = parser.date(from: r.text(1)), t >= since, t <= until { past.append(r.text(0)) }
            }
            var counts: [Int: Int] = [:]
            for show in past {
                try db.query("SELECT seat FROM claims WHERE show_id = ? AND status = 'sold'", [.text(show)]) { counts[Int($0.int(0)), default: 0] += 1 }
            }
            return (past.count, counts)
        }
    }
}
