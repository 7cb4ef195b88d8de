//! A directory import reads the next file while it stores one: what it stores and reports is
//! what importing each file on its own gives, a file that fails is reported and the rest go
//! on, and a progress bar still sees one file at a time, in name order.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use squash_app::import::ImportStatus;
use squash_app::ImportProgress;
use squash_testkit::fixtures::import_options;
use squash_testkit::{on_every_backend, Backend};

/// What a progress bar was told.
#[derive(Debug, Clone, PartialEq)]
enum Event {
    Started(String, u64),
    Advanced,
    Storing,
    Finished(String),
}

#[derive(Default)]
struct Recorder(Mutex<Vec<Event>>);

impl Recorder {
    fn push(&self, event: Event) {
        self.0.lock().unwrap().push(event);
    }

    fn events(&self) -> Vec<Event> {
        self.0.lock().unwrap().clone()
    }
}

impl ImportProgress for Recorder {
    fn file_started(&self, path: &str, bytes: u64) {
        self.push(Event::Started(path.to_owned(), bytes));
    }
    fn advanced(&self, _bytes: u64) {
        self.push(Event::Advanced);
    }
    fn storing(&self, _conversations: usize) {
        self.push(Event::Storing);
    }
    fn file_finished(&self, path: &str) {
        self.push(Event::Finished(path.to_owned()));
    }
}

fn session(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/sessions")
        .join(name)
}

/// Four files in name order: two sessions, a file no reader knows between them, a third.
fn directory() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let copy = |from: &str, to: &str| std::fs::copy(session(from), dir.path().join(to)).unwrap();
    copy("claude-code-linear-1af7fc5e.jsonl", "a-linear.jsonl");
    copy("claude-code-rewind.jsonl", "b-rewind.jsonl");
    std::fs::write(dir.path().join("c-notes.json"), "{\"not\": \"a session\"}").unwrap();
    copy("swe-agent-marshmallow-1867.traj", "d-swe.traj");
    dir
}

async fn directory_story(b: &Backend) {
    let dir = directory();
    let options = import_options("/tmp/directory-tests");
    let progress = Arc::new(Recorder::default());
    let summary = b
        .service
        .import_path(dir.path(), &options, progress.clone())
        .await
        .unwrap();

    // Each file alone, into another store: the same conversations, the same reports.
    let alone = b.fresh().await;
    let mut expected = Vec::new();
    for name in ["a-linear.jsonl", "b-rewind.jsonl", "d-swe.traj"] {
        let s = alone
            .service
            .import_file(
                &dir.path().join(name),
                &options,
                Arc::new(squash_app::NoProgress),
            )
            .await
            .unwrap();
        expected.extend(s.conversations);
    }
    let key = |c: &squash_app::import::ConversationReport| {
        (c.source_key.clone(), c.status.clone(), c.counts, c.threads)
    };
    assert_eq!(
        summary.conversations.iter().map(key).collect::<Vec<_>>(),
        expected.iter().map(key).collect::<Vec<_>>()
    );
    assert!(summary
        .conversations
        .iter()
        .all(|c| c.status == ImportStatus::Imported));
    assert_eq!(summary.files, 4);
    assert_eq!(summary.failed.len(), 1, "{:?}", summary.failed);
    assert!(summary.failed[0].file.ends_with("c-notes.json"));
    alone.cleanup().await;

    // One file at a time: each started once, in name order, finished before the next starts
    // (the one that failed is never finished), its bytes those of the file.
    let events = progress.events();
    let mut open: Option<String> = None;
    let mut started = Vec::new();
    for event in &events {
        match event {
            Event::Started(path, bytes) => {
                if let Some(current) = &open {
                    assert!(
                        current.ends_with("c-notes.json"),
                        "{current} still open: {events:?}"
                    );
                }
                assert_eq!(*bytes, std::fs::metadata(path).unwrap().len());
                started.push(path.clone());
                open = Some(path.clone());
            }
            Event::Advanced | Event::Storing => assert!(open.is_some(), "{events:?}"),
            Event::Finished(path) => {
                assert_eq!(open.as_ref(), Some(path), "{events:?}");
                open = None;
            }
        }
    }
    let names: Vec<String> = started
        .iter()
        .map(|p| {
            Path::new(p)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        names,
        [
            "a-linear.jsonl",
            "b-rewind.jsonl",
            "c-notes.json",
            "d-swe.traj"
        ]
    );
}

#[tokio::test]
async fn a_directory_read_ahead_imports_what_each_file_gives_alone_one_file_at_a_time() {
    on_every_backend!(directory_story);
}

/// Small Claude Code sessions, whose messages the read-ahead makes while the file before is
/// stored: one with sub-agent runs in it, and the first one again under another name (its
/// record is written only after it was read ahead).
fn small_sessions() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let copy = |from: &str, to: &str| std::fs::copy(session(from), dir.path().join(to)).unwrap();
    copy("claude-code-linear-1af7fc5e.jsonl", "a-linear.jsonl");
    copy("claude-code-subagents-5c0375b4.jsonl", "b-subagents.jsonl");
    copy("claude-code-rewind.jsonl", "c-rewind.jsonl");
    copy("claude-code-linear-1af7fc5e.jsonl", "d-linear-again.jsonl");
    copy("claude-code-broken-chain.jsonl", "e-broken-chain.jsonl");
    dir
}

