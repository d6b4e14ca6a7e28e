import Foundation

/// Migration 9: the write functions check what the hot path's foreign keys checked, set-wide and
/// stricter, and the keys go. Each key was a query a row (an SPI plan run per claim and hold, with a
/// row lock): with pgbench on the server's batches, 18 % of the database's CPU a hold + release, and
/// 3,430 → 4,490 holds/s without them. `seatkit_commit` and `seatkit_write_together` are the only
/// writers of holds and claims, and each locks its change's show first (a show that is not there is
/// refused), so a change's claims and holds are of a show that exists. What the keys checked besides,
/// the functions check now: a hold is of its change's show, and a claim names one of its change's own
/// holds (the inventory writes every claim with its hold; a key allowed any hold of any show).
extension PostgresStore {
    static let keysMigration = """
        ALTER TABLE claims DROP CONSTRAINT claims_show_id_fkey, DROP CONSTRAINT claims_hold_id_fkey;
        ALTER TABLE holds DROP CONSTRAINT holds_show_id_fkey;
        """ + unplannedColumns

    /// Columns no query filters or sorts by carry no planner statistics: ANALYZE sorts a sample of each
    /// column (30,000 rows), and the log and the holds, growing a row or two a change, are analysed
    /// again at every 10 % of growth; under a rush, autovacuum was 12 % of the database's CPU.
    /// Queries find these rows by show and version, by id, token (unique), state, expiry and order.
    static let unplannedColumns = """
        ALTER TABLE show_log ALTER COLUMN created_at SET STATISTICS 0, ALTER COLUMN action SET STATISTICS 0,
          ALTER COLUMN hold_id SET STATISTICS 0, ALTER COLUMN operator SET STATISTICS 0, ALTER COLUMN reason SET STATISTICS 0,
          ALTER COLUMN order_ref SET STATISTICS 0, ALTER COLUMN delta SET STATISTICS 0;
        ALTER TABLE holds ALTER COLUMN token SET STATISTICS 0, ALTER COLUMN extended SET STATISTICS 0,
          ALTER COLUMN wheelchair SET STATISTICS 0, ALTER COLUMN created_at SET STATISTICS 0, ALTER COLUMN kind SET STATISTICS 0,
          ALTER COLUMN reason SET STATISTICS 0, ALTER COLUMN operator SET STATISTICS 0, ALTER COLUMN payment SET STATISTICS 0,
          ALTER COLUMN prices SET STATISTICS 0;
        """

    /// Raised as `foreign_key_violation`, as the keys did: the change alone is refused.
    static let ownHoldsCheck = """
        IF EXISTS (SELECT 1 FROM jsonb_array_elements(c->'insert') AS u(x) WHERE x->>'hold' IS NOT NULL
                             AND NOT (c->'holds' @> jsonb_build_array(jsonb_build_object('id', x->'hold'))))
                 OR EXISTS (SELECT 1 FROM jsonb_array_elements(c->'holds') AS w(r) WHERE r->'show' IS DISTINCT FROM c->'show') THEN
                RAISE EXCEPTION 'a claim or hold of the change to show % is not one of its own', c->>'show' USING ERRCODE = 'foreign_key_violation';
              END IF;
        """

    /// Migration 9's `seatkit_commit`: migration 8's, with the check before the change writes anything.
    static let keysCommitFunction: String = {
        edited(ownersCommitFunction, migration: 9, [("v := cur + 1;", "v := cur + 1;\n              " + ownHoldsCheck)])
    }()

