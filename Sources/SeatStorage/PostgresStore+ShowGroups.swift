import Foundation

/// Migration 15: `seatkit_write_arrays` a show at a time, in simple statements, when the batch comes
/// in show order (as the instance sends it: `commit(batch:)` sorts it); what it checks, writes and
/// refuses is migration 14's, which still takes a batch in any other order.
///
/// A commit cost the database ~330 µs whatever its size against ~33 µs a change (pgbench, one client),
/// and two shards' batches are half as big as one's, so that fixed part is what spreading cost
/// (#29). Of a one-change call, the statements themselves ran ~125 µs (`pg_stat_statements`); each
/// statement's executor start and end (its plan's nodes built, its expressions compiled) another
/// ~100 µs. Here:
/// - each show is locked and given its versions by one `UPDATE … RETURNING` (an index scan) in place
///   of the locking, window-numbering and ordered-aggregating statement, and no longer bumped again
///   at the end; the versions and deltas are plpgsql expressions (no executor);
/// - a show's freed and sold seats are its slice of the batch's arrays (the batch's seats come in
///   change order), one statement a show, in place of a grouping query and then a statement a show;
/// - the check that an ending hold keeps no held seat is a different statement, run only when a hold
///   of the batch ends (a plan's nodes are started even where a filter makes them read nothing);
/// - each show's notification is a plpgsql expression, not an aggregate over the batch.
/// pgbench's fixed part fell from 319-341 to 263-268 µs a commit (three turns of each, taking turns
/// on the same schemas), each change's cost the same (32-39 µs). A batch that is not in show order
/// (compared byte by byte, as the instance sorts) would lock its shows in another order than every
/// other batch: it takes migration 14's statements, which lock them sorted.
extension PostgresStore {
    static let showGroupsArraysFunction: String = {
        let declarations = "holds_n bigint; unreleased_n bigint;\n"
        let start = "IF NOT durable THEN PERFORM set_config('synchronous_commit', 'off', true); END IF;\n"
        for part in [declarations, start] {
            precondition(leanArraysFunction.contains(part), "migration 15: migration 14's function no longer contains \(part)")
        }
        return
            leanArraysFunction
            .replacingOccurrences(of: declarations, with: declarations + "  starts int[]; groups int; lo int; hi int; p int; q int; base bigint; lines text;\n")
            .replacingOccurrences(of: start, with: start + showGroups)
    }()

    /// The statements a show at a time; ends the function when it takes the batch.
    static let showGroups = """
          -- Where each show's changes start; NULL when the batch is not in show order.
          starts := '{}';
          FOR k IN 1..cardinality(c_show) LOOP
            IF k = 1 OR c_show[k] <> c_show[k - 1] THEN
              IF k > 1 AND c_show[k] COLLATE "C" < c_show[k - 1] COLLATE "C" THEN starts := NULL; EXIT; END IF;
              starts := starts || k;
            END IF;
          END LOOP;
          IF cardinality(starts) > 0 THEN
            starts := starts || (cardinality(c_show) + 1);
            groups := cardinality(starts) - 1;
            -- Each show locked (in show order) and moved past its changes; a change's version is its
            -- show's, then its place among that show's changes.
            FOR g IN 1..groups LOOP
              lo := starts[g]; hi := starts[g + 1] - 1;
              UPDATE shows SET version = version + (hi - lo + 1) WHERE id = c_show[lo] RETURNING version - (hi - lo + 1) INTO base;
              IF NOT FOUND THEN RAISE EXCEPTION 'a show of the batch does not exist' USING ERRCODE = 'SK001'; END IF;
              FOR k IN lo..hi LOOP
                versions[k] := base + (k - lo + 1);
                deltas[k] := 'skd1;' || (versions[k] - 1) || ';' || versions[k] || ';' || c_body[k];
              END LOOP;
            END LOOP;
            -- A show's freed seats (and its sold ones, below) are the slice of the array whose changes
            -- are its (the seats come in change order), each seat with its change's hold: a seat is freed
            -- or sold only by the hold that has it. Seats out of change order are missed and the count
            -- refuses the batch.
        \(seatsAShowAtATime("d", "DELETE FROM claims", refusal: "seats to release are no longer held or reserved"))
            -- In show and seat order: overlapping holds meet in the same order and never deadlock. A
            -- claim names one of its own change's holds, or none.
            IF cardinality(i_seat) > 0 THEN
              INSERT INTO claims(show_id, seat, status, hold_id)
                SELECT c_show[i.change], i.seat, i.status, i.hold FROM unnest(i_change, i_seat, i_status, i_hold) AS i(change, seat, status, hold)
                WHERE i.hold IS NULL OR (i.change, i.hold) IN (SELECT * FROM unnest(h_change, h_id))
                ORDER BY 1, 2;
              GET DIAGNOSTICS n = ROW_COUNT;
              IF n <> cardinality(i_seat) THEN
                RAISE EXCEPTION 'a claim of the batch names a hold not its change''s' USING ERRCODE = 'foreign_key_violation';
              END IF;
            END IF;
        \(seatsAShowAtATime("s", "UPDATE claims SET status = 'sold'", refusal: "seats to sell are no longer held or reserved"))
            IF cardinality(k_key) > 0 THEN
              INSERT INTO idempotency(key, fingerprint, status, body, created_at)
                SELECT i.key, i.fingerprint, i.status, i.body, c_now[i.change]
                FROM unnest(k_change, k_key, k_fingerprint, k_status, k_body) AS i(change, key, fingerprint, status, body);
            END IF;
            -- The holds and the log; when a hold of the batch ends, the check that it keeps no held seat
            -- (the instance's view of it was stale otherwise; the claims' statements above are done).
            IF 'active' = ALL(h_state) THEN
              WITH upserted AS (\(upsertHolds)),
                logged AS (\(insertLog))
              SELECT count(*), 0 INTO holds_n, unreleased_n FROM upserted;
            ELSE
              WITH upserted AS (\(upsertHolds)),
                logged AS (\(insertLog))
              SELECT (SELECT count(*) FROM upserted),
                     (SELECT count(*) FROM unnest(h_id, h_state) AS h(id, state)
                        JOIN claims ON claims.hold_id = h.id AND claims.status IN ('held', 'blocked') WHERE h.state <> 'active')
                INTO holds_n, unreleased_n;
            END IF;
            IF holds_n <> cardinality(h_id) THEN
              RAISE EXCEPTION 'a hold of the batch is no longer active, or not of its change''s show' USING ERRCODE = 'SK001';
            END IF;
            IF unreleased_n > 0 THEN
              RAISE EXCEPTION 'a hold of the batch still holds seats its change does not release' USING ERRCODE = 'SK001';
            END IF;
            -- One notification a show, its deltas a line each in version order (none past 7,000 bytes:
            -- the listener reads the show's log instead).
            FOR g IN 1..groups LOOP
              lines := array_to_string(deltas[starts[g]:starts[g + 1] - 1], E'\\n');
              PERFORM pg_notify('seatkit_events_' || current_schema(), c_show[starts[g]] || E'\\n' || CASE WHEN length(lines) < 7000 THEN lines ELSE '' END);
            END LOOP;
            RETURN versions;
          END IF;

        """

