-- Migration 14 of the PostgreSQL store: Buyers' names and phones given with counter sales (ContactSchema).
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE order_contacts(order_ref TEXT PRIMARY KEY, show_id TEXT NOT NULL, name TEXT, phone TEXT, at BIGINT NOT NULL);
CREATE INDEX order_contacts_at ON order_contacts(at);
