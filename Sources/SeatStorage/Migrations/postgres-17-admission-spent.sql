-- Migration 17 of the PostgreSQL store: An admission is one purchase: its confirmed hold keeps it from holding again.
-- Applied once, in order, to a database made before the baseline; never edited once released.
UPDATE holds SET admission = NULL WHERE admission IS NOT NULL AND state IN ('active', 'confirmed') AND EXISTS (
  SELECT 1 FROM holds AS first WHERE first.show_id = holds.show_id AND first.admission = holds.admission
    AND first.state IN ('active', 'confirmed') AND (first.created_at < holds.created_at OR (first.created_at = holds.created_at AND first.id < holds.id)));
DROP INDEX holds_admission;
CREATE UNIQUE INDEX holds_admission ON holds(show_id, admission) WHERE state IN ('active', 'confirmed') AND admission IS NOT NULL;
