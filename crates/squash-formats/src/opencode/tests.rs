use std::collections::HashMap;

use chrono::Utc;
use serde_json::Value;
use squash_core::{Message, Role};

use super::*;
use crate::detect::{detect_bytes, inspect_path, Found};
use crate::session::Session;
use crate::test_support::{content_kinds, session_bytes, session_text};
use crate::SourceFormat;

/// `got` holds the content of `want`, message by message.
#[track_caller]
fn assert_same_content(got: &[Message], want: &[Message]) {
    let content = |ms: &[Message]| ms.iter().map(|m| m.content.clone()).collect::<Vec<_>>();
    assert_eq!(content(got), content(want));
}

/// The store opencode wrote, rebuilt from its dump into a real SQLite file.
fn store(dir: &std::path::Path) -> std::path::PathBuf {
    let sql = session_text("opencode-1.18-store.sql");
    let path = dir.join("opencode.db");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(&sql).unwrap();
    path
}

const PROBE_SHAPE: [(Role, &str); 7] = [
    (Role::User, "user"),
    (Role::Assistant, "text"),
    (Role::Assistant, "call"),
    (Role::User, "result"),
    (Role::Assistant, "call"),
    (Role::User, "result"),
    (Role::Assistant, "text"),
];

/// The store and the export of the same session read as the same messages, every row or entry
/// accounted for.
#[test]
fn the_store_and_the_export_read_alike() {
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path());
    assert_eq!(
        inspect_path(&db).unwrap(),
        Found::Format(SourceFormat::Opencode)
    );
    let from_db = read_database(&db, "opencode.db", Utc::now()).unwrap();
    assert!(from_db.records.balanced(), "{:?}", from_db.records);
    // 1 session + 4 messages + 11 parts.
    assert_eq!(from_db.records.lines, 16);
    let conv = &from_db.conversations[0];
    assert_eq!(conv.source_key, "opencode:ses_dcf5ac799ffeXdtbQcd0OSSZwO");
    assert_eq!(conv.display_name, "Probe session");
    assert_eq!(content_kinds(&conv.messages), PROBE_SHAPE);

    let text = session_bytes("opencode-1.18-export.json");
    assert_eq!(detect_bytes(&text), Some(SourceFormat::Opencode));
    let doc: Value = serde_json::from_slice(&text).unwrap();
    let from_doc = parse_document("export.json", doc, "h", Utc::now()).unwrap();
    assert!(from_doc.records.balanced(), "{:?}", from_doc.records);
    assert_eq!(from_doc.records.lines, 16);
    assert_same_content(&from_doc.conversations[0].messages, &conv.messages);
}

/// Written as an import document, the thread reads back as the same messages, under ids that
/// sort in its order.
#[test]
fn a_written_document_reads_back() {
    let text = session_bytes("opencode-1.18-export.json");
    let doc: Value = serde_json::from_slice(&text).unwrap();
    let parsed = parse_document("export.json", doc, "h", Utc::now()).unwrap();
    let conv = &parsed.conversations[0];
    let id = new_session_id(Utc::now());
    let mut out = Vec::new();
    let written = write(
        &Session {
            session_id: &id,
            cwd: "/work/project",
            created_at: Utc::now(),
            messages: &conv.messages,
            operations: &HashMap::new(),
        },
        "Probe session",
        None,
        &mut out,
    )
    .unwrap();
    assert!(written.warnings.is_empty(), "{:?}", written.warnings);
    let doc: Value = serde_json::from_slice(&out).unwrap();
    let ids: Vec<&str> = doc["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["info"]["id"].as_str().unwrap())
        .collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted);
    assert!(looks_like(&doc));
    let again = parse_document("again.json", doc, "h2", Utc::now()).unwrap();
    assert!(again.records.balanced(), "{:?}", again.records);
    assert_eq!(content_kinds(&again.conversations[0].messages), PROBE_SHAPE);
    assert_same_content(&again.conversations[0].messages, &conv.messages);
}

#[test]
fn other_databases_are_no_stores() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("CREATE TABLE session (id TEXT); CREATE TABLE message (id TEXT); CREATE TABLE part (id TEXT);")
        .unwrap();
    drop(conn);
    assert!(!is_opencode_database(&path));
    assert!(read_database(&path, "other.db", Utc::now()).is_err());
}
