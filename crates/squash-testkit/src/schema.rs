//! SQL that makes a database look as it did before a migration, for the migration tests.

/// SQL that takes migration 0007 (thread segments) back out of a database, either backend:
/// every thread's links are written out whole, as before it, then the layout goes.
macro_rules! undo_segments {
    () => {
        "CREATE TEMP TABLE whole_links AS \
         SELECT ru.thread_key, ru.start + tm.position - ru.off AS position, tm.message_key \
         FROM (SELECT thread_key, start, length, source_thread_key AS src, source_offset AS off \
               FROM thread_segments \
               UNION ALL SELECT key, tail_start, message_count - tail_start, key, tail_offset \
               FROM threads WHERE message_count > tail_start) ru \
         JOIN thread_messages tm ON tm.thread_key = ru.src \
          AND tm.position BETWEEN ru.off AND ru.off + ru.length - 1; \
         DELETE FROM thread_messages; \
         INSERT INTO thread_messages (thread_key, position, message_key) \
         SELECT thread_key, position, message_key FROM whole_links; \
         DROP TABLE whole_links; DROP TABLE thread_segments; \
         ALTER TABLE threads DROP COLUMN tail_start; ALTER TABLE threads DROP COLUMN tail_offset; "
    };
}

/// SQL that takes migrations 0011 (terms written by the store), 0010 (search terms), 0009 (recall references), 0008 (kinds), 0007
/// (segments) and 0006 (search) back out of a SQLite database, for tests that make a database
/// look as it did before a migration; then `PRAGMA user_version` says which.
pub const SQLITE_UNDO_SEARCH: &str = concat!(
    // Before search terms (migration 0010; 0011 dropped its insert trigger).
    "DROP TRIGGER messages_terms_fill; \
     DROP TRIGGER messages_terms_delete; DROP TABLE message_terms; \
     DROP INDEX squash_operation_sources_by_message; ",
    // Before recall references (migration 0009).
    "DROP INDEX squash_operations_by_recall_ref; \
     ALTER TABLE squash_operations DROP COLUMN recall_ref; ",
    // Before operation kinds (migration 0008): the flag again.
    "ALTER TABLE squash_operations ADD COLUMN performed_by_agent INTEGER NOT NULL DEFAULT 0; \
     UPDATE squash_operations SET performed_by_agent = kind IN ('ai', 'ai_legacy'); \
     ALTER TABLE squash_operations DROP COLUMN kind; ",
    undo_segments!(),
    // 0010 dropped 0006's FTS5 table and triggers already.
    "DROP INDEX messages_without_search; \
     DROP INDEX thread_messages_by_message; ALTER TABLE messages DROP COLUMN search_text;"
);

/// The same for PostgreSQL (with its migration records).
pub const PG_UNDO_SEARCH: &str = concat!(
    "DELETE FROM _sqlx_migrations WHERE version = 10; \
     DROP INDEX squash_operation_sources_by_message; \
     CREATE INDEX messages_by_conversation ON messages(conversation_key); \
     DROP INDEX messages_by_conversation_key; ALTER TABLE messages DROP COLUMN search_terms; \
     DELETE FROM _sqlx_migrations WHERE version = 9; \
     DROP INDEX squash_operations_by_recall_ref; \
     ALTER TABLE squash_operations DROP COLUMN recall_ref; ",
    "DELETE FROM _sqlx_migrations WHERE version = 8; \
     ALTER TABLE squash_operations ADD COLUMN performed_by_agent BOOLEAN NOT NULL DEFAULT false; \
     UPDATE squash_operations SET performed_by_agent = kind IN ('ai', 'ai_legacy'); \
     ALTER TABLE squash_operations DROP COLUMN kind; ",
    undo_segments!(),
    "DELETE FROM _sqlx_migrations WHERE version = 7; \
     ALTER TABLE messages DROP COLUMN search_text; DROP INDEX thread_messages_by_message; \
     DELETE FROM _sqlx_migrations WHERE version = 6;"
);