    /// The freed (`d`) or sold (`s`) seats' statement, once a show: a show's seats are the slice of the
    /// `<column>_seat` array whose changes are its, found by walking `<column>_change` (in change order).
    static func seatsAShowAtATime(_ column: String, _ statement: String, refusal: String) -> String {
        """
            IF cardinality(\(column)_seat) > 0 THEN
              n := 0; p := 1;
              FOR g IN 1..groups LOOP
                q := p;
                WHILE q <= cardinality(\(column)_change) AND \(column)_change[q] < starts[g + 1] LOOP q := q + 1; END LOOP;
                IF q > p THEN
                  \(statement) WHERE show_id = c_show[starts[g]] AND seat = ANY(\(column)_seat[p:q - 1]) AND status IN ('held', 'blocked')
                    AND (seat, hold_id) IN (SELECT \(column).seat, h.id FROM unnest(\(column)_change[p:q - 1], \(column)_seat[p:q - 1]) AS \(column)(change, seat)
                                            JOIN unnest(h_change, h_id) AS h(change, id) ON h.change = \(column).change);
                  GET DIAGNOSTICS done_n = ROW_COUNT;
                  n := n + done_n;
                END IF;
                p := q;
              END LOOP;
              IF n <> cardinality(\(column)_seat) THEN RAISE EXCEPTION '\(refusal)' USING ERRCODE = 'SK001'; END IF;
            END IF;
        """
    }

    /// The holds' upsert of migration 14 (a hold of the batch is its change's show's, and an ended hold
    /// is not written again).
    static let upsertHolds = """
        INSERT INTO holds(id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment, prices, admission)
                  SELECT h.id, h.token, h.show, h.state, h.expires, h.extended, h.order_ref, h.wheelchair, h.created, h.kind, h.reason, h.operator,
                         h.payment, h.prices, h.admission
                  FROM unnest(h_change, h_id, h_token, h_show, h_state, h_expires, h_extended, h_order, h_wheelchair, h_created, h_kind, h_reason,
                              h_operator, h_payment, h_prices, h_admission)
                    AS h(change, id, token, show, state, expires, extended, order_ref, wheelchair, created, kind, reason, operator, payment, prices, admission)
                  WHERE h.show = c_show[h.change]
                ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at, extended = EXCLUDED.extended,
                  order_ref = EXCLUDED.order_ref, reason = EXCLUDED.reason, operator = EXCLUDED.operator, payment = EXCLUDED.payment,
                  prices = EXCLUDED.prices
                \(expiryGuard)
                RETURNING 1
        """

    static let insertLog = """
        INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta)
                  SELECT c_show[k], versions[k], c_now[k], l_action[k], l_hold[k], l_operator[k], l_reason[k], l_order[k], deltas[k]
                  FROM generate_subscripts(c_show, 1) AS k
        """
}
