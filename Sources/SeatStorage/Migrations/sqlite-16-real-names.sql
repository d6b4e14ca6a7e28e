-- Migration 16 of the SQLite store: real-name sales (as PostgreSQL's migration 26). A claim may carry
-- its attendee: `identity`, the keyed hash of the attendee's identity document, and `attendee`, the
-- attendee sealed under a key the database never sees. One document once a show is the unique index.
-- Order contacts keep their name and phone sealed, found by keyed hashes.
-- Applied once, in order, to a database made before the baseline; never edited once released.
ALTER TABLE claims ADD COLUMN identity TEXT;
ALTER TABLE claims ADD COLUMN attendee TEXT;
CREATE UNIQUE INDEX claims_identity ON claims(show_id, identity) WHERE identity IS NOT NULL;
ALTER TABLE order_contacts ADD COLUMN name_key TEXT;
ALTER TABLE order_contacts ADD COLUMN phone_key TEXT;
ALTER TABLE order_contacts ADD COLUMN phone_tail_key TEXT;
CREATE INDEX order_contacts_name_key ON order_contacts(name_key) WHERE name_key IS NOT NULL;
CREATE INDEX order_contacts_phone_key ON order_contacts(phone_key) WHERE phone_key IS NOT NULL;
CREATE INDEX order_contacts_phone_tail_key ON order_contacts(phone_tail_key) WHERE phone_tail_key IS NOT NULL;
