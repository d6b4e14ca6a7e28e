-- Migration 5 of the SQLite store: The shows' waiting rooms (QueueStore): settings and shared state, a row a buyer (digests of the entry
-- id and the address, never either), each row stamped with the room's revision it was last written at.
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE queues(show_id TEXT PRIMARY KEY REFERENCES shows(id), created_at INTEGER NOT NULL, opens_at INTEGER NOT NULL,
                    admit_per_minute INTEGER NOT NULL, early_minutes INTEGER NOT NULL, admission_minutes INTEGER NOT NULL,
                    max_per_address INTEGER NOT NULL, opened_at INTEGER, early_count INTEGER NOT NULL, credit REAL NOT NULL,
                    last_advance INTEGER, sold_out INTEGER NOT NULL, off_at INTEGER, revision INTEGER NOT NULL);
CREATE TABLE queue_entries(show_id TEXT NOT NULL REFERENCES queues(show_id), key TEXT NOT NULL, address TEXT NOT NULL,
                           seq INTEGER NOT NULL, arrived_at INTEGER NOT NULL,
                           state TEXT NOT NULL CHECK(state IN ('early','waiting','admitted','soldOut','left')),
                           place INTEGER, admitted_until INTEGER, used INTEGER NOT NULL, last_seen INTEGER NOT NULL,
                           revision INTEGER NOT NULL, PRIMARY KEY(show_id, key)) WITHOUT ROWID;
CREATE INDEX queue_entries_revision ON queue_entries(show_id, revision);
