-- Each operation names how it was made (squash-core's `OperationKind`: edit, manual, extract,
-- mask, ai, ai_legacy) instead of a flag and a style; the other columns hold that kind's fields.
-- The rows stored before are tagged by the rule `OperationKind::from_legacy` applies to old
-- records (squash-core src/operation/flat.rs): an agent's squash is `ai` (read as `ai_legacy`
-- when it lacks what the engine records now); else a style of `mask` or `extract` says so;
-- else one source is an edit, more a manual squash. `performed_by_agent` follows from the
-- kind and goes.
ALTER TABLE squash_operations ADD COLUMN kind TEXT;
UPDATE squash_operations o SET kind = CASE
    WHEN o.performed_by_agent THEN 'ai'
    WHEN o.style = 'mask' THEN 'mask'
    WHEN o.style = 'extract' THEN 'extract'
    WHEN (SELECT count(*) FROM squash_operation_sources s WHERE s.operation_key = o.key) = 1
        THEN 'edit'
    ELSE 'manual'
END;
ALTER TABLE squash_operations ALTER COLUMN kind SET NOT NULL;
ALTER TABLE squash_operations DROP COLUMN performed_by_agent;
