-- Migration 29 of the PostgreSQL store: waitlists for freed seats (候补), as SQLite's migration 19. Two
-- instances adding to one show's line at once meet the primary key; the later takes the next place.
-- Applied once, in order, to a database made before the baseline; never edited once released.
CREATE TABLE waitlist(show_id text NOT NULL, seq bigint NOT NULL, entry text NOT NULL UNIQUE, category text, zone text,
                      count int NOT NULL, attendees text,
                      state text NOT NULL CHECK (state IN ('waiting', 'offered', 'bought', 'lapsed', 'cancelled')),
                      offers int NOT NULL, offer_hold text, created_at bigint NOT NULL, updated_at bigint NOT NULL,
                      PRIMARY KEY(show_id, seq));
CREATE INDEX waitlist_open ON waitlist(state, show_id) WHERE state IN ('waiting', 'offered');
