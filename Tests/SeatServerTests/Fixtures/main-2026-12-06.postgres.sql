-- A PostgreSQL store made by a released main (scripts/make-schema-fixtures.sh): its schema and data.

CREATE FUNCTION seatkit_commit(batch jsonb, durable boolean) RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
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
              IF EXISTS (SELECT 1 FROM jsonb_array_elements(c->'insert') AS u(x) WHERE x->>'hold' IS NOT NULL
                     AND NOT (c->'holds' @> jsonb_build_array(jsonb_build_object('id', x->'hold'))))
         OR EXISTS (SELECT 1 FROM jsonb_array_elements(c->'holds') AS w(r) WHERE r->'show' IS DISTINCT FROM c->'show') THEN
        RAISE EXCEPTION 'a claim or hold of the change to show % is not one of its own', c->>'show' USING ERRCODE = 'foreign_key_violation';
      END IF;
              IF c ? 'showBase' AND NOT EXISTS (SELECT 1 FROM shows s WHERE s.id = c->>'show' AND s.starts_at = c->'showBase'->>'startsAt' AND s.prices = c->'showBase'->>'prices' AND s.policy = c->'showBase'->>'policy' AND s.hold_seconds = (c->'showBase'->>'holdSeconds')::int AND s.details = c->'showBase'->>'details' AND s.on_sale = (c->'showBase'->>'onSale')::boolean AND s.cancelled_at IS NOT DISTINCT FROM (c->'showBase'->>'cancelledAt')::bigint AND s.price_revision = (c->'showBase'->>'priceRevision')::int AND s.earlier_prices = c->'showBase'->>'earlierPrices') THEN RAISE EXCEPTION 'show % changed meanwhile on another instance', c->>'show' USING ERRCODE = 'SK002'; END IF;
      FOR h IN SELECT value FROM jsonb_array_elements(c->'holds') LOOP
        INSERT INTO holds(id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment, prices, admission)
        VALUES (h->>'id', h->>'token', h->>'show', h->>'state', (h->>'expiresAt')::bigint, (h->>'extended')::boolean,
                h->>'orderRef', (h->>'wheelchair')::boolean, (h->>'createdAt')::bigint, h->>'kind', h->>'reason', h->>'operator', h->>'payment', h->>'prices', h->>'admission')
        ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at,
          extended = EXCLUDED.extended, order_ref = EXCLUDED.order_ref, reason = EXCLUDED.reason, operator = EXCLUDED.operator, payment = EXCLUDED.payment, prices = EXCLUDED.prices
        WHERE holds.state = 'active' AND (EXCLUDED.state <> 'expired' OR holds.expires_at <= EXCLUDED.expires_at);
        GET DIAGNOSTICS n = ROW_COUNT;
        IF n <> 1 THEN RAISE EXCEPTION 'hold % is no longer active', h->>'id' USING ERRCODE = 'SK001'; END IF;
      END LOOP;
      IF jsonb_array_length(c->'delete') > 0 THEN
        DELETE FROM claims WHERE show_id = c->>'show' AND status IN ('held', 'blocked')
          AND seat IN (SELECT value::int FROM jsonb_array_elements_text(c->'delete')) AND hold_id IN (SELECT value->>'id' FROM jsonb_array_elements(c->'holds'));
        GET DIAGNOSTICS n = ROW_COUNT;
        IF n <> jsonb_array_length(c->'delete') THEN RAISE EXCEPTION 'seats to release are no longer held or reserved' USING ERRCODE = 'SK001'; END IF;
      END IF;
      FOR h IN SELECT value FROM jsonb_array_elements(coalesce(c->'refunds', '[]'::jsonb)) LOOP DELETE FROM claims WHERE show_id = c->>'show' AND status = 'sold' AND hold_id = h->>'hold' AND seat = (h->>'seat')::int; GET DIAGNOSTICS n = ROW_COUNT; IF n <> 1 THEN RAISE EXCEPTION 'seat % is no longer sold in %', h->>'seat', h->>'hold' USING ERRCODE = 'SK001'; END IF; INSERT INTO refunds(hold_id, seat, refunded_at, reason, operator, returned_to) VALUES (h->>'hold', (h->>'seat')::int, (h->>'at')::bigint, h->>'reason', h->>'operator', h->>'returnedTo'); END LOOP;
              -- In seat order: overlapping holds meet in the same order and never deadlock.
      INSERT INTO claims(show_id, seat, status, hold_id)
        SELECT c->>'show', (x->>'seat')::int, x->>'status', x->>'hold' FROM jsonb_array_elements(c->'insert') AS x
        ORDER BY (x->>'seat')::int;
      IF jsonb_array_length(c->'sell') > 0 THEN
        UPDATE claims SET status = 'sold' WHERE show_id = c->>'show' AND status IN ('held', 'blocked')
          AND seat IN (SELECT value::int FROM jsonb_array_elements_text(c->'sell')) AND hold_id IN (SELECT value->>'id' FROM jsonb_array_elements(c->'holds'));
        GET DIAGNOSTICS n = ROW_COUNT;
        IF n <> jsonb_array_length(c->'sell') THEN RAISE EXCEPTION 'seats to sell are no longer held or reserved' USING ERRCODE = 'SK001'; END IF;
      END IF;
                    -- A hold that ends (released, expired, sold) keeps no held seat: if it would, this instance's view
      -- of the hold was stale and the change is refused (the instance reloads and the client retries).
      FOR h IN SELECT value FROM jsonb_array_elements(c->'holds') LOOP
        IF h->>'state' <> 'active' AND EXISTS (SELECT 1 FROM claims WHERE hold_id = h->>'id' AND status IN ('held', 'blocked')) THEN
          RAISE EXCEPTION 'hold % still holds seats this change does not release', h->>'id' USING ERRCODE = 'SK001';
        END IF;
      END LOOP;
      delta := 'skd1;' || (v - 1) || ';' || v || ';' || (c->>'changes');
      INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta) VALUES (c->>'show', v, (c->>'now')::bigint, c->'log'->>'action', c->'log'->>'hold', c->'log'->>'operator', c->'log'->>'reason', c->'log'->>'orderRef', delta);
              IF c ? 'showRow' THEN UPDATE shows SET starts_at = c->'showRow'->>'startsAt', prices = c->'showRow'->>'prices', policy = c->'showRow'->>'policy', hold_seconds = (c->'showRow'->>'holdSeconds')::int, details = c->'showRow'->>'details', on_sale = (c->'showRow'->>'onSale')::boolean, cancelled_at = (c->'showRow'->>'cancelledAt')::bigint, price_revision = (c->'showRow'->>'priceRevision')::int, earlier_prices = c->'showRow'->>'earlierPrices' WHERE id = c->>'show'; END IF;
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
    EXCEPTION WHEN unique_violation OR SQLSTATE 'SK001' OR SQLSTATE 'SK002' OR foreign_key_violation THEN
      result := result || jsonb_build_array(jsonb_build_object('refused', SQLERRM, 'code', SQLSTATE));
    END;
  END LOOP;
  IF show IS NOT NULL AND cur IS NOT NULL THEN UPDATE shows SET version = cur WHERE id = show; END IF;
  RETURN result;
