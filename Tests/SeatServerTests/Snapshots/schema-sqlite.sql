-- index checkins_order
CREATE INDEX checkins_order ON checkins(show_id, seq);

-- index claims_identity
CREATE UNIQUE INDEX claims_identity ON claims(show_id, identity) WHERE identity IS NOT NULL;

-- index holds_active
CREATE INDEX holds_active ON holds(state) WHERE state = 'active';

-- index holds_admission
CREATE UNIQUE INDEX holds_admission ON holds(show_id, admission) WHERE state IN ('active', 'confirmed') AND admission IS NOT NULL;

-- index holds_order
CREATE INDEX holds_order ON holds(order_ref) WHERE order_ref IS NOT NULL;

-- index order_contacts_at
CREATE INDEX order_contacts_at ON order_contacts(at);

-- index order_contacts_name_key
CREATE INDEX order_contacts_name_key ON order_contacts(name_key) WHERE name_key IS NOT NULL;

-- index order_contacts_phone_key
CREATE INDEX order_contacts_phone_key ON order_contacts(phone_key) WHERE phone_key IS NOT NULL;

-- index order_contacts_phone_tail_key
CREATE INDEX order_contacts_phone_tail_key ON order_contacts(phone_tail_key) WHERE phone_tail_key IS NOT NULL;

-- index payment_refunds_created
CREATE INDEX payment_refunds_created ON payment_refunds(created_at);

-- index payment_refunds_payment
CREATE INDEX payment_refunds_payment ON payment_refunds(payment_id);

-- index payment_refunds_pending
CREATE INDEX payment_refunds_pending ON payment_refunds(created_at) WHERE state = 'pending';

-- index payments_created
CREATE INDEX payments_created ON payments(created_at);

-- index payments_hold
CREATE INDEX payments_hold ON payments(hold_id);

-- index payments_pending
CREATE INDEX payments_pending ON payments(expires_at) WHERE state = 'pending';

-- index payments_provider_id
CREATE UNIQUE INDEX payments_provider_id ON payments(provider, provider_id) WHERE provider_id IS NOT NULL;

-- index queue_entries_revision
CREATE INDEX queue_entries_revision ON queue_entries(show_id, revision);

-- index show_log_created
CREATE INDEX show_log_created ON show_log(created_at);

-- index sqlite_autoindex_attendee_books_1
(made by SQLite);

-- index sqlite_autoindex_checkins_1
(made by SQLite);

-- index sqlite_autoindex_cinemas_1
(made by SQLite);

-- index sqlite_autoindex_holds_1
(made by SQLite);

-- index sqlite_autoindex_holds_2
(made by SQLite);

-- index sqlite_autoindex_idempotency_1
(made by SQLite);

-- index sqlite_autoindex_order_contacts_1
(made by SQLite);

-- index sqlite_autoindex_payment_refunds_1
(made by SQLite);

-- index sqlite_autoindex_payments_1
(made by SQLite);

-- index sqlite_autoindex_queues_1
(made by SQLite);

-- index sqlite_autoindex_seasons_1
(made by SQLite);

-- index sqlite_autoindex_shows_1
(made by SQLite);

-- index sqlite_autoindex_staff_1
(made by SQLite);

-- index sqlite_autoindex_staff_sessions_1
(made by SQLite);

-- index sqlite_autoindex_ticket_presence_1
(made by SQLite);

-- index sqlite_autoindex_ticket_transfers_1
(made by SQLite);

-- index sqlite_autoindex_venues_1
(made by SQLite);

-- index sqlite_autoindex_waitlist_1
(made by SQLite);

-- index sqlite_autoindex_waitlist_2
(made by SQLite);

-- index sqlite_autoindex_webhook_deliveries_1
(made by SQLite);

-- index sqlite_autoindex_webhook_endpoints_1
(made by SQLite);

-- index sqlite_autoindex_webhook_events_1
(made by SQLite);

-- index staff_key
CREATE UNIQUE INDEX staff_key ON staff(key_digest) WHERE key_digest IS NOT NULL;

-- index staff_sessions_name
CREATE INDEX staff_sessions_name ON staff_sessions(name);

-- index ticket_transfers_seat
CREATE INDEX ticket_transfers_seat ON ticket_transfers(show_id, seat, hold_id);

-- index waitlist_open
CREATE INDEX waitlist_open ON waitlist(state, show_id) WHERE state IN ('waiting', 'offered');

-- index webhook_deliveries_due
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_at) WHERE state = 'pending';

-- index webhook_deliveries_lane
CREATE INDEX webhook_deliveries_lane ON webhook_deliveries(endpoint_id, show_id, version) WHERE state = 'pending';

-- index webhook_deliveries_recent
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries(endpoint_id, at);

-- index webhook_events_created
CREATE INDEX webhook_events_created ON webhook_events(created_at);

