-- Made by scripts/make-migration-fixture.sh with squash at commit 7176d32; the
-- schema name fixture_7176d32 is replaced by the test's own.
--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: fixture_7176d32; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA fixture_7176d32;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: _sqlx_migrations; Type: TABLE; Schema: fixture_7176d32; Owner: -
--

CREATE TABLE fixture_7176d32._sqlx_migrations (
    version bigint NOT NULL,
    description text NOT NULL,
    installed_on timestamp with time zone DEFAULT now() NOT NULL,
    success boolean NOT NULL,
    checksum bytea NOT NULL,
    execution_time bigint NOT NULL
);


--
-- Name: conversations; Type: TABLE; Schema: fixture_7176d32; Owner: -
--

CREATE TABLE fixture_7176d32.conversations (
    key bigint NOT NULL,
    id uuid NOT NULL,
    project_key bigint NOT NULL,
    display_name text NOT NULL,
    current_thread_key bigint,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);


--
-- Name: conversations_key_seq; Type: SEQUENCE; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE fixture_7176d32.conversations ALTER COLUMN key ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME fixture_7176d32.conversations_key_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: imports; Type: TABLE; Schema: fixture_7176d32; Owner: -
--

CREATE TABLE fixture_7176d32.imports (
    key bigint NOT NULL,
    source_key text NOT NULL,
    format text NOT NULL,
    conversation_key bigint NOT NULL,
    content_hash text NOT NULL,
    metadata text,
    imported_at timestamp with time zone NOT NULL
);
ALTER TABLE ONLY fixture_7176d32.imports ALTER COLUMN metadata SET COMPRESSION lz4;


--
-- Name: imports_key_seq; Type: SEQUENCE; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE fixture_7176d32.imports ALTER COLUMN key ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME fixture_7176d32.imports_key_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: message_tools; Type: TABLE; Schema: fixture_7176d32; Owner: -
--

CREATE TABLE fixture_7176d32.message_tools (
    conversation_key bigint NOT NULL,
    tool_use_id text NOT NULL,
    message_key bigint NOT NULL,
    is_result boolean NOT NULL
);


--
-- Name: messages; Type: TABLE; Schema: fixture_7176d32; Owner: -
--

