-- Migration 2 of the SQLite store: Tokens are kept as digests from here (the server rewrites old clear tokens in this step: hashPlainTokens);
-- kept answers from before held clear tokens and were keyed by the client's key: dropped.
-- Applied once, in order, to a database made before the baseline; never edited once released.
DELETE FROM idempotency;
