-- One rule for search on both backends (see src/search.rs): the terms of a message are made in
-- Rust (squash_core::search::tokens: letters and digits, case and accents folded, English
-- stemming, no stop words) and indexed as they are. FTS5's `porter unicode61` tokenizer
-- decided that here before, PostgreSQL's `english` configuration there, and they disagreed
-- (stop words, accents, hyphens, markup).
--
-- `message_terms` is contentless: it holds the index alone (the text stays in
-- messages.search_text; snippets are made in Rust from it). The store registers the SQL
-- function `squash_search_terms(text)` on every connection it opens; it returns the terms as a
-- document of space-separated words, which FTS5's `ascii` tokenizer takes as they are.
DROP TRIGGER messages_search_insert;
DROP TRIGGER messages_search_fill;
DROP TRIGGER messages_search_delete;
DROP TABLE message_search;

CREATE VIRTUAL TABLE message_terms USING fts5(
    terms,
    content = '',
    contentless_delete = 1,
    tokenize = 'ascii'
);

INSERT INTO message_terms (rowid, terms)
SELECT key, squash_search_terms(search_text) FROM messages WHERE search_text IS NOT NULL;

-- As before: the index follows the table inside the writer's own transaction, whatever the
-- path that wrote; a row changes only when the fill gives it its text.
CREATE TRIGGER messages_terms_insert AFTER INSERT ON messages
WHEN new.search_text IS NOT NULL BEGIN
    INSERT INTO message_terms (rowid, terms) VALUES (new.key, squash_search_terms(new.search_text));
END;
CREATE TRIGGER messages_terms_fill AFTER UPDATE OF search_text ON messages
WHEN old.search_text IS NULL AND new.search_text IS NOT NULL BEGIN
    INSERT INTO message_terms (rowid, terms) VALUES (new.key, squash_search_terms(new.search_text));
END;
CREATE TRIGGER messages_terms_delete AFTER DELETE ON messages
WHEN old.search_text IS NOT NULL BEGIN
    DELETE FROM message_terms WHERE rowid = old.key;
END;

-- A history search says which operation took a message out of the thread: the newest one
-- whose sources hold it, one probe of this index.
CREATE INDEX squash_operation_sources_by_message
    ON squash_operation_sources(message_key, operation_key);
