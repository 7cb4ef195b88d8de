//! The database reader on real SQLite files of schema versions other than the one the app
//! tests use: columns in another order, optional columns and tables missing.

use chrono::Utc;
use rusqlite::{params, Connection};
use serde_json::json;
use squash_core::{ContentItem, Role, ThreadOrigin};

use super::{read_database, DatabaseError};
use crate::FormatError;

/// An old schema: no projects, threads without `position`, no squash_operations; the
/// conversation's columns in an order of their own, without `ai_provider`, `model_name` and
/// `updated_at`; the messages carry their role in a column, not in the document.
fn old_schema(path: &std::path::Path, edited_text: &str) {
    let db = Connection::open(path).unwrap();
    db.execute_batch(
        "CREATE TABLE conversations (display_name TEXT, created_at, current_thread_id TEXT, id TEXT);
         CREATE TABLE messages (message_json TEXT, role TEXT, conversation_id TEXT, id TEXT);
         CREATE TABLE threads (conversation_id TEXT, id TEXT, original_thread_id TEXT);
         CREATE TABLE thread_messages (message_id TEXT, thread_id TEXT);",
    )
    .unwrap();
    db.execute(
        "INSERT INTO conversations VALUES ('', 1762097521000, 't2', 'c1')",
        [],
    )
    .unwrap();
    let docs = [
        (
            "m1",
            "USER",
            json!({"content": [{"type": "Message", "text": "first question"}]}),
        ),
        (
            "m2",
            "ASSISTANT",
            json!({"content": [{"type": "IntermediateMessage", "structured": {"fullText": "an answer"}}]}),
        ),
        (
            "m3",
            "USER",
            json!({"originalIds": ["m1"], "content": [{"type": "Message", "text": edited_text}]}),
        ),
    ];
    for (id, role, doc) in docs {
        db.execute(
            "INSERT INTO messages VALUES (?1, ?2, 'c1', ?3)",
            params![doc.to_string(), role, id],
        )
        .unwrap();
    }
    for (thread, original, links) in [("t1", None, ["m1", "m2"]), ("t2", Some("t1"), ["m3", "m2"])]
    {
        db.execute(
            "INSERT INTO threads VALUES ('c1', ?1, ?2)",
            params![thread, original],
        )
        .unwrap();
        for m in links {
            db.execute(
                "INSERT INTO thread_messages VALUES (?1, ?2)",
                params![m, thread],
            )
            .unwrap();
        }
    }
}

#[test]
fn an_old_schema_is_read_by_column_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    old_schema(&path, "first question, edited");
    let parsed = read_database(&path, "old.db", Utc::now()).unwrap();
    assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
    let [conv] = parsed.conversations.as_slice() else {
        panic!(
            "one conversation expected: {:?}",
            parsed.conversations.len()
        );
    };
    assert_eq!(conv.source_key, "gromozeka:c1");
    assert_eq!(conv.display_name, "first question");
    assert_eq!(conv.project_path, None);
    assert_eq!(conv.created_at.timestamp_millis(), 1_762_097_521_000);
    let roles: Vec<Role> = conv.messages.iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::User, Role::Assistant, Role::User]);
    assert!(matches!(
        &conv.messages[2].content[0],
        ContentItem::UserMessage { text } if text == "first question, edited"
    ));
    // The links keep their stored order (rowid, as there is no position column).
    assert_eq!(conv.threads.len(), 2);
    assert_eq!(
        conv.threads[1].links,
        [conv.messages[2].id, conv.messages[1].id]
    );
    assert_eq!(conv.current_thread_id, conv.threads[1].id);
    // originalIds of one message: an edit, backfilled, that produced the second thread.
    assert_eq!(conv.backfilled_operations, 1);
    let op = &conv.operations[0];
    assert!(op.is_edit());
    assert_eq!(op.source_message_ids, [conv.messages[0].id]);
    assert_eq!(op.result_thread_id, Some(conv.threads[1].id));
    assert_eq!(
        conv.threads[1].origin,
        ThreadOrigin::Edit {
            operation_id: op.id
        }
    );
}

#[test]
fn the_content_hash_follows_the_content() {
    let dir = tempfile::tempdir().unwrap();
    let hash_of = |name: &str, text: &str| {
        let path = dir.path().join(name);
        old_schema(&path, text);
        let parsed = read_database(&path, name, Utc::now()).unwrap();
        parsed.conversations[0].content_hash.clone()
    };
    let a = hash_of("a.db", "edited");
    assert_eq!(a, hash_of("b.db", "edited"));
    assert_ne!(a, hash_of("c.db", "edited differently"));
}

