-- Imports: which source each imported conversation came from, so that importing the same source
-- again is detected. A source key names the source (e.g. "claude-code:<sessionId>"); the content
-- hash tells whether it changed since. Metadata holds what the conversation model has no place
-- for (a Claude Code session's non-message lines), for exports.

CREATE TABLE imports (
    key               INTEGER PRIMARY KEY,
    source_key        TEXT NOT NULL UNIQUE,
    format            TEXT NOT NULL,
    conversation_key  INTEGER NOT NULL REFERENCES conversations(key),
    content_hash      TEXT NOT NULL,
    metadata          TEXT,
    imported_at       INTEGER NOT NULL
);
CREATE INDEX imports_by_conversation ON imports(conversation_key);
