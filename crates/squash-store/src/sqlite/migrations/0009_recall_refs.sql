-- The recall reference a fit or an AI squash writes into its result's text (squash-core's
-- `RecallRef`): a number per conversation from 1, by which `recall` finds the operation and
-- through it the original messages. Operations stored before have none.
ALTER TABLE squash_operations ADD COLUMN recall_ref INTEGER;
CREATE UNIQUE INDEX squash_operations_by_recall_ref
    ON squash_operations(conversation_key, recall_ref) WHERE recall_ref IS NOT NULL;
