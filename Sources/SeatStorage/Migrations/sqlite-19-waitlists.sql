-- Migration 19 of the SQLite store: waitlists for freed seats (候补). An entry is a buyer in line for a
-- show's seats (a category, a zone or any), its token kept as a digest; its place is `seq` within the
-- show. Offers are holds drawn from the seats kept for the line; `offer_hold` names the latest.
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE waitlist(show_id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL UNIQUE, category TEXT, zone TEXT,
                      count INTEGER NOT NULL, attendees TEXT,
                      state TEXT NOT NULL CHECK (state IN ('waiting', 'offered', 'bought', 'lapsed', 'cancelled')),
                      offers INTEGER NOT NULL, offer_hold TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
                      PRIMARY KEY(show_id, seq));
CREATE INDEX waitlist_open ON waitlist(state, show_id) WHERE state IN ('waiting', 'offered');
