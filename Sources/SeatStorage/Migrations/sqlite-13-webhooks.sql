-- Migration 13 of the SQLite store: webhooks out (as PostgreSQL's migration 23).
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE INDEX show_log_created ON show_log(created_at);
CREATE TABLE webhook_endpoints(id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL, description TEXT,
                               enabled INTEGER NOT NULL, disabled_reason TEXT, failing_since INTEGER, created_at INTEGER NOT NULL,
                               updated_at INTEGER NOT NULL);
CREATE TABLE webhook_deliveries(endpoint_id TEXT NOT NULL, event_id TEXT NOT NULL, show_id TEXT NOT NULL, version INTEGER NOT NULL,
                                type TEXT NOT NULL, payload TEXT NOT NULL, at INTEGER NOT NULL,
                                state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')), attempts INTEGER NOT NULL,
                                next_at INTEGER NOT NULL, last_code INTEGER, last_error TEXT, delivered_at INTEGER,
                                PRIMARY KEY(endpoint_id, event_id));
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries(endpoint_id, at);
CREATE TABLE webhook_cursor(id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);
