-- table attendee_books
  book text NOT NULL
  entry text NOT NULL
  sealed text NOT NULL
  created_at bigint NOT NULL

-- table checkins
  show_id text NOT NULL
  nonce text NOT NULL
  ticket_id text NOT NULL
  seat integer NOT NULL
  direction text NOT NULL
  gate text NOT NULL
  operator text NOT NULL
  at bigint NOT NULL
  seq bigint NOT NULL

-- table cinemas
  id text NOT NULL
  name text NOT NULL
  venues text NOT NULL
  revision bigint NOT NULL
  created_at bigint NOT NULL

-- table claims
  show_id text NOT NULL
  seat integer NOT NULL
  status text NOT NULL
  hold_id text
  identity text
  attendee text

-- table holds
  id text NOT NULL
  token text NOT NULL STATISTICS 0
  show_id text NOT NULL
  state text NOT NULL
  expires_at bigint NOT NULL
  extended boolean NOT NULL STATISTICS 0
  order_ref text
  wheelchair boolean NOT NULL STATISTICS 0
  created_at bigint NOT NULL STATISTICS 0
  kind text NOT NULL DEFAULT 'buyer'::text STATISTICS 0
  reason text STATISTICS 0
  operator text STATISTICS 0
  payment text STATISTICS 0
  prices text STATISTICS 0
  admission text STATISTICS 0

-- table idempotency
  key text NOT NULL
  fingerprint text NOT NULL
  status integer NOT NULL
  body text NOT NULL
  created_at bigint NOT NULL

-- table order_contacts
  order_ref text NOT NULL
  show_id text NOT NULL
  name text
  phone text
  at bigint NOT NULL
  name_key text
  phone_key text
  phone_tail_key text

-- table payment_refunds
  id text NOT NULL
  payment_id text NOT NULL
  hold_id text NOT NULL
  show_id text NOT NULL
  provider text NOT NULL
  amount bigint NOT NULL
  currency text NOT NULL
  state text NOT NULL
  provider_refund_id text
  reason text NOT NULL
  created_at bigint NOT NULL
  updated_at bigint NOT NULL
  outcome text

-- table payments
  id text NOT NULL
  hold_id text NOT NULL
  show_id text NOT NULL
  provider text NOT NULL
  provider_id text
  amount bigint NOT NULL
  currency text NOT NULL
  state text NOT NULL
  created_at bigint NOT NULL
  updated_at bigint NOT NULL
  expires_at bigint NOT NULL
  outcome text
  seats text

-- table queue_entries
  show_id text NOT NULL
  key text NOT NULL
  address text NOT NULL
  seq bigint NOT NULL
  arrived_at bigint NOT NULL
  state text NOT NULL
  place integer
  admitted_until bigint
  used integer NOT NULL
  last_seen bigint NOT NULL
  revision bigint NOT NULL
  identity text
  proof text
  lane text
  pass text

-- table queues
  show_id text NOT NULL
  created_at bigint NOT NULL
  opens_at bigint NOT NULL
  admit_per_minute integer NOT NULL
  early_minutes integer NOT NULL
  admission_minutes integer NOT NULL
  max_per_address integer NOT NULL
  opened_at bigint
  early_count integer NOT NULL
  credit double precision NOT NULL
  last_advance bigint
  sold_out integer NOT NULL
  off_at bigint
  revision bigint NOT NULL
  max_per_network integer NOT NULL DEFAULT 64
  max_joins_per_second integer NOT NULL DEFAULT 1000
  pow_bits integer NOT NULL DEFAULT 0
  draw_at bigint
  draw_winners integer NOT NULL DEFAULT 0
  lanes text

-- table refunds
  hold_id text NOT NULL
  seat integer NOT NULL
  refunded_at bigint NOT NULL
  reason text NOT NULL
  operator text NOT NULL
  returned_to text
  fee text

-- table seasons
  id text NOT NULL
  name text NOT NULL
  shows text NOT NULL
  parent text
  created_at bigint NOT NULL
  operator text NOT NULL

-- table shard_identity
  one boolean NOT NULL DEFAULT true
  name text NOT NULL
  claimed_at bigint NOT NULL

-- table shard_moves
  show_id text NOT NULL
  from_shard text NOT NULL
  to_shard text NOT NULL
  moved_at bigint NOT NULL
  move_id text NOT NULL
  state text NOT NULL

