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

    /// Migration 7: `seatkit_commit_together(batch, durable)`. The whole batch in one subtransaction of
    /// set-wide statements; when the database refuses any of it (a seat or hold another instance changed,
    /// a show edited meanwhile), that subtransaction is rolled back and `seatkit_commit` writes the batch
    /// change by change, refusing only what it must. Versions are the shows' as locked, in id order (as
    /// `seatkit_commit` locks them), then each change's place among its show's changes.
    /// Migration 7's `seatkit_commit`: migration 5's, with an expiry refused when the stored hold expires
    /// later than the instance expiring it believes (another instance extended it meanwhile: the
    /// extension changes no seat, so no instance but its own heard of it, and the others' expiry passes
    /// released the seats of an extended hold at its first expiry).
    static let expiryGuardCommitFunction: String = {
        let old = "WHERE holds.state = 'active';"
        precondition(typedRefusalsCommitFunction.contains(old), "migration 7: the commit function no longer contains \(old)")
        return typedRefusalsCommitFunction.replacingOccurrences(of: old, with: expiryGuard + ";")
    }()

    static let expiryGuard = "WHERE holds.state = 'active' AND (EXCLUDED.state <> 'expired' OR holds.expires_at <= EXCLUDED.expires_at)"

    static let togetherCommitFunction = #"""
        CREATE FUNCTION seatkit_write_together(batch jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
        DECLARE
          n bigint; shows_of text[]; versions bigint[]; deltas text[];
          holds_n bigint; deletes_n bigint; sells_n bigint; one_show text; seats int[];
        BEGIN
          WITH changes AS (SELECT c, k FROM jsonb_array_elements(batch) WITH ORDINALITY AS t(c, k)),
               locked AS (SELECT id, version FROM shows WHERE id IN (SELECT c->>'show' FROM changes) ORDER BY id FOR UPDATE),
               numbered AS (SELECT k, l.id, l.version + row_number() OVER (PARTITION BY l.id ORDER BY k) AS v, c->>'changes' AS body
                            FROM changes JOIN locked l ON l.id = changes.c->>'show')
          SELECT array_agg(id ORDER BY k), array_agg(v ORDER BY k), array_agg('skd1;' || (v - 1) || ';' || v || ';' || body ORDER BY k)
            INTO shows_of, versions, deltas FROM numbered;
          IF coalesce(array_length(versions, 1), 0) <> jsonb_array_length(batch) THEN
            RAISE EXCEPTION 'a show of the batch does not exist' USING ERRCODE = 'SK001';
          END IF;
          SELECT coalesce(sum(jsonb_array_length(c->'holds')), 0), coalesce(sum(jsonb_array_length(c->'delete')), 0),
                 coalesce(sum(jsonb_array_length(c->'sell')), 0)
            INTO holds_n, deletes_n, sells_n FROM jsonb_array_elements(batch) AS t(c);
          INSERT INTO holds(id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment, prices)
            SELECT h->>'id', h->>'token', h->>'show', h->>'state', (h->>'expiresAt')::bigint, (h->>'extended')::boolean, h->>'orderRef',
                   (h->>'wheelchair')::boolean, (h->>'createdAt')::bigint, h->>'kind', h->>'reason', h->>'operator', h->>'payment', h->>'prices'
            FROM jsonb_array_elements(batch) AS t(c), jsonb_array_elements(c->'holds') AS u(h)
          ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at, extended = EXCLUDED.extended,
            order_ref = EXCLUDED.order_ref, reason = EXCLUDED.reason, operator = EXCLUDED.operator, payment = EXCLUDED.payment,
            prices = EXCLUDED.prices
          \#(expiryGuard);
          GET DIAGNOSTICS n = ROW_COUNT;
          IF n <> holds_n THEN RAISE EXCEPTION 'a hold of the batch is no longer active' USING ERRCODE = 'SK001'; END IF;
          -- A show at a time, its seats as one array: the primary key's index, whatever the planner
          -- guesses of a jsonb function's rows (a join over them read the whole table: 5 ms a batch).
          FOR one_show, seats IN SELECT c->>'show', array_agg(s::int) FROM jsonb_array_elements(batch) AS t(c),
                                   jsonb_array_elements_text(c->'delete') AS u(s) GROUP BY 1 LOOP
            DELETE FROM claims WHERE show_id = one_show AND seat = ANY(seats) AND status IN ('held', 'blocked');
            GET DIAGNOSTICS n = ROW_COUNT;
            deletes_n := deletes_n - n;
          END LOOP;
          IF deletes_n <> 0 THEN RAISE EXCEPTION 'seats to release are no longer held or reserved' USING ERRCODE = 'SK001'; END IF;
          -- In show and seat order: overlapping holds meet in the same order and never deadlock.
          INSERT INTO claims(show_id, seat, status, hold_id)
            SELECT c->>'show', (x->>'seat')::int, x->>'status', x->>'hold' FROM jsonb_array_elements(batch) AS t(c),
                   jsonb_array_elements(c->'insert') AS u(x)
            ORDER BY c->>'show', (x->>'seat')::int;
          FOR one_show, seats IN SELECT c->>'show', array_agg(s::int) FROM jsonb_array_elements(batch) AS t(c),
                                   jsonb_array_elements_text(c->'sell') AS u(s) GROUP BY 1 LOOP
            UPDATE claims SET status = 'sold' WHERE show_id = one_show AND seat = ANY(seats) AND status IN ('held', 'blocked');
            GET DIAGNOSTICS n = ROW_COUNT;
            sells_n := sells_n - n;
          END LOOP;
          IF sells_n <> 0 THEN RAISE EXCEPTION 'seats to sell are no longer held or reserved' USING ERRCODE = 'SK001'; END IF;
          -- A hold that ends keeps no held seat (the instance's view of it was stale otherwise).
          IF EXISTS (SELECT 1 FROM jsonb_array_elements(batch) AS t(c), jsonb_array_elements(c->'holds') AS u(h)
                     JOIN claims ON claims.hold_id = h->>'id' AND claims.status IN ('held', 'blocked') WHERE h->>'state' <> 'active') THEN
            RAISE EXCEPTION 'a hold of the batch still holds seats its change does not release' USING ERRCODE = 'SK001';
          END IF;
          INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta)
            SELECT shows_of[k], versions[k], (c->>'now')::bigint, c->'log'->>'action', c->'log'->>'hold', c->'log'->>'operator',
                   c->'log'->>'reason', c->'log'->>'orderRef', deltas[k]
            FROM jsonb_array_elements(batch) WITH ORDINALITY AS t(c, k);
          INSERT INTO idempotency(key, fingerprint, status, body, created_at)
            SELECT c->'idempotency'->>'key', c->'idempotency'->>'fingerprint', (c->'idempotency'->>'status')::int, c->'idempotency'->>'body',
                   (c->>'now')::bigint
            FROM jsonb_array_elements(batch) AS t(c) WHERE c ? 'idempotency';
          UPDATE shows SET version = m.v FROM (SELECT shows_of[k] AS id, max(versions[k]) AS v FROM generate_subscripts(versions, 1) AS k GROUP BY 1) AS m
            WHERE shows.id = m.id;
          -- One notification a change, in version order, as seatkit_commit sends them.
          FOR k IN 1 .. array_length(versions, 1) LOOP
            PERFORM pg_notify('seatkit_events_' || current_schema(), shows_of[k] || E'\n' || CASE WHEN length(deltas[k]) < 7000 THEN deltas[k] ELSE '' END);
          END LOOP;
          RETURN (SELECT jsonb_agg(jsonb_build_object('version', versions[k], 'delta', deltas[k]) ORDER BY k) FROM generate_subscripts(versions, 1) AS k);
        END
        $$;
        CREATE FUNCTION seatkit_commit_together(batch jsonb, durable boolean) RETURNS jsonb LANGUAGE plpgsql AS $$
        BEGIN
          IF NOT durable THEN PERFORM set_config('synchronous_commit', 'off', true); END IF;
          BEGIN
            RETURN jsonb_build_object('together', true, 'results', seatkit_write_together(batch));
          EXCEPTION WHEN unique_violation OR foreign_key_violation OR cardinality_violation OR SQLSTATE 'SK001' OR SQLSTATE 'SK002' THEN
            -- Something of the batch is refused: written again change by change (each refusal alone).
            RETURN jsonb_build_object('together', false, 'results', seatkit_commit(batch, durable));
          END;
        END
        $$;
        """#
}
