-- Migration 31 of the PostgreSQL store: a waitlist entry may be prepaid, as SQLite's migration 21: its
-- payment's id, when the provider said it was taken, and why a closed entry closed.
-- Applied once, in order, to a database made before the baseline; never edited once released.
ALTER TABLE waitlist ADD COLUMN payment text;
ALTER TABLE waitlist ADD COLUMN paid_at bigint;
ALTER TABLE waitlist ADD COLUMN outcome text;
