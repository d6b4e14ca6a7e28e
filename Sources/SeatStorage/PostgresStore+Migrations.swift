import Foundation
import SeatSecrets

/// The schema: migrations applied in order, once each, and the commit function they define.
extension PostgresStore {
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
        // 4: as SQLite's: shows that change after on-sale, each hold's prices, the show's log.
        """
        ALTER TABLE shows ADD COLUMN details TEXT NOT NULL DEFAULT '{}', ADD COLUMN on_sale BOOLEAN NOT NULL DEFAULT true,
          ADD COLUMN cancelled_at BIGINT, ADD COLUMN price_revision INTEGER NOT NULL DEFAULT 0,
          ADD COLUMN earlier_prices TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE holds ADD COLUMN prices TEXT;
        ALTER TABLE refunds ADD COLUMN returned_to TEXT;
        CREATE TABLE show_log(show_id TEXT NOT NULL, version BIGINT NOT NULL, created_at BIGINT NOT NULL, action TEXT NOT NULL,
                              hold_id TEXT, operator TEXT, reason TEXT, order_ref TEXT, delta TEXT NOT NULL, PRIMARY KEY(show_id, version));
        INSERT INTO show_log(show_id, version, created_at, action, delta) SELECT show_id, version, created_at, 'change', delta FROM events;
        DROP TABLE events;
        """ + showLogCommitFunction,
        // 5: a show row changed by another instance meanwhile is SQLSTATE SK002 (a race to decide again),
        // apart from SK001 (a seat or hold another instance changed: a conflict), so the store tells them
        // apart by code, never by the message's words.
        typedRefusalsCommitFunction,
        // 6: the shows' waiting rooms, as in the embedded store's migration 5.
        QueueSchema.postgres,
        // 7: a batch whose changes touch different seats and holds written whole (set-wide statements,
        // one subtransaction), falling back to `seatkit_commit` when the database refuses any of it; both
        // refuse to expire a hold another instance extended.
        togetherCommitFunction + "\n" + expiryGuardCommitFunction,
        // 8: a seat is freed or sold only by the hold that has it (an instance may release a hold as its
        // memory has it, unread; a stale view is refused, never frees another buyer's seat).
        ownersTogetherFunction + "\n" + ownersCommitFunction,
        // 9: the hot path's foreign keys checked set-wide by the two write functions, stricter (a claim
        // names its change's own hold, a hold is its change's show's), and the keys dropped (a query a
        // row: 18 % of the database's CPU a hold + release); the batch's notifications in one statement.
        keysMigration + "\n" + keysTogetherFunction + "\n" + keysCommitFunction,
        // 10: an admission has one active hold at a time (`HoldAdmissionSchema`).
        HoldAdmissionSchema.postgres + "\n" + admissionFunctions,
        // 11: a batch written whole arrives as typed arrays in the binary format (`BatchColumns`).
        arraysFunction,
        // 12: the door's scans (`DoorSchema`).
        DoorSchema.postgres,
        // 13: buyers' names and phones given with counter sales (`ContactSchema`).
        ContactSchema.postgres,
        // 14: `seatkit_write_arrays` with fewer statements and no planning a call (`leanArraysFunction`).
        leanArraysFunction,
        // 15: `seatkit_write_arrays` a show at a time in simple statements (`showGroupsArraysFunction`).
        showGroupsArraysFunction,
        // 16: an admission is one purchase: its confirmed hold keeps it from holding again.
        HoldAdmissionSchema.spent,
        // 17: a waiting room's places a network and arrivals a second (`QueueSchema.networkLimits`).
        QueueSchema.networkLimits,
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
                refundsLoopV3 + "\n              -- A hold that ends (released, expired, sold) keeps no held seat"
            ),
            (
                "EXISTS (SELECT 1 FROM claims WHERE hold_id = h->>'id' AND status = 'held')",
                "EXISTS (SELECT 1 FROM claims WHERE hold_id = h->>'id' AND status IN ('held', 'blocked'))"
            ),
        ]
        return edited(commitFunctionV1, migration: 3, edits)
    }()

    /// Refunds: each seat's sold claim of that sale removed, and the refund kept (its primary key
    /// refuses a seat refunded twice: unique_violation, a refusal of this change alone).
    static let refundsLoopV3 =
        "FOR h IN SELECT value FROM jsonb_array_elements(coalesce(c->'refunds', '[]'::jsonb)) LOOP "
        + "DELETE FROM claims WHERE show_id = c->>'show' AND status = 'sold' AND hold_id = h->>'hold' AND seat = (h->>'seat')::int; "
        + "GET DIAGNOSTICS n = ROW_COUNT; "
        + "IF n <> 1 THEN RAISE EXCEPTION 'seat % is no longer sold in %', h->>'seat', h->>'hold' USING ERRCODE = 'SK001'; END IF; "
        + "INSERT INTO refunds(hold_id, seat, refunded_at, reason, operator) "
        + "VALUES (h->>'hold', (h->>'seat')::int, (h->>'at')::bigint, h->>'reason', h->>'operator'); "
        + "END LOOP;"

    /// Migration 4's: with the reservation a refunded seat went back to.
    static let refundsLoopV4 = refundsLoopV3.replacingOccurrences(of: "reason, operator) ", with: "reason, operator, returned_to) ")
        .replacingOccurrences(of: "h->>'reason', h->>'operator'); ", with: "h->>'reason', h->>'operator', h->>'returnedTo'); ")

    /// Migration 4's commit function: migration 3's with each hold's prices, the show's own fields
    /// rewritten when a change carries them, the show's log (the event log with who and why) in place of
    /// the event log, and refunds before new claims (a refunded seat may go back to a reservation in
    /// the same change).
    static let showLogCommitFunction: String = {
        let edits = [
            (refundsLoopV3 + "\n", ""),
            (
                "-- In seat order: overlapping holds meet in the same order and never deadlock.",
                refundsLoopV4 + "\n              -- In seat order: overlapping holds meet in the same order and never deadlock."
            ),
            ("created_at, kind, reason, operator, payment)", "created_at, kind, reason, operator, payment, prices)"),
            ("h->>'kind', h->>'reason', h->>'operator', h->>'payment')", "h->>'kind', h->>'reason', h->>'operator', h->>'payment', h->>'prices')"),
            ("payment = EXCLUDED.payment", "payment = EXCLUDED.payment, prices = EXCLUDED.prices"),
            // A change of the show's own row carries the whole row: written only when the row is still as
            // the instance had it before the change (`showBase`), or it would write back another
            // instance's edit as it was before (seat changes in between do not touch the row).
            (
                "v := cur + 1;",
                "v := cur + 1;\n              IF c ? 'showBase' AND NOT EXISTS (SELECT 1 FROM shows s WHERE s.id = c->>'show' "
                    + "AND s.starts_at = c->'showBase'->>'startsAt' AND s.prices = c->'showBase'->>'prices' AND s.policy = c->'showBase'->>'policy' "
                    + "AND s.hold_seconds = (c->'showBase'->>'holdSeconds')::int AND s.details = c->'showBase'->>'details' "
                    + "AND s.on_sale = (c->'showBase'->>'onSale')::boolean AND s.cancelled_at IS NOT DISTINCT FROM (c->'showBase'->>'cancelledAt')::bigint "
                    + "AND s.price_revision = (c->'showBase'->>'priceRevision')::int AND s.earlier_prices = c->'showBase'->>'earlierPrices') THEN "
                    + "RAISE EXCEPTION 'show % changed meanwhile on another instance', c->>'show' USING ERRCODE = 'SK001'; END IF;"
            ),
            (
                "INSERT INTO events(show_id, version, delta, created_at) VALUES (c->>'show', v, delta, (c->>'now')::bigint);",
                "INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta) "
                    + "VALUES (c->>'show', v, (c->>'now')::bigint, c->'log'->>'action', c->'log'->>'hold', c->'log'->>'operator', "
                    + "c->'log'->>'reason', c->'log'->>'orderRef', delta);\n"
                    + "              IF c ? 'showRow' THEN UPDATE shows SET starts_at = c->'showRow'->>'startsAt', prices = c->'showRow'->>'prices', "
                    + "policy = c->'showRow'->>'policy', hold_seconds = (c->'showRow'->>'holdSeconds')::int, details = c->'showRow'->>'details', "
                    + "on_sale = (c->'showRow'->>'onSale')::boolean, cancelled_at = (c->'showRow'->>'cancelledAt')::bigint, "
                    + "price_revision = (c->'showRow'->>'priceRevision')::int, earlier_prices = c->'showRow'->>'earlierPrices' "
                    + "WHERE id = c->>'show'; END IF;"
            ),
        ]
        return edited(reservationsCommitFunction, migration: 4, edits)
    }()

    /// Migration 5's commit function: migration 4's with the show-row race raised as SK002.
    static let typedRefusalsCommitFunction: String = {
        let edits = [
            (
                "RAISE EXCEPTION 'show % changed meanwhile on another instance', c->>'show' USING ERRCODE = 'SK001';",
                "RAISE EXCEPTION 'show % changed meanwhile on another instance', c->>'show' USING ERRCODE = 'SK002';"
            ),
            ("EXCEPTION WHEN unique_violation OR SQLSTATE 'SK001' OR", "EXCEPTION WHEN unique_violation OR SQLSTATE 'SK001' OR SQLSTATE 'SK002' OR"),
        ]
        return edited(showLogCommitFunction, migration: 5, edits)
    }()

    /// `function` with each `(old, new)` of a migration's edits made. An `old` no longer there stops the
    /// program at start-up: an edit that missed would ship another function than its migration says.
    static func edited(_ function: String, migration: Int, _ edits: [(String, String)]) -> String {
        var f = function
        for (old, new) in edits {
            precondition(f.contains(old), "migration \(migration): the function no longer contains \(old)")
            f = f.replacingOccurrences(of: old, with: new)
        }
        return f
    }

    /// Applies the migrations not yet applied, under an advisory lock (instances starting together
    /// migrate once).
    func migrate(_ c: PostgresConnection) throws {
        try c.execute("SELECT pg_advisory_lock(730201)")
        // A session's advisory locks end with the session, so a failed unlock frees itself on disconnect.
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
}
