-- Migration 2 of the PostgreSQL store: A whole batch in one round trip: each change in its own subtransaction (the EXCEPTION block), so a
-- refused change is rolled back alone; versions taken from the show row (its lock).
-- Applied once, in order, to a database made before the baseline; never edited once released.
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
