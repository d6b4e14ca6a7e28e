-- Migration 24 of the PostgreSQL store: the webhooks' outbox of events that are not a show's change.
-- Applied once, in order, to a database made before the baseline; never edited once released.
--
-- A ticket let in at the door (checkin.accepted) and a buyer let in from the waiting room
-- (queue.admitted) are not in the show's log: each writes its row here in the transaction that records
-- it, so an acknowledged check-in or admission always has its event, across a kill -9. The dispatcher
-- reads them past `webhook_cursor.events_at` (by time, a few seconds behind now), as it reads the log.
-- webhook_deliveries_lane: a delivery is due only when no earlier one of its endpoint and show is
-- pending; without it that test read every delivery the endpoint ever had (the claims slowed as the
-- table grew, and the hold load beside them fell to 0.59x in make bench).
CREATE TABLE webhook_events(seq BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, show_id TEXT NOT NULL, type TEXT NOT NULL,
                            created_at BIGINT NOT NULL, fields TEXT NOT NULL);
CREATE INDEX webhook_events_created ON webhook_events(created_at);
CREATE INDEX webhook_deliveries_lane ON webhook_deliveries(endpoint_id, show_id, version) WHERE state = 'pending';
ALTER TABLE webhook_cursor ADD COLUMN events_at BIGINT NOT NULL DEFAULT 0;
