-- Migration 16 of the PostgreSQL store: seatkit_write_arrays a show at a time in simple statements.
-- Applied once, in order, to a database made before the baseline; never edited once released.
--
-- `seatkit_write_arrays` a show at a time, in simple statements, when the batch comes
-- in show order (as the instance sends it: `commit(batch:)` sorts it); what it checks, writes and
-- refuses is migration 15's, which still takes a batch in any other order.
--
-- A commit cost the database ~330 µs whatever its size against ~33 µs a change (pgbench, one client),
-- and two shards' batches are half as big as one's, so that fixed part is what spreading cost
-- (#29). Of a one-change call, the statements themselves ran ~125 µs (`pg_stat_statements`); each
-- statement's executor start and end (its plan's nodes built, its expressions compiled) another
-- ~100 µs. Here:
-- - each show is locked and given its versions by one `UPDATE … RETURNING` (an index scan) in place
-- of the locking, window-numbering and ordered-aggregating statement, and no longer bumped again
-- at the end; the versions and deltas are plpgsql expressions (no executor);
-- - a show's freed and sold seats are its slice of the batch's arrays (the batch's seats come in
-- change order), one statement a show, in place of a grouping query and then a statement a show;
-- - the check that an ending hold keeps no held seat is a different statement, run only when a hold
-- of the batch ends (a plan's nodes are started even where a filter makes them read nothing);
-- - each show's notification is a plpgsql expression, not an aggregate over the batch.
-- pgbench's fixed part fell from 319-341 to 263-268 µs a commit (three turns of each, taking turns
-- on the same schemas), each change's cost the same (32-39 µs). A batch that is not in show order
-- (compared byte by byte, as the instance sorts) would lock its shows in another order than every
-- other batch: it takes migration 15's statements, which lock them sorted.
CREATE OR REPLACE FUNCTION seatkit_write_arrays(durable boolean, c_show text[], c_body text[], c_now bigint[], l_action text[], l_hold text[], l_operator text[], l_reason text[], l_order text[], k_change int[], k_key text[], k_fingerprint text[], k_status int[], k_body text[], h_change int[], h_id text[], h_token text[], h_show text[], h_state text[], h_expires bigint[], h_extended boolean[], h_order text[], h_wheelchair boolean[], h_created bigint[], h_kind text[], h_reason text[], h_operator text[], h_payment text[], h_prices text[], h_admission text[], d_change int[], d_seat int[], i_change int[], i_seat int[], i_status text[], i_hold text[], s_change int[], s_seat int[]) RETURNS bigint[] LANGUAGE plpgsql
  SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  n bigint; done_n bigint; versions bigint[]; deltas text[]; one_show text; seats int[]; owners text[];
  holds_n bigint; unreleased_n bigint;
  starts int[]; groups int; lo int; hi int; p int; q int; base bigint; lines text;