END
$$;

CREATE FUNCTION seatkit_write_arrays(durable boolean, c_show text[], c_body text[], c_now bigint[], l_action text[], l_hold text[], l_operator text[], l_reason text[], l_order text[], k_change integer[], k_key text[], k_fingerprint text[], k_status integer[], k_body text[], h_change integer[], h_id text[], h_token text[], h_show text[], h_state text[], h_expires bigint[], h_extended boolean[], h_order text[], h_wheelchair boolean[], h_created bigint[], h_kind text[], h_reason text[], h_operator text[], h_payment text[], h_prices text[], h_admission text[], d_change integer[], d_seat integer[], i_change integer[], i_seat integer[], i_status text[], i_hold text[], s_change integer[], s_seat integer[]) RETURNS bigint[]
    LANGUAGE plpgsql
    SET enable_seqscan TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
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

CREATE TABLE checkins (
    show_id text NOT NULL,
    nonce text NOT NULL,
    ticket_id text NOT NULL,
    seat integer NOT NULL,
    direction text NOT NULL,
    gate text NOT NULL,
    operator text NOT NULL,
    at bigint NOT NULL,
    seq bigint NOT NULL,
    CONSTRAINT checkins_direction_check CHECK ((direction = ANY (ARRAY['in'::text, 'out'::text])))
);

CREATE TABLE claims (
    show_id text NOT NULL,
    seat integer NOT NULL,
    status text NOT NULL,
    hold_id text,
    CONSTRAINT claims_status_check CHECK ((status = ANY (ARRAY['held'::text, 'sold'::text, 'blocked'::text])))
);

