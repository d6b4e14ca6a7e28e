-- Migration 15 of the SQLite store: seasons (SeasonSchema), written once and never changed.
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE seasons(id TEXT PRIMARY KEY, name TEXT NOT NULL, shows TEXT NOT NULL, parent TEXT, created_at INTEGER NOT NULL, operator TEXT NOT NULL);