CREATE TABLE fixture_7176d32.messages (
    key bigint NOT NULL,
    id uuid NOT NULL,
    conversation_key bigint NOT NULL,
    squash_operation_id uuid,
    reply_to uuid,
    role text NOT NULL,
    content text NOT NULL,
    instructions text,
    metadata text,
    created_at timestamp with time zone NOT NULL,
    tokens bigint,
    search_text text,
    search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, translate(COALESCE(search_text, ''::text), '/.:@\'::text, '     '::text))) STORED,
    CONSTRAINT messages_role_check CHECK ((role = ANY (ARRAY['user'::text, 'assistant'::text, 'system'::text]))),
    CONSTRAINT messages_tokens_check CHECK ((tokens >= 0))
);
ALTER TABLE ONLY fixture_7176d32.messages ALTER COLUMN content SET COMPRESSION lz4;
ALTER TABLE ONLY fixture_7176d32.messages ALTER COLUMN metadata SET COMPRESSION lz4;


--
-- Name: messages_key_seq; Type: SEQUENCE; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE fixture_7176d32.messages ALTER COLUMN key ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME fixture_7176d32.messages_key_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: projects; Type: TABLE; Schema: fixture_7176d32; Owner: -
--

CREATE TABLE fixture_7176d32.projects (
    key bigint NOT NULL,
    id uuid NOT NULL,
    path text NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: projects_key_seq; Type: SEQUENCE; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE fixture_7176d32.projects ALTER COLUMN key ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME fixture_7176d32.projects_key_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: squash_operation_sources; Type: TABLE; Schema: fixture_7176d32; Owner: -
--

CREATE TABLE fixture_7176d32.squash_operation_sources (
    operation_key bigint NOT NULL,
    "position" integer NOT NULL,
    message_key bigint NOT NULL
);


--
-- Name: squash_operations; Type: TABLE; Schema: fixture_7176d32; Owner: -
--

CREATE TABLE fixture_7176d32.squash_operations (
    key bigint NOT NULL,
    id uuid NOT NULL,
    conversation_key bigint NOT NULL,
    result_message_key bigint NOT NULL,
    prompt text,
    model text,
    performed_by_agent boolean NOT NULL,
    performed_by text,
    custom_instructions text,
    provider text,
    base_thread_key bigint,
    result_thread_key bigint,
    input_tokens bigint,
    output_tokens bigint,
    duration_ms bigint,
    created_at timestamp with time zone NOT NULL,
    style text,
    prompt_style text,
    CONSTRAINT squash_operations_check CHECK (((input_tokens IS NULL) = (output_tokens IS NULL))),
    CONSTRAINT squash_operations_duration_ms_check CHECK ((duration_ms >= 0)),
    CONSTRAINT squash_operations_input_tokens_check CHECK ((input_tokens >= 0)),
    CONSTRAINT squash_operations_output_tokens_check CHECK ((output_tokens >= 0))
);
ALTER TABLE ONLY fixture_7176d32.squash_operations ALTER COLUMN prompt SET COMPRESSION lz4;


--
-- Name: squash_operations_key_seq; Type: SEQUENCE; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE fixture_7176d32.squash_operations ALTER COLUMN key ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME fixture_7176d32.squash_operations_key_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: thread_messages; Type: TABLE; Schema: fixture_7176d32; Owner: -
--

CREATE TABLE fixture_7176d32.thread_messages (
    thread_key bigint NOT NULL,
    "position" bigint NOT NULL,
    message_key bigint NOT NULL
);


--
-- Name: threads; Type: TABLE; Schema: fixture_7176d32; Owner: -
--

CREATE TABLE fixture_7176d32.threads (
    key bigint NOT NULL,
    id uuid NOT NULL,
    conversation_key bigint NOT NULL,
    original_thread_key bigint,
    origin text NOT NULL,
    revision bigint DEFAULT 0 NOT NULL,
    message_count bigint DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT threads_message_count_check CHECK ((message_count >= 0)),
    CONSTRAINT threads_revision_check CHECK ((revision >= 0))
);


--
-- Name: threads_key_seq; Type: SEQUENCE; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE fixture_7176d32.threads ALTER COLUMN key ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME fixture_7176d32.threads_key_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Data for Name: _sqlx_migrations; Type: TABLE DATA; Schema: fixture_7176d32; Owner: -
--

INSERT INTO fixture_7176d32._sqlx_migrations (version, description, installed_on, success, checksum, execution_time) VALUES (1, 'init', '2026-12-01 08:20:49.973115+00', true, '\x9e86b3696be0d3d2f0676b1598fda0aac3855bca366a9fc0d356bbac7f280695bc2ba37db9131c023e0c9814315c103c', 170643203);
INSERT INTO fixture_7176d32._sqlx_migrations (version, description, installed_on, success, checksum, execution_time) VALUES (2, 'imports', '2026-12-01 08:20:50.155601+00', true, '\xe42efa1ac714d674b59fb6f918350c96b2c3e7c05a3de860d7ac5b6fd20f793ccd45a9a3ac0f535f5a41d5da8452f922', 60977406);
INSERT INTO fixture_7176d32._sqlx_migrations (version, description, installed_on, success, checksum, execution_time) VALUES (3, 'styles', '2026-12-01 08:20:50.223363+00', true, '\xa83c10633184f6eb6c76eeb2ba8148a24a9bac0ec0b5b7b428fa8ffa0a286cbba8f631fca5fb4e7b23f09cc8bed4dccf', 9250753);
INSERT INTO fixture_7176d32._sqlx_migrations (version, description, installed_on, success, checksum, execution_time) VALUES (4, 'lz4', '2026-12-01 08:20:50.24754+00', true, '\xfe9dc27e3011245a033de74b46424a15e9f9b04a778f8d554f9b465a1dbe8154f0f2ec654f412998f25275fa0dcb84ee', 16136680);
INSERT INTO fixture_7176d32._sqlx_migrations (version, description, installed_on, success, checksum, execution_time) VALUES (5, 'tokens', '2026-12-01 08:20:50.271612+00', true, '\x7caa505098772c9678491396623641e3db5a586788b02265068e7d11902964d9014caf0379b65744d73fe1669b04edbc', 12447930);
INSERT INTO fixture_7176d32._sqlx_migrations (version, description, installed_on, success, checksum, execution_time) VALUES (6, 'search', '2026-12-01 08:20:50.29567+00', true, '\x52622e9f82c9ece2fc7c8a510e96fab71968ba544cd61634ab9cede1c634692cc261a7294ee7090999d319ab5b0f4868', 70345227);


--
-- Data for Name: conversations; Type: TABLE DATA; Schema: fixture_7176d32; Owner: -
--

INSERT INTO fixture_7176d32.conversations (key, id, project_key, display_name, current_thread_key, created_at, updated_at) OVERRIDING SYSTEM VALUE VALUES (1, '01a230b1-3859-7038-8297-8a264758ee38', 1, 'before segments', 4, '2026-12-01 08:20:50.39327+00', '2026-12-01 08:20:51.845479+00');
INSERT INTO fixture_7176d32.conversations (key, id, project_key, display_name, current_thread_key, created_at, updated_at) OVERRIDING SYSTEM VALUE VALUES (2, '01a230b1-3e40-723b-bc93-24174da025fb', 1, 'untouched', 5, '2026-12-01 08:20:51.904824+00', '2026-12-01 08:20:51.973336+00');


--
-- Data for Name: imports; Type: TABLE DATA; Schema: fixture_7176d32; Owner: -
--



--
-- Data for Name: message_tools; Type: TABLE DATA; Schema: fixture_7176d32; Owner: -
--



--
-- Data for Name: messages; Type: TABLE DATA; Schema: fixture_7176d32; Owner: -
--

INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (1, '01a230b1-38af-7332-b620-7b6c2b626057', 1, NULL, NULL, 'user', '[{"type":"user_message","text":"message 1: the lexer at src/lexer.rs:41 fails on token 1"}]', NULL, NULL, '2026-12-01 08:20:50.479357+00', 22, 'message 1: the lexer at src/lexer.rs:41 fails on token 1');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (2, '01a230b1-38f7-7214-b316-8519d7b51710', 1, NULL, NULL, 'assistant', '[{"type":"assistant_message","structured":{"full_text":"message 2: the lexer at src/lexer.rs:42 fails on token 2"}}]', NULL, NULL, '2026-12-01 08:20:50.551676+00', 22, 'message 2: the lexer at src/lexer.rs:42 fails on token 2');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (3, '01a230b1-3950-70c2-af40-f752ae7fd8dc', 1, NULL, NULL, 'user', '[{"type":"user_message","text":"message 3: the lexer at src/lexer.rs:43 fails on token 3"}]', NULL, NULL, '2026-12-01 08:20:50.640042+00', 22, 'message 3: the lexer at src/lexer.rs:43 fails on token 3');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (4, '01a230b1-3986-736f-ba98-8adbc474c9f7', 1, NULL, NULL, 'assistant', '[{"type":"assistant_message","structured":{"full_text":"message 4: the lexer at src/lexer.rs:44 fails on token 4"}}]', NULL, NULL, '2026-12-01 08:20:50.69432+00', 22, 'message 4: the lexer at src/lexer.rs:44 fails on token 4');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (5, '01a230b1-39cb-7509-a5e1-e0f36826f15b', 1, NULL, NULL, 'user', '[{"type":"user_message","text":"message 5: the lexer at src/lexer.rs:45 fails on token 5"}]', NULL, NULL, '2026-12-01 08:20:50.763963+00', 22, 'message 5: the lexer at src/lexer.rs:45 fails on token 5');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (6, '01a230b1-3a1b-768e-8641-bb3225d005fa', 1, NULL, NULL, 'assistant', '[{"type":"assistant_message","structured":{"full_text":"message 6: the lexer at src/lexer.rs:46 fails on token 6"}}]', NULL, NULL, '2026-12-01 08:20:50.843606+00', 22, 'message 6: the lexer at src/lexer.rs:46 fails on token 6');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (7, '01a230b1-3a5b-7272-9d33-425d1d7c55dc', 1, NULL, NULL, 'user', '[{"type":"user_message","text":"message 7: the lexer at src/lexer.rs:47 fails on token 7"}]', NULL, NULL, '2026-12-01 08:20:50.907478+00', 22, 'message 7: the lexer at src/lexer.rs:47 fails on token 7');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (8, '01a230b1-3ad0-766a-811e-1ec665a9cc62', 1, NULL, NULL, 'assistant', '[{"type":"assistant_message","structured":{"full_text":"message 8: the lexer at src/lexer.rs:48 fails on token 8"}}]', NULL, NULL, '2026-12-01 08:20:51.024848+00', 22, 'message 8: the lexer at src/lexer.rs:48 fails on token 8');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (9, '01a230b1-3b2a-72af-8116-d8e0ce2018d3', 1, NULL, NULL, 'user', '[{"type":"user_message","text":"message 9: the lexer at src/lexer.rs:49 fails on token 9"}]', NULL, NULL, '2026-12-01 08:20:51.114966+00', 22, 'message 9: the lexer at src/lexer.rs:49 fails on token 9');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (10, '01a230b1-3b72-744c-b5f8-b1fcd2e533e9', 1, NULL, NULL, 'assistant', '[{"type":"assistant_message","structured":{"full_text":"message 10: the lexer at src/lexer.rs:50 fails on token 10"}}]', NULL, NULL, '2026-12-01 08:20:51.186755+00', 22, 'message 10: the lexer at src/lexer.rs:50 fails on token 10');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (11, '01a230b1-3bce-76d0-917f-85eeecedb466', 1, NULL, NULL, 'user', '[{"type":"user_message","text":"message 11: the lexer at src/lexer.rs:51 fails on token 11"}]', NULL, NULL, '2026-12-01 08:20:51.278616+00', 22, 'message 11: the lexer at src/lexer.rs:51 fails on token 11');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (12, '01a230b1-3c0a-71ad-87b9-4eda989924db', 1, NULL, NULL, 'assistant', '[{"type":"assistant_message","structured":{"full_text":"message 12: the lexer at src/lexer.rs:52 fails on token 12"}}]', NULL, NULL, '2026-12-01 08:20:51.338189+00', 22, 'message 12: the lexer at src/lexer.rs:52 fails on token 12');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (13, '01a230b1-3c67-74f7-bd60-10b4d947c41d', 1, '01a230b1-3c67-74f7-bd60-10b33a63ae13', NULL, 'user', '[{"type":"user_message","text":"message 3, edited: the parser recovers"}]', NULL, NULL, '2026-12-01 08:20:51.431602+00', 14, 'message 3, edited: the parser recovers');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (14, '01a230b1-3d17-7742-ae7d-fc6eeb89741c', 1, '01a230b1-3d17-7742-ae7d-fc6dcb0c7b8a', NULL, 'user', '[{"type":"user_message","text":"squashed 2, 7 and 9: tokens 2, 7, 9 fixed"}]', NULL, NULL, '2026-12-01 08:20:51.607227+00', 19, 'squashed 2, 7 and 9: tokens 2, 7, 9 fixed');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (15, '01a230b1-3dfe-7701-b97c-e1f8e9157e61', 1, NULL, NULL, 'user', '[{"type":"user_message","text":"message 13: appended after the squash"}]', NULL, NULL, '2026-12-01 08:20:51.838441+00', 13, 'message 13: appended after the squash');
INSERT INTO fixture_7176d32.messages (key, id, conversation_key, squash_operation_id, reply_to, role, content, instructions, metadata, created_at, tokens, search_text) OVERRIDING SYSTEM VALUE VALUES (16, '01a230b1-3e7e-7147-bd74-037ca1aa2b04', 2, NULL, NULL, 'user', '[{"type":"user_message","text":"a conversation that was never derived"}]', NULL, NULL, '2026-12-01 08:20:51.966189+00', 13, 'a conversation that was never derived');


--
-- Data for Name: projects; Type: TABLE DATA; Schema: fixture_7176d32; Owner: -
--

INSERT INTO fixture_7176d32.projects (key, id, path, created_at) OVERRIDING SYSTEM VALUE VALUES (1, '01a230b1-3854-75b8-8533-303af7cc4fd5', '/work/wt/issue-23', '2026-12-01 08:20:50.388934+00');


--
-- Data for Name: squash_operation_sources; Type: TABLE DATA; Schema: fixture_7176d32; Owner: -
--

INSERT INTO fixture_7176d32.squash_operation_sources (operation_key, "position", message_key) VALUES (1, 0, 3);
INSERT INTO fixture_7176d32.squash_operation_sources (operation_key, "position", message_key) VALUES (2, 0, 2);
INSERT INTO fixture_7176d32.squash_operation_sources (operation_key, "position", message_key) VALUES (2, 1, 8);
INSERT INTO fixture_7176d32.squash_operation_sources (operation_key, "position", message_key) VALUES (2, 2, 10);


--
-- Data for Name: squash_operations; Type: TABLE DATA; Schema: fixture_7176d32; Owner: -
--

INSERT INTO fixture_7176d32.squash_operations (key, id, conversation_key, result_message_key, prompt, model, performed_by_agent, performed_by, custom_instructions, provider, base_thread_key, result_thread_key, input_tokens, output_tokens, duration_ms, created_at, style, prompt_style) OVERRIDING SYSTEM VALUE VALUES (1, '01a230b1-3c67-74f7-bd60-10b33a63ae13', 1, 13, NULL, NULL, false, NULL, NULL, NULL, 1, 2, NULL, NULL, NULL, '2026-12-01 08:20:51.431626+00', NULL, NULL);
INSERT INTO fixture_7176d32.squash_operations (key, id, conversation_key, result_message_key, prompt, model, performed_by_agent, performed_by, custom_instructions, provider, base_thread_key, result_thread_key, input_tokens, output_tokens, duration_ms, created_at, style, prompt_style) OVERRIDING SYSTEM VALUE VALUES (2, '01a230b1-3d17-7742-ae7d-fc6dcb0c7b8a', 1, 14, NULL, NULL, false, NULL, NULL, NULL, 3, 4, NULL, NULL, NULL, '2026-12-01 08:20:51.607232+00', NULL, NULL);


--
-- Data for Name: thread_messages; Type: TABLE DATA; Schema: fixture_7176d32; Owner: -
--

INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 0, 1);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 1, 2);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 2, 3);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 3, 4);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 4, 5);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 5, 6);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 6, 7);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 7, 8);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 8, 9);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 9, 10);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 10, 11);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (1, 11, 12);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 0, 1);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 1, 2);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 2, 13);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 3, 4);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 4, 5);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 5, 6);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 6, 7);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 7, 8);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 8, 9);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 9, 10);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 10, 11);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (2, 11, 12);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (3, 0, 1);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (3, 1, 2);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (3, 2, 13);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (3, 3, 4);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (3, 4, 6);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (3, 5, 7);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (3, 6, 8);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (3, 7, 9);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (3, 8, 10);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (3, 9, 11);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (3, 10, 12);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (4, 0, 1);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (4, 1, 14);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (4, 2, 13);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (4, 3, 4);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (4, 4, 6);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (4, 5, 7);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (4, 6, 9);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (4, 7, 11);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (4, 8, 12);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (4, 9, 15);
INSERT INTO fixture_7176d32.thread_messages (thread_key, "position", message_key) VALUES (5, 0, 16);