CREATE TABLE holds (
    id text NOT NULL,
    token text NOT NULL,
    show_id text NOT NULL,
    state text NOT NULL,
    expires_at bigint NOT NULL,
    extended boolean NOT NULL,
    order_ref text,
    wheelchair boolean NOT NULL,
    created_at bigint NOT NULL,
    kind text DEFAULT 'buyer'::text NOT NULL,
    reason text,
    operator text,
    payment text,
    prices text,
    admission text,
    CONSTRAINT holds_kind_check CHECK ((kind = ANY (ARRAY['buyer'::text, 'blocked'::text, 'house'::text, 'counter'::text]))),
    CONSTRAINT holds_state_check CHECK ((state = ANY (ARRAY['active'::text, 'released'::text, 'expired'::text, 'confirmed'::text])))
);
ALTER TABLE ONLY holds ALTER COLUMN token SET STATISTICS 0;
ALTER TABLE ONLY holds ALTER COLUMN extended SET STATISTICS 0;
ALTER TABLE ONLY holds ALTER COLUMN wheelchair SET STATISTICS 0;
ALTER TABLE ONLY holds ALTER COLUMN created_at SET STATISTICS 0;
ALTER TABLE ONLY holds ALTER COLUMN kind SET STATISTICS 0;
ALTER TABLE ONLY holds ALTER COLUMN reason SET STATISTICS 0;
ALTER TABLE ONLY holds ALTER COLUMN operator SET STATISTICS 0;
ALTER TABLE ONLY holds ALTER COLUMN payment SET STATISTICS 0;
ALTER TABLE ONLY holds ALTER COLUMN prices SET STATISTICS 0;
ALTER TABLE ONLY holds ALTER COLUMN admission SET STATISTICS 0;

CREATE TABLE idempotency (
    key text NOT NULL,
    fingerprint text NOT NULL,
    status integer NOT NULL,
    body text NOT NULL,
    created_at bigint NOT NULL
);

CREATE TABLE order_contacts (
    order_ref text NOT NULL,
    show_id text NOT NULL,
    name text,
    phone text,
    at bigint NOT NULL
);

CREATE TABLE queue_entries (
    show_id text NOT NULL,
    key text NOT NULL,
    address text NOT NULL,
    seq bigint NOT NULL,
    arrived_at bigint NOT NULL,
    state text NOT NULL,
    place integer,
    admitted_until bigint,
    used integer NOT NULL,
    last_seen bigint NOT NULL,
    revision bigint NOT NULL,
    CONSTRAINT queue_entries_state_check CHECK ((state = ANY (ARRAY['early'::text, 'waiting'::text, 'admitted'::text, 'soldOut'::text, 'left'::text])))
);

CREATE TABLE queues (
    show_id text NOT NULL,
    created_at bigint NOT NULL,
    opens_at bigint NOT NULL,
    admit_per_minute integer NOT NULL,
    early_minutes integer NOT NULL,
    admission_minutes integer NOT NULL,
    max_per_address integer NOT NULL,
    opened_at bigint,
    early_count integer NOT NULL,
    credit double precision NOT NULL,
    last_advance bigint,
    sold_out integer NOT NULL,
    off_at bigint,
    revision bigint NOT NULL,
    max_per_network integer DEFAULT 64 NOT NULL,
    max_joins_per_second integer DEFAULT 1000 NOT NULL
);

CREATE TABLE refunds (
    hold_id text NOT NULL,
    seat integer NOT NULL,
    refunded_at bigint NOT NULL,
    reason text NOT NULL,
    operator text NOT NULL,
    returned_to text
);

CREATE TABLE schema_migrations (
    version integer NOT NULL
);

CREATE TABLE show_log (
    show_id text NOT NULL,
    version bigint NOT NULL,
    created_at bigint NOT NULL,
    action text NOT NULL,
    hold_id text,
    operator text,
    reason text,
    order_ref text,
    delta text NOT NULL
);
ALTER TABLE ONLY show_log ALTER COLUMN created_at SET STATISTICS 0;
ALTER TABLE ONLY show_log ALTER COLUMN action SET STATISTICS 0;
ALTER TABLE ONLY show_log ALTER COLUMN hold_id SET STATISTICS 0;
ALTER TABLE ONLY show_log ALTER COLUMN operator SET STATISTICS 0;
ALTER TABLE ONLY show_log ALTER COLUMN reason SET STATISTICS 0;
ALTER TABLE ONLY show_log ALTER COLUMN order_ref SET STATISTICS 0;
ALTER TABLE ONLY show_log ALTER COLUMN delta SET STATISTICS 0;

