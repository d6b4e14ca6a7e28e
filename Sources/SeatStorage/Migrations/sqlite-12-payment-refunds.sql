-- Migration 12 of the SQLite store: a payment's seats, and money given back through providers (as
-- PostgreSQL's migration 22). Applied once, in order, to a database made before the baseline; never
-- edited once released.
ALTER TABLE payments ADD COLUMN seats TEXT;
CREATE TABLE payment_refunds(id TEXT PRIMARY KEY, payment_id TEXT NOT NULL, hold_id TEXT NOT NULL, show_id TEXT NOT NULL, provider TEXT NOT NULL,
                             amount INTEGER NOT NULL CHECK (amount > 0), currency TEXT NOT NULL,
                             state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed')), provider_refund_id TEXT,
                             reason TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, outcome TEXT);
CREATE INDEX payment_refunds_payment ON payment_refunds(payment_id);
CREATE INDEX payment_refunds_created ON payment_refunds(created_at);
CREATE INDEX payment_refunds_pending ON payment_refunds(created_at) WHERE state = 'pending';
