-- Migration 3 of the SQLite store: Box-office reservations are holds of another kind, with the reason and who made them; refunds.
-- Applied once, in order, to a database made before the baseline; never edited once released.
ALTER TABLE holds ADD COLUMN kind TEXT NOT NULL DEFAULT 'buyer' CHECK(kind IN ('buyer','blocked','house','counter'));
ALTER TABLE holds ADD COLUMN reason TEXT;
ALTER TABLE holds ADD COLUMN operator TEXT;
ALTER TABLE holds ADD COLUMN payment TEXT;
CREATE INDEX holds_order ON holds(order_ref) WHERE order_ref IS NOT NULL;
CREATE TABLE refunds(hold_id TEXT NOT NULL REFERENCES holds(id), seat INTEGER NOT NULL, refunded_at INTEGER NOT NULL,
                     reason TEXT NOT NULL, operator TEXT NOT NULL, PRIMARY KEY(hold_id, seat)) WITHOUT ROWID;
