-- Migration 21 of the SQLite store: a waitlist entry may be prepaid (候补 with prepayment). `payment` is
-- its payment's id (the payment's hold id is `w_` and the entry's digest), `paid_at` when the provider
-- said it was taken (offered nothing before), `outcome` why a closed entry closed.
-- Applied once, in order, to a database made before the baseline; never edited once released.
ALTER TABLE waitlist ADD COLUMN payment TEXT;
ALTER TABLE waitlist ADD COLUMN paid_at INTEGER;
ALTER TABLE waitlist ADD COLUMN outcome TEXT;
