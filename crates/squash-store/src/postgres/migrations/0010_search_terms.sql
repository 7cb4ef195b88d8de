-- One rule for search on both backends (see src/search.rs): the terms of a message are made in
-- Rust (squash_core::search::tokens: letters and digits, case and accents folded, English
-- stemming, no stop words) and stored as a tsvector written out with its positions, so that
-- neither the server's parser, dictionaries and stop words ('english' found nothing for `the`
-- or `"should be"`) nor its locale take part. The generated `search_vector` goes with its
-- index; `search_terms` is written by every insert, and filled for the rows stored before this
-- migration when the store opens (as the tokens and the text were).
ALTER TABLE messages ADD COLUMN search_terms tsvector;
-- New entries wait in the index's pending list until it is merged (by VACUUM, or by the insert
-- that fills it), and every search scans that list whole: 4 MB by default, 20 ms per search
-- measured after a large import. 512 kB keeps that small; inserts merge more often, in bulk.
CREATE INDEX messages_terms ON messages USING GIN (search_terms)
    WITH (gin_pending_list_limit = 512);
CREATE INDEX messages_without_terms ON messages(key) WHERE search_terms IS NULL;
DROP INDEX messages_search;
ALTER TABLE messages DROP COLUMN search_vector;

-- A search takes the newest matches first, a window of keys at a time (src/postgres/search.rs);
-- one conversation's key range is two probes of this index, which also serves every lookup of
-- the index it replaces.
CREATE INDEX messages_by_conversation_key ON messages(conversation_key, key);
DROP INDEX messages_by_conversation;

-- A history search says which operation took a message out of the thread: the newest one
-- whose sources hold it, one probe of this index.
CREATE INDEX squash_operation_sources_by_message
    ON squash_operation_sources(message_key, operation_key);
