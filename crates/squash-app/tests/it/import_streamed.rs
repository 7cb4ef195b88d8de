//! Claude Code sessions are stored in two passes: the structure first, then the messages in
//! chunks read again from the file, all in one transaction. On every backend: the stored
//! messages are those an in-memory read makes, and a failure between chunks (the file changed
//! under the import) leaves nothing written.

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

/// A session of `TURNS` turns (a prompt, an answer with a tool call, the tool's result) in a
/// new directory, as `big.jsonl`.
fn session() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.jsonl");
    let how = GeneratedSession {
        session_id: "5e55a0b1-0000-4000-8000-00000000beef",
        cwd: "/tmp/streamed",
        command: &|t| format!("echo {t}"),
        output: &|t| format!("{t}\n").repeat(40),
    };
    write_claude_session(&path, TURNS, &how);
    (dir, path)
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
    let text = std::fs::read_to_string(&path).unwrap();
    let last = format!("answer {}", TURNS - 1);
    let at = text.rfind(&last).unwrap();
    let changed = format!("{}Answer{}", &text[..at], &text[at + "answer".len()..]);
    std::fs::write(&path, changed).unwrap();
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
