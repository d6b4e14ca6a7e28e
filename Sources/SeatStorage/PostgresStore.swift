import Foundation
import SharedState
import SeatMap
import SeatSecrets

/// The shared store: PostgreSQL, for several stateless SeatServer instances behind a load balancer.
///
/// The guarantee is the database's: a primary key on (show, seat) means a seat is in at most one live
/// hold or sale; a hold changes only while its row is still `active`, so two instances expiring,
/// releasing or confirming the same hold never both succeed. Versions are assigned here (the show row
/// is locked and bumped), so every change of a show, from whichever instance, gets the next version and
/// its event, and `NOTIFY seatkit_events_<schema>` tells every instance to read it. Commits of a batch are taken
/// in show order (no two transactions lock shows in opposite orders: no deadlock), each inside a
/// savepoint, so one refused change does not undo the others.
public final class PostgresStore: SeatStore, @unchecked Sendable {
    public static let channel = "seatkit_events"
    /// The URL the store was opened with.
    public let url: String
    let conninfo: String
    let schema: String?
    /// Idle connections. Lock: `idle` (a leaf: a connection is used outside it, by one thread at a time).
    private let idle = Locked([PostgresConnection]())

    /// `postgres://user@host:port/db` (any libpq URI or key=value string); a `schema=NAME` query item
    /// puts the tables in that schema (one database, several independent stores: tests, shards).
    public init(url: String) throws {
        self.url = url
        var info = url, schema: String? = nil
        if var parts = URLComponents(string: url), let item = parts.queryItems?.first(where: { $0.name == "schema" }) {
            schema = item.value
            parts.queryItems = parts.queryItems?.filter { $0.name != "schema" }
            if parts.queryItems?.isEmpty == true { parts.queryItems = nil }
            info = parts.string ?? url
        }
        conninfo = info
        self.schema = schema
        try withConnection { try migrate($0) }
    }

    public var assignsVersions: Bool { true }