-- table show_log
  show_id text NOT NULL
  version bigint NOT NULL
  created_at bigint NOT NULL STATISTICS 0
  action text NOT NULL STATISTICS 0
  hold_id text STATISTICS 0
  operator text STATISTICS 0
  reason text STATISTICS 0
  order_ref text STATISTICS 0
  delta text NOT NULL STATISTICS 0

-- table shows
  id text NOT NULL
  venue_id text NOT NULL
  starts_at text NOT NULL
  prices text NOT NULL
  policy text NOT NULL
  hold_seconds integer NOT NULL
  version bigint NOT NULL
  details text NOT NULL DEFAULT '{}'::text
  on_sale boolean NOT NULL DEFAULT true
  cancelled_at bigint
  price_revision integer NOT NULL DEFAULT 0
  earlier_prices text NOT NULL DEFAULT '[]'::text

-- table staff
  name text NOT NULL
  role text NOT NULL
  cinemas text NOT NULL
  key_digest text
  state text NOT NULL
  revision bigint NOT NULL
  created_at bigint NOT NULL
  changed_by text NOT NULL
  password text
  totp text

-- table staff_log
  at bigint NOT NULL
  operator text NOT NULL
  action text NOT NULL
  subject text NOT NULL
  detail text NOT NULL

-- table staff_sessions
  digest text NOT NULL
  name text NOT NULL
  csrf text NOT NULL
  created_at bigint NOT NULL
  expires_at bigint NOT NULL

-- table ticket_presence
  show_id text NOT NULL
  ticket_id text NOT NULL
  inside integer NOT NULL
  seat integer NOT NULL
  nonce text NOT NULL
  gate text NOT NULL
  operator text NOT NULL
  at bigint NOT NULL

-- table ticket_transfers
  show_id text NOT NULL
  old_ticket text NOT NULL
  seat integer NOT NULL
  hold_id text NOT NULL
  first_binding boolean NOT NULL
  at bigint NOT NULL
  operator text NOT NULL

-- table venues
  id text NOT NULL
  fingerprint text NOT NULL
  layout text NOT NULL
  created_at bigint NOT NULL

-- table waitlist
  show_id text NOT NULL
  seq bigint NOT NULL
  entry text NOT NULL
  category text
  zone text
  count integer NOT NULL
  attendees text
  state text NOT NULL
  offers integer NOT NULL
  offer_hold text
  created_at bigint NOT NULL
  updated_at bigint NOT NULL
  payment text
  paid_at bigint
  outcome text

-- table webhook_cursor
  id integer NOT NULL
  at bigint NOT NULL
  events_at bigint NOT NULL DEFAULT 0

-- table webhook_deliveries
  endpoint_id text NOT NULL
  event_id text NOT NULL
  show_id text NOT NULL
  version bigint NOT NULL
  type text NOT NULL
  payload text NOT NULL
  at bigint NOT NULL
  state text NOT NULL
  attempts integer NOT NULL
  next_at bigint NOT NULL
  last_code integer
  last_error text
  delivered_at bigint

-- table webhook_endpoints
  id text NOT NULL
  url text NOT NULL
  events text NOT NULL
  secret text NOT NULL
  description text
  enabled boolean NOT NULL
  disabled_reason text
  failing_since bigint
  created_at bigint NOT NULL
  updated_at bigint NOT NULL

-- table webhook_events
  seq bigint NOT NULL DEFAULT nextval('webhook_events_seq_seq'::regclass)
  id text NOT NULL
  show_id text NOT NULL
  type text NOT NULL
  created_at bigint NOT NULL
  fields text NOT NULL

-- type seatkit_change
  show text
  body text
  at bigint
  action text
  hold text
  operator text
  reason text
  order_ref text
  key seatkit_key
  holds seatkit_hold[]
  freed integer[]
  claimed seatkit_claim[]
  sold integer[]

-- type seatkit_claim
  seat integer
  status text
  hold text
  identity text
  attendee text

-- type seatkit_hold
  id text
  token text
  show text
  state text
  expires bigint
  extended boolean
  order_ref text
  wheelchair boolean
  created bigint
  kind text
  reason text
  operator text
  payment text
  prices text
  admission text

-- type seatkit_key
  key text
  fingerprint text
  status integer
  body text

-- constraint attendee_books attendee_books_pkey
PRIMARY KEY (book, entry);

-- constraint checkins checkins_direction_check
CHECK ((direction = ANY (ARRAY['in'::text, 'out'::text])));

-- constraint checkins checkins_pkey
PRIMARY KEY (show_id, nonce);

