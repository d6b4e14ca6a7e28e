-- Migration 19 of the PostgreSQL store: a shard move's state, recorded in both databases.
-- Applied once, in order, to a database made before the baseline; never edited once released.
--
-- A move was recorded only once done (a row on the source with its deletion, one on the target with
-- its copy), and a move interrupted between the two was inferred from a copy heard 2 s before. Now
-- each move has an id and a state: the source's row `copying` before anything is copied, then
-- `source_deleted` or `rolled_back`; the target's row `copied` with its copy, or `rolled_back`. The
-- shard's name and the moves, made on first use by the code until now, are tables of the schema.
CREATE TABLE IF NOT EXISTS shard_identity(one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), name TEXT NOT NULL, claimed_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS shard_moves(show_id TEXT NOT NULL, from_shard TEXT NOT NULL, to_shard TEXT NOT NULL, moved_at BIGINT NOT NULL);
ALTER TABLE shard_moves ADD COLUMN move_id TEXT, ADD COLUMN state TEXT;
-- The moves recorded before: each done (the source's row written with its deletion), and a target's
-- row the copy that arrived.
UPDATE shard_moves SET move_id = gen_random_uuid()::text,
  state = CASE WHEN to_shard = (SELECT name FROM shard_identity) THEN 'copied' ELSE 'source_deleted' END;
ALTER TABLE shard_moves ALTER COLUMN move_id SET NOT NULL, ALTER COLUMN state SET NOT NULL,
  ADD CONSTRAINT shard_moves_pkey PRIMARY KEY (move_id),
  ADD CONSTRAINT shard_moves_state CHECK (state IN ('copying', 'copied', 'source_deleted', 'rolled_back'));
CREATE INDEX shard_moves_unsettled ON shard_moves(moved_at) WHERE state = 'copying';
