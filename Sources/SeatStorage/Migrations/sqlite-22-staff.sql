-- Migration 22 of the SQLite store: a chain's cinemas (venues grouped) and its staff kept in the store,
-- instead of only a file read at start. An operator's key is kept as its digest; `cinemas` is `*` (all)
-- or the cinemas' ids a line each; `revision` orders changes (the newest wins, on every shard alike);
-- a removed operator keeps its row (state `deleted`, no key) so the log's names stay explained.
-- `staff_log`: every change to staff and cinemas, who made it and when.
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE cinemas(id TEXT PRIMARY KEY, name TEXT NOT NULL, venues TEXT NOT NULL, revision INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE staff(name TEXT PRIMARY KEY, role TEXT NOT NULL, cinemas TEXT NOT NULL, key_digest TEXT,
                   state TEXT NOT NULL CHECK (state IN ('active', 'disabled', 'deleted')), revision INTEGER NOT NULL,
                   created_at INTEGER NOT NULL, changed_by TEXT NOT NULL);
CREATE UNIQUE INDEX staff_key ON staff(key_digest) WHERE key_digest IS NOT NULL;
CREATE TABLE staff_log(at INTEGER NOT NULL, operator TEXT NOT NULL, action TEXT NOT NULL, subject TEXT NOT NULL, detail TEXT NOT NULL,
                       PRIMARY KEY(at, subject, action)) WITHOUT ROWID;