-- constraint checkins checkins_show_id_fkey
FOREIGN KEY (show_id) REFERENCES shows(id);

-- constraint cinemas cinemas_pkey
PRIMARY KEY (id);

-- constraint claims claims_pkey
PRIMARY KEY (show_id, seat);

-- constraint claims claims_status_check
CHECK ((status = ANY (ARRAY['held'::text, 'sold'::text, 'blocked'::text])));

-- constraint holds holds_kind_check
CHECK ((kind = ANY (ARRAY['buyer'::text, 'blocked'::text, 'house'::text, 'counter'::text])));

-- constraint holds holds_pkey
PRIMARY KEY (id);

-- constraint holds holds_state_check
CHECK ((state = ANY (ARRAY['active'::text, 'released'::text, 'expired'::text, 'confirmed'::text])));

-- constraint holds holds_token_key
UNIQUE (token);

-- constraint idempotency idempotency_pkey
PRIMARY KEY (key);

-- constraint order_contacts order_contacts_pkey
PRIMARY KEY (order_ref);

-- constraint payment_refunds payment_refunds_amount_check
CHECK ((amount > 0));

-- constraint payment_refunds payment_refunds_pkey
PRIMARY KEY (id);

-- constraint payment_refunds payment_refunds_state_check
CHECK ((state = ANY (ARRAY['pending'::text, 'succeeded'::text, 'failed'::text])));

-- constraint payments payments_amount_check
CHECK ((amount >= 0));

-- constraint payments payments_pkey
PRIMARY KEY (id);

-- constraint payments payments_state_check
CHECK ((state = ANY (ARRAY['pending'::text, 'succeeded'::text, 'failed'::text, 'canceled'::text, 'refunded'::text])));

-- constraint queue_entries queue_entries_pkey
PRIMARY KEY (show_id, key);

-- constraint queue_entries queue_entries_show_id_fkey
FOREIGN KEY (show_id) REFERENCES queues(show_id);

-- constraint queue_entries queue_entries_state_check
CHECK ((state = ANY (ARRAY['early'::text, 'waiting'::text, 'admitted'::text, 'soldOut'::text, 'left'::text, 'notDrawn'::text])));

-- constraint queues queues_pkey
PRIMARY KEY (show_id);

-- constraint queues queues_show_id_fkey
FOREIGN KEY (show_id) REFERENCES shows(id);

-- constraint refunds refunds_hold_id_fkey
FOREIGN KEY (hold_id) REFERENCES holds(id);

-- constraint refunds refunds_pkey
PRIMARY KEY (hold_id, seat);

-- constraint seasons seasons_pkey
PRIMARY KEY (id);

-- constraint shard_identity shard_identity_one_check
CHECK (one);

-- constraint shard_identity shard_identity_pkey
PRIMARY KEY (one);

-- constraint shard_moves shard_moves_pkey
PRIMARY KEY (move_id);

-- constraint shard_moves shard_moves_state
CHECK ((state = ANY (ARRAY['copying'::text, 'copied'::text, 'source_deleted'::text, 'rolled_back'::text])));

-- constraint show_log show_log_pkey
PRIMARY KEY (show_id, version);

-- constraint shows shows_pkey
PRIMARY KEY (id);

-- constraint shows shows_venue_id_fkey
FOREIGN KEY (venue_id) REFERENCES venues(id);

-- constraint staff staff_pkey
PRIMARY KEY (name);

-- constraint staff staff_state_check
CHECK ((state = ANY (ARRAY['active'::text, 'disabled'::text, 'deleted'::text])));

-- constraint staff_log staff_log_pkey
PRIMARY KEY (at, subject, action);

-- constraint staff_sessions staff_sessions_pkey
PRIMARY KEY (digest);

-- constraint ticket_presence ticket_presence_pkey
PRIMARY KEY (show_id, ticket_id);

-- constraint ticket_presence ticket_presence_show_id_fkey
FOREIGN KEY (show_id) REFERENCES shows(id);

-- constraint ticket_transfers ticket_transfers_pkey
PRIMARY KEY (show_id, old_ticket);

-- constraint venues venues_pkey
PRIMARY KEY (id);

-- constraint waitlist waitlist_entry_key
UNIQUE (entry);

-- constraint waitlist waitlist_pkey
PRIMARY KEY (show_id, seq);

-- constraint waitlist waitlist_state_check
CHECK ((state = ANY (ARRAY['waiting'::text, 'offered'::text, 'bought'::text, 'lapsed'::text, 'cancelled'::text])));