CREATE TABLE shows (
    id text NOT NULL,
    venue_id text NOT NULL,
    starts_at text NOT NULL,
    prices text NOT NULL,
    policy text NOT NULL,
    hold_seconds integer NOT NULL,
    version bigint NOT NULL,
    details text DEFAULT '{}'::text NOT NULL,
    on_sale boolean DEFAULT true NOT NULL,
    cancelled_at bigint,
    price_revision integer DEFAULT 0 NOT NULL,
    earlier_prices text DEFAULT '[]'::text NOT NULL
);

CREATE TABLE ticket_presence (
    show_id text NOT NULL,
    ticket_id text NOT NULL,
    inside integer NOT NULL,
    seat integer NOT NULL,
    nonce text NOT NULL,
    gate text NOT NULL,
    operator text NOT NULL,
    at bigint NOT NULL
);

CREATE TABLE venues (
    id text NOT NULL,
    fingerprint text NOT NULL,
    layout text NOT NULL,
    created_at bigint NOT NULL
);

INSERT INTO claims VALUES ('fixture-show', 103, 'sold', 'h_01a24acdbf5fc291a453b1cb20f6');
INSERT INTO claims VALUES ('fixture-show', 104, 'sold', 'h_01a24acdbf5fc291a453b1cb20f6');
INSERT INTO claims VALUES ('fixture-show', 119, 'held', 'h_01a24acdbf6814008c060fdc15a3');
INSERT INTO claims VALUES ('fixture-show', 71, 'sold', 's_01a24acdbf6b3587254113debccd');
INSERT INTO claims VALUES ('fixture-show', 135, 'blocked', 'r_01a24acdbf6d6b0db8064e0b2128');

INSERT INTO holds VALUES ('h_01a24acdbf5fc291a453b1cb20f6', '01a24acdbf5f2ea4995a3796fc412dcecef09d9ea30bbf037098', 'fixture-show', 'confirmed', 1796551927583, false, 'FIXTURE-1', false, 1796551327583, 'buyer', NULL, NULL, NULL, NULL, NULL);
INSERT INTO holds VALUES ('h_01a24acdbf6814008c060fdc15a3', '01a24acdbf6864f8e4c579351ed57d3a68eb7202cfb19d076ede', 'fixture-show', 'active', 1796551927592, false, NULL, false, 1796551327592, 'buyer', NULL, NULL, NULL, NULL, NULL);
INSERT INTO holds VALUES ('s_01a24acdbf6b3587254113debccd', '01a24acdbf6b8a2067bdeebc4b568ddf8171ed1ff0f8464dfd26', 'fixture-show', 'confirmed', 1796551327595, false, 'COUNTER-1', false, 1796551327595, 'counter', NULL, 'admin', 'cash', NULL, NULL);
INSERT INTO holds VALUES ('r_01a24acdbf6d6b0db8064e0b2128', '01a24acdbf6dc786edfca5a35d13757e619d4b531c56d97d5978', 'fixture-show', 'active', 253402300799000, false, NULL, false, 1796551327597, 'house', 'guests', 'admin', NULL, NULL, NULL);

INSERT INTO order_contacts VALUES ('COUNTER-1', 'fixture-show', '王小明', '13800138000', 1796551327596);

INSERT INTO queues VALUES ('fixture-queued', 1796551327603, 4101415200000, 100, 30, 10, 8, NULL, 0, 0, NULL, 0, NULL, 1, 64, 1000);

INSERT INTO refunds VALUES ('s_01a24acdbf6b3587254113debccd', 72, 1796551327600, 'changed plans', 'admin', NULL);

INSERT INTO schema_migrations VALUES (1);
INSERT INTO schema_migrations VALUES (2);
INSERT INTO schema_migrations VALUES (3);
INSERT INTO schema_migrations VALUES (4);
INSERT INTO schema_migrations VALUES (5);
INSERT INTO schema_migrations VALUES (6);
INSERT INTO schema_migrations VALUES (7);
INSERT INTO schema_migrations VALUES (8);
INSERT INTO schema_migrations VALUES (9);
INSERT INTO schema_migrations VALUES (10);
INSERT INTO schema_migrations VALUES (11);
INSERT INTO schema_migrations VALUES (12);
INSERT INTO schema_migrations VALUES (13);
INSERT INTO schema_migrations VALUES (14);
INSERT INTO schema_migrations VALUES (15);
INSERT INTO schema_migrations VALUES (16);
INSERT INTO schema_migrations VALUES (17);
INSERT INTO schema_migrations VALUES (18);

