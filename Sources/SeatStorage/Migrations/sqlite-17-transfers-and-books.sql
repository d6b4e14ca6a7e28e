-- Migration 17 of the SQLite store: a real-name ticket's transfers (and first bindings), each the code
-- it revoked: the door refuses an old code as transferred, the offline list carries it, and a
-- ticket's transfers are counted against the show's limit.
-- Attendee books: a buyer's saved attendees (sealed; the book found by its token's digest), reused across orders.
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE ticket_transfers(show_id TEXT NOT NULL, old_ticket TEXT NOT NULL, seat INTEGER NOT NULL, hold_id TEXT NOT NULL,
                              first_binding INTEGER NOT NULL, at INTEGER NOT NULL, operator TEXT NOT NULL, PRIMARY KEY(show_id, old_ticket));
CREATE INDEX ticket_transfers_seat ON ticket_transfers(show_id, seat, hold_id);
CREATE TABLE attendee_books(book TEXT NOT NULL, entry TEXT NOT NULL, sealed TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY(book, entry));
