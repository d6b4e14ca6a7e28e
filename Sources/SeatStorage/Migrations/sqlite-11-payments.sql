-- Migration 11 of the SQLite store: buyers' payments (as PostgreSQL's migration 21).
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE payments(id TEXT PRIMARY KEY, hold_id TEXT NOT NULL, show_id TEXT NOT NULL, provider TEXT NOT NULL, provider_id TEXT,
                      amount INTEGER NOT NULL CHECK (amount >= 0), currency TEXT NOT NULL,
                      state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed', 'canceled', 'refunded')),
                      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, outcome TEXT);
CREATE UNIQUE INDEX payments_provider_id ON payments(provider, provider_id) WHERE provider_id IS NOT NULL;
CREATE INDEX payments_hold ON payments(hold_id);
CREATE INDEX payments_created ON payments(created_at);
CREATE INDEX payments_pending ON payments(expires_at) WHERE state = 'pending';