    /// Migration 9's `seatkit_write_together`: migration 8's, with the checks folded into the statements
    /// that write (a hold is its change's show's, a claim names its change's hold: rows filtered, then
    /// counted); statements with nothing to do skipped (each expands the batch's JSON again); one
    /// notification a show a batch, its deltas a line each in version order (a statement and a
    /// notification a change before, and a message a change to every instance); the versions alone as
    /// its answer (each delta was sent back as it came). A refusal here sends the batch change by
    /// change (`seatkit_commit`), which says which change and why.
    static let keysTogetherFunction: String = {
        let notification = "'seatkit_events_' || current_schema(), shows_of[k] || E'\\n' || CASE WHEN length(deltas[k]) < 7000 THEN deltas[k] ELSE '' END"
        let ownHold = "x->>'hold' IS NULL OR x->'hold' = c->'holds'->0->'id' OR c->'holds' @> jsonb_build_array(jsonb_build_object('id', x->'hold'))"
        let edits = [
            ("owners text[];", "owners text[]; inserts_n bigint; keys_n bigint;"),
            (
                "coalesce(sum(jsonb_array_length(c->'sell')), 0)",
                "coalesce(sum(jsonb_array_length(c->'sell')), 0),\n         coalesce(sum(jsonb_array_length(c->'insert')), 0), count(*) FILTER (WHERE c ? 'idempotency')"
            ),
            ("INTO holds_n, deletes_n, sells_n FROM", "INTO holds_n, deletes_n, sells_n, inserts_n, keys_n FROM"),
            ("AS u(h)\n  ON CONFLICT (id)", "AS u(h)\n    WHERE h->'show' = c->'show'\n  ON CONFLICT (id)"),
            ("'a hold of the batch is no longer active'", "'a hold of the batch is no longer active, or not of its change''s show'"),
            ("  -- A show at a time, its seats as one array", "  IF deletes_n > 0 THEN\n  -- A show at a time, its seats as one array"),
            ("    deletes_n := deletes_n - n;\n  END LOOP;", "    deletes_n := deletes_n - n;\n  END LOOP;\n  END IF;"),
            (
                "jsonb_array_elements(c->'insert') AS u(x)\n    ORDER BY c->>'show', (x->>'seat')::int;",
                "jsonb_array_elements(c->'insert') AS u(x)\n    WHERE " + ownHold + "\n    ORDER BY c->>'show', (x->>'seat')::int;\n"
                    + "  GET DIAGNOSTICS n = ROW_COUNT;\n"
                    + "  IF n <> inserts_n THEN RAISE EXCEPTION 'a claim of the batch names a hold not its change''s' USING ERRCODE = 'foreign_key_violation'; END IF;\n"
                    + "  END IF;\n  IF sells_n > 0 THEN"
            ),
            ("  -- In show and seat order: overlapping holds", "  IF inserts_n > 0 THEN\n  -- In show and seat order: overlapping holds"),
            ("    sells_n := sells_n - n;\n  END LOOP;", "    sells_n := sells_n - n;\n  END LOOP;\n  END IF;"),
            ("  INSERT INTO idempotency(key", "  IF keys_n > 0 THEN\n  INSERT INTO idempotency(key"),
            (
                "FROM jsonb_array_elements(batch) AS t(c) WHERE c ? 'idempotency';",
                "FROM jsonb_array_elements(batch) AS t(c) WHERE c ? 'idempotency';\n  END IF;"
            ),
            (
                "-- One notification a change, in version order, as seatkit_commit sends them.",
                "-- One notification a show, its deltas a line each in version order."
            ),
            (
                "  FOR k IN 1 .. array_length(versions, 1) LOOP\n    PERFORM pg_notify(" + notification + ");\n  END LOOP;",
                "  PERFORM pg_notify('seatkit_events_' || current_schema(), s || E'\\n' || CASE WHEN length(d) < 7000 THEN d ELSE '' END)\n"
                    + "    FROM (SELECT shows_of[k] AS s, string_agg(deltas[k], E'\\n' ORDER BY k) AS d FROM generate_subscripts(versions, 1) AS k GROUP BY 1) AS g;"
            ),
            // The versions alone: the instance sent the deltas and numbers them itself.
            (
                "RETURN (SELECT jsonb_agg(jsonb_build_object('version', versions[k], 'delta', deltas[k]) ORDER BY k) FROM generate_subscripts(versions, 1) AS k);",
                "RETURN to_jsonb(versions);"
            ),
        ]
        return edited(ownersTogetherFunction, migration: 9, edits)
    }()
}
