-- Migration 8 of the SQLite store: Buyers' names and phones given with counter sales (ContactSchema).
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE order_contacts(order_ref TEXT PRIMARY KEY, show_id TEXT NOT NULL, name TEXT, phone TEXT, at INTEGER NOT NULL);
CREATE INDEX order_contacts_at ON order_contacts(at);
