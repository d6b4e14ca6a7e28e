-- Migration 21 of the PostgreSQL store: buyers' payments.
-- Applied once, in order, to a database made before the baseline; never edited once released.
--
-- A payment is written with the change it belongs to (the checkout, the sale), in its transaction.
-- One payment a provider's id: a notification repeated, or heard on two instances at once, finds the
-- one it names. Pending payments are found by the end of their window (asked of the provider then).
CREATE TABLE payments(id TEXT PRIMARY KEY, hold_id TEXT NOT NULL, show_id TEXT NOT NULL, provider TEXT NOT NULL, provider_id TEXT,
                      amount BIGINT NOT NULL CHECK (amount >= 0), currency TEXT NOT NULL,
                      state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed', 'canceled', 'refunded')),
                      created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, outcome TEXT);
CREATE UNIQUE INDEX payments_provider_id ON payments(provider, provider_id) WHERE provider_id IS NOT NULL;
CREATE INDEX payments_hold ON payments(hold_id);
CREATE INDEX payments_created ON payments(created_at);
CREATE INDEX payments_pending ON payments(expires_at) WHERE state = 'pending';
