-- Migration 20 of the PostgreSQL store: a batch written whole is one array of typed changes.
-- Applied once, in order, to a database made before the baseline; never edited once released.
--
-- `seatkit_write_arrays` took 37 parallel arrays (a change, a hold or a seat was an index into
-- each, its fields matched by position), and half its text was a second road for batches out of
-- show order, which no instance sends. `seatkit_write` takes the batch as it is in Swift: one
-- `seatkit_change` a change, its holds, claims, freed and sold seats inside it. The instance sends
-- it in the binary format (`record_send`), so the database still parses no text. What it checks,
-- writes and refuses is migration 16's, with the same refusals and codes; a batch out of show
-- order (byte order, as the instance sorts) is an instance's bug and fails with SK003.
CREATE TYPE seatkit_key AS (key text, fingerprint text, status int, body text);
CREATE TYPE seatkit_hold AS (id text, token text, show text, state text, expires bigint, extended boolean, order_ref text,
  wheelchair boolean, created bigint, kind text, reason text, operator text, payment text, prices text, admission text);
CREATE TYPE seatkit_claim AS (seat int, status text, hold text);
-- A change: its show, its delta's body (the versions go in front of it here), when, its log line, its
-- idempotency key (or NULL), the holds it writes, the seats it frees, claims and sells.
CREATE TYPE seatkit_change AS (show text, body text, at bigint, action text, hold text, operator text, reason text,
  order_ref text, key seatkit_key, holds seatkit_hold[], freed int[], claimed seatkit_claim[], sold int[]);

DROP FUNCTION seatkit_write_arrays(boolean, text[], text[], bigint[], text[], text[], text[], text[], text[], int[], text[], text[],
  int[], text[], int[], text[], text[], text[], text[], bigint[], boolean[], text[], boolean[], bigint[], text[], text[], text[],
  text[], text[], text[], int[], int[], int[], int[], text[], text[], int[], int[]);

CREATE FUNCTION seatkit_write(durable boolean, changes seatkit_change[]) RETURNS bigint[] LANGUAGE plpgsql
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
    INSERT INTO claims(show_id, seat, status, hold_id)
      SELECT c.show, i.seat, i.status, i.hold FROM unnest(changes) AS c, unnest(c.claimed) AS i
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