--
-- Data for Name: threads; Type: TABLE DATA; Schema: fixture_7176d32; Owner: -
--

INSERT INTO fixture_7176d32.threads (key, id, conversation_key, original_thread_key, origin, revision, message_count, created_at, updated_at) OVERRIDING SYSTEM VALUE VALUES (1, '01a230b1-385a-7650-97dd-16e5fc28c21b', 1, NULL, '{"kind":"initial"}', 12, 12, '2026-12-01 08:20:50.39327+00', '2026-12-01 08:20:51.340258+00');
INSERT INTO fixture_7176d32.threads (key, id, conversation_key, original_thread_key, origin, revision, message_count, created_at, updated_at) OVERRIDING SYSTEM VALUE VALUES (2, '01a230b1-3c69-72a3-90f1-e07fa394362c', 1, 1, '{"kind":"edit","operation_id":"01a230b1-3c67-74f7-bd60-10b33a63ae13"}', 0, 12, '2026-12-01 08:20:51.437064+00', '2026-12-01 08:20:51.437064+00');
INSERT INTO fixture_7176d32.threads (key, id, conversation_key, original_thread_key, origin, revision, message_count, created_at, updated_at) OVERRIDING SYSTEM VALUE VALUES (3, '01a230b1-3ccf-7248-b456-eec2701138ee', 1, 2, '{"kind":"delete","message_ids":["01a230b1-39cb-7509-a5e1-e0f36826f15b"]}', 0, 11, '2026-12-01 08:20:51.544439+00', '2026-12-01 08:20:51.544439+00');
INSERT INTO fixture_7176d32.threads (key, id, conversation_key, original_thread_key, origin, revision, message_count, created_at, updated_at) OVERRIDING SYSTEM VALUE VALUES (4, '01a230b1-3d18-775c-82d5-e5c410caed2a', 1, 3, '{"kind":"squash","operation_id":"01a230b1-3d17-7742-ae7d-fc6dcb0c7b8a"}', 1, 10, '2026-12-01 08:20:51.612089+00', '2026-12-01 08:20:51.845479+00');
INSERT INTO fixture_7176d32.threads (key, id, conversation_key, original_thread_key, origin, revision, message_count, created_at, updated_at) OVERRIDING SYSTEM VALUE VALUES (5, '01a230b1-3e42-7144-88d2-9a9d806512e7', 2, NULL, '{"kind":"initial"}', 1, 1, '2026-12-01 08:20:51.904824+00', '2026-12-01 08:20:51.973336+00');


