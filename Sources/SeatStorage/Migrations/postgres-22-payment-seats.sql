-- Migration 22 of the PostgreSQL store: the seats a payment is for.
-- Applied once, in order, to a database made before the baseline; never edited once released.
--
-- A paying hold that ends before its payment comes gives its seats back; when the payment then comes,
-- these are the seats it sells if they are still free (seat ids, comma-separated, as the checkout had them).
ALTER TABLE payments ADD COLUMN seats TEXT;
