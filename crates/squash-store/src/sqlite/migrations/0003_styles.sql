-- The squash style (prose, structured, extract) and the first prompt's style of a squash made
-- by the engine; NULL for manual squashes, edits and operations recorded before.
ALTER TABLE squash_operations ADD COLUMN style TEXT;
ALTER TABLE squash_operations ADD COLUMN prompt_style TEXT;