-- constraint webhook_cursor webhook_cursor_id_check
CHECK ((id = 1));

-- constraint webhook_cursor webhook_cursor_pkey
PRIMARY KEY (id);

-- constraint webhook_deliveries webhook_deliveries_pkey
PRIMARY KEY (endpoint_id, event_id);

-- constraint webhook_deliveries webhook_deliveries_state_check
CHECK ((state = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text])));

-- constraint webhook_endpoints webhook_endpoints_pkey
PRIMARY KEY (id);

-- constraint webhook_events webhook_events_id_key
UNIQUE (id);

-- constraint webhook_events webhook_events_pkey
PRIMARY KEY (seq);

-- index attendee_books_pkey
CREATE UNIQUE INDEX attendee_books_pkey ON attendee_books USING btree (book, entry);

-- index checkins_order
CREATE INDEX checkins_order ON checkins USING btree (show_id, seq);

-- index checkins_pkey
CREATE UNIQUE INDEX checkins_pkey ON checkins USING btree (show_id, nonce);

-- index cinemas_pkey
CREATE UNIQUE INDEX cinemas_pkey ON cinemas USING btree (id);

-- index claims_hold
CREATE INDEX claims_hold ON claims USING btree (hold_id);

-- index claims_identity
CREATE UNIQUE INDEX claims_identity ON claims USING btree (show_id, identity) WHERE (identity IS NOT NULL);

-- index claims_pkey
CREATE UNIQUE INDEX claims_pkey ON claims USING btree (show_id, seat);

-- index holds_active
CREATE INDEX holds_active ON holds USING btree (expires_at) WHERE (state = 'active'::text);

-- index holds_admission
CREATE UNIQUE INDEX holds_admission ON holds USING btree (show_id, admission) WHERE ((state = ANY (ARRAY['active'::text, 'confirmed'::text])) AND (admission IS NOT NULL));

-- index holds_order
CREATE INDEX holds_order ON holds USING btree (order_ref) WHERE (order_ref IS NOT NULL);

-- index holds_pkey
CREATE UNIQUE INDEX holds_pkey ON holds USING btree (id);

-- index holds_token_key
CREATE UNIQUE INDEX holds_token_key ON holds USING btree (token);

-- index idempotency_pkey
CREATE UNIQUE INDEX idempotency_pkey ON idempotency USING btree (key);

-- index order_contacts_at
CREATE INDEX order_contacts_at ON order_contacts USING btree (at);

-- index order_contacts_name_key
CREATE INDEX order_contacts_name_key ON order_contacts USING btree (name_key) WHERE (name_key IS NOT NULL);

-- index order_contacts_phone_key
CREATE INDEX order_contacts_phone_key ON order_contacts USING btree (phone_key) WHERE (phone_key IS NOT NULL);

-- index order_contacts_phone_tail_key
CREATE INDEX order_contacts_phone_tail_key ON order_contacts USING btree (phone_tail_key) WHERE (phone_tail_key IS NOT NULL);

-- index order_contacts_pkey
CREATE UNIQUE INDEX order_contacts_pkey ON order_contacts USING btree (order_ref);

-- index payment_refunds_created
CREATE INDEX payment_refunds_created ON payment_refunds USING btree (created_at);

-- index payment_refunds_payment
CREATE INDEX payment_refunds_payment ON payment_refunds USING btree (payment_id);

-- index payment_refunds_pending
CREATE INDEX payment_refunds_pending ON payment_refunds USING btree (created_at) WHERE (state = 'pending'::text);

-- index payment_refunds_pkey
CREATE UNIQUE INDEX payment_refunds_pkey ON payment_refunds USING btree (id);

-- index payments_created
CREATE INDEX payments_created ON payments USING btree (created_at);

-- index payments_hold
CREATE INDEX payments_hold ON payments USING btree (hold_id);

-- index payments_pending
CREATE INDEX payments_pending ON payments USING btree (expires_at) WHERE (state = 'pending'::text);

-- index payments_pkey
CREATE UNIQUE INDEX payments_pkey ON payments USING btree (id);

-- index payments_provider_id
CREATE UNIQUE INDEX payments_provider_id ON payments USING btree (provider, provider_id) WHERE (provider_id IS NOT NULL);

-- index queue_entries_pkey
CREATE UNIQUE INDEX queue_entries_pkey ON queue_entries USING btree (show_id, key);

-- index queue_entries_revision
CREATE INDEX queue_entries_revision ON queue_entries USING btree (show_id, revision);