/// What is stored of a conversation: every message, and its current thread's.
async fn stored(b: &Backend, id: squash_core::ConversationId) -> serde_json::Value {
    let all = b.store.all_messages(id).await.unwrap().len();
    let current = b.service.current_thread(id).await.unwrap();
    let thread: Vec<_> = current
        .messages
        .iter()
        .map(|m| serde_json::json!([m.role, m.content, m.metadata, m.created_at]))
        .collect();
    serde_json::json!([all, thread, current.message_tokens, current.tokens])
}

async fn made_ahead_story(b: &Backend) {
    let dir = small_sessions();
    let options = import_options("/tmp/directory-tests");
    let nothing = || Arc::new(squash_app::NoProgress);
    let summary = b
        .service
        .import_path(dir.path(), &options, nothing())
        .await
        .unwrap();

    let alone = b.fresh().await;
    let mut expected = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in &names {
        let s = alone
            .service
            .import_file(path, &options, nothing())
            .await
            .unwrap();
        expected.extend(s.conversations);
    }
    let key = |c: &squash_app::import::ConversationReport| {
        (
            c.source_key.clone(),
            format!("{:?}", c.status),
            c.counts,
            c.threads,
            c.sidechain,
        )
    };
    assert_eq!(
        summary.conversations.iter().map(key).collect::<Vec<_>>(),
        expected.iter().map(key).collect::<Vec<_>>()
    );
    let again = summary
        .conversations
        .iter()
        .filter(|c| c.status == ImportStatus::AlreadyImported)
        .count();
    assert_eq!(again, 1, "the copy of the first session");
    for (got, want) in summary.conversations.iter().zip(&expected) {
        assert_eq!(
            stored(b, got.conversation_id).await,
            stored(&alone, want.conversation_id).await,
            "{}",
            got.source_key
        );
    }
    alone.cleanup().await;

    // Imported again: every conversation is imported already, as it was stored.
    let second = b
        .service
        .import_path(dir.path(), &options, nothing())
        .await
        .unwrap();
    assert_eq!(second.conversations.len(), summary.conversations.len());
    for (r, first) in second.conversations.iter().zip(&summary.conversations) {
        assert_eq!(r.status, ImportStatus::AlreadyImported, "{}", r.source_key);
        assert_eq!(r.conversation_id, first.conversation_id);
    }
}

#[tokio::test]
async fn small_sessions_made_ahead_are_stored_as_each_file_alone_stores_them() {
    on_every_backend!(made_ahead_story);
}
