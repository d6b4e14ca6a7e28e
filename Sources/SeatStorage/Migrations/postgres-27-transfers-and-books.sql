-- Migration 27 of the PostgreSQL store: a real-name ticket's transfers (and first bindings), each the
-- code it revoked (as SQLite's migration 17).
-- Attendee books: a buyer's saved attendees (sealed; the book found by its token's digest), reused across orders.
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE ticket_transfers(show_id text NOT NULL, old_ticket text NOT NULL, seat int NOT NULL, hold_id text NOT NULL,
                              first_binding boolean NOT NULL, at bigint NOT NULL, operator text NOT NULL, PRIMARY KEY(show_id, old_ticket));
CREATE INDEX ticket_transfers_seat ON ticket_transfers(show_id, seat, hold_id);
CREATE TABLE attendee_books(book text NOT NULL, entry text NOT NULL, sealed text NOT NULL, created_at bigint NOT NULL, PRIMARY KEY(book, entry));
