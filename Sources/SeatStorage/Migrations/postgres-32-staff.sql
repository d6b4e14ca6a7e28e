-- Migration 32 of the PostgreSQL store: a chain's cinemas and staff, as SQLite's migration 22. On a
-- store of shards every shard keeps them (any shard that answers knows who may act).
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE cinemas(id text PRIMARY KEY, name text NOT NULL, venues text NOT NULL, revision bigint NOT NULL, created_at bigint NOT NULL);
CREATE TABLE staff(name text PRIMARY KEY, role text NOT NULL, cinemas text NOT NULL, key_digest text,
                   state text NOT NULL CHECK (state IN ('active', 'disabled', 'deleted')), revision bigint NOT NULL,
                   created_at bigint NOT NULL, changed_by text NOT NULL,
                   password text, totp text);
CREATE UNIQUE INDEX staff_key ON staff(key_digest) WHERE key_digest IS NOT NULL;
CREATE TABLE staff_log(at bigint NOT NULL, operator text NOT NULL, action text NOT NULL, subject text NOT NULL, detail text NOT NULL,
                       PRIMARY KEY(at, subject, action));
CREATE TABLE staff_sessions(digest text PRIMARY KEY, name text NOT NULL, csrf text NOT NULL, created_at bigint NOT NULL, expires_at bigint NOT NULL);
CREATE INDEX staff_sessions_name ON staff_sessions(name);
