-- The SQLite schema's design on PostgreSQL: UUIDv7 ids at the edge, BIGINT identity keys inside
-- so that link rows stay three integers wide.
--
-- Timestamps are TIMESTAMPTZ: microsecond precision, like SQLite's integer micros, and readable
-- in psql. JSON columns are TEXT, not JSONB, because JSONB reorders keys and normalizes numbers
-- and the stored messages must come back byte for byte.
--
-- The link tables (thread_messages, message_tools, squash_operation_sources) have no foreign
-- keys on purpose: a foreign key check per row would lock every referenced message row on a
-- 10,000-link copy-on-write. The store resolves every id to a key of the same conversation
-- before it writes a link.

CREATE TABLE projects (
    key         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id          UUID NOT NULL UNIQUE,
    path        TEXT NOT NULL UNIQUE,
    created_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE conversations (
    key                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id                  UUID NOT NULL UNIQUE,
    project_key         BIGINT NOT NULL REFERENCES projects(key),
    display_name        TEXT NOT NULL,
    -- NULL only inside the transaction that creates the conversation (the thread needs the
    -- conversation's key first) and the one that deletes it.
    current_thread_key  BIGINT,
    created_at          TIMESTAMPTZ NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX conversations_by_project ON conversations(project_key, updated_at);
CREATE INDEX conversations_by_updated ON conversations(updated_at);

CREATE TABLE threads (
    key                  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id                   UUID NOT NULL UNIQUE,
    conversation_key     BIGINT NOT NULL REFERENCES conversations(key),
    original_thread_key  BIGINT REFERENCES threads(key),
    origin               TEXT NOT NULL,            -- ThreadOrigin as tagged JSON
    revision             BIGINT NOT NULL DEFAULT 0 CHECK (revision >= 0),
    message_count        BIGINT NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL
);
CREATE INDEX threads_by_conversation ON threads(conversation_key);
CREATE INDEX threads_by_original ON threads(original_thread_key);

ALTER TABLE conversations
    ADD CONSTRAINT conversations_current_thread_fkey
    FOREIGN KEY (current_thread_key) REFERENCES threads(key);

CREATE TABLE messages (
    key                  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id                   UUID NOT NULL UNIQUE,
    conversation_key     BIGINT NOT NULL REFERENCES conversations(key),
    -- An id, not a key: the message is stored before the operation that produced it.
    squash_operation_id  UUID,
    reply_to             UUID,
    role                 TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
    content              TEXT NOT NULL,            -- Vec<ContentItem> as tagged JSON
    instructions         TEXT,                     -- Vec<Instruction> as JSON, NULL when empty
    metadata             TEXT,
    created_at           TIMESTAMPTZ NOT NULL
);
CREATE INDEX messages_by_conversation ON messages(conversation_key);

-- One row per link: a 10,000-message thread is 10,000 rows of three small integers.
CREATE TABLE thread_messages (
    thread_key   BIGINT NOT NULL,
    position     BIGINT NOT NULL,
    message_key  BIGINT NOT NULL,
    PRIMARY KEY (thread_key, position)
);

-- Which messages hold which side of a tool call, so that a call and its result are found
-- without reading message content.
CREATE TABLE message_tools (
    conversation_key  BIGINT NOT NULL,
    tool_use_id       TEXT NOT NULL,
    message_key       BIGINT NOT NULL,
    is_result         BOOLEAN NOT NULL,
    PRIMARY KEY (conversation_key, tool_use_id, message_key, is_result)
);
-- The closure walks from messages to their tool ids as well as from ids to messages.
CREATE INDEX message_tools_by_message ON message_tools(message_key);

CREATE TABLE squash_operations (
    key                  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id                   UUID NOT NULL UNIQUE,
    conversation_key     BIGINT NOT NULL REFERENCES conversations(key),
    result_message_key   BIGINT NOT NULL REFERENCES messages(key),
    prompt               TEXT,
    model                TEXT,
    performed_by_agent   BOOLEAN NOT NULL,
    performed_by         TEXT,
    custom_instructions  TEXT,
    provider             TEXT,
    base_thread_key      BIGINT REFERENCES threads(key),
    result_thread_key    BIGINT REFERENCES threads(key),
    input_tokens         BIGINT CHECK (input_tokens >= 0),
    output_tokens        BIGINT CHECK (output_tokens >= 0),
    duration_ms          BIGINT CHECK (duration_ms >= 0),
    created_at           TIMESTAMPTZ NOT NULL,
    CHECK ((input_tokens IS NULL) = (output_tokens IS NULL))
);
CREATE INDEX squash_operations_by_conversation ON squash_operations(conversation_key);

-- The operation's sources in conversation order (the spec's source_message_ids).
CREATE TABLE squash_operation_sources (
    operation_key  BIGINT NOT NULL,
    position       INTEGER NOT NULL,
    message_key    BIGINT NOT NULL,
    PRIMARY KEY (operation_key, position)
);