#[test]
fn other_sqlite_files_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    let db = Connection::open(&path).unwrap();
    db.execute_batch(
        "CREATE TABLE conversations (id TEXT); CREATE TABLE messages (id TEXT, body TEXT);",
    )
    .unwrap();
    drop(db);
    let err = read_database(&path, "other.db", Utc::now()).unwrap_err();
    assert!(
        matches!(
            &err,
            FormatError::Database {
                error: DatabaseError::NotGromozeka("message_json"),
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "other.db: not a readable Gromozeka database: no \"message_json\" column: not a Gromozeka schema"
    );
    let unrelated = dir.path().join("unrelated.db");
    Connection::open(&unrelated)
        .unwrap()
        .execute_batch("CREATE TABLE notes (body TEXT)")
        .unwrap();
    let err = read_database(&unrelated, "unrelated.db", Utc::now()).unwrap_err();
    assert!(
        matches!(
            &err,
            FormatError::Database {
                error: DatabaseError::MissingTable("conversations"),
                ..
            }
        ),
        "{err:?}"
    );
}

/// The content hash is how a re-import knows a database did not change: if it moved between
/// versions, every re-import would store the same conversations again. It covers every column
/// of every row read, in a fixed order.
#[test]
fn the_content_hash_is_stable_across_versions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pinned.db");
    old_schema(&path, "edited");
    let parsed = read_database(&path, "pinned.db", Utc::now()).unwrap();
    assert_eq!(parsed.conversations[0].content_hash, PINNED_HASH);
}

const PINNED_HASH: &str = "aaaf2ee56bafa1c1bf55765cca2ed33fc5a81ada6e17eca42ec6a17036090a36";

/// Gromozeka wrote its timestamp columns as local-time text on its machine (here UTC+3, as in
/// Moscow), while each message document carries its instant. Whatever this machine's zone, the
/// conversation and its threads fall where their messages do, not three hours off.
#[test]
fn local_time_text_is_read_in_the_zone_it_was_written_in() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("local.db");
    let db = Connection::open(&path).unwrap();
    db.execute_batch(
        "CREATE TABLE conversations (id TEXT, display_name TEXT, current_thread_id TEXT,
             created_at TEXT, updated_at TEXT);
         CREATE TABLE messages (id TEXT, conversation_id TEXT, message_json TEXT, created_at TEXT);
         CREATE TABLE threads (id TEXT, conversation_id TEXT, original_thread_id TEXT,
             created_at TEXT, updated_at TEXT);
         CREATE TABLE thread_messages (thread_id TEXT, message_id TEXT);
         INSERT INTO conversations VALUES ('c1', 'local times', 't1',
             '2025-11-02 18:30:00.000', '2025-11-02 18:31:10.000');
         INSERT INTO threads VALUES ('t1', 'c1', NULL,
             '2025-11-02 18:30:00.000', '2025-11-02 18:31:10.000');",
    )
    .unwrap();
    let stamps = [
        (
            "m1",
            "USER",
            "2025-11-02T15:30:05.000Z",
            "2025-11-02 18:30:05.012",
        ),
        (
            "m2",
            "ASSISTANT",
            "2025-11-02T15:31:09.500Z",
            "2025-11-02 18:31:09.510",
        ),
    ];
    for (id, role, instant, text) in stamps {
        let content = if role == "USER" {
            json!([{"type": "Message", "text": "what time is it?"}])
        } else {
            json!([{"type": "IntermediateMessage", "structured": {"fullText": "teatime"}}])
        };
        let doc = json!({"id": id, "role": role, "createdAt": instant, "content": content});
        db.execute(
            "INSERT INTO messages VALUES (?1, 'c1', ?2, ?3)",
            params![id, doc.to_string(), text],
        )
        .unwrap();
        db.execute("INSERT INTO thread_messages VALUES ('t1', ?1)", params![id])
            .unwrap();
    }
    drop(db);
    let parsed = read_database(&path, "local.db", Utc::now()).unwrap();
    let conv = &parsed.conversations[0];
    let at = |s: &str| {
        chrono::DateTime::parse_from_rfc3339(s)
            .unwrap()
            .with_timezone(&Utc)
    };
    assert_eq!(conv.messages[0].created_at, at("2025-11-02T15:30:05Z"));
    assert_eq!(conv.created_at, at("2025-11-02T15:30:00Z"));
    assert_eq!(conv.updated_at, at("2025-11-02T15:31:10Z"));
    assert_eq!(conv.threads[0].created_at, at("2025-11-02T15:30:00Z"));
    assert_eq!(conv.threads[0].updated_at, at("2025-11-02T15:31:10Z"));
    assert!(conv.created_at <= conv.messages[0].created_at);
    assert!(conv.updated_at >= conv.messages[1].created_at);
    assert_eq!(parsed.records.lines, 2);
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
}