--
-- Name: conversations_key_seq; Type: SEQUENCE SET; Schema: fixture_7176d32; Owner: -
--

SELECT pg_catalog.setval('fixture_7176d32.conversations_key_seq', 2, true);


--
-- Name: imports_key_seq; Type: SEQUENCE SET; Schema: fixture_7176d32; Owner: -
--

SELECT pg_catalog.setval('fixture_7176d32.imports_key_seq', 1, false);


--
-- Name: messages_key_seq; Type: SEQUENCE SET; Schema: fixture_7176d32; Owner: -
--

SELECT pg_catalog.setval('fixture_7176d32.messages_key_seq', 16, true);


--
-- Name: projects_key_seq; Type: SEQUENCE SET; Schema: fixture_7176d32; Owner: -
--

SELECT pg_catalog.setval('fixture_7176d32.projects_key_seq', 2, true);


--
-- Name: squash_operations_key_seq; Type: SEQUENCE SET; Schema: fixture_7176d32; Owner: -
--

SELECT pg_catalog.setval('fixture_7176d32.squash_operations_key_seq', 2, true);


--
-- Name: threads_key_seq; Type: SEQUENCE SET; Schema: fixture_7176d32; Owner: -
--

SELECT pg_catalog.setval('fixture_7176d32.threads_key_seq', 5, true);


