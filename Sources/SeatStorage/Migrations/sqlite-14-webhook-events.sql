-- Migration 14 of the SQLite store: the webhooks' outbox of events that are not a show's change (as
-- PostgreSQL's migration 24). Applied once, in order, to a database made before the baseline; never
-- edited once released.
CREATE TABLE webhook_events(seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, show_id TEXT NOT NULL, type TEXT NOT NULL,
                            created_at INTEGER NOT NULL, fields TEXT NOT NULL);
CREATE INDEX webhook_events_created ON webhook_events(created_at);
CREATE INDEX webhook_deliveries_lane ON webhook_deliveries(endpoint_id, show_id, version) WHERE state = 'pending';
ALTER TABLE webhook_cursor ADD COLUMN events_at INTEGER NOT NULL DEFAULT 0;
