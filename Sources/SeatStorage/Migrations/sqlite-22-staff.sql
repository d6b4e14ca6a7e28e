-- Migration 22 of the SQLite store: a chain's cinemas (venues grouped) and its staff kept in the store,
-- instead of only a file read at start. An operator's key is kept as its digest; `cinemas` is `*` (all)
-- or the cinemas' ids a line each; `revision` orders changes (the newest wins, on every shard alike);
-- a removed operator keeps its row (state `deleted`, no key) so the log's names stay explained.
-- `password`: the scrypt digest of a person's console password; `totp`: their one-time-code secret,
-- sealed with the server's key. `staff_log`: every change to staff and cinemas, who made it and when.
-- `staff_sessions`: console sign-ins, by the digest of the cookie's token (a copy of the table signs no one in).
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE cinemas(id TEXT PRIMARY KEY, name TEXT NOT NULL, venues TEXT NOT NULL, revision INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE staff(name TEXT PRIMARY KEY, role TEXT NOT NULL, cinemas TEXT NOT NULL, key_digest TEXT,
                   state TEXT NOT NULL CHECK (state IN ('active', 'disabled', 'deleted')), revision INTEGER NOT NULL,
                   created_at INTEGER NOT NULL, changed_by TEXT NOT NULL,
                   password TEXT, totp TEXT);
CREATE UNIQUE INDEX staff_key ON staff(key_digest) WHERE key_digest IS NOT NULL;
CREATE TABLE staff_log(at INTEGER NOT NULL, operator TEXT NOT NULL, action TEXT NOT NULL, subject TEXT NOT NULL, detail TEXT NOT NULL,
                       PRIMARY KEY(at, subject, action)) WITHOUT ROWID;
CREATE TABLE staff_sessions(digest TEXT PRIMARY KEY, name TEXT NOT NULL, csrf TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE INDEX staff_sessions_name ON staff_sessions(name);