INSERT INTO show_log VALUES ('fixture-show', 1, 1796551327583, 'hold', 'h_01a24acdbf5fc291a453b1cb20f6', NULL, NULL, NULL, 'skd1;0;1;103h,104h');
INSERT INTO show_log VALUES ('fixture-show', 2, 1796551327589, 'confirm', 'h_01a24acdbf5fc291a453b1cb20f6', NULL, NULL, 'FIXTURE-1', 'skd1;1;2;103s,104s');
INSERT INTO show_log VALUES ('fixture-show', 3, 1796551327592, 'hold', 'h_01a24acdbf6814008c060fdc15a3', NULL, NULL, NULL, 'skd1;2;3;119h');
INSERT INTO show_log VALUES ('fixture-show', 4, 1796551327595, 'sell', 's_01a24acdbf6b3587254113debccd', 'admin', NULL, 'COUNTER-1', 'skd1;3;4;71s,72s');
INSERT INTO show_log VALUES ('fixture-show', 5, 1796551327597, 'house', 'r_01a24acdbf6d6b0db8064e0b2128', 'admin', 'guests', NULL, 'skd1;4;5;135b');
INSERT INTO show_log VALUES ('fixture-show', 6, 1796551327600, 'refund', NULL, 'admin', 'changed plans', 'COUNTER-1', 'skd1;5;6;72a');
INSERT INTO show_log VALUES ('fixture-queued', 1, 1796551327606, 'queue', NULL, 'admin', 'opens 2099-12-20T10:00:00+08:00, 100 a minute, early 30 min, admission 10 min, 8 an address, 64 a network, 1000 arrivals a second', NULL, 'skd1;0;1;');

INSERT INTO shows VALUES ('fixture-show', 'cinema-hall-3', '2099-12-24T19:30:00+08:00', '{"currency":"CNY","minorUnits":2,"categories":{"couple":"99.00","standard":"38.00","vip":"58.00"},"adjustments":[]}', '{"maxSeats":6,"couplesTogether":true,"noLoneSeat":true,"wheelchairOnRequest":true,"companionWithWheelchair":true}', 600, 6, '{"title":{"en":"Homeward","zh":"星际归途"},"duration":112}', true, NULL, 0, '[]');
INSERT INTO shows VALUES ('fixture-queued', 'cinema-hall-3', '2099-12-25T19:30:00+08:00', '{"currency":"CNY","minorUnits":2,"categories":{"couple":"99.00","standard":"38.00","vip":"58.00"},"adjustments":[]}', '{"maxSeats":6,"couplesTogether":true,"noLoneSeat":true,"wheelchairOnRequest":true,"companionWithWheelchair":true}', 600, 1, '{}', true, NULL, 0, '[]');

