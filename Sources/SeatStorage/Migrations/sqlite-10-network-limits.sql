-- Migration 10 of the SQLite store: A waiting room's places a network and arrivals a second.
-- Applied once, in order, to a database made before the baseline; never edited once released.
ALTER TABLE queues ADD COLUMN max_per_network INTEGER NOT NULL DEFAULT 64;
ALTER TABLE queues ADD COLUMN max_joins_per_second INTEGER NOT NULL DEFAULT 1000;