-- table attendee_books
CREATE TABLE attendee_books(book TEXT NOT NULL, entry TEXT NOT NULL, sealed TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY(book, entry));

-- table checkins
CREATE TABLE checkins(show_id TEXT NOT NULL REFERENCES shows(id), nonce TEXT NOT NULL, ticket_id TEXT NOT NULL, seat INTEGER NOT NULL,
                      direction TEXT NOT NULL CHECK(direction IN ('in','out')), gate TEXT NOT NULL, operator TEXT NOT NULL,
                      at INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(show_id, nonce));

-- table cinemas
CREATE TABLE cinemas(id TEXT PRIMARY KEY, name TEXT NOT NULL, venues TEXT NOT NULL, revision INTEGER NOT NULL, created_at INTEGER NOT NULL);

-- table claims
CREATE TABLE claims(show_id TEXT NOT NULL REFERENCES shows(id), seat INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK(status IN ('held','sold','blocked')), hold_id TEXT REFERENCES holds(id), identity TEXT, attendee TEXT,
                    PRIMARY KEY(show_id, seat)) WITHOUT ROWID;

-- table holds
CREATE TABLE holds(id TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE, show_id TEXT NOT NULL REFERENCES shows(id),
                   state TEXT NOT NULL CHECK(state IN ('active','released','expired','confirmed')),
                   expires_at INTEGER NOT NULL, extended INTEGER NOT NULL, order_ref TEXT, wheelchair INTEGER NOT NULL,
                   created_at INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'buyer' CHECK(kind IN ('buyer','blocked','house','counter')), reason TEXT, operator TEXT, payment TEXT, prices TEXT, admission TEXT);

-- table idempotency
CREATE TABLE idempotency(key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER NOT NULL, body BLOB NOT NULL,
                         created_at INTEGER NOT NULL);

-- table order_contacts
CREATE TABLE order_contacts(order_ref TEXT PRIMARY KEY, show_id TEXT NOT NULL, name TEXT, phone TEXT, at INTEGER NOT NULL, name_key TEXT, phone_key TEXT, phone_tail_key TEXT);

-- table payment_refunds
CREATE TABLE payment_refunds(id TEXT PRIMARY KEY, payment_id TEXT NOT NULL, hold_id TEXT NOT NULL, show_id TEXT NOT NULL, provider TEXT NOT NULL,
                             amount INTEGER NOT NULL CHECK (amount > 0), currency TEXT NOT NULL,
                             state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed')), provider_refund_id TEXT,
                             reason TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, outcome TEXT);

-- table payments
CREATE TABLE payments(id TEXT PRIMARY KEY, hold_id TEXT NOT NULL, show_id TEXT NOT NULL, provider TEXT NOT NULL, provider_id TEXT,
                      amount INTEGER NOT NULL CHECK (amount >= 0), currency TEXT NOT NULL,
                      state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed', 'canceled', 'refunded')),
                      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, outcome TEXT, seats TEXT);

-- table queue_entries
CREATE TABLE "queue_entries"(show_id TEXT NOT NULL REFERENCES queues(show_id), key TEXT NOT NULL, address TEXT NOT NULL,
                              seq INTEGER NOT NULL, arrived_at INTEGER NOT NULL,
                              state TEXT NOT NULL CHECK(state IN ('early','waiting','admitted','soldOut','left','notDrawn')),
                              place INTEGER, admitted_until INTEGER, used INTEGER NOT NULL, last_seen INTEGER NOT NULL,
                              revision INTEGER NOT NULL, identity TEXT, proof TEXT, lane TEXT, pass TEXT, PRIMARY KEY(show_id, key)) WITHOUT ROWID;

-- table queues
CREATE TABLE queues(show_id TEXT PRIMARY KEY REFERENCES shows(id), created_at INTEGER NOT NULL, opens_at INTEGER NOT NULL,
                    admit_per_minute INTEGER NOT NULL, early_minutes INTEGER NOT NULL, admission_minutes INTEGER NOT NULL,
                    max_per_address INTEGER NOT NULL, opened_at INTEGER, early_count INTEGER NOT NULL, credit REAL NOT NULL,
                    last_advance INTEGER, sold_out INTEGER NOT NULL, off_at INTEGER, revision INTEGER NOT NULL, max_per_network INTEGER NOT NULL DEFAULT 64, max_joins_per_second INTEGER NOT NULL DEFAULT 1000, pow_bits INTEGER NOT NULL DEFAULT 0, draw_at INTEGER, draw_winners INTEGER NOT NULL DEFAULT 0, lanes TEXT);

-- table refunds
CREATE TABLE refunds(hold_id TEXT NOT NULL REFERENCES holds(id), seat INTEGER NOT NULL, refunded_at INTEGER NOT NULL,
                     reason TEXT NOT NULL, operator TEXT NOT NULL, returned_to TEXT, fee TEXT, PRIMARY KEY(hold_id, seat)) WITHOUT ROWID;