INSERT INTO venues VALUES ('cinema-hall-3', '7eef68f6c6a56904', '{"format":"seatkit-layout","version":1,"id":"cinema-hall-3","name":"3号厅 Hall 3","stage":{"label":"银幕 SCREEN","x":8.5,"y":-2.5,"width":12},"zones":[
{"id":"standard","name":"普通区 Standard","category":"standard","color":"#4A90D9"},
{"id":"vip","name":"VIP区 VIP","category":"vip","color":"#E5A000"},
{"id":"couple","name":"情侣座 Couple","category":"couple","color":"#E8505B"}],
"rows":[
{"label":"1","zone":"standard","y":0,"seats":[{"id":"1-15","label":"15","x":0,"type":"wheelchair","partner":"1-13"},{"id":"1-13","label":"13","x":1,"type":"companion","partner":"1-15"},{"id":"1-11","label":"11","x":2,"flags":["restrictedView"]},{"id":"1-9","label":"9","x":3,"flags":["restrictedView"]},{"id":"1-7","label":"7","x":5},{"id":"1-5","label":"5","x":6},{"id":"1-3","label":"3","x":7},{"id":"1-1","label":"1","x":8},{"id":"1-2","label":"2","x":9},{"id":"1-4","label":"4","x":10},{"id":"1-6","label":"6","x":11},{"id":"1-8","label":"8","x":12},{"id":"1-10","label":"10","x":14,"flags":["restrictedView"]},{"id":"1-12","label":"12","x":15,"flags":["restrictedView"]},{"id":"1-14","label":"14","x":16,"type":"companion","partner":"1-16"},{"id":"1-16","label":"16","x":17,"type":"wheelchair","partner":"1-14"}]},
{"label":"2","zone":"standard","y":1,"seats":[{"id":"2-15","label":"15","x":0},{"id":"2-13","label":"13","x":1},{"id":"2-11","label":"11","x":2},{"id":"2-9","label":"9","x":3},{"id":"2-7","label":"7","x":5},{"id":"2-5","label":"5","x":6},{"id":"2-3","label":"3","x":7},{"id":"2-1","label":"1","x":8},{"id":"2-2","label":"2","x":9},{"id":"2-4","label":"4","x":10},{"id":"2-6","label":"6","x":11},{"id":"2-8","label":"8","x":12},{"id":"2-10","label":"10","x":14},{"id":"2-12","label":"12","x":15},{"id":"2-14","label":"14","x":16},{"id":"2-16","label":"16","x":17}]},
{"label":"3","zone":"standard","y":2,"seats":[{"id":"3-15","label":"15","x":0},{"id":"3-13","label":"13","x":1},{"id":"3-11","label":"11","x":2},{"id":"3-9","label":"9","x":3},{"id":"3-7","label":"7","x":5},{"id":"3-5","label":"5","x":6},{"id":"3-3","label":"3","x":7},{"id":"3-1","label":"1","x":8},{"id":"3-2","label":"2","x":9},{"id":"3-4","label":"4","x":10},{"id":"3-6","label":"6","x":11},{"id":"3-8","label":"8","x":12},{"id":"3-10","label":"10","x":14},{"id":"3-12","label":"12","x":15},{"id":"3-14","label":"14","x":16},{"id":"3-16","label":"16","x":17}]},
{"label":"4","zone":"standard","y":3,"seats":[{"id":"4-15","label":"15","x":0},{"id":"4-13","label":"13","x":1},{"id":"4-11","label":"11","x":2},{"id":"4-9","label":"9","x":3},{"id":"4-7","label":"7","x":5},{"id":"4-5","label":"5","x":6},{"id":"4-3","label":"3","x":7},{"id":"4-1","label":"1","x":8},{"id":"4-2","label":"2","x":9},{"id":"4-4","label":"4","x":10},{"id":"4-6","label":"6","x":11},{"id":"4-8","label":"8","x":12},{"id":"4-10","label":"10","x":14},{"id":"4-12","label":"12","x":15},{"id":"4-14","label":"14","x":16},{"id":"4-16","label":"16","x":17}]},
{"label":"5","zone":"standard","y":4,"seats":[{"id":"5-15","label":"15","x":0},{"id":"5-13","label":"13","x":1},{"id":"5-11","label":"11","x":2},{"id":"5-9","label":"9","x":3},{"id":"5-7","label":"7","x":5},{"id":"5-5","label":"5","x":6},{"id":"5-3","label":"3","x":7},{"id":"5-1","label":"1","x":8},{"id":"5-2","label":"2","x":9},{"id":"5-4","label":"4","x":10},{"id":"5-6","label":"6","x":11},{"id":"5-8","label":"8","x":12},{"id":"5-10","label":"10","x":14},{"id":"5-12","label":"12","x":15},{"id":"5-14","label":"14","x":16},{"id":"5-16","label":"16","x":17}]},
{"label":"6","y":6,"seats":[{"id":"6-15","label":"15","x":0,"type":"emergencyExit","zone":"standard"},{"id":"6-13","label":"13","x":1,"type":"emergencyExit","zone":"standard"},{"id":"6-11","label":"11","x":2,"type":"emergencyExit","zone":"standard"},{"id":"6-9","label":"9","x":3,"type":"emergencyExit","zone":"standard"},{"id":"6-7","label":"7","x":5,"zone":"vip"},{"id":"6-5","label":"5","x":6,"zone":"vip"},{"id":"6-3","label":"3","x":7,"zone":"vip"},{"id":"6-1","label":"1","x":8,"zone":"vip"},{"id":"6-2","label":"2","x":9,"zone":"vip"},{"id":"6-4","label":"4","x":10,"zone":"vip"},{"id":"6-6","label":"6","x":11,"zone":"vip"},{"id":"6-8","label":"8","x":12,"zone":"vip"},{"id":"6-10","label":"10","x":14,"type":"emergencyExit","zone":"standard"},{"id":"6-12","label":"12","x":15,"type":"emergencyExit","zone":"standard"},{"id":"6-14","label":"14","x":16,"type":"emergencyExit","zone":"standard"},{"id":"6-16","label":"16","x":17,"type":"emergencyExit","zone":"standard"}]},
{"label":"7","y":7,"seats":[{"id":"7-15","label":"15","x":0,"zone":"standard"},{"id":"7-13","label":"13","x":1,"zone":"standard"},{"id":"7-11","label":"11","x":2,"zone":"standard"},{"id":"7-9","label":"9","x":3,"zone":"standard"},{"id":"7-7","label":"7","x":5,"zone":"vip"},{"id":"7-5","label":"5","x":6,"zone":"vip"},{"id":"7-3","label":"3","x":7,"zone":"vip"},{"id":"7-1","label":"1","x":8,"zone":"vip"},{"id":"7-2","label":"2","x":9,"zone":"vip"},{"id":"7-4","label":"4","x":10,"zone":"vip"},{"id":"7-6","label":"6","x":11,"zone":"vip"},{"id":"7-8","label":"8","x":12,"zone":"vip"},{"id":"7-10","label":"10","x":14,"zone":"standard"},{"id":"7-12","label":"12","x":15,"zone":"standard"},{"id":"7-14","label":"14","x":16,"zone":"standard"},{"id":"7-16","label":"16","x":17,"zone":"standard"}]},
{"label":"8","y":8,"seats":[{"id":"8-15","label":"15","x":0,"zone":"standard"},{"id":"8-13","label":"13","x":1,"zone":"standard"},{"id":"8-11","label":"11","x":2,"zone":"standard"},{"id":"8-9","label":"9","x":3,"zone":"standard"},{"id":"8-7","label":"7","x":5,"zone":"vip"},{"id":"8-5","label":"5","x":6,"zone":"vip"},{"id":"8-3","label":"3","x":7,"zone":"vip"},{"id":"8-1","label":"1","x":8,"zone":"vip"},{"id":"8-2","label":"2","x":9,"zone":"vip"},{"id":"8-4","label":"4","x":10,"zone":"vip"},{"id":"8-6","label":"6","x":11,"zone":"vip"},{"id":"8-8","label":"8","x":12,"zone":"vip"},{"id":"8-10","label":"10","x":14,"zone":"standard"},{"id":"8-12","label":"12","x":15,"zone":"standard"},{"id":"8-14","label":"14","x":16,"zone":"standard"},{"id":"8-16","label":"16","x":17,"zone":"standard"}]},
{"label":"9","zone":"standard","y":9,"seats":[{"id":"9-15","label":"15","x":0},{"id":"9-13","label":"13","x":1},{"id":"9-11","label":"11","x":2},{"id":"9-9","label":"9","x":3},{"id":"9-7","label":"7","x":5},{"id":"9-5","label":"5","x":6},{"id":"9-3","label":"3","x":7},{"id":"9-1","label":"1","x":8},{"id":"9-2","label":"2","x":9},{"id":"9-4","label":"4","x":10},{"id":"9-6","label":"6","x":11},{"id":"9-8","label":"8","x":12},{"id":"9-10","label":"10","x":14},{"id":"9-12","label":"12","x":15},{"id":"9-14","label":"14","x":16},{"id":"9-16","label":"16","x":17}]},
{"label":"10","zone":"standard","y":10,"seats":[{"id":"10-15","label":"15","x":0},{"id":"10-13","label":"13","x":1},{"id":"10-11","label":"11","x":2},{"id":"10-9","label":"9","x":3},{"id":"10-7","label":"7","x":5},{"id":"10-5","label":"5","x":6},{"id":"10-3","label":"3","x":7},{"id":"10-1","label":"1","x":8},{"id":"10-2","label":"2","x":9},{"id":"10-4","label":"4","x":10},{"id":"10-6","label":"6","x":11},{"id":"10-8","label":"8","x":12},{"id":"10-10","label":"10","x":14},{"id":"10-12","label":"12","x":15},{"id":"10-14","label":"14","x":16},{"id":"10-16","label":"16","x":17}]},
{"label":"11","zone":"couple","y":11.2,"seats":[{"id":"11-1","label":"1","x":0.5,"type":"coupleLeft","partner":"11-2"},{"id":"11-2","label":"2","x":1.5,"type":"coupleRight","partner":"11-1"},{"id":"11-3","label":"3","x":3.5,"type":"coupleLeft","partner":"11-4"},{"id":"11-4","label":"4","x":4.5,"type":"coupleRight","partner":"11-3"},{"id":"11-5","label":"5","x":6.5,"type":"coupleLeft","partner":"11-6"},{"id":"11-6","label":"6","x":7.5,"type":"coupleRight","partner":"11-5"},{"id":"11-7","label":"7","x":9.5,"type":"coupleLeft","partner":"11-8"},{"id":"11-8","label":"8","x":10.5,"type":"coupleRight","partner":"11-7"},{"id":"11-9","label":"9","x":12.5,"type":"coupleLeft","partner":"11-10"},{"id":"11-10","label":"10","x":13.5,"type":"coupleRight","partner":"11-9"},{"id":"11-11","label":"11","x":15.5,"type":"coupleLeft","partner":"11-12"},{"id":"11-12","label":"12","x":16.5,"type":"coupleRight","partner":"11-11"}]}
]}
', 1796551327576);

