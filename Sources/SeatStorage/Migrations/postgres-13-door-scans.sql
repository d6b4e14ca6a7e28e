-- Migration 13 of the PostgreSQL store: The door's scans (DoorSchema).
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE ticket_presence(show_id TEXT NOT NULL REFERENCES shows(id), ticket_id TEXT NOT NULL, inside INTEGER NOT NULL,
                             seat INTEGER NOT NULL, nonce TEXT NOT NULL, gate TEXT NOT NULL, operator TEXT NOT NULL, at BIGINT NOT NULL,
                             PRIMARY KEY(show_id, ticket_id));
CREATE TABLE checkins(show_id TEXT NOT NULL REFERENCES shows(id), nonce TEXT NOT NULL, ticket_id TEXT NOT NULL, seat INTEGER NOT NULL,
                      direction TEXT NOT NULL CHECK(direction IN ('in','out')), gate TEXT NOT NULL, operator TEXT NOT NULL,
                      at BIGINT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY(show_id, nonce));
CREATE INDEX checkins_order ON checkins(show_id, seq);
