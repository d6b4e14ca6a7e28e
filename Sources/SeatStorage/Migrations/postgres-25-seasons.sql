-- Migration 25 of the PostgreSQL store: seasons (SeasonSchema), written once and never changed.
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE seasons(id text PRIMARY KEY, name text NOT NULL, shows text NOT NULL, parent text, created_at bigint NOT NULL, operator text NOT NULL);
