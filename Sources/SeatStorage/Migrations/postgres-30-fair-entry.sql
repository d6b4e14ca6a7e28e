-- Migration 30 of the PostgreSQL store: a fair chance in the waiting room, as SQLite's migration 20: a
-- proof of work at joining, a registration and draw, an entry's document hash and spent challenge, and
-- the `notDrawn` state; priority lanes, an entry's lane and the lane pass it spent.
-- Applied once, in order, to a database made before the baseline; never edited once released.
ALTER TABLE queues ADD COLUMN pow_bits integer NOT NULL DEFAULT 0;
ALTER TABLE queues ADD COLUMN draw_at bigint;
ALTER TABLE queues ADD COLUMN draw_winners integer NOT NULL DEFAULT 0;
ALTER TABLE queue_entries ADD COLUMN identity text;
ALTER TABLE queue_entries ADD COLUMN proof text;
ALTER TABLE queues ADD COLUMN lanes text;
ALTER TABLE queue_entries ADD COLUMN lane text;
ALTER TABLE queue_entries ADD COLUMN pass text;
ALTER TABLE queue_entries DROP CONSTRAINT queue_entries_state_check;
ALTER TABLE queue_entries ADD CONSTRAINT queue_entries_state_check
  CHECK (state IN ('early', 'waiting', 'admitted', 'soldOut', 'left', 'notDrawn'));