BEGIN
  IF NOT durable THEN PERFORM set_config('synchronous_commit', 'off', true); END IF;
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
    IF cardinality(d_seat) > 0 THEN
      n := 0; p := 1;
      FOR g IN 1..groups LOOP
        q := p;
        WHILE q <= cardinality(d_change) AND d_change[q] < starts[g + 1] LOOP q := q + 1; END LOOP;
        IF q > p THEN
          DELETE FROM claims WHERE show_id = c_show[starts[g]] AND seat = ANY(d_seat[p:q - 1]) AND status IN ('held', 'blocked')
            AND (seat, hold_id) IN (SELECT d.seat, h.id FROM unnest(d_change[p:q - 1], d_seat[p:q - 1]) AS d(change, seat)
                                    JOIN unnest(h_change, h_id) AS h(change, id) ON h.change = d.change);
          GET DIAGNOSTICS done_n = ROW_COUNT;
          n := n + done_n;
        END IF;
        p := q;
      END LOOP;
      IF n <> cardinality(d_seat) THEN RAISE EXCEPTION 'seats to release are no longer held or reserved' USING ERRCODE = 'SK001'; END IF;
    END IF;
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
    IF cardinality(s_seat) > 0 THEN
      n := 0; p := 1;
      FOR g IN 1..groups LOOP
        q := p;
        WHILE q <= cardinality(s_change) AND s_change[q] < starts[g + 1] LOOP q := q + 1; END LOOP;
        IF q > p THEN
          UPDATE claims SET status = 'sold' WHERE show_id = c_show[starts[g]] AND seat = ANY(s_seat[p:q - 1]) AND status IN ('held', 'blocked')
            AND (seat, hold_id) IN (SELECT s.seat, h.id FROM unnest(s_change[p:q - 1], s_seat[p:q - 1]) AS s(change, seat)
                                    JOIN unnest(h_change, h_id) AS h(change, id) ON h.change = s.change);
          GET DIAGNOSTICS done_n = ROW_COUNT;
          n := n + done_n;
        END IF;
        p := q;
      END LOOP;
      IF n <> cardinality(s_seat) THEN RAISE EXCEPTION 'seats to sell are no longer held or reserved' USING ERRCODE = 'SK001'; END IF;
    END IF;
    IF cardinality(k_key) > 0 THEN
      INSERT INTO idempotency(key, fingerprint, status, body, created_at)
        SELECT i.key, i.fingerprint, i.status, i.body, c_now[i.change]
        FROM unnest(k_change, k_key, k_fingerprint, k_status, k_body) AS i(change, key, fingerprint, status, body);
    END IF;
    -- The holds and the log; when a hold of the batch ends, the check that it keeps no held seat
    -- (the instance's view of it was stale otherwise; the claims' statements above are done).
    IF 'active' = ALL(h_state) THEN
      WITH upserted AS (INSERT INTO holds(id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment, prices, admission)
          SELECT h.id, h.token, h.show, h.state, h.expires, h.extended, h.order_ref, h.wheelchair, h.created, h.kind, h.reason, h.operator,
                 h.payment, h.prices, h.admission
          FROM unnest(h_change, h_id, h_token, h_show, h_state, h_expires, h_extended, h_order, h_wheelchair, h_created, h_kind, h_reason,
                      h_operator, h_payment, h_prices, h_admission)
            AS h(change, id, token, show, state, expires, extended, order_ref, wheelchair, created, kind, reason, operator, payment, prices, admission)
          WHERE h.show = c_show[h.change]
        ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at, extended = EXCLUDED.extended,
          order_ref = EXCLUDED.order_ref, reason = EXCLUDED.reason, operator = EXCLUDED.operator, payment = EXCLUDED.payment,
          prices = EXCLUDED.prices
        WHERE holds.state = 'active' AND (EXCLUDED.state <> 'expired' OR holds.expires_at <= EXCLUDED.expires_at)
        RETURNING 1),
        logged AS (INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta)
          SELECT c_show[k], versions[k], c_now[k], l_action[k], l_hold[k], l_operator[k], l_reason[k], l_order[k], deltas[k]
          FROM generate_subscripts(c_show, 1) AS k)
      SELECT count(*), 0 INTO holds_n, unreleased_n FROM upserted;
    ELSE
      WITH upserted AS (INSERT INTO holds(id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment, prices, admission)
          SELECT h.id, h.token, h.show, h.state, h.expires, h.extended, h.order_ref, h.wheelchair, h.created, h.kind, h.reason, h.operator,
                 h.payment, h.prices, h.admission
          FROM unnest(h_change, h_id, h_token, h_show, h_state, h_expires, h_extended, h_order, h_wheelchair, h_created, h_kind, h_reason,
                      h_operator, h_payment, h_prices, h_admission)
            AS h(change, id, token, show, state, expires, extended, order_ref, wheelchair, created, kind, reason, operator, payment, prices, admission)
          WHERE h.show = c_show[h.change]
        ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at, extended = EXCLUDED.extended,
          order_ref = EXCLUDED.order_ref, reason = EXCLUDED.reason, operator = EXCLUDED.operator, payment = EXCLUDED.payment,
          prices = EXCLUDED.prices
        WHERE holds.state = 'active' AND (EXCLUDED.state <> 'expired' OR holds.expires_at <= EXCLUDED.expires_at)
        RETURNING 1),
        logged AS (INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta)
          SELECT c_show[k], versions[k], c_now[k], l_action[k], l_hold[k], l_operator[k], l_reason[k], l_order[k], deltas[k]
          FROM generate_subscripts(c_show, 1) AS k)
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
      lines := array_to_string(deltas[starts[g]:starts[g + 1] - 1], E'\n');
      PERFORM pg_notify('seatkit_events_' || current_schema(), c_show[starts[g]] || E'\n' || CASE WHEN length(lines) < 7000 THEN lines ELSE '' END);
    END LOOP;
    RETURN versions;
  END IF;
  -- The shows locked in id order (as seatkit_commit locks them); a change's version is its
  -- show's, then its place among that show's changes.
  WITH locked AS (SELECT id, version FROM shows WHERE id = ANY(c_show) ORDER BY id FOR UPDATE),
       numbered AS (SELECT t.k, l.version + row_number() OVER (PARTITION BY l.id ORDER BY t.k) AS v
                    FROM unnest(c_show) WITH ORDINALITY AS t(s, k) JOIN locked l ON l.id = t.s)
  SELECT array_agg(v ORDER BY k), array_agg('skd1;' || (v - 1) || ';' || v || ';' || c_body[k] ORDER BY k)
    INTO versions, deltas FROM numbered;
  IF coalesce(array_length(versions, 1), 0) <> cardinality(c_show) THEN
    RAISE EXCEPTION 'a show of the batch does not exist' USING ERRCODE = 'SK001';
  END IF;
  -- A show at a time, its seats as one array (the primary key's index), each seat with its
  -- change's hold: a seat is freed only by the hold that has it. A change with two holds
  -- pairs a seat twice and is refused by the count.
  IF cardinality(d_seat) > 0 THEN
  n := 0;
  FOR one_show, seats, owners IN SELECT c_show[d.change], array_agg(d.seat), array_agg(h.id)
                           FROM unnest(d_change, d_seat) AS d(change, seat) JOIN unnest(h_change, h_id) AS h(change, id) ON h.change = d.change
                           GROUP BY 1 LOOP
    DELETE FROM claims WHERE show_id = one_show AND seat = ANY(seats) AND status IN ('held', 'blocked')
      AND (seat, hold_id) IN (SELECT * FROM unnest(seats, owners));
    GET DIAGNOSTICS done_n = ROW_COUNT;
    n := n + done_n;
  END LOOP;
  IF n <> cardinality(d_seat) THEN RAISE EXCEPTION 'seats to release are no longer held or reserved' USING ERRCODE = 'SK001'; END IF;
  END IF;
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
  IF cardinality(s_seat) > 0 THEN
  n := 0;
  FOR one_show, seats, owners IN SELECT c_show[s.change], array_agg(s.seat), array_agg(h.id)
                           FROM unnest(s_change, s_seat) AS s(change, seat) JOIN unnest(h_change, h_id) AS h(change, id) ON h.change = s.change
                           GROUP BY 1 LOOP
    UPDATE claims SET status = 'sold' WHERE show_id = one_show AND seat = ANY(seats) AND status IN ('held', 'blocked')
      AND (seat, hold_id) IN (SELECT * FROM unnest(seats, owners));
    GET DIAGNOSTICS done_n = ROW_COUNT;
    n := n + done_n;
  END LOOP;
  IF n <> cardinality(s_seat) THEN RAISE EXCEPTION 'seats to sell are no longer held or reserved' USING ERRCODE = 'SK001'; END IF;
  END IF;
  IF cardinality(k_key) > 0 THEN
  INSERT INTO idempotency(key, fingerprint, status, body, created_at)
    SELECT i.key, i.fingerprint, i.status, i.body, c_now[i.change]
    FROM unnest(k_change, k_key, k_fingerprint, k_status, k_body) AS i(change, key, fingerprint, status, body);
  END IF;
  -- The holds, the check that a hold that ends keeps no held seat (the instance's view of it was
  -- stale otherwise; the claims' statements above are done, so it sees them), the log, the
  -- shows' versions and one notification a show (its deltas a line each, in version order).
  WITH upserted AS (
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
    WHERE holds.state = 'active' AND (EXCLUDED.state <> 'expired' OR holds.expires_at <= EXCLUDED.expires_at)
    RETURNING 1),
  unreleased AS (
    SELECT count(*) AS still_held FROM unnest(h_id, h_state) AS h(id, state)
      JOIN claims ON claims.hold_id = h.id AND claims.status IN ('held', 'blocked')
      WHERE h.state <> 'active' AND NOT ('active' = ALL(h_state))),
  logged AS (
    INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta)
      SELECT c_show[k], versions[k], c_now[k], l_action[k], l_hold[k], l_operator[k], l_reason[k], l_order[k], deltas[k]
      FROM generate_subscripts(c_show, 1) AS k),
  bumped AS (
    UPDATE shows SET version = m.v FROM (SELECT c_show[k] AS id, max(versions[k]) AS v FROM generate_subscripts(c_show, 1) AS k GROUP BY 1) AS m
      WHERE shows.id = m.id)
  SELECT count(pg_notify('seatkit_events_' || current_schema(), s || E'\n' || CASE WHEN length(d) < 7000 THEN d ELSE '' END)),
         (SELECT count(*) FROM upserted), (SELECT still_held FROM unreleased)
    INTO n, holds_n, unreleased_n
    FROM (SELECT c_show[k] AS s, string_agg(deltas[k], E'\n' ORDER BY k) AS d FROM generate_subscripts(c_show, 1) AS k GROUP BY 1) AS g;
  IF holds_n <> cardinality(h_id) THEN
    RAISE EXCEPTION 'a hold of the batch is no longer active, or not of its change''s show' USING ERRCODE = 'SK001';
  END IF;
  IF unreleased_n > 0 THEN
    RAISE EXCEPTION 'a hold of the batch still holds seats its change does not release' USING ERRCODE = 'SK001';
  END IF;
  RETURN versions;
END
$$;