-- table seasons
CREATE TABLE seasons(id TEXT PRIMARY KEY, name TEXT NOT NULL, shows TEXT NOT NULL, parent TEXT, created_at INTEGER NOT NULL, operator TEXT NOT NULL);

-- table show_log
CREATE TABLE show_log(show_id TEXT NOT NULL, version INTEGER NOT NULL, created_at INTEGER NOT NULL, action TEXT NOT NULL,
                      hold_id TEXT, operator TEXT, reason TEXT, order_ref TEXT, delta TEXT NOT NULL,
                      PRIMARY KEY(show_id, version)) WITHOUT ROWID;

-- table shows
CREATE TABLE shows(id TEXT PRIMARY KEY, venue_id TEXT NOT NULL REFERENCES venues(id), starts_at TEXT NOT NULL,
                   prices TEXT NOT NULL, policy TEXT NOT NULL, hold_seconds INTEGER NOT NULL, version INTEGER NOT NULL, details TEXT NOT NULL DEFAULT '{}', on_sale INTEGER NOT NULL DEFAULT 1, cancelled_at INTEGER, price_revision INTEGER NOT NULL DEFAULT 0, earlier_prices TEXT NOT NULL DEFAULT '[]');

-- table sqlite_sequence
CREATE TABLE sqlite_sequence(name,seq);

-- table staff
CREATE TABLE staff(name TEXT PRIMARY KEY, role TEXT NOT NULL, cinemas TEXT NOT NULL, key_digest TEXT,
                   state TEXT NOT NULL CHECK (state IN ('active', 'disabled', 'deleted')), revision INTEGER NOT NULL,
                   created_at INTEGER NOT NULL, changed_by TEXT NOT NULL,
                   password TEXT, totp TEXT);

-- table staff_log
CREATE TABLE staff_log(at INTEGER NOT NULL, operator TEXT NOT NULL, action TEXT NOT NULL, subject TEXT NOT NULL, detail TEXT NOT NULL,
                       PRIMARY KEY(at, subject, action)) WITHOUT ROWID;

-- table staff_sessions
CREATE TABLE staff_sessions(digest TEXT PRIMARY KEY, name TEXT NOT NULL, csrf TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);

-- table ticket_presence
CREATE TABLE ticket_presence(show_id TEXT NOT NULL REFERENCES shows(id), ticket_id TEXT NOT NULL, inside INTEGER NOT NULL,
                             seat INTEGER NOT NULL, nonce TEXT NOT NULL, gate TEXT NOT NULL, operator TEXT NOT NULL, at INTEGER NOT NULL,
                             PRIMARY KEY(show_id, ticket_id));

-- table ticket_transfers
CREATE TABLE ticket_transfers(show_id TEXT NOT NULL, old_ticket TEXT NOT NULL, seat INTEGER NOT NULL, hold_id TEXT NOT NULL,
                              first_binding INTEGER NOT NULL, at INTEGER NOT NULL, operator TEXT NOT NULL, PRIMARY KEY(show_id, old_ticket));

-- table venues
CREATE TABLE venues(id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, layout BLOB NOT NULL, created_at INTEGER NOT NULL);

-- table waitlist
CREATE TABLE waitlist(show_id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL UNIQUE, category TEXT, zone TEXT,
                      count INTEGER NOT NULL, attendees TEXT,
                      state TEXT NOT NULL CHECK (state IN ('waiting', 'offered', 'bought', 'lapsed', 'cancelled')),
                      offers INTEGER NOT NULL, offer_hold TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, payment TEXT, paid_at INTEGER, outcome TEXT,
                      PRIMARY KEY(show_id, seq));

-- table webhook_cursor
CREATE TABLE webhook_cursor(id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL, events_at INTEGER NOT NULL DEFAULT 0);

-- table webhook_deliveries
CREATE TABLE webhook_deliveries(endpoint_id TEXT NOT NULL, event_id TEXT NOT NULL, show_id TEXT NOT NULL, version INTEGER NOT NULL,
                                type TEXT NOT NULL, payload TEXT NOT NULL, at INTEGER NOT NULL,
                                state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')), attempts INTEGER NOT NULL,
                                next_at INTEGER NOT NULL, last_code INTEGER, last_error TEXT, delivered_at INTEGER,
                                PRIMARY KEY(endpoint_id, event_id));

-- table webhook_endpoints
CREATE TABLE webhook_endpoints(id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL, description TEXT,
                               enabled INTEGER NOT NULL, disabled_reason TEXT, failing_since INTEGER, created_at INTEGER NOT NULL,
                               updated_at INTEGER NOT NULL);

-- table webhook_events
CREATE TABLE webhook_events(seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, show_id TEXT NOT NULL, type TEXT NOT NULL,
                            created_at INTEGER NOT NULL, fields TEXT NOT NULL);