--
-- Name: _sqlx_migrations _sqlx_migrations_pkey; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32._sqlx_migrations
    ADD CONSTRAINT _sqlx_migrations_pkey PRIMARY KEY (version);


--
-- Name: conversations conversations_id_key; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.conversations
    ADD CONSTRAINT conversations_id_key UNIQUE (id);


--
-- Name: conversations conversations_pkey; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.conversations
    ADD CONSTRAINT conversations_pkey PRIMARY KEY (key);


--
-- Name: imports imports_pkey; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.imports
    ADD CONSTRAINT imports_pkey PRIMARY KEY (key);


--
-- Name: imports imports_source_key_key; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.imports
    ADD CONSTRAINT imports_source_key_key UNIQUE (source_key);


--
-- Name: message_tools message_tools_pkey; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.message_tools
    ADD CONSTRAINT message_tools_pkey PRIMARY KEY (conversation_key, tool_use_id, message_key, is_result);


--
-- Name: messages messages_id_key; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.messages
    ADD CONSTRAINT messages_id_key UNIQUE (id);


--
-- Name: messages messages_pkey; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.messages
    ADD CONSTRAINT messages_pkey PRIMARY KEY (key);


--
-- Name: projects projects_id_key; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.projects
    ADD CONSTRAINT projects_id_key UNIQUE (id);


