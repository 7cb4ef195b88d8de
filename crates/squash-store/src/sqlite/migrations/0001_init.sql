-- Ids are UUIDv7 (16-byte blobs) at the edge; integer keys inside keep the link tables small.
-- Timestamps are microseconds since the Unix epoch (UTC).

CREATE TABLE projects (
    key         INTEGER PRIMARY KEY,
    id          BLOB NOT NULL UNIQUE,
    path        TEXT NOT NULL UNIQUE,
    created_at  INTEGER NOT NULL
);

CREATE TABLE conversations (
    key                 INTEGER PRIMARY KEY,
    id                  BLOB NOT NULL UNIQUE,
    project_key         INTEGER NOT NULL REFERENCES projects(key),
    display_name        TEXT NOT NULL,
    current_thread_key  INTEGER,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL
);
CREATE INDEX conversations_by_project ON conversations(project_key, updated_at);

CREATE TABLE threads (
    key                  INTEGER PRIMARY KEY,
    id                   BLOB NOT NULL UNIQUE,
    conversation_key     INTEGER NOT NULL REFERENCES conversations(key),
    original_thread_key  INTEGER REFERENCES threads(key),
    origin               TEXT NOT NULL,            -- ThreadOrigin as tagged JSON
    revision             INTEGER NOT NULL DEFAULT 0,
    message_count        INTEGER NOT NULL DEFAULT 0,
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL
);
CREATE INDEX threads_by_conversation ON threads(conversation_key);
CREATE INDEX threads_by_original ON threads(original_thread_key);

CREATE TABLE messages (
    key                  INTEGER PRIMARY KEY,
    id                   BLOB NOT NULL UNIQUE,
    conversation_key     INTEGER NOT NULL REFERENCES conversations(key),
    squash_operation_id  BLOB,
    reply_to             BLOB,
    role                 TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
    content              TEXT NOT NULL,            -- Vec<ContentItem> as tagged JSON
    instructions         TEXT,                     -- Vec<Instruction> as JSON, NULL when empty
    metadata             TEXT,
    created_at           INTEGER NOT NULL
);
CREATE INDEX messages_by_conversation ON messages(conversation_key);

-- One row per link: a 10,000-message thread is 10,000 rows of three small integers.
CREATE TABLE thread_messages (
    thread_key   INTEGER NOT NULL,
    position     INTEGER NOT NULL,
    message_key  INTEGER NOT NULL,
    PRIMARY KEY (thread_key, position)
) WITHOUT ROWID;

-- Which messages hold which side of a tool call, so a call and its result are found without
-- reading message content.
CREATE TABLE message_tools (
    conversation_key  INTEGER NOT NULL,
    tool_use_id       TEXT NOT NULL,
    message_key       INTEGER NOT NULL,
    is_result         INTEGER NOT NULL,
    PRIMARY KEY (conversation_key, tool_use_id, message_key, is_result)
) WITHOUT ROWID;

CREATE INDEX message_tools_by_message ON message_tools(message_key);

CREATE TABLE squash_operations (
    key                  INTEGER PRIMARY KEY,
    id                   BLOB NOT NULL UNIQUE,
    conversation_key     INTEGER NOT NULL REFERENCES conversations(key),
    result_message_key   INTEGER NOT NULL REFERENCES messages(key),
    prompt               TEXT,
    model                TEXT,
    performed_by_agent   INTEGER NOT NULL,
    performed_by         TEXT,
    custom_instructions  TEXT,
    provider             TEXT,
    base_thread_key      INTEGER REFERENCES threads(key),
    result_thread_key    INTEGER REFERENCES threads(key),
    input_tokens         INTEGER,
    output_tokens        INTEGER,
    duration_ms          INTEGER,
    created_at           INTEGER NOT NULL
);
CREATE INDEX squash_operations_by_conversation ON squash_operations(conversation_key);

-- The operation's sources in conversation order (the spec's source_message_ids).
CREATE TABLE squash_operation_sources (
    operation_key  INTEGER NOT NULL,
    position       INTEGER NOT NULL,
    message_key    INTEGER NOT NULL,
    PRIMARY KEY (operation_key, position)
) WITHOUT ROWID;
