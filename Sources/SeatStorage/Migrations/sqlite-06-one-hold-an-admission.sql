-- Migration 6 of the SQLite store: An admission has one active hold at a time (a hold made with one names its room's entry).
-- Applied once, in order, to a database made before the baseline; never edited once released.
--
-- An admission has one active hold at a time: a hold made while a show's waiting room was on names
-- its room's entry, and a unique index over active holds refuses a second one, whichever instance
-- makes it (a bot with one admission held seats a hold after another, each up to the show's limit).
-- The embedded store's migration 6, the shared store's migration 11.
ALTER TABLE holds ADD COLUMN admission TEXT;
CREATE UNIQUE INDEX holds_admission ON holds(show_id, admission) WHERE state = 'active' AND admission IS NOT NULL;
