-- Migration 18 of the SQLite store: a buyer's refund may cost a fee (the show's refundTiers): each
-- refunded seat keeps the fee it cost (the amount, in the show's currency; NULL: none).
-- Applied once, in order, to a database made before the baseline; never edited once released.
ALTER TABLE refunds ADD COLUMN fee TEXT;
