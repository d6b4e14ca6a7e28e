-- Migration 3 of the PostgreSQL store: Tokens are kept as digests from here (the server rewrites old clear tokens in this step: hashPlainTokens);
-- kept answers from before held clear tokens: dropped.
-- Applied once, in order, to a database made before the baseline; never edited once released.
DELETE FROM idempotency;
