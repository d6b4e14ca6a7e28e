-- Migration 12 of the SQLite store: the seats a payment is for (as PostgreSQL's migration 22).
-- Applied once, in order, to a database made before the baseline; never edited once released.
ALTER TABLE payments ADD COLUMN seats TEXT;
