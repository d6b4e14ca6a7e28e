-- Migration 23 of the PostgreSQL store: webhooks out.
-- Applied once, in order, to a database made before the baseline; never edited once released.
--
-- The outbox is the show's log: every change writes its row in its own transaction, so an acknowledged
-- sale always has its event, across a kill -9. A dispatcher reads the log past `webhook_cursor` (by time,
-- a few seconds behind now, so a transaction still committing is not skipped) and writes one delivery an
-- endpoint an event; deliveries are sent in version order per show, retried, and kept for the console.
-- An endpoint's secret is kept sealed under a key the store never holds.
CREATE INDEX show_log_created ON show_log(created_at);
CREATE TABLE webhook_endpoints(id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL, description TEXT,
                               enabled BOOLEAN NOT NULL, disabled_reason TEXT, failing_since BIGINT, created_at BIGINT NOT NULL,
                               updated_at BIGINT NOT NULL);
CREATE TABLE webhook_deliveries(endpoint_id TEXT NOT NULL, event_id TEXT NOT NULL, show_id TEXT NOT NULL, version BIGINT NOT NULL,
                                type TEXT NOT NULL, payload TEXT NOT NULL, at BIGINT NOT NULL,
                                state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')), attempts INTEGER NOT NULL,
                                next_at BIGINT NOT NULL, last_code INTEGER, last_error TEXT, delivered_at BIGINT,
                                PRIMARY KEY(endpoint_id, event_id));
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries(endpoint_id, at);
CREATE TABLE webhook_cursor(id INTEGER PRIMARY KEY CHECK (id = 1), at BIGINT NOT NULL);
