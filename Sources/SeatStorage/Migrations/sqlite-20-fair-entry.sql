-- Migration 20 of the SQLite store: a fair chance in the waiting room. A room may ask a proof of work
-- at joining (`pow_bits`) and hold a registration and draw (`draw_at`, `draw_winners`); an entry keeps
-- the keyed hash of the document it joined with (one place a document) and the digest of the challenge
-- it spent, and may be `notDrawn`; priority lanes (`lanes`: name:share, …) and an entry's lane and spent pass. SQLite cannot change a CHECK, so the entries' table is made again.
-- Applied once, in order, to a database made before the baseline; never edited once released.
ALTER TABLE queues ADD COLUMN pow_bits INTEGER NOT NULL DEFAULT 0;
ALTER TABLE queues ADD COLUMN draw_at INTEGER;
ALTER TABLE queues ADD COLUMN draw_winners INTEGER NOT NULL DEFAULT 0;
ALTER TABLE queues ADD COLUMN lanes TEXT;
CREATE TABLE queue_entries_v2(show_id TEXT NOT NULL REFERENCES queues(show_id), key TEXT NOT NULL, address TEXT NOT NULL,
                              seq INTEGER NOT NULL, arrived_at INTEGER NOT NULL,
                              state TEXT NOT NULL CHECK(state IN ('early','waiting','admitted','soldOut','left','notDrawn')),
                              place INTEGER, admitted_until INTEGER, used INTEGER NOT NULL, last_seen INTEGER NOT NULL,
                              revision INTEGER NOT NULL, identity TEXT, proof TEXT, lane TEXT, pass TEXT, PRIMARY KEY(show_id, key)) WITHOUT ROWID;
INSERT INTO queue_entries_v2(show_id, key, address, seq, arrived_at, state, place, admitted_until, used, last_seen, revision)
  SELECT show_id, key, address, seq, arrived_at, state, place, admitted_until, used, last_seen, revision FROM queue_entries;
DROP TABLE queue_entries;
ALTER TABLE queue_entries_v2 RENAME TO queue_entries;
CREATE INDEX queue_entries_revision ON queue_entries(show_id, revision);
