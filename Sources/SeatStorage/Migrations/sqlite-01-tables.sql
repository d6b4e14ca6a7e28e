-- Migration 1 of the SQLite store: The first schema: venues, shows, holds, claims (a seat's hold or sale), the event log, kept answers.
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE venues(id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, layout BLOB NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE shows(id TEXT PRIMARY KEY, venue_id TEXT NOT NULL REFERENCES venues(id), starts_at TEXT NOT NULL,
                   prices TEXT NOT NULL, policy TEXT NOT NULL, hold_seconds INTEGER NOT NULL, version INTEGER NOT NULL);
CREATE TABLE holds(id TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE, show_id TEXT NOT NULL REFERENCES shows(id),
                   state TEXT NOT NULL CHECK(state IN ('active','released','expired','confirmed')),
                   expires_at INTEGER NOT NULL, extended INTEGER NOT NULL, order_ref TEXT, wheelchair INTEGER NOT NULL,
                   created_at INTEGER NOT NULL);
CREATE INDEX holds_active ON holds(state) WHERE state = 'active';
CREATE TABLE claims(show_id TEXT NOT NULL REFERENCES shows(id), seat INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK(status IN ('held','sold','blocked')), hold_id TEXT REFERENCES holds(id),
                    PRIMARY KEY(show_id, seat)) WITHOUT ROWID;
CREATE TABLE events(show_id TEXT NOT NULL, version INTEGER NOT NULL, delta TEXT NOT NULL, created_at INTEGER NOT NULL,
                    PRIMARY KEY(show_id, version)) WITHOUT ROWID;
CREATE TABLE idempotency(key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER NOT NULL, body BLOB NOT NULL,
                         created_at INTEGER NOT NULL);