    /// A connection from the pool (one per thread using the store at a time), returned afterwards.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let pooled = idle.withLock { $0.popLast() }
        let connection = try pooled ?? PostgresConnection(conninfo: conninfo, schema: schema)
        defer { idle.withLock { $0.append(connection) } }
        return try body(connection)
    }

    /// A connection of its own for LISTEN (never returned to the pool), on this store's channel
    /// (`seatkit_events_<schema>`: stores in other schemas of the same database are not heard).
    public func listeningConnection() throws -> PostgresConnection {
        let c = try PostgresConnection(conninfo: conninfo, schema: schema)
        let current = try c.execute("SELECT current_schema()").text(0, 0)
        try c.execute("LISTEN \(PostgresConnection.identifier(Self.channel + "_" + current))")
        return c
    }

    static let migrations: [String] = [
        """
        CREATE TABLE venues(id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, layout TEXT NOT NULL, created_at BIGINT NOT NULL);
        CREATE TABLE shows(id TEXT PRIMARY KEY, venue_id TEXT NOT NULL REFERENCES venues(id), starts_at TEXT NOT NULL,
                           prices TEXT NOT NULL, policy TEXT NOT NULL, hold_seconds INTEGER NOT NULL, version BIGINT NOT NULL);
        CREATE TABLE holds(id TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE, show_id TEXT NOT NULL REFERENCES shows(id),
                           state TEXT NOT NULL CHECK(state IN ('active','released','expired','confirmed')),
                           expires_at BIGINT NOT NULL, extended BOOLEAN NOT NULL, order_ref TEXT, wheelchair BOOLEAN NOT NULL,
                           created_at BIGINT NOT NULL);
        CREATE INDEX holds_active ON holds(expires_at) WHERE state = 'active';
        CREATE TABLE claims(show_id TEXT NOT NULL REFERENCES shows(id), seat INTEGER NOT NULL,
                            status TEXT NOT NULL CHECK(status IN ('held','sold','blocked')), hold_id TEXT REFERENCES holds(id),
                            PRIMARY KEY(show_id, seat));
        CREATE INDEX claims_hold ON claims(hold_id);
        CREATE TABLE events(show_id TEXT NOT NULL, version BIGINT NOT NULL, delta TEXT NOT NULL, created_at BIGINT NOT NULL,
                            PRIMARY KEY(show_id, version));
        CREATE TABLE idempotency(key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL,
                                 created_at BIGINT NOT NULL);
        """,
        // A whole batch in one round trip: each change in its own subtransaction (the EXCEPTION block),
        // so a refused change is rolled back alone; versions taken from the show row (its lock).
        commitFunctionV1,
        // 2: as SQLite's: tokens kept as digests (rewritten by `hashPlainTokens`), clear answers dropped.
        "DELETE FROM idempotency;",
        // 3: as SQLite's: box-office reservations are holds of another kind; the commit function writes
        // the new columns and releases reserved (blocked) claims as it releases held ones.
        """
        ALTER TABLE holds ADD COLUMN kind TEXT NOT NULL DEFAULT 'buyer' CHECK(kind IN ('buyer','blocked','house','counter')),
          ADD COLUMN reason TEXT, ADD COLUMN operator TEXT, ADD COLUMN payment TEXT;
        CREATE INDEX holds_order ON holds(order_ref) WHERE order_ref IS NOT NULL;
        CREATE TABLE refunds(hold_id TEXT NOT NULL REFERENCES holds(id), seat INTEGER NOT NULL, refunded_at BIGINT NOT NULL,
                             reason TEXT NOT NULL, operator TEXT NOT NULL, PRIMARY KEY(hold_id, seat));
        """ + reservationsCommitFunction,
    ]

    /// Migration 1's commit function (kept as it was applied).
    static let commitFunctionV1 =
        #"""
        CREATE FUNCTION seatkit_commit(batch jsonb, durable boolean) RETURNS jsonb LANGUAGE plpgsql AS $$
        DECLARE
          c jsonb; h jsonb; v bigint; n int; delta text; result jsonb := '[]'::jsonb;
          show text := NULL; cur bigint := NULL;
        BEGIN
          IF NOT durable THEN PERFORM set_config('synchronous_commit', 'off', true); END IF;
          FOR c IN SELECT value FROM jsonb_array_elements(batch) LOOP
            -- Changes come grouped by show: the show row is locked once (outside the per-change
            -- subtransactions) and written once, with the last version, when its group ends.
            IF show IS DISTINCT FROM c->>'show' THEN
              IF show IS NOT NULL AND cur IS NOT NULL THEN UPDATE shows SET version = cur WHERE id = show; END IF;
              show := c->>'show';
              SELECT version INTO cur FROM shows WHERE id = show FOR UPDATE;
            END IF;
            BEGIN
              IF cur IS NULL THEN RAISE EXCEPTION 'show % does not exist', c->>'show' USING ERRCODE = 'SK001'; END IF;
              v := cur + 1;
              FOR h IN SELECT value FROM jsonb_array_elements(c->'holds') LOOP
                INSERT INTO holds(id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at)
                VALUES (h->>'id', h->>'token', h->>'show', h->>'state', (h->>'expiresAt')::bigint, (h->>'extended')::boolean,
                        h->>'orderRef', (h->>'wheelchair')::boolean, (h->>'createdAt')::bigint)
                ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at,
                  extended = EXCLUDED.extended, order_ref = EXCLUDED.order_ref
                WHERE holds.state = 'active';
                GET DIAGNOSTICS n = ROW_COUNT;
                IF n <> 1 THEN RAISE EXCEPTION 'hold % is no longer active', h->>'id' USING ERRCODE = 'SK001'; END IF;
              END LOOP;
              IF jsonb_array_length(c->'delete') > 0 THEN
                DELETE FROM claims WHERE show_id = c->>'show' AND status = 'held'
                  AND seat IN (SELECT value::int FROM jsonb_array_elements_text(c->'delete'));
                GET DIAGNOSTICS n = ROW_COUNT;
                IF n <> jsonb_array_length(c->'delete') THEN RAISE EXCEPTION 'seats to release are no longer held' USING ERRCODE = 'SK001'; END IF;
              END IF;
              -- In seat order: overlapping holds meet in the same order and never deadlock.
              INSERT INTO claims(show_id, seat, status, hold_id)
                SELECT c->>'show', (x->>'seat')::int, x->>'status', x->>'hold' FROM jsonb_array_elements(c->'insert') AS x
                ORDER BY (x->>'seat')::int;
              IF jsonb_array_length(c->'sell') > 0 THEN
                UPDATE claims SET status = 'sold' WHERE show_id = c->>'show' AND status = 'held'
                  AND seat IN (SELECT value::int FROM jsonb_array_elements_text(c->'sell'));
                GET DIAGNOSTICS n = ROW_COUNT;
                IF n <> jsonb_array_length(c->'sell') THEN RAISE EXCEPTION 'seats to sell are no longer held' USING ERRCODE = 'SK001'; END IF;
              END IF;
              -- A hold that ends (released, expired, sold) keeps no held seat: if it would, this instance's view
              -- of the hold was stale and the change is refused (the instance reloads and the client retries).
              FOR h IN SELECT value FROM jsonb_array_elements(c->'holds') LOOP
                IF h->>'state' <> 'active' AND EXISTS (SELECT 1 FROM claims WHERE hold_id = h->>'id' AND status = 'held') THEN
                  RAISE EXCEPTION 'hold % still holds seats this change does not release', h->>'id' USING ERRCODE = 'SK001';
                END IF;
              END LOOP;
              delta := 'skd1;' || (v - 1) || ';' || v || ';' || (c->>'changes');
              INSERT INTO events(show_id, version, delta, created_at) VALUES (c->>'show', v, delta, (c->>'now')::bigint);
              IF c ? 'idempotency' THEN
                INSERT INTO idempotency(key, fingerprint, status, body, created_at)
                VALUES (c->'idempotency'->>'key', c->'idempotency'->>'fingerprint', (c->'idempotency'->>'status')::int,
                        c->'idempotency'->>'body', (c->>'now')::bigint);
              END IF;
              -- The change itself rides on the notification (when it fits), so followers need not query.
              -- One channel per schema: stores sharing a database never hear each other.
              PERFORM pg_notify('seatkit_events_' || current_schema(), (c->>'show') || E'\n' || CASE WHEN length(delta) < 7000 THEN delta ELSE '' END);
              result := result || jsonb_build_array(jsonb_build_object('version', v, 'delta', delta));
              cur := v;
            EXCEPTION WHEN unique_violation OR SQLSTATE 'SK001' OR foreign_key_violation THEN
              result := result || jsonb_build_array(jsonb_build_object('refused', SQLERRM, 'code', SQLSTATE));
            END;
          END LOOP;
          IF show IS NOT NULL AND cur IS NOT NULL THEN UPDATE shows SET version = cur WHERE id = show; END IF;
          RETURN result;
        END
        $$;
        """#

    /// Migration 1's commit function with the reservation columns and blocked claims: written as the
    /// changes to it, so the two cannot drift apart except where they must.
    static let reservationsCommitFunction: String = {
        var f = commitFunctionV1
        let edits = [
            ("CREATE FUNCTION seatkit_commit", "CREATE OR REPLACE FUNCTION seatkit_commit"),
            (
                "INSERT INTO holds(id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at)",
                "INSERT INTO holds(id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment)"
            ),
            (
                "(h->>'wheelchair')::boolean, (h->>'createdAt')::bigint)",
                "(h->>'wheelchair')::boolean, (h->>'createdAt')::bigint, h->>'kind', h->>'reason', h->>'operator', h->>'payment')"
            ),
            (
                "DELETE FROM claims WHERE show_id = c->>'show' AND status = 'held'",
                "DELETE FROM claims WHERE show_id = c->>'show' AND status IN ('held', 'blocked')"
            ),
            ("'seats to release are no longer held'", "'seats to release are no longer held or reserved'"),
            (
                "extended = EXCLUDED.extended, order_ref = EXCLUDED.order_ref",
                "extended = EXCLUDED.extended, order_ref = EXCLUDED.order_ref, reason = EXCLUDED.reason, operator = EXCLUDED.operator, payment = EXCLUDED.payment"
            ),
            (
                "UPDATE claims SET status = 'sold' WHERE show_id = c->>'show' AND status = 'held'",
                "UPDATE claims SET status = 'sold' WHERE show_id = c->>'show' AND status IN ('held', 'blocked')"
            ),
            ("'seats to sell are no longer held'", "'seats to sell are no longer held or reserved'"),
            // Refunds: each seat's sold claim of that sale removed, and the refund kept (its primary key
            // refuses a seat refunded twice: unique_violation, a refusal of this change alone).
            (
                "-- A hold that ends (released, expired, sold) keeps no held seat",
                "FOR h IN SELECT value FROM jsonb_array_elements(coalesce(c->'refunds', '[]'::jsonb)) LOOP "
                    + "DELETE FROM claims WHERE show_id = c->>'show' AND status = 'sold' AND hold_id = h->>'hold' AND seat = (h->>'seat')::int; "
                    + "GET DIAGNOSTICS n = ROW_COUNT; "
                    + "IF n <> 1 THEN RAISE EXCEPTION 'seat % is no longer sold in %', h->>'seat', h->>'hold' USING ERRCODE = 'SK001'; END IF; "
                    + "INSERT INTO refunds(hold_id, seat, refunded_at, reason, operator) "
                    + "VALUES (h->>'hold', (h->>'seat')::int, (h->>'at')::bigint, h->>'reason', h->>'operator'); "
                    + "END LOOP;\n              -- A hold that ends (released, expired, sold) keeps no held seat"
            ),
            (
                "EXISTS (SELECT 1 FROM claims WHERE hold_id = h->>'id' AND status = 'held')",
                "EXISTS (SELECT 1 FROM claims WHERE hold_id = h->>'id' AND status IN ('held', 'blocked'))"
            ),
        ]
        for (old, new) in edits {
            precondition(f.contains(old), "migration 3: the commit function no longer contains \(old)")
            f = f.replacingOccurrences(of: old, with: new)
        }
        return f
    }()

    /// Applies the migrations not yet applied, under an advisory lock (instances starting together
    /// migrate once).
    func migrate(_ c: PostgresConnection) throws {
        try c.execute("SELECT pg_advisory_lock(730201)")
        defer { _ = try? c.execute("SELECT pg_advisory_unlock(730201)") }
        try c.execute("CREATE TABLE IF NOT EXISTS schema_migrations(version INTEGER PRIMARY KEY)")
        let applied = try c.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").int(0, 0)
        for (k, sql) in Self.migrations.enumerated() where k >= applied {
            try c.execute("BEGIN")
            do {
                try c.execute(sql)
                // Migration 2 (index 2 here: the commit function is index 1) is where tokens became digests.
                if k == 2 { try Self.hashPlainTokens(c) }
                try c.execute("INSERT INTO schema_migrations(version) VALUES(\(k + 1))")
                try c.execute("COMMIT")
            } catch { _ = try? c.execute("ROLLBACK"); throw error }
        }
    }

    /// Migration 2's data step: tokens stored in the clear by an older version become their digests.
    static func hashPlainTokens(_ c: PostgresConnection) throws {
        let plain = try c.execute("SELECT id, token FROM holds WHERE length(token) <> \(Secrets.tokenDigestLength)")
        for r in 0..<plain.rows.count {
            try c.run("migrate_token", "UPDATE holds SET token = $1 WHERE id = $2", [Secrets.tokenDigest(plain.text(r, 1)), plain.text(r, 0)])
        }
    }

    static func now() -> String { String(Int64(Date().timeIntervalSince1970 * 1000)) }

    public func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws {
        _ = try withConnection {
            try $0.run(
                "insert_venue", "INSERT INTO venues(id, fingerprint, layout, created_at) VALUES($1,$2,$3,$4)",
                [id, fingerprint, String(decoding: layoutJSON, as: UTF8.self), Self.now()])
        }
    }

    public func venues() throws -> [(id: String, layoutJSON: [UInt8])] {
        try withConnection { c in
            let r = try c.run("venues", "SELECT id, layout FROM venues ORDER BY id")
            return r.rows.indices.map { (r.text($0, 0), Array(r.text($0, 1).utf8)) }
        }
    }

    public func insertShow(_ s: ShowRecord) throws {
        _ = try withConnection {
            try $0.run(
                "insert_show", "INSERT INTO shows(id, venue_id, starts_at, prices, policy, hold_seconds, version) VALUES($1,$2,$3,$4,$5,$6,$7)",
                [s.id, s.venueID, s.startsAt, s.pricesJSON, s.policyJSON, String(s.holdSeconds), String(s.version)])
        }
    }

    public func shows() throws -> [ShowRecord] {
        try withConnection { c in
            let r = try c.run("shows", "SELECT id, venue_id, starts_at, prices, policy, hold_seconds, version FROM shows ORDER BY starts_at, id")
            return r.rows.indices.map { i in
                ShowRecord(
                    id: r.text(i, 0), venueID: r.text(i, 1), startsAt: r.text(i, 2), pricesJSON: r.text(i, 3), policyJSON: r.text(i, 4),
                    holdSeconds: Int(r.int(i, 5)), version: UInt64(r.int(i, 6)))
            }
        }
    }

    public func showVersions() throws -> [String: UInt64] {
        try withConnection { c in
            let r = try c.run("show_versions", "SELECT id, version FROM shows")
            return Dictionary(uniqueKeysWithValues: r.rows.indices.map { (r.text($0, 0), UInt64(r.int($0, 1))) })
        }
    }

    public func claims(show: String) throws -> [Claim] {
        try withConnection { c in
            let r = try c.run("claims", "SELECT seat, status, hold_id FROM claims WHERE show_id = $1", [show])
            return r.rows.indices.map { Claim(seat: Int(r.int($0, 0)), status: SeatStatus(name: r.text($0, 1)) ?? .blocked, holdID: r.rows[$0][2]) }
        }
    }

    public func holdSeats(holdID: String) throws -> [Int] {
        try withConnection { c in
            let r = try c.run("hold_seats", "SELECT seat FROM claims WHERE hold_id = $1 ORDER BY seat", [holdID])
            return r.rows.indices.map { Int(r.int($0, 0)) }
        }
    }

    static let holdColumns = "id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment"

    public func holdWithSeats(tokenDigest: String) throws -> (record: HoldRecord, seats: [Int])? {
        try withConnection { c in
            let r = try c.run(
                "hold_with_seats",
                """
                SELECT h.id, h.token, h.show_id, h.state, h.expires_at, h.extended, h.order_ref, h.wheelchair, h.created_at,
                       h.kind, h.reason, h.operator, h.payment, coalesce(string_agg(c.seat::text, ',' ORDER BY c.seat), '')
                FROM holds h LEFT JOIN claims c ON c.hold_id = h.id WHERE h.token = $1 GROUP BY h.id
                """, [tokenDigest])
            guard let record = Self.holds(r).first else { return nil }
            return (record, r.text(0, 13).split(separator: ",").compactMap { Int($0) })
        }
    }

    static func holds(_ r: PostgresRows) -> [HoldRecord] {
        r.rows.indices.map { i in
            HoldRecord(
                id: r.text(i, 0), tokenDigest: r.text(i, 1), showID: r.text(i, 2), state: HoldState(rawValue: r.text(i, 3)) ?? .released,
                expiresAt: r.int(i, 4), extended: r.text(i, 5) == "t", orderRef: r.rows[i][6], wheelchair: r.text(i, 7) == "t",
                createdAt: r.int(i, 8), kind: HoldKind(rawValue: r.text(i, 9)) ?? .buyer, reason: r.rows[i][10], operatorName: r.rows[i][11],
                payment: r.rows[i][12])
        }
    }

    public func activeHolds() throws -> [HoldRecord] {
        try withConnection { Self.holds(try $0.run("active_holds", "SELECT \(Self.holdColumns) FROM holds WHERE state = 'active'")) }
    }

    public func activeHolds(show: String) throws -> [HoldRecord] {
        try withConnection {
            Self.holds(try $0.run("active_holds_of_show", "SELECT \(Self.holdColumns) FROM holds WHERE state = 'active' AND show_id = $1", [show]))
        }
    }

    /// Through the partial index on active holds' expiry: every instance asks twice a second.
    public func dueHolds(at time: Int64) throws -> [HoldRecord] {
        try withConnection {
            Self.holds(try $0.run("due_holds", "SELECT \(Self.holdColumns) FROM holds WHERE state = 'active' AND expires_at <= $1", [String(time)]))
        }
    }

    public func orders(orderRef: String) throws -> [(record: HoldRecord, seats: [Int])] { try confirmed(named: "orders", where: "h.order_ref", orderRef) }

    public func sales(show: String) throws -> [(record: HoldRecord, seats: [Int])] { try confirmed(named: "sales", where: "h.show_id", show) }

    public func holdWithSeats(id: String) throws -> (record: HoldRecord, seats: [Int])? {
        try withConnection { c in
            let r = try c.run(
                "hold_by_id",
                """
                SELECT \(Self.holdColumns.split(separator: ",").map { "h." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
                       coalesce(string_agg(c.seat::text, ',' ORDER BY c.seat), '')
                FROM holds h LEFT JOIN claims c ON c.hold_id = h.id WHERE h.id = $1 GROUP BY h.id
                """, [id])
            guard let record = Self.holds(r).first else { return nil }
            return (record, r.text(0, 13).split(separator: ",").compactMap { Int($0) })
        }
    }

    /// Confirmed holds whose `column` is `value`, each with its sold seats.
    private func confirmed(named name: String, where column: String, _ value: String) throws -> [(record: HoldRecord, seats: [Int])] {
        try withConnection { c in
            let r = try c.run(
                name,
                """
                SELECT \(Self.holdColumns.split(separator: ",").map { "h." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
                       coalesce(string_agg(c.seat::text, ',' ORDER BY c.seat) FILTER (WHERE c.status = 'sold'), '')
                FROM holds h LEFT JOIN claims c ON c.hold_id = h.id
                WHERE \(column) = $1 AND h.state = 'confirmed' GROUP BY h.id ORDER BY h.created_at, h.id
                """, [value])
            let records = Self.holds(r)
            return records.indices.map { i in (records[i], r.text(i, 13).split(separator: ",").compactMap { Int($0) }) }
        }
    }

    public func refunds(holdIDs: [String]) throws -> [RefundRecord] {
        guard !holdIDs.isEmpty else { return [] }
        return try withConnection { c in
            let r = try c.run(
                "refunds", "SELECT hold_id, seat, refunded_at, reason, operator FROM refunds WHERE hold_id = ANY($1::text[]) ORDER BY refunded_at, seat",
                ["{" + holdIDs.map { "\"" + $0 + "\"" }.joined(separator: ",") + "}"])
            return r.rows.indices.map { i in
                RefundRecord(holdID: r.text(i, 0), seat: Int(r.int(i, 1)), refundedAt: r.int(i, 2), reason: r.text(i, 3), operatorName: r.text(i, 4))
            }
        }
    }

    public func hold(tokenDigest: String) throws -> HoldRecord? {
        try withConnection { Self.holds(try $0.run("hold_by_token", "SELECT \(Self.holdColumns) FROM holds WHERE token = $1", [tokenDigest])).first }
    }

    public func events(show: String, after version: UInt64, limit: Int) throws -> [(version: UInt64, delta: String)]? {
        try withConnection { c in
            let r = try c.run(
                "events", "SELECT version, delta FROM events WHERE show_id = $1 AND version > $2 ORDER BY version LIMIT $3",
                [show, String(version), String(limit)])
            let out = r.rows.indices.map { (UInt64(r.int($0, 0)), r.text($0, 1)) }
            if let first = out.first, first.0 != version + 1 { return nil }
            return out
        }
    }

    public func storedResponse(key: String) throws -> StoredResponse? {
        try withConnection { c in
            let r = try c.run("stored_response", "SELECT key, fingerprint, status, body FROM idempotency WHERE key = $1", [key])
            guard !r.rows.isEmpty else { return nil }
            return StoredResponse(key: r.text(0, 0), requestFingerprint: r.text(0, 1), status: Int(r.int(0, 2)), body: Array(r.text(0, 3).utf8))
        }
    }

    public func prune(keepVersions: Int, idempotencyMilliseconds: Int64) throws {
        try withConnection { c in
            try c.run("prune_events", "DELETE FROM events e USING shows s WHERE s.id = e.show_id AND e.version <= s.version - $1", [String(keepVersions)])
            try c.run(
                "prune_idempotency", "DELETE FROM idempotency WHERE created_at < $1",
                [String(Int64(Date().timeIntervalSince1970 * 1000) - idempotencyMilliseconds)])
        }
    }

    public func salesHistory(venue: String, since: Date, until: Date) throws -> (shows: Int, soldCounts: [Int: Int]) {
        try withConnection { c in
            let parser = ISO8601DateFormatter()
            let r = try c.run("venue_shows", "SELECT id, starts_at FROM shows WHERE venue_id = $1", [venue])
            let past = r.rows.indices.filter { i in parser.date(from: r.text(i, 1)).map { $0 >= since && $0 <= until } ?? false }.map { r.text($0, 0) }
            var counts: [Int: Int] = [:]
            for show in past {
                let sold = try c.run("sold_seats", "SELECT seat FROM claims WHERE show_id = $1 AND status = 'sold'", [show])
                for i in sold.rows.indices { counts[Int(sold.int(i, 0)), default: 0] += 1 }
            }
            return (past.count, counts)
        }
    }
}
