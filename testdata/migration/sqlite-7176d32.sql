-- Made by scripts/make-migration-fixture.sh with squash at commit 7176d32.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE projects (
    key         INTEGER PRIMARY KEY,
    id          BLOB NOT NULL UNIQUE,
    path        TEXT NOT NULL UNIQUE,
    created_at  INTEGER NOT NULL
);
INSERT INTO projects VALUES(1,X'01a230b1336472b28488d85cec59bbd6','/work/wt/issue-23',1796113249124264);
CREATE TABLE conversations (
    key                 INTEGER PRIMARY KEY,
    id                  BLOB NOT NULL UNIQUE,
    project_key         INTEGER NOT NULL REFERENCES projects(key),
    display_name        TEXT NOT NULL,
    current_thread_key  INTEGER,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL
);
INSERT INTO conversations VALUES(1,X'01a230b1336472b28488d85d9b09b6ac',1,'before segments',4,1796113249124519,1796113249651944);
INSERT INTO conversations VALUES(2,X'01a230b1358e7119ae8345b7814b0333',1,'untouched',5,1796113249678295,1796113249724061);
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
INSERT INTO threads VALUES(1,X'01a230b13379731294edba55a91038c7',1,NULL,'{"kind":"initial"}',12,12,1796113249124519,1796113249476878);
INSERT INTO threads VALUES(2,X'01a230b134e972ad88fce89c9a39fde4',1,1,'{"kind":"edit","operation_id":"01a230b1-34e8-72e2-8ddb-372e1c51382a"}',0,12,1796113249513485,1796113249513485);
INSERT INTO threads VALUES(3,X'01a230b1350272dfb7e9fce00e3c84b5',1,2,'{"kind":"delete","message_ids":["01a230b1-3413-75df-90ca-f39b3a58fd76"]}',0,11,1796113249539086,1796113249539086);
INSERT INTO threads VALUES(4,X'01a230b1351e71f8bb0028768917b527',1,3,'{"kind":"squash","operation_id":"01a230b1-351e-71f8-bb00-2874ad1bb0a8"}',1,10,1796113249567024,1796113249651785);
INSERT INTO threads VALUES(5,X'01a230b1358e7119ae8345b8d70126b8',2,NULL,'{"kind":"initial"}',1,1,1796113249678295,1796113249723834);
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
, tokens INTEGER CHECK (tokens >= 0), search_text TEXT);
INSERT INTO messages VALUES(1,X'01a230b133b071da9d551341a089ae61',1,NULL,NULL,'user','[{"type":"user_message","text":"message 1: the lexer at src/lexer.rs:41 fails on token 1"}]',NULL,NULL,1796113249200181,22,'message 1: the lexer at src/lexer.rs:41 fails on token 1');
INSERT INTO messages VALUES(2,X'01a230b133c671b4a3f8bec6cc5ef799',1,NULL,NULL,'assistant','[{"type":"assistant_message","structured":{"full_text":"message 2: the lexer at src/lexer.rs:42 fails on token 2"}}]',NULL,NULL,1796113249222614,22,'message 2: the lexer at src/lexer.rs:42 fails on token 2');
INSERT INTO messages VALUES(3,X'01a230b133e875dfb4ae3e55dd9a2467',1,NULL,NULL,'user','[{"type":"user_message","text":"message 3: the lexer at src/lexer.rs:43 fails on token 3"}]',NULL,NULL,1796113249256155,22,'message 3: the lexer at src/lexer.rs:43 fails on token 3');
INSERT INTO messages VALUES(4,X'01a230b133fb778294a484d3a0a28173',1,NULL,NULL,'assistant','[{"type":"assistant_message","structured":{"full_text":"message 4: the lexer at src/lexer.rs:44 fails on token 4"}}]',NULL,NULL,1796113249275588,22,'message 4: the lexer at src/lexer.rs:44 fails on token 4');
INSERT INTO messages VALUES(5,X'01a230b1341375df90caf39b3a58fd76',1,NULL,NULL,'user','[{"type":"user_message","text":"message 5: the lexer at src/lexer.rs:45 fails on token 5"}]',NULL,NULL,1796113249299047,22,'message 5: the lexer at src/lexer.rs:45 fails on token 5');
INSERT INTO messages VALUES(6,X'01a230b1342c725488444f4169ff474e',1,NULL,NULL,'assistant','[{"type":"assistant_message","structured":{"full_text":"message 6: the lexer at src/lexer.rs:46 fails on token 6"}}]',NULL,NULL,1796113249324845,22,'message 6: the lexer at src/lexer.rs:46 fails on token 6');
INSERT INTO messages VALUES(7,X'01a230b1344875a7b0ca91a91b0742fe',1,NULL,NULL,'user','[{"type":"user_message","text":"message 7: the lexer at src/lexer.rs:47 fails on token 7"}]',NULL,NULL,1796113249352749,22,'message 7: the lexer at src/lexer.rs:47 fails on token 7');
INSERT INTO messages VALUES(8,X'01a230b1345e768dacf0b1af525d1e63',1,NULL,NULL,'assistant','[{"type":"assistant_message","structured":{"full_text":"message 8: the lexer at src/lexer.rs:48 fails on token 8"}}]',NULL,NULL,1796113249374748,22,'message 8: the lexer at src/lexer.rs:48 fails on token 8');
INSERT INTO messages VALUES(9,X'01a230b1347b72d0ad905c839e2a548d',1,NULL,NULL,'user','[{"type":"user_message","text":"message 9: the lexer at src/lexer.rs:49 fails on token 9"}]',NULL,NULL,1796113249403833,22,'message 9: the lexer at src/lexer.rs:49 fails on token 9');
INSERT INTO messages VALUES(10,X'01a230b13491752c96297f86799c3ab3',1,NULL,NULL,'assistant','[{"type":"assistant_message","structured":{"full_text":"message 10: the lexer at src/lexer.rs:50 fails on token 10"}}]',NULL,NULL,1796113249425580,22,'message 10: the lexer at src/lexer.rs:50 fails on token 10');
INSERT INTO messages VALUES(11,X'01a230b134ac767ba94c41689386704d',1,NULL,NULL,'user','[{"type":"user_message","text":"message 11: the lexer at src/lexer.rs:51 fails on token 11"}]',NULL,NULL,1796113249452740,22,'message 11: the lexer at src/lexer.rs:51 fails on token 11');
INSERT INTO messages VALUES(12,X'01a230b134c470a1af0e66b9abc386df',1,NULL,NULL,'assistant','[{"type":"assistant_message","structured":{"full_text":"message 12: the lexer at src/lexer.rs:52 fails on token 12"}}]',NULL,NULL,1796113249476351,22,'message 12: the lexer at src/lexer.rs:52 fails on token 12');
INSERT INTO messages VALUES(13,X'01a230b134e872e28ddb372fb3da3b9f',1,X'01a230b134e872e28ddb372e1c51382a',NULL,'user','[{"type":"user_message","text":"message 3, edited: the parser recovers"}]',NULL,NULL,1796113249512782,14,'message 3, edited: the parser recovers');
INSERT INTO messages VALUES(14,X'01a230b1351e71f8bb002875e0bff046',1,X'01a230b1351e71f8bb002874ad1bb0a8',NULL,'user','[{"type":"user_message","text":"squashed 2, 7 and 9: tokens 2, 7, 9 fixed"}]',NULL,NULL,1796113249566532,19,'squashed 2, 7 and 9: tokens 2, 7, 9 fixed');
INSERT INTO messages VALUES(15,X'01a230b1356e77cd9b82bcfdee63fadc',1,NULL,NULL,'user','[{"type":"user_message","text":"message 13: appended after the squash"}]',NULL,NULL,1796113249646907,13,'message 13: appended after the squash');
INSERT INTO messages VALUES(16,X'01a230b135bb74eb822c609e56b535f9',2,NULL,NULL,'user','[{"type":"user_message","text":"a conversation that was never derived"}]',NULL,NULL,1796113249723161,13,'a conversation that was never derived');
CREATE TABLE thread_messages (
    thread_key   INTEGER NOT NULL,
    position     INTEGER NOT NULL,
    message_key  INTEGER NOT NULL,
    PRIMARY KEY (thread_key, position)
) WITHOUT ROWID;
INSERT INTO thread_messages VALUES(1,0,1);
INSERT INTO thread_messages VALUES(2,0,1);
INSERT INTO thread_messages VALUES(3,0,1);
INSERT INTO thread_messages VALUES(4,0,1);
INSERT INTO thread_messages VALUES(1,1,2);
INSERT INTO thread_messages VALUES(2,1,2);
INSERT INTO thread_messages VALUES(3,1,2);
INSERT INTO thread_messages VALUES(1,2,3);
INSERT INTO thread_messages VALUES(1,3,4);
INSERT INTO thread_messages VALUES(2,3,4);
INSERT INTO thread_messages VALUES(3,3,4);
INSERT INTO thread_messages VALUES(4,3,4);
INSERT INTO thread_messages VALUES(1,4,5);
INSERT INTO thread_messages VALUES(2,4,5);
INSERT INTO thread_messages VALUES(1,5,6);
INSERT INTO thread_messages VALUES(2,5,6);
INSERT INTO thread_messages VALUES(3,4,6);
INSERT INTO thread_messages VALUES(4,4,6);
INSERT INTO thread_messages VALUES(1,6,7);
INSERT INTO thread_messages VALUES(2,6,7);
INSERT INTO thread_messages VALUES(3,5,7);
INSERT INTO thread_messages VALUES(4,5,7);
INSERT INTO thread_messages VALUES(1,7,8);
INSERT INTO thread_messages VALUES(2,7,8);
INSERT INTO thread_messages VALUES(3,6,8);
INSERT INTO thread_messages VALUES(1,8,9);
INSERT INTO thread_messages VALUES(2,8,9);
INSERT INTO thread_messages VALUES(3,7,9);
INSERT INTO thread_messages VALUES(4,6,9);
INSERT INTO thread_messages VALUES(1,9,10);
INSERT INTO thread_messages VALUES(2,9,10);
INSERT INTO thread_messages VALUES(3,8,10);
INSERT INTO thread_messages VALUES(1,10,11);
INSERT INTO thread_messages VALUES(2,10,11);
INSERT INTO thread_messages VALUES(3,9,11);
INSERT INTO thread_messages VALUES(4,7,11);
INSERT INTO thread_messages VALUES(1,11,12);
INSERT INTO thread_messages VALUES(2,11,12);
INSERT INTO thread_messages VALUES(3,10,12);
INSERT INTO thread_messages VALUES(4,8,12);
INSERT INTO thread_messages VALUES(2,2,13);
INSERT INTO thread_messages VALUES(3,2,13);
INSERT INTO thread_messages VALUES(4,2,13);
INSERT INTO thread_messages VALUES(4,1,14);
INSERT INTO thread_messages VALUES(4,9,15);
INSERT INTO thread_messages VALUES(5,0,16);
CREATE TABLE message_tools (
    conversation_key  INTEGER NOT NULL,
    tool_use_id       TEXT NOT NULL,
    message_key       INTEGER NOT NULL,
    is_result         INTEGER NOT NULL,
    PRIMARY KEY (conversation_key, tool_use_id, message_key, is_result)
) WITHOUT ROWID;
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
, style TEXT, prompt_style TEXT);
INSERT INTO squash_operations VALUES(1,X'01a230b134e872e28ddb372e1c51382a',1,13,NULL,NULL,0,NULL,NULL,NULL,1,2,NULL,NULL,NULL,1796113249512805,NULL,NULL);
INSERT INTO squash_operations VALUES(2,X'01a230b1351e71f8bb002874ad1bb0a8',1,14,NULL,NULL,0,NULL,NULL,NULL,3,4,NULL,NULL,NULL,1796113249566540,NULL,NULL);
CREATE TABLE squash_operation_sources (
    operation_key  INTEGER NOT NULL,
    position       INTEGER NOT NULL,
    message_key    INTEGER NOT NULL,
    PRIMARY KEY (operation_key, position)
) WITHOUT ROWID;
INSERT INTO squash_operation_sources VALUES(1,0,3);
INSERT INTO squash_operation_sources VALUES(2,0,2);
INSERT INTO squash_operation_sources VALUES(2,1,8);
INSERT INTO squash_operation_sources VALUES(2,2,10);
CREATE TABLE imports (
    key               INTEGER PRIMARY KEY,
    source_key        TEXT NOT NULL UNIQUE,
    format            TEXT NOT NULL,
    conversation_key  INTEGER NOT NULL REFERENCES conversations(key),
    content_hash      TEXT NOT NULL,
    metadata          TEXT,
    imported_at       INTEGER NOT NULL
);
PRAGMA writable_schema=ON;
INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)VALUES('table','message_search','message_search',0,'CREATE VIRTUAL TABLE message_search USING fts5(
    search_text,
    content = ''messages'',
    content_rowid = ''key'',
    tokenize = ''porter unicode61 remove_diacritics 2''
)');
CREATE TABLE IF NOT EXISTS 'message_search_data'(id INTEGER PRIMARY KEY, block BLOB);
INSERT INTO message_search_data VALUES(1,X'108138');
INSERT INTO message_search_data VALUES(10,X'0000000002011000000001110101');
INSERT INTO message_search_data VALUES(2336462209025,X'000002c30230310104030d0201300a04030d0201310b04030d0201320c04030d0201330f02030101320204030d0c0403070101330304030d0a02030101340404030d02013101020a02013202020a02013303020a02013404020a02013505020a02013606020a02013707020a02013808020a02013909020a0101350504030d0201300a020a0201310b020a0201320c020a0101360604030d0101370704030d070404070101380804030d0101390904030d050406060101611002020204667465720f020502026e640e020502057070656e640f02040201740102060102060102060102060102060102060102060102060102060102060102060102060107636f6e76657273100203010564657269761002070104656469740d020401046661696c01020b01020b01020b01020b01020b01020b01020b01020b01020b01020b01020b01020b020269780e020b01056c6578657201040505010405050104050501040505010405050104050501040505010405050104050501040505010405050104050501066d657373616701020201020201020201020201020201020201020201020201020201020201020201020201020202020201056e6576657210020601026f6e01020c01020c01020c01020c01020c01020c01020c01020c01020c01020c01020c01020c01067061727365720d020601057265636f760d020702017301020901020901020901020901020901020901020901020901020901020901020901020901067371756173680e02020102070202726301020701020701020701020701020701020701020701020701020701020701020701020701047468617410020403016501020401020401020401020401020401020401020401020401020401020401020401020401020502020602046f6b656e01020d01020d01020d01020d01020d01020d01020d01020d01020d01020d01020d01020d020207010277611002050407070707060b0a0706060606060606060607060606070b070b0609070a270c0a092a0737320a280b0a270e28092d2d');
CREATE TABLE IF NOT EXISTS 'message_search_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;
INSERT INTO message_search_idx VALUES(17,X'',2);
CREATE TABLE IF NOT EXISTS 'message_search_docsize'(id INTEGER PRIMARY KEY, sz BLOB);
INSERT INTO message_search_docsize VALUES(1,X'0d');
INSERT INTO message_search_docsize VALUES(2,X'0d');
INSERT INTO message_search_docsize VALUES(3,X'0d');
INSERT INTO message_search_docsize VALUES(4,X'0d');
INSERT INTO message_search_docsize VALUES(5,X'0d');
INSERT INTO message_search_docsize VALUES(6,X'0d');
INSERT INTO message_search_docsize VALUES(7,X'0d');
INSERT INTO message_search_docsize VALUES(8,X'0d');
INSERT INTO message_search_docsize VALUES(9,X'0d');
INSERT INTO message_search_docsize VALUES(10,X'0d');
INSERT INTO message_search_docsize VALUES(11,X'0d');
INSERT INTO message_search_docsize VALUES(12,X'0d');
INSERT INTO message_search_docsize VALUES(13,X'06');
INSERT INTO message_search_docsize VALUES(14,X'0a');
INSERT INTO message_search_docsize VALUES(15,X'06');
INSERT INTO message_search_docsize VALUES(16,X'06');
CREATE TABLE IF NOT EXISTS 'message_search_config'(k PRIMARY KEY, v) WITHOUT ROWID;
INSERT INTO message_search_config VALUES('version',4);
CREATE INDEX conversations_by_project ON conversations(project_key, updated_at);
CREATE INDEX threads_by_conversation ON threads(conversation_key);
CREATE INDEX threads_by_original ON threads(original_thread_key);
CREATE INDEX messages_by_conversation ON messages(conversation_key);
CREATE INDEX message_tools_by_message ON message_tools(message_key);
CREATE INDEX squash_operations_by_conversation ON squash_operations(conversation_key);
CREATE INDEX imports_by_conversation ON imports(conversation_key);
CREATE INDEX messages_tokens ON messages(key, tokens);
CREATE INDEX messages_without_tokens ON messages(key) WHERE tokens IS NULL;
CREATE INDEX messages_without_search ON messages(key) WHERE search_text IS NULL;
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
CREATE INDEX thread_messages_by_message ON thread_messages(message_key);
PRAGMA writable_schema=OFF;
COMMIT;
PRAGMA user_version = 5;
