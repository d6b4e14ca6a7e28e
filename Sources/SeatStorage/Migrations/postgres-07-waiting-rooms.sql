-- Migration 7 of the PostgreSQL store: The shows' waiting rooms (QueueStore): settings and shared state, a row a buyer (digests only).
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE queues(show_id TEXT PRIMARY KEY REFERENCES shows(id), created_at BIGINT NOT NULL, opens_at BIGINT NOT NULL,
                    admit_per_minute INTEGER NOT NULL, early_minutes INTEGER NOT NULL, admission_minutes INTEGER NOT NULL,
                    max_per_address INTEGER NOT NULL, opened_at BIGINT, early_count INTEGER NOT NULL, credit DOUBLE PRECISION NOT NULL,
                    last_advance BIGINT, sold_out INTEGER NOT NULL, off_at BIGINT, revision BIGINT NOT NULL);
CREATE TABLE queue_entries(show_id TEXT NOT NULL REFERENCES queues(show_id), key TEXT NOT NULL, address TEXT NOT NULL,
                           seq BIGINT NOT NULL, arrived_at BIGINT NOT NULL,
                           state TEXT NOT NULL CHECK(state IN ('early','waiting','admitted','soldOut','left')),
                           place INTEGER, admitted_until BIGINT, used INTEGER NOT NULL, last_seen BIGINT NOT NULL,
                           revision BIGINT NOT NULL, PRIMARY KEY(show_id, key));
CREATE INDEX queue_entries_revision ON queue_entries(show_id, revision);
