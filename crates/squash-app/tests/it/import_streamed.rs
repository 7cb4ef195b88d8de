//! Claude Code sessions are stored in two passes: the structure first, then the messages in
//! chunks read again from the file, all in one transaction. On every backend: the stored
//! messages are those an in-memory read makes, and a failure between chunks (the file changed
//! under the import) leaves nothing written — of a first import and of the append of a grown
//! session alike, whose comparison with what is stored and whose new messages go by chunks too.

use squash_testkit::on_every_backend;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde_json::json;
use squash_app::import::ImportStatus;
use squash_app::ImportOptions;
use squash_core::{Message, SourceFormat};
use squash_formats::read::{read_file, read_file_streaming};
use squash_formats::{FormatError, Parsed};
use squash_testkit::fixtures::{import_options, write_claude_session, GeneratedSession};
use squash_testkit::Backend;

/// Turns in the generated session: three messages each, so several chunks of 1,000.
const TURNS: usize = 900;

/// Turns the grown session adds: its new messages span several chunks too.
const GROWN_TURNS: usize = 700;

/// A session of `TURNS` turns (a prompt, an answer with a tool call, the tool's result) in a
/// new directory, as `big.jsonl`.
fn session() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.jsonl");
    write_session(&path, TURNS);
    (dir, path)
}

/// The session of `turns` turns; the first turns of a longer one are those of a shorter one.
fn write_session(path: &Path, turns: usize) {
    let how = GeneratedSession {
        session_id: "5e55a0b1-0000-4000-8000-00000000beef",
        cwd: "/tmp/streamed",
        command: &|t| format!("echo {t}"),
        output: &|t| format!("{t}\n").repeat(40),
    };
    write_claude_session(path, turns, &how);
}

/// The file with the last answer changed (same length), as if the agent rewrote it meanwhile.
fn change_last_answer(path: &Path, turns: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let last = format!("answer {}", turns - 1);
    let at = text.rfind(&last).unwrap();
    let changed = format!("{}Answer{}", &text[..at], &text[at + "answer".len()..]);
    std::fs::write(path, changed).unwrap();
}

/// What `reader` (in memory or streamed) makes of the session at `path`.
fn read(path: &Path, reader: Reader) -> Parsed {
    reader(
        path,
        "big.jsonl",
        SourceFormat::ClaudeCode,
        Utc::now(),
        &mut |_| {},
    )
    .unwrap()
}

type Reader = fn(
    &Path,
    &str,
    SourceFormat,
    DateTime<Utc>,
    &mut dyn FnMut(u64),
) -> Result<Parsed, FormatError>;

/// Stores `parsed` from a file that changed since it was read: refused as such.
async fn refused_as_changed(b: &Backend, parsed: Parsed) {
    let err = b
        .service
        .store_parsed(parsed, &options())
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("the file changed while it was imported"),
        "{err}"
    );
}

fn options() -> ImportOptions {
    import_options("/tmp/import-tests")
}

fn essence(m: &Message) -> serde_json::Value {
    json!([m.role, m.content, m.metadata, m.created_at])
}

async fn streamed_equals_in_memory(b: &Backend) {
    let (_dir, path) = session();
    let summary = b.import(&path, "/tmp/import-tests").await;
    let report = &summary.conversations[0];
    assert_eq!(report.status, ImportStatus::Imported);
    let memory = read(&path, read_file);
    let expected = &memory.conversations[0];
    assert_eq!(report.counts, expected.counts());
    assert_eq!(report.counts.messages, TURNS * 3);
    let stored = b.store.all_messages(report.conversation_id).await.unwrap();
    let current = b
        .service
        .current_thread(report.conversation_id)
        .await
        .unwrap();
    assert_eq!(current.messages.len(), TURNS * 3);
    let want: Vec<_> = expected.messages.iter().map(essence).collect();
    assert_eq!(stored.iter().map(essence).collect::<Vec<_>>(), want);
    assert_eq!(
        current.messages.iter().map(essence).collect::<Vec<_>>(),
        want
    );
    assert!(squash_testkit::violations(b, report.conversation_id)
        .await
        .is_empty());
    // The same file again: recognised without a second pass.
    let again = b.import(&path, "/tmp/import-tests").await;
    assert_eq!(again.conversations[0].status, ImportStatus::AlreadyImported);
    assert_eq!(again.conversations[0].counts, report.counts);
}

#[tokio::test]
async fn a_streamed_import_stores_what_an_in_memory_read_makes() {
    on_every_backend!(streamed_equals_in_memory);
}

