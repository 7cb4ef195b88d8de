-- Numbered as on PostgreSQL, whose 0004 (lz4 compression) has no SQLite counterpart; here it is
-- the fourth migration (user_version 4).
--
-- Each message's estimated tokens (squash_core::tokens::message_tokens), written with the
-- message, so that a thread's size is a SUM over its links. NULL only in rows stored before
-- this migration: the store fills them in Rust when it opens the database (src/tokens.rs).
ALTER TABLE messages ADD COLUMN tokens INTEGER CHECK (tokens >= 0);

-- The sum reads only (key, tokens). Through the table, each of a 10,000-link thread's rows
-- costs a visit to the page that holds its (often large) content: 18 ms for 10,000 links of
-- mixed sizes; through this covering index, 2 ms. The sums name it (INDEXED BY), because the
-- planner prefers a rowid lookup.
CREATE INDEX messages_tokens ON messages(key, tokens);

-- The rows still to fill, found without a scan; empty once the store has filled them.
CREATE INDEX messages_without_tokens ON messages(key) WHERE tokens IS NULL;