--
-- Name: projects projects_path_key; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.projects
    ADD CONSTRAINT projects_path_key UNIQUE (path);


--
-- Name: projects projects_pkey; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.projects
    ADD CONSTRAINT projects_pkey PRIMARY KEY (key);


--
-- Name: squash_operation_sources squash_operation_sources_pkey; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.squash_operation_sources
    ADD CONSTRAINT squash_operation_sources_pkey PRIMARY KEY (operation_key, "position");


--
-- Name: squash_operations squash_operations_id_key; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.squash_operations
    ADD CONSTRAINT squash_operations_id_key UNIQUE (id);


--
-- Name: squash_operations squash_operations_pkey; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.squash_operations
    ADD CONSTRAINT squash_operations_pkey PRIMARY KEY (key);


--
-- Name: thread_messages thread_messages_pkey; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.thread_messages
    ADD CONSTRAINT thread_messages_pkey PRIMARY KEY (thread_key, "position");


--
-- Name: threads threads_id_key; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.threads
    ADD CONSTRAINT threads_id_key UNIQUE (id);


--
-- Name: threads threads_pkey; Type: CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.threads
    ADD CONSTRAINT threads_pkey PRIMARY KEY (key);


--
-- Name: conversations_by_project; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX conversations_by_project ON fixture_7176d32.conversations USING btree (project_key, updated_at);


