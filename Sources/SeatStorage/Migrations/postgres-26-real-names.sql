-- Migration 26 of the PostgreSQL store: real-name sales. A claim may carry its attendee: `identity`, the
-- keyed hash of the attendee's identity document (PersonalDataKeys.index: no number in the clear), and
-- `attendee`, the attendee sealed (AES-256-GCM under a key the database never sees). One document once a
-- show is this unique index, across instances: a second claim with the same hash is a unique violation,
-- which refuses that change alone (`claims_identity`). A refunded or released seat's claim goes, and its
-- identity with it. Order contacts keep their name and phone sealed, found by keyed hashes.
-- Applied once, in order, to a database made before the baseline; never edited once released.
ALTER TABLE claims ADD COLUMN identity text, ADD COLUMN attendee text;
CREATE UNIQUE INDEX claims_identity ON claims(show_id, identity) WHERE identity IS NOT NULL;
ALTER TYPE seatkit_claim ADD ATTRIBUTE identity text, ADD ATTRIBUTE attendee text;
ALTER TABLE order_contacts ADD COLUMN name_key text, ADD COLUMN phone_key text, ADD COLUMN phone_tail_key text;
CREATE INDEX order_contacts_name_key ON order_contacts(name_key) WHERE name_key IS NOT NULL;
CREATE INDEX order_contacts_phone_key ON order_contacts(phone_key) WHERE phone_key IS NOT NULL;
CREATE INDEX order_contacts_phone_tail_key ON order_contacts(phone_tail_key) WHERE phone_tail_key IS NOT NULL;

-- The claims' two new fields written by both functions (otherwise as migration 20 and 11 left them).
CREATE OR REPLACE FUNCTION seatkit_commit(batch jsonb, durable boolean) RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
DECLARE
  c jsonb; h jsonb; v bigint; n int; delta text; result jsonb := '[]'::jsonb; why text;
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
      INSERT INTO claims(show_id, seat, status, hold_id, identity, attendee)
        SELECT c->>'show', (x->>'seat')::int, x->>'status', x->>'hold', x->>'identity', x->>'attendee' FROM jsonb_array_elements(c->'insert') AS x
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
      -- The detail names the key (a document's keyed hash: the instance tells the buyer which seat).
      GET STACKED DIAGNOSTICS why = PG_EXCEPTION_DETAIL;
      result := result || jsonb_build_array(jsonb_build_object('refused', SQLERRM || coalesce(': ' || nullif(why, ''), ''), 'code', SQLSTATE));
    END;
  END LOOP;
  IF show IS NOT NULL AND cur IS NOT NULL THEN UPDATE shows SET version = cur WHERE id = show; END IF;
  RETURN result;
END
$$;

CREATE OR REPLACE FUNCTION seatkit_write(durable boolean, changes seatkit_change[]) RETURNS bigint[] LANGUAGE plpgsql
  SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  held seatkit_hold; show text; freeing int; selling int; lo int; hi int; base bigint; n bigint; lines text;
  versions bigint[]; deltas text[]; starts int[] := '{}';
  -- A show's freed and sold seats, each paired with every hold of its change (a seat is freed or
  -- sold only by the hold that has it), gathered here without a statement.
  f_seat int[]; f_hold text[]; s_seat int[]; s_hold text[];
  freed_n int := 0; claimed_n int := 0; holds_n int := 0; keys_n int := 0; written bigint; unreleased bigint;