async fn changed_mid_import(b: &Backend) {
    let (_dir, path) = session();
    let parsed = read(&path, read_file_streaming);
    // The last answer changes (same length) after the first pass: the chunks before it are
    // written, then the import fails.
    change_last_answer(&path, TURNS);
    refused_as_changed(b, parsed).await;
    let stats = b.store.stats().await.unwrap();
    assert_eq!(
        (stats.conversations, stats.messages, stats.threads),
        (0, 0, 0)
    );
    let key = "claude-code:5e55a0b1-0000-4000-8000-00000000beef";
    assert!(b.store.import_record(key).await.unwrap().is_none());
    // The file as it is now imports.
    let summary = b.import(&path, "/tmp/import-tests").await;
    assert_eq!(summary.conversations[0].status, ImportStatus::Imported);
    assert_eq!(b.store.stats().await.unwrap().messages, (TURNS * 3) as u64);
}

#[tokio::test]
async fn a_file_changed_between_the_passes_leaves_nothing_written() {
    on_every_backend!(changed_mid_import);
}

async fn grown_appended_in_chunks(b: &Backend) {
    let (_dir, path) = session();
    let first = b.import(&path, "/tmp/import-tests").await;
    let conv = first.conversations[0].conversation_id;
    write_session(&path, TURNS + GROWN_TURNS);
    let grown = b.import(&path, "/tmp/import-tests").await;
    let report = &grown.conversations[0];
    assert_eq!(report.conversation_id, conv);
    assert_eq!(
        report.status,
        ImportStatus::Appended {
            messages: GROWN_TURNS * 3
        }
    );
    let memory = read(&path, read_file);
    let want: Vec<_> = memory.conversations[0]
        .messages
        .iter()
        .map(essence)
        .collect();
    let current = b.service.current_thread(conv).await.unwrap();
    assert_eq!(
        current.messages.iter().map(essence).collect::<Vec<_>>(),
        want
    );
    // Appended, not imported again: the first import's messages are still the thread's.
    let stats = b.store.stats().await.unwrap();
    assert_eq!(
        (stats.conversations, stats.messages),
        (1, ((TURNS + GROWN_TURNS) * 3) as u64)
    );
    assert!(squash_testkit::violations(b, conv).await.is_empty());
    let again = b.import(&path, "/tmp/import-tests").await;
    assert_eq!(again.conversations[0].status, ImportStatus::AlreadyImported);
}

#[tokio::test]
async fn a_grown_session_is_compared_and_appended_in_chunks() {
    on_every_backend!(grown_appended_in_chunks);
}

async fn changed_mid_append(b: &Backend) {
    let (_dir, path) = session();
    let first = b.import(&path, "/tmp/import-tests").await;
    let conv = first.conversations[0].conversation_id;
    let key = "claude-code:5e55a0b1-0000-4000-8000-00000000beef";
    let hash = b
        .store
        .import_record(key)
        .await
        .unwrap()
        .unwrap()
        .source
        .content_hash;
    write_session(&path, TURNS + GROWN_TURNS);
    let parsed = read(&path, read_file_streaming);
    // The grown file's last answer changes after the first pass: the stored messages compare
    // equal and the append's first chunks are written, then it fails.
    change_last_answer(&path, TURNS + GROWN_TURNS);
    refused_as_changed(b, parsed).await;
    let stats = b.store.stats().await.unwrap();
    assert_eq!(
        (stats.conversations, stats.messages),
        (1, (TURNS * 3) as u64)
    );
    let current = b.service.current_thread(conv).await.unwrap();
    assert_eq!(current.messages.len(), TURNS * 3);
    let record = b.store.import_record(key).await.unwrap().unwrap();
    assert_eq!(record.source.content_hash, hash);
    // The file as it is now is appended to the same conversation.
    let again = b.import(&path, "/tmp/import-tests").await;
    assert_eq!(
        again.conversations[0].status,
        ImportStatus::Appended {
            messages: GROWN_TURNS * 3
        }
    );
}

#[tokio::test]
async fn a_grown_file_changed_during_its_append_leaves_the_conversation_as_it_was() {
    on_every_backend!(changed_mid_append);
}

async fn rewritten_history_imported_again(b: &Backend) {
    let (_dir, path) = session();
    let first = b.import(&path, "/tmp/import-tests").await;
    let conv = first.conversations[0].conversation_id;
    // An old answer rewritten, then turns added: not a prefix, so imported again.
    write_session(&path, TURNS + GROWN_TURNS);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("answer 5\"", "answer V\"", 1)).unwrap();
    let again = b.import(&path, "/tmp/import-tests").await;
    assert_eq!(
        again.conversations[0].status,
        ImportStatus::Reimported { previous: conv }
    );
    let current = b
        .service
        .current_thread(again.conversations[0].conversation_id)
        .await
        .unwrap();
    assert_eq!(current.messages.len(), (TURNS + GROWN_TURNS) * 3);
}

#[tokio::test]
async fn a_grown_session_whose_history_changed_is_imported_again() {
    on_every_backend!(rewritten_history_imported_again);
}