ALTER TABLE ONLY checkins
    ADD CONSTRAINT checkins_pkey PRIMARY KEY (show_id, nonce);

ALTER TABLE ONLY claims
    ADD CONSTRAINT claims_pkey PRIMARY KEY (show_id, seat);

ALTER TABLE ONLY holds
    ADD CONSTRAINT holds_pkey PRIMARY KEY (id);

ALTER TABLE ONLY holds
    ADD CONSTRAINT holds_token_key UNIQUE (token);

ALTER TABLE ONLY idempotency
    ADD CONSTRAINT idempotency_pkey PRIMARY KEY (key);

ALTER TABLE ONLY order_contacts
    ADD CONSTRAINT order_contacts_pkey PRIMARY KEY (order_ref);

ALTER TABLE ONLY queue_entries
    ADD CONSTRAINT queue_entries_pkey PRIMARY KEY (show_id, key);

ALTER TABLE ONLY queues
    ADD CONSTRAINT queues_pkey PRIMARY KEY (show_id);

ALTER TABLE ONLY refunds
    ADD CONSTRAINT refunds_pkey PRIMARY KEY (hold_id, seat);

ALTER TABLE ONLY schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);

ALTER TABLE ONLY show_log
    ADD CONSTRAINT show_log_pkey PRIMARY KEY (show_id, version);