BEGIN
  IF NOT durable THEN PERFORM set_config('synchronous_commit', 'off', true); END IF;
  -- Fields are read where they are (`(changes[k]).show`): a change copied into a record variable
  -- copies its holds and seats too.
  FOR k IN 1..cardinality(changes) LOOP
    IF k = 1 OR (changes[k]).show <> show THEN
      IF k > 1 AND (changes[k]).show COLLATE "C" < show COLLATE "C" THEN
        RAISE EXCEPTION 'the batch is not in show order' USING ERRCODE = 'SK003';
      END IF;
      starts := starts || k;
      show := (changes[k]).show;
    END IF;
    freed_n := freed_n + coalesce(cardinality((changes[k]).freed), 0) + coalesce(cardinality((changes[k]).sold), 0);
    claimed_n := claimed_n + coalesce(cardinality((changes[k]).claimed), 0);
    holds_n := holds_n + coalesce(cardinality((changes[k]).holds), 0);
    IF ((changes[k]).key).key IS NOT NULL THEN keys_n := keys_n + 1; END IF;
  END LOOP;
  IF cardinality(starts) = 0 THEN RETURN '{}'; END IF;
  starts := starts || (cardinality(changes) + 1);
  FOR g IN 1..cardinality(starts) - 1 LOOP
    lo := starts[g]; hi := starts[g + 1] - 1;
    -- The show locked (shows in order: overlapping batches never deadlock) and moved past its
    -- changes; a change's version is its show's, then its place among that show's changes.
    UPDATE shows SET version = version + (hi - lo + 1) WHERE id = (changes[lo]).show RETURNING version - (hi - lo + 1) INTO base;
    IF NOT FOUND THEN RAISE EXCEPTION 'a show of the batch does not exist' USING ERRCODE = 'SK001'; END IF;
    f_seat := '{}'; f_hold := '{}'; s_seat := '{}'; s_hold := '{}';
    FOR k IN lo..hi LOOP
      versions[k] := base + (k - lo + 1);
      deltas[k] := 'skd1;' || (versions[k] - 1) || ';' || versions[k] || ';' || (changes[k]).body;
      freeing := coalesce(cardinality((changes[k]).freed), 0); selling := coalesce(cardinality((changes[k]).sold), 0);
      IF freeing + selling > 0 AND (changes[k]).holds IS NOT NULL THEN
        FOREACH held IN ARRAY (changes[k]).holds LOOP
          f_seat := f_seat || (changes[k]).freed; f_hold := f_hold || array_fill(held.id, ARRAY[freeing]);
          s_seat := s_seat || (changes[k]).sold; s_hold := s_hold || array_fill(held.id, ARRAY[selling]);
        END LOOP;
      END IF;
    END LOOP;
    IF cardinality(f_seat) > 0 THEN
      DELETE FROM claims WHERE show_id = (changes[lo]).show AND seat = ANY(f_seat) AND status IN ('held', 'blocked')
        AND (seat, hold_id) IN (SELECT * FROM unnest(f_seat, f_hold));
      GET DIAGNOSTICS n = ROW_COUNT;
      freed_n := freed_n - n;
    END IF;
    IF cardinality(s_seat) > 0 THEN
      UPDATE claims SET status = 'sold' WHERE show_id = (changes[lo]).show AND seat = ANY(s_seat) AND status IN ('held', 'blocked')
        AND (seat, hold_id) IN (SELECT * FROM unnest(s_seat, s_hold));
      GET DIAGNOSTICS n = ROW_COUNT;
      freed_n := freed_n - n;
    END IF;
  END LOOP;
  IF freed_n <> 0 THEN RAISE EXCEPTION 'seats to release or sell are no longer held or reserved' USING ERRCODE = 'SK001'; END IF;
  -- In show and seat order: overlapping holds meet in the same order and never deadlock. A claim
  -- names one of its own change's holds, or none.
  IF claimed_n > 0 THEN
    INSERT INTO claims(show_id, seat, status, hold_id, identity, attendee)
      SELECT c.show, i.seat, i.status, i.hold, i.identity, i.attendee FROM unnest(changes) AS c, unnest(c.claimed) AS i
      WHERE i.hold IS NULL OR i.hold IN (SELECT o.id FROM unnest(c.holds) AS o)
      ORDER BY 1, 2;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n <> claimed_n THEN
      RAISE EXCEPTION 'a claim of the batch names a hold not its change''s' USING ERRCODE = 'foreign_key_violation';
    END IF;
  END IF;
  IF keys_n > 0 THEN
    INSERT INTO idempotency(key, fingerprint, status, body, created_at)
      SELECT (c.key).key, (c.key).fingerprint, (c.key).status, (c.key).body, c.at FROM unnest(changes) AS c WHERE (c.key).key IS NOT NULL;
  END IF;
  -- The holds, the log and the check that a hold that ends keeps no held seat (the instance's view of
  -- it was stale otherwise; the claims' statements above are done) in one statement: each statement's
  -- executor start and end cost ~100 µs (migration 16). A hold of another show than its change's is
  -- not written, and counted.
  WITH upserted AS (
    INSERT INTO holds(id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment, prices, admission)
      SELECT h.id, h.token, h.show, h.state, h.expires, h.extended, h.order_ref, h.wheelchair, h.created, h.kind, h.reason, h.operator,
             h.payment, h.prices, h.admission
      FROM unnest(changes) AS c, unnest(c.holds) AS h WHERE h.show = c.show
    ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at, extended = EXCLUDED.extended,
      order_ref = EXCLUDED.order_ref, reason = EXCLUDED.reason, operator = EXCLUDED.operator, payment = EXCLUDED.payment,
      prices = EXCLUDED.prices
    WHERE holds.state = 'active' AND (EXCLUDED.state <> 'expired' OR holds.expires_at <= EXCLUDED.expires_at)
    RETURNING holds.id, holds.state),
  logged AS (
    INSERT INTO show_log(show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta)
      SELECT c.show, versions[c.ord], c.at, c.action, c.hold, c.operator, c.reason, c.order_ref, deltas[c.ord]
      FROM unnest(changes) WITH ORDINALITY AS c(show, body, at, action, hold, operator, reason, order_ref, key, holds, freed, claimed, sold, ord))
  SELECT (SELECT count(*) FROM upserted),
         (SELECT count(*) FROM upserted AS u JOIN claims ON claims.hold_id = u.id AND claims.status IN ('held', 'blocked') WHERE u.state <> 'active')
    INTO written, unreleased;
  IF written <> holds_n THEN
    RAISE EXCEPTION 'a hold of the batch is no longer active, or not of its change''s show' USING ERRCODE = 'SK001';
  END IF;
  IF unreleased > 0 THEN
    RAISE EXCEPTION 'a hold of the batch still holds seats its change does not release' USING ERRCODE = 'SK001';
  END IF;
  -- One notification a show, its deltas a line each in version order (none past 7,000 bytes: the
  -- listener reads the show's log instead).
  FOR g IN 1..cardinality(starts) - 1 LOOP
    lines := array_to_string(deltas[starts[g]:starts[g + 1] - 1], E'\n');
    PERFORM pg_notify('seatkit_events_' || current_schema(), (changes[starts[g]]).show || E'\n' || CASE WHEN length(lines) < 7000 THEN lines ELSE '' END);
  END LOOP;
  RETURN versions;
END
$$;
