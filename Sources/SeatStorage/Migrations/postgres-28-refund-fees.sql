-- Migration 28 of the PostgreSQL store: a buyer's refund may cost a fee (the show's refundTiers): each
-- refunded seat keeps the fee it cost (the amount, in the show's currency; NULL: none), so the order,
-- the reports and the money given back agree on what was kept.
-- Applied once, in order, to a database made before the baseline; never edited once released.
ALTER TABLE refunds ADD COLUMN fee text;

-- The refund's fee written by the commit function (otherwise as migration 26 left it).
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
      FOR h IN SELECT value FROM jsonb_array_elements(coalesce(c->'refunds', '[]'::jsonb)) LOOP DELETE FROM claims WHERE show_id = c->>'show' AND status = 'sold' AND hold_id = h->>'hold' AND seat = (h->>'seat')::int; GET DIAGNOSTICS n = ROW_COUNT; IF n <> 1 THEN RAISE EXCEPTION 'seat % is no longer sold in %', h->>'seat', h->>'hold' USING ERRCODE = 'SK001'; END IF; INSERT INTO refunds(hold_id, seat, refunded_at, reason, operator, returned_to, fee) VALUES (h->>'hold', (h->>'seat')::int, (h->>'at')::bigint, h->>'reason', h->>'operator', h->>'returnedTo', h->>'fee'); END LOOP;
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
