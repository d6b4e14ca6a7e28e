-- Migration 12 of the PostgreSQL store: A batch written whole arrives as typed arrays in the binary format (BatchColumns).
-- Applied once, in order, to a database made before the baseline; never edited once released.
--
-- `seatkit_write_arrays`, in place of `seatkit_commit_together` and the jsonb
-- `seatkit_write_together` (dropped). Raises on any refusal (the codes `seatkit_commit_together`
-- caught), so the whole call is rolled back and no subtransaction is needed; answers the batch's
-- versions in batch order.
CREATE FUNCTION seatkit_write_arrays(durable boolean, c_show text[], c_body text[], c_now bigint[], l_action text[], l_hold text[], l_operator text[], l_reason text[], l_order text[], k_change int[], k_key text[], k_fingerprint text[], k_status int[], k_body text[], h_change int[], h_id text[], h_token text[], h_show text[], h_state text[], h_expires bigint[], h_extended boolean[], h_order text[], h_wheelchair boolean[], h_created bigint[], h_kind text[], h_reason text[], h_operator text[], h_payment text[], h_prices text[], h_admission text[], d_change int[], d_seat int[], i_change int[], i_seat int[], i_status text[], i_hold text[], s_change int[], s_seat int[]) RETURNS bigint[] LANGUAGE plpgsql
  -- Every row it reads it finds by an index. The plans are cached, made while a table was small:
  -- under a rush the check of ended holds scanned all of claims, dead rows too (1.3 of 2.8 ms a batch).
  SET enable_seqscan = off AS $$
DECLARE
  n bigint; done_n bigint; versions bigint[]; deltas text[]; one_show text; seats int[]; owners text[];
BEGIN
  IF NOT durable THEN PERFORM set_config('synchronous_commit', 'off', true); END IF;
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
  IF cardinality(h_id) > 0 THEN
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
  WHERE holds.state = 'active' AND (EXCLUDED.state <> 'expired' OR holds.expires_at <= EXCLUDED.expires_at);
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n <> cardinality(h_id) THEN
    RAISE EXCEPTION 'a hold of the batch is no longer active, or not of its change''s show' USING ERRCODE = 'SK001';
  END IF;
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
  -- A hold that ends keeps no held seat (the instance's view of it was stale otherwise).
  SELECT count(*) INTO n FROM unnest(h_id, h_state) AS h(id, state)
    JOIN claims ON claims.hold_id = h.id AND claims.status IN ('held', 'blocked') WHERE h.state <> 'active';
  IF n > 0 THEN
    RAISE EXCEPTION 'a hold of the batch still holds seats its change does not release' USING ERRCODE = 'SK001';
  END IF;
  INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta)
    SELECT c_show[k], versions[k], c_now[k], l_action[k], l_hold[k], l_operator[k], l_reason[k], l_order[k], deltas[k]
    FROM generate_subscripts(c_show, 1) AS k;
  IF cardinality(k_key) > 0 THEN
  INSERT INTO idempotency(key, fingerprint, status, body, created_at)
    SELECT i.key, i.fingerprint, i.status, i.body, c_now[i.change]
    FROM unnest(k_change, k_key, k_fingerprint, k_status, k_body) AS i(change, key, fingerprint, status, body);
  END IF;
  UPDATE shows SET version = m.v FROM (SELECT c_show[k] AS id, max(versions[k]) AS v FROM generate_subscripts(c_show, 1) AS k GROUP BY 1) AS m
    WHERE shows.id = m.id;
  -- One notification a show, its deltas a line each in version order.
  PERFORM pg_notify('seatkit_events_' || current_schema(), s || E'\n' || CASE WHEN length(d) < 7000 THEN d ELSE '' END)
    FROM (SELECT c_show[k] AS s, string_agg(deltas[k], E'\n' ORDER BY k) AS d FROM generate_subscripts(c_show, 1) AS k GROUP BY 1) AS g;
  RETURN versions;
END
$$;
DROP FUNCTION seatkit_commit_together(jsonb, boolean);
DROP FUNCTION seatkit_write_together(jsonb);