ALTER TABLE ONLY shows
    ADD CONSTRAINT shows_pkey PRIMARY KEY (id);

ALTER TABLE ONLY ticket_presence
    ADD CONSTRAINT ticket_presence_pkey PRIMARY KEY (show_id, ticket_id);

ALTER TABLE ONLY venues
    ADD CONSTRAINT venues_pkey PRIMARY KEY (id);

CREATE INDEX checkins_order ON checkins USING btree (show_id, seq);

CREATE INDEX claims_hold ON claims USING btree (hold_id);

CREATE INDEX holds_active ON holds USING btree (expires_at) WHERE (state = 'active'::text);

CREATE UNIQUE INDEX holds_admission ON holds USING btree (show_id, admission) WHERE ((state = ANY (ARRAY['active'::text, 'confirmed'::text])) AND (admission IS NOT NULL));

CREATE INDEX holds_order ON holds USING btree (order_ref) WHERE (order_ref IS NOT NULL);

CREATE INDEX order_contacts_at ON order_contacts USING btree (at);

CREATE INDEX queue_entries_revision ON queue_entries USING btree (show_id, revision);

ALTER TABLE ONLY checkins
    ADD CONSTRAINT checkins_show_id_fkey FOREIGN KEY (show_id) REFERENCES shows(id);

ALTER TABLE ONLY queue_entries
    ADD CONSTRAINT queue_entries_show_id_fkey FOREIGN KEY (show_id) REFERENCES queues(show_id);

ALTER TABLE ONLY queues
    ADD CONSTRAINT queues_show_id_fkey FOREIGN KEY (show_id) REFERENCES shows(id);

ALTER TABLE ONLY refunds
    ADD CONSTRAINT refunds_hold_id_fkey FOREIGN KEY (hold_id) REFERENCES holds(id);

ALTER TABLE ONLY shows
    ADD CONSTRAINT shows_venue_id_fkey FOREIGN KEY (venue_id) REFERENCES venues(id);

ALTER TABLE ONLY ticket_presence
    ADD CONSTRAINT ticket_presence_show_id_fkey FOREIGN KEY (show_id) REFERENCES shows(id);
