-- Imports: which source each imported conversation came from, so that importing the same source
-- again is detected. A source key names the source (e.g. "claude-code:<sessionId>"); the content
-- hash tells whether it changed since. Metadata (TEXT, not JSONB, like every JSON column here)
-- holds what the conversation model has no place for, for exports.

CREATE TABLE imports (
    key               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source_key        TEXT NOT NULL UNIQUE,
    format            TEXT NOT NULL,
    conversation_key  BIGINT NOT NULL REFERENCES conversations(key),
    content_hash      TEXT NOT NULL,
    metadata          TEXT,
    imported_at       TIMESTAMPTZ NOT NULL
);
CREATE INDEX imports_by_conversation ON imports(conversation_key);
