-- The SQLite store's whole schema at migration 11, in one step: a new database starts here (and is marked
-- as at 11); a database made before upgrades through sqlite-NN-*.sql instead. The statements are
-- SQLite's own record of what the 11 migrations built (sqlite_master), in the order it made them, so the
-- two are one schema; the schema test (MigrationTests) holds them so, and a new migration comes with a
-- new baseline.

CREATE TABLE venues(id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, layout BLOB NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE shows(id TEXT PRIMARY KEY, venue_id TEXT NOT NULL REFERENCES venues(id), starts_at TEXT NOT NULL,
                   prices TEXT NOT NULL, policy TEXT NOT NULL, hold_seconds INTEGER NOT NULL, version INTEGER NOT NULL, details TEXT NOT NULL DEFAULT '{}', on_sale INTEGER NOT NULL DEFAULT 1, cancelled_at INTEGER, price_revision INTEGER NOT NULL DEFAULT 0, earlier_prices TEXT NOT NULL DEFAULT '[]');
CREATE TABLE holds(id TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE, show_id TEXT NOT NULL REFERENCES shows(id),
                   state TEXT NOT NULL CHECK(state IN ('active','released','expired','confirmed')),
                   expires_at INTEGER NOT NULL, extended INTEGER NOT NULL, order_ref TEXT, wheelchair INTEGER NOT NULL,
                   created_at INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'buyer' CHECK(kind IN ('buyer','blocked','house','counter')), reason TEXT, operator TEXT, payment TEXT, prices TEXT, admission TEXT);
CREATE INDEX holds_active ON holds(state) WHERE state = 'active';
CREATE TABLE claims(show_id TEXT NOT NULL REFERENCES shows(id), seat INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK(status IN ('held','sold','blocked')), hold_id TEXT REFERENCES holds(id),
                    PRIMARY KEY(show_id, seat)) WITHOUT ROWID;
CREATE TABLE idempotency(key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER NOT NULL, body BLOB NOT NULL,
                         created_at INTEGER NOT NULL);
CREATE INDEX holds_order ON holds(order_ref) WHERE order_ref IS NOT NULL;
CREATE TABLE refunds(hold_id TEXT NOT NULL REFERENCES holds(id), seat INTEGER NOT NULL, refunded_at INTEGER NOT NULL,
                     reason TEXT NOT NULL, operator TEXT NOT NULL, returned_to TEXT, fee TEXT, PRIMARY KEY(hold_id, seat)) WITHOUT ROWID;
CREATE TABLE show_log(show_id TEXT NOT NULL, version INTEGER NOT NULL, created_at INTEGER NOT NULL, action TEXT NOT NULL,
                      hold_id TEXT, operator TEXT, reason TEXT, order_ref TEXT, delta TEXT NOT NULL,
                      PRIMARY KEY(show_id, version)) WITHOUT ROWID;
CREATE TABLE queues(show_id TEXT PRIMARY KEY REFERENCES shows(id), created_at INTEGER NOT NULL, opens_at INTEGER NOT NULL,
                    admit_per_minute INTEGER NOT NULL, early_minutes INTEGER NOT NULL, admission_minutes INTEGER NOT NULL,
                    max_per_address INTEGER NOT NULL, opened_at INTEGER, early_count INTEGER NOT NULL, credit REAL NOT NULL,
                    last_advance INTEGER, sold_out INTEGER NOT NULL, off_at INTEGER, revision INTEGER NOT NULL, max_per_network INTEGER NOT NULL DEFAULT 64, max_joins_per_second INTEGER NOT NULL DEFAULT 1000, pow_bits INTEGER NOT NULL DEFAULT 0, draw_at INTEGER, draw_winners INTEGER NOT NULL DEFAULT 0, lanes TEXT);
CREATE TABLE "queue_entries"(show_id TEXT NOT NULL REFERENCES queues(show_id), key TEXT NOT NULL, address TEXT NOT NULL,
                              seq INTEGER NOT NULL, arrived_at INTEGER NOT NULL,
                              state TEXT NOT NULL CHECK(state IN ('early','waiting','admitted','soldOut','left','notDrawn')),
                              place INTEGER, admitted_until INTEGER, used INTEGER NOT NULL, last_seen INTEGER NOT NULL,
                              revision INTEGER NOT NULL, identity TEXT, proof TEXT, lane TEXT, pass TEXT, PRIMARY KEY(show_id, key)) WITHOUT ROWID;
CREATE INDEX queue_entries_revision ON queue_entries(show_id, revision);
CREATE TABLE ticket_presence(show_id TEXT NOT NULL REFERENCES shows(id), ticket_id TEXT NOT NULL, inside INTEGER NOT NULL,
                             seat INTEGER NOT NULL, nonce TEXT NOT NULL, gate TEXT NOT NULL, operator TEXT NOT NULL, at INTEGER NOT NULL,
                             PRIMARY KEY(show_id, ticket_id));
CREATE TABLE checkins(show_id TEXT NOT NULL REFERENCES shows(id), nonce TEXT NOT NULL, ticket_id TEXT NOT NULL, seat INTEGER NOT NULL,
                      direction TEXT NOT NULL CHECK(direction IN ('in','out')), gate TEXT NOT NULL, operator TEXT NOT NULL,
                      at INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(show_id, nonce));
CREATE INDEX checkins_order ON checkins(show_id, seq);
CREATE TABLE order_contacts(order_ref TEXT PRIMARY KEY, show_id TEXT NOT NULL, name TEXT, phone TEXT, at INTEGER NOT NULL);
CREATE INDEX order_contacts_at ON order_contacts(at);
CREATE UNIQUE INDEX holds_admission ON holds(show_id, admission) WHERE state IN ('active', 'confirmed') AND admission IS NOT NULL;
CREATE TABLE payments(id TEXT PRIMARY KEY, hold_id TEXT NOT NULL, show_id TEXT NOT NULL, provider TEXT NOT NULL, provider_id TEXT,
                      amount INTEGER NOT NULL CHECK (amount >= 0), currency TEXT NOT NULL,
                      state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed', 'canceled', 'refunded')),
                      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, outcome TEXT, seats TEXT);
CREATE UNIQUE INDEX payments_provider_id ON payments(provider, provider_id) WHERE provider_id IS NOT NULL;
CREATE INDEX payments_hold ON payments(hold_id);
CREATE INDEX payments_created ON payments(created_at);
CREATE INDEX payments_pending ON payments(expires_at) WHERE state = 'pending';
CREATE TABLE payment_refunds(id TEXT PRIMARY KEY, payment_id TEXT NOT NULL, hold_id TEXT NOT NULL, show_id TEXT NOT NULL, provider TEXT NOT NULL,
                             amount INTEGER NOT NULL CHECK (amount > 0), currency TEXT NOT NULL,
                             state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed')), provider_refund_id TEXT,
                             reason TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, outcome TEXT);
CREATE INDEX payment_refunds_payment ON payment_refunds(payment_id);
CREATE INDEX payment_refunds_created ON payment_refunds(created_at);
CREATE INDEX payment_refunds_pending ON payment_refunds(created_at) WHERE state = 'pending';
CREATE INDEX show_log_created ON show_log(created_at);
CREATE TABLE webhook_endpoints(id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL, description TEXT,
                               enabled INTEGER NOT NULL, disabled_reason TEXT, failing_since INTEGER, created_at INTEGER NOT NULL,
                               updated_at INTEGER NOT NULL);
CREATE TABLE webhook_deliveries(endpoint_id TEXT NOT NULL, event_id TEXT NOT NULL, show_id TEXT NOT NULL, version INTEGER NOT NULL,
                                type TEXT NOT NULL, payload TEXT NOT NULL, at INTEGER NOT NULL,
                                state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')), attempts INTEGER NOT NULL,
                                next_at INTEGER NOT NULL, last_code INTEGER, last_error TEXT, delivered_at INTEGER,
                                PRIMARY KEY(endpoint_id, event_id));
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries(endpoint_id, at);
CREATE TABLE webhook_cursor(id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);
CREATE TABLE webhook_events(seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, show_id TEXT NOT NULL, type TEXT NOT NULL,
                            created_at INTEGER NOT NULL, fields TEXT NOT NULL);
CREATE INDEX webhook_events_created ON webhook_events(created_at);
CREATE INDEX webhook_deliveries_lane ON webhook_deliveries(endpoint_id, show_id, version) WHERE state = 'pending';
ALTER TABLE webhook_cursor ADD COLUMN events_at INTEGER NOT NULL DEFAULT 0;
-- 15: seasons
CREATE TABLE seasons(id TEXT PRIMARY KEY, name TEXT NOT NULL, shows TEXT NOT NULL, parent TEXT, created_at INTEGER NOT NULL, operator TEXT NOT NULL);
-- 16: real names
ALTER TABLE claims ADD COLUMN identity TEXT;
ALTER TABLE claims ADD COLUMN attendee TEXT;
CREATE UNIQUE INDEX claims_identity ON claims(show_id, identity) WHERE identity IS NOT NULL;
ALTER TABLE order_contacts ADD COLUMN name_key TEXT;
ALTER TABLE order_contacts ADD COLUMN phone_key TEXT;
ALTER TABLE order_contacts ADD COLUMN phone_tail_key TEXT;
CREATE INDEX order_contacts_name_key ON order_contacts(name_key) WHERE name_key IS NOT NULL;
CREATE INDEX order_contacts_phone_key ON order_contacts(phone_key) WHERE phone_key IS NOT NULL;
CREATE INDEX order_contacts_phone_tail_key ON order_contacts(phone_tail_key) WHERE phone_tail_key IS NOT NULL;
-- 17: ticket transfers and attendee books
CREATE TABLE ticket_transfers(show_id TEXT NOT NULL, old_ticket TEXT NOT NULL, seat INTEGER NOT NULL, hold_id TEXT NOT NULL,
                              first_binding INTEGER NOT NULL, at INTEGER NOT NULL, operator TEXT NOT NULL, PRIMARY KEY(show_id, old_ticket));
CREATE INDEX ticket_transfers_seat ON ticket_transfers(show_id, seat, hold_id);
CREATE TABLE attendee_books(book TEXT NOT NULL, entry TEXT NOT NULL, sealed TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY(book, entry));
-- 19, 21: waitlists, their prepayments
CREATE TABLE waitlist(show_id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL UNIQUE, category TEXT, zone TEXT,
                      count INTEGER NOT NULL, attendees TEXT,
                      state TEXT NOT NULL CHECK (state IN ('waiting', 'offered', 'bought', 'lapsed', 'cancelled')),
                      offers INTEGER NOT NULL, offer_hold TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, payment TEXT, paid_at INTEGER, outcome TEXT,
                      PRIMARY KEY(show_id, seq));
CREATE INDEX waitlist_open ON waitlist(state, show_id) WHERE state IN ('waiting', 'offered');
CREATE TABLE cinemas(id TEXT PRIMARY KEY, name TEXT NOT NULL, venues TEXT NOT NULL, revision INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE staff(name TEXT PRIMARY KEY, role TEXT NOT NULL, cinemas TEXT NOT NULL, key_digest TEXT,
                   state TEXT NOT NULL CHECK (state IN ('active', 'disabled', 'deleted')), revision INTEGER NOT NULL,
                   created_at INTEGER NOT NULL, changed_by TEXT NOT NULL,
                   password TEXT, totp TEXT);
CREATE UNIQUE INDEX staff_key ON staff(key_digest) WHERE key_digest IS NOT NULL;
CREATE TABLE staff_log(at INTEGER NOT NULL, operator TEXT NOT NULL, action TEXT NOT NULL, subject TEXT NOT NULL, detail TEXT NOT NULL,
                       PRIMARY KEY(at, subject, action)) WITHOUT ROWID;
CREATE TABLE staff_sessions(digest TEXT PRIMARY KEY, name TEXT NOT NULL, csrf TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE INDEX staff_sessions_name ON staff_sessions(name);