-- index queues_pkey
CREATE UNIQUE INDEX queues_pkey ON queues USING btree (show_id);

-- index refunds_pkey
CREATE UNIQUE INDEX refunds_pkey ON refunds USING btree (hold_id, seat);

-- index seasons_pkey
CREATE UNIQUE INDEX seasons_pkey ON seasons USING btree (id);

-- index shard_identity_pkey
CREATE UNIQUE INDEX shard_identity_pkey ON shard_identity USING btree (one);

-- index shard_moves_pkey
CREATE UNIQUE INDEX shard_moves_pkey ON shard_moves USING btree (move_id);

-- index shard_moves_unsettled
CREATE INDEX shard_moves_unsettled ON shard_moves USING btree (moved_at) WHERE (state = 'copying'::text);

-- index show_log_created
CREATE INDEX show_log_created ON show_log USING btree (created_at);

-- index show_log_pkey
CREATE UNIQUE INDEX show_log_pkey ON show_log USING btree (show_id, version);

-- index shows_pkey
CREATE UNIQUE INDEX shows_pkey ON shows USING btree (id);

-- index staff_key
CREATE UNIQUE INDEX staff_key ON staff USING btree (key_digest) WHERE (key_digest IS NOT NULL);

-- index staff_pkey
CREATE UNIQUE INDEX staff_pkey ON staff USING btree (name);

-- index staff_log_pkey
CREATE UNIQUE INDEX staff_log_pkey ON staff_log USING btree (at, subject, action);

-- index staff_sessions_name
CREATE INDEX staff_sessions_name ON staff_sessions USING btree (name);

-- index staff_sessions_pkey
CREATE UNIQUE INDEX staff_sessions_pkey ON staff_sessions USING btree (digest);

-- index ticket_presence_pkey
CREATE UNIQUE INDEX ticket_presence_pkey ON ticket_presence USING btree (show_id, ticket_id);

-- index ticket_transfers_pkey
CREATE UNIQUE INDEX ticket_transfers_pkey ON ticket_transfers USING btree (show_id, old_ticket);

-- index ticket_transfers_seat
CREATE INDEX ticket_transfers_seat ON ticket_transfers USING btree (show_id, seat, hold_id);

-- index venues_pkey
CREATE UNIQUE INDEX venues_pkey ON venues USING btree (id);

-- index waitlist_entry_key
CREATE UNIQUE INDEX waitlist_entry_key ON waitlist USING btree (entry);

-- index waitlist_open
CREATE INDEX waitlist_open ON waitlist USING btree (state, show_id) WHERE (state = ANY (ARRAY['waiting'::text, 'offered'::text]));

-- index waitlist_pkey
CREATE UNIQUE INDEX waitlist_pkey ON waitlist USING btree (show_id, seq);

-- index webhook_cursor_pkey
CREATE UNIQUE INDEX webhook_cursor_pkey ON webhook_cursor USING btree (id);

-- index webhook_deliveries_due
CREATE INDEX webhook_deliveries_due ON webhook_deliveries USING btree (next_at) WHERE (state = 'pending'::text);

-- index webhook_deliveries_lane
CREATE INDEX webhook_deliveries_lane ON webhook_deliveries USING btree (endpoint_id, show_id, version) WHERE (state = 'pending'::text);

-- index webhook_deliveries_pkey
CREATE UNIQUE INDEX webhook_deliveries_pkey ON webhook_deliveries USING btree (endpoint_id, event_id);

-- index webhook_deliveries_recent
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries USING btree (endpoint_id, at);

-- index webhook_endpoints_pkey
CREATE UNIQUE INDEX webhook_endpoints_pkey ON webhook_endpoints USING btree (id);

-- index webhook_events_created
CREATE INDEX webhook_events_created ON webhook_events USING btree (created_at);

-- index webhook_events_id_key
CREATE UNIQUE INDEX webhook_events_id_key ON webhook_events USING btree (id);

-- index webhook_events_pkey
CREATE UNIQUE INDEX webhook_events_pkey ON webhook_events USING btree (seq);

-- function seatkit_commit(batch jsonb, durable boolean)
CREATE OR REPLACE FUNCTION seatkit_commit(batch jsonb, durable boolean)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
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
$function$


-- function seatkit_write(durable boolean, changes seatkit_change[])
CREATE OR REPLACE FUNCTION seatkit_write(durable boolean, changes seatkit_change[])
 RETURNS bigint[]
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
$function$


-- sequence webhook_events_seq_seq