--
-- Name: conversations_by_updated; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX conversations_by_updated ON fixture_7176d32.conversations USING btree (updated_at);


--
-- Name: imports_by_conversation; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX imports_by_conversation ON fixture_7176d32.imports USING btree (conversation_key);


--
-- Name: message_tools_by_message; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX message_tools_by_message ON fixture_7176d32.message_tools USING btree (message_key);


--
-- Name: messages_by_conversation; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX messages_by_conversation ON fixture_7176d32.messages USING btree (conversation_key);


--
-- Name: messages_search; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX messages_search ON fixture_7176d32.messages USING gin (search_vector);


--
-- Name: messages_without_search; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX messages_without_search ON fixture_7176d32.messages USING btree (key) WHERE (search_text IS NULL);


--
-- Name: messages_without_tokens; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX messages_without_tokens ON fixture_7176d32.messages USING btree (key) WHERE (tokens IS NULL);


--
-- Name: squash_operations_by_conversation; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX squash_operations_by_conversation ON fixture_7176d32.squash_operations USING btree (conversation_key);


--
-- Name: thread_messages_by_message; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX thread_messages_by_message ON fixture_7176d32.thread_messages USING btree (message_key) INCLUDE (thread_key, "position");


--
-- Name: threads_by_conversation; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX threads_by_conversation ON fixture_7176d32.threads USING btree (conversation_key);


--
-- Name: threads_by_original; Type: INDEX; Schema: fixture_7176d32; Owner: -
--

CREATE INDEX threads_by_original ON fixture_7176d32.threads USING btree (original_thread_key);


--
-- Name: conversations conversations_current_thread_fkey; Type: FK CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.conversations
    ADD CONSTRAINT conversations_current_thread_fkey FOREIGN KEY (current_thread_key) REFERENCES fixture_7176d32.threads(key);


--
-- Name: conversations conversations_project_key_fkey; Type: FK CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.conversations
    ADD CONSTRAINT conversations_project_key_fkey FOREIGN KEY (project_key) REFERENCES fixture_7176d32.projects(key);


--
-- Name: imports imports_conversation_key_fkey; Type: FK CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.imports
    ADD CONSTRAINT imports_conversation_key_fkey FOREIGN KEY (conversation_key) REFERENCES fixture_7176d32.conversations(key);


--
-- Name: messages messages_conversation_key_fkey; Type: FK CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.messages
    ADD CONSTRAINT messages_conversation_key_fkey FOREIGN KEY (conversation_key) REFERENCES fixture_7176d32.conversations(key);


--
-- Name: squash_operations squash_operations_base_thread_key_fkey; Type: FK CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.squash_operations
    ADD CONSTRAINT squash_operations_base_thread_key_fkey FOREIGN KEY (base_thread_key) REFERENCES fixture_7176d32.threads(key);


--
-- Name: squash_operations squash_operations_conversation_key_fkey; Type: FK CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.squash_operations
    ADD CONSTRAINT squash_operations_conversation_key_fkey FOREIGN KEY (conversation_key) REFERENCES fixture_7176d32.conversations(key);


--
-- Name: squash_operations squash_operations_result_message_key_fkey; Type: FK CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.squash_operations
    ADD CONSTRAINT squash_operations_result_message_key_fkey FOREIGN KEY (result_message_key) REFERENCES fixture_7176d32.messages(key);


--
-- Name: squash_operations squash_operations_result_thread_key_fkey; Type: FK CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.squash_operations
    ADD CONSTRAINT squash_operations_result_thread_key_fkey FOREIGN KEY (result_thread_key) REFERENCES fixture_7176d32.threads(key);


--
-- Name: threads threads_conversation_key_fkey; Type: FK CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.threads
    ADD CONSTRAINT threads_conversation_key_fkey FOREIGN KEY (conversation_key) REFERENCES fixture_7176d32.conversations(key);


--
-- Name: threads threads_original_thread_key_fkey; Type: FK CONSTRAINT; Schema: fixture_7176d32; Owner: -
--

ALTER TABLE ONLY fixture_7176d32.threads
    ADD CONSTRAINT threads_original_thread_key_fkey FOREIGN KEY (original_thread_key) REFERENCES fixture_7176d32.threads(key);


--
-- PostgreSQL database dump complete
--


