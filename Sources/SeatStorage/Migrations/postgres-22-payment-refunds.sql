-- Migration 22 of the PostgreSQL store: a payment's seats, and money given back through providers.
-- Applied once, in order, to a database made before the baseline; never edited once released.
--
-- A paying hold that ends before its payment comes gives its seats back; when the payment then comes,
-- `seats` are the ones it sells if they are still free (seat ids as a JSON array, as the checkout had them).
-- A refund through a provider is written `pending` with the seats' refund, in its transaction, so a
-- crash before the provider answers leaves it to be sent again (its id is the provider's idempotency key).
ALTER TABLE payments ADD COLUMN seats TEXT;
CREATE TABLE payment_refunds(id TEXT PRIMARY KEY, payment_id TEXT NOT NULL, hold_id TEXT NOT NULL, show_id TEXT NOT NULL, provider TEXT NOT NULL,
                             amount BIGINT NOT NULL CHECK (amount > 0), currency TEXT NOT NULL,
                             state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed')), provider_refund_id TEXT,
                             reason TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, outcome TEXT);
CREATE INDEX payment_refunds_payment ON payment_refunds(payment_id);
CREATE INDEX payment_refunds_created ON payment_refunds(created_at);
CREATE INDEX payment_refunds_pending ON payment_refunds(created_at) WHERE state = 'pending';
