-- Full-text search (see src/search.rs). Each message's searchable text
-- (squash_core::search::searchable_text) is computed in Rust and stored with the message; NULL
-- only in rows stored before this migration, which the store fills when it opens the database,
-- as it does the tokens. The tsvector is derived from it by PostgreSQL, so it cannot disagree.
-- 'english' stems words ("failing" finds "failed"), as SQLite's porter tokenizer does. The
-- parser would keep `src/lexer.rs:42` or `a.b.c` whole (a file, a host), where FTS5 sees the
-- words: the characters of squash_core::search::PG_WORD_BREAKS become spaces first, in the
-- index as in the query, so that `lexer` finds it on both backends.
ALTER TABLE messages
    ADD COLUMN search_text TEXT,
    ADD COLUMN search_vector tsvector
        GENERATED ALWAYS AS (
            to_tsvector('english', translate(COALESCE(search_text, ''), '/.:@\', '     '))
        ) STORED;

CREATE INDEX messages_search ON messages USING GIN (search_vector);

-- The rows still to fill, found without a scan; empty once the store has filled them.
CREATE INDEX messages_without_search ON messages(key) WHERE search_text IS NULL;

-- A hit counts only if it is in its conversation's current thread: one probe of this index
-- per hit, covering (thread_key, position). It costs a second copy of each link, paid by
-- copy-on-write commits.
CREATE INDEX thread_messages_by_message ON thread_messages(message_key)
    INCLUDE (thread_key, position);
