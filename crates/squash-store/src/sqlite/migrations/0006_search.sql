-- Full-text search (see src/search.rs). Each message's searchable text
-- (squash_core::search::searchable_text) is computed in Rust and stored with the message; NULL
-- only in rows stored before this migration, which the store fills when it opens the database,
-- as it does the tokens.
ALTER TABLE messages ADD COLUMN search_text TEXT;

-- The rows still to fill, found without a scan; empty once the store has filled them.
CREATE INDEX messages_without_search ON messages(key) WHERE search_text IS NULL;

-- An external-content FTS5 index over messages.search_text: the text is stored once (in
-- messages), the index holds only the tokens. `porter` stems English words ("failing" finds
-- "failed"), `unicode61` folds case and, with remove_diacritics, accents.
CREATE VIRTUAL TABLE message_search USING fts5(
    search_text,
    content = 'messages',
    content_rowid = 'key',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- The index follows the table inside the writer's own transaction, whatever the path that
-- wrote (append, commit, import, the fill on open). Messages are immutable: a row changes only
-- when the fill gives it its text, and leaves only with its conversation.
CREATE TRIGGER messages_search_insert AFTER INSERT ON messages
WHEN new.search_text IS NOT NULL BEGIN
    INSERT INTO message_search(rowid, search_text) VALUES (new.key, new.search_text);
END;
CREATE TRIGGER messages_search_fill AFTER UPDATE OF search_text ON messages
WHEN old.search_text IS NULL AND new.search_text IS NOT NULL BEGIN
    INSERT INTO message_search(rowid, search_text) VALUES (new.key, new.search_text);
END;
CREATE TRIGGER messages_search_delete AFTER DELETE ON messages
WHEN old.search_text IS NOT NULL BEGIN
    INSERT INTO message_search(message_search, rowid, search_text)
    VALUES ('delete', old.key, old.search_text);
END;

-- A hit counts only if it is in its conversation's current thread: one probe of this index
-- per hit (message_key, then the primary key's thread_key and position, so it covers the
-- lookup). It costs a second copy of each link, paid by copy-on-write commits.
CREATE INDEX thread_messages_by_message ON thread_messages(message_key);
