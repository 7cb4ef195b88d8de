-- Each message's estimated tokens (squash_core::tokens::message_tokens), written with the
-- message, so that a thread's size is a SUM over its links. NULL only in rows stored before
-- this migration: the store fills them in Rust when it opens the database (src/tokens.rs).
-- Adding a nullable column without a default rewrites nothing.
ALTER TABLE messages ADD COLUMN tokens BIGINT CHECK (tokens >= 0);

-- The rows still to fill, found without a scan; empty once the store has filled them.
CREATE INDEX messages_without_tokens ON messages(key) WHERE tokens IS NULL;
