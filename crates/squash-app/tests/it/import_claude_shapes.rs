//! Claude Code sessions of the shapes that used to lose content (broken or missing parent
//! chains, compactions with preserved messages, rewinds, sub-agent runs in pieces, current line
//! types), imported through the service on every backend: the current thread, the threads one
//! can switch to, the warnings, and every line accounted for.

use squash_testkit::fixtures::{assert_already_imported, session_data as data};
use squash_testkit::on_every_backend;
use std::sync::Arc;

use squash_app::import::ImportSummary;
use squash_app::{ImportOptions, NoProgress};
use squash_core::{
    BranchKind, ContentItem, ConversationId, Message, SystemLevel, ThreadId, ThreadOrigin,
};
use squash_testkit::Backend;

/// The shape fixtures (the real sessions beside them are covered by import_export.rs).
const SHAPES: [&str; 6] = [
    "claude-code-broken-chain.jsonl",
    "claude-code-null-parents.jsonl",
    "claude-code-compaction-preserved.jsonl",
    "claude-code-rewind.jsonl",
    "claude-code-sidechain-pieces.jsonl",
    "claude-code-line-types.jsonl",
];

async fn import(b: &Backend, name: &str) -> ImportSummary {
    let options = ImportOptions {
        fallback_project: "/tmp/import-tests".into(),
        ..ImportOptions::default()
    };
    let summary = b
        .service
        .import_path(&data(name), &options, Arc::new(NoProgress))
        .await
        .unwrap_or_else(|e| panic!("import of {name} failed: {e}"));
    assert!(summary.failed.is_empty(), "{name}: {:?}", summary.failed);
    let lines = std::fs::read_to_string(data(name)).unwrap().lines().count();
    let report = &summary.file_reports[0];
    assert_eq!(report.records.lines, lines, "{name}");
    assert!(report.records.balanced(), "{name}: {:?}", report.records);
    summary
}

/// The first text of each message, or what kind of item it holds.
fn texts(messages: &[Message]) -> Vec<String> {
    messages
        .iter()
        .map(|m| match m.content.first() {
            Some(ContentItem::UserMessage { text }) => text.clone(),
            Some(ContentItem::AssistantMessage { structured }) => structured.full_text.clone(),
            Some(ContentItem::System { content, .. }) => content.clone(),
            Some(ContentItem::ToolCall { name, .. }) => format!("call {name}"),
            Some(ContentItem::ToolResult { .. }) => "result".to_owned(),
            Some(ContentItem::Thinking { .. }) => "thinking".to_owned(),
            _ => "other".to_owned(),
        })
        .collect()
}

async fn current_texts(b: &Backend, conv: ConversationId) -> Vec<String> {
    texts(&b.service.current_thread(conv).await.unwrap().messages)
}

/// The texts of the thread that is not current, after switching to it.
/// The current thread's origin and the texts of the thread it derives from, which with the
/// current thread make `threads` threads in all (a compaction adds the whole history).
async fn other_thread_texts(
    b: &Backend,
    conv: ConversationId,
    threads: usize,
) -> (ThreadOrigin, Vec<String>) {
    let history = b.service.history(conv).await.unwrap();
    assert_eq!(history.len(), threads);
    let current = history.iter().find(|h| h.is_current).unwrap();
    let other = current.thread.original_thread_id.unwrap();
    (
        current.thread.origin.clone(),
        thread_texts(b, conv, other).await,
    )
}

/// The texts of `thread`, read by switching to it and back.
async fn thread_texts(b: &Backend, conv: ConversationId, thread: ThreadId) -> Vec<String> {
    let current = b.service.current_thread_header(conv).await.unwrap().1.id;
    b.service.switch_thread(conv, thread).await.unwrap();
    let view = b.service.current_thread(conv).await.unwrap();
    b.service.switch_thread(conv, current).await.unwrap();
    texts(&view.messages)
}

async fn broken_and_missing_chains(b: &Backend) {
    let summary = import(b, "claude-code-broken-chain.jsonl").await;
    let conv = &summary.conversations[0];
    assert_eq!(
        conv.display_name,
        "Duplicate temperature output in weather today"
    );
    let shown = current_texts(b, conv.conversation_id).await;
    assert_eq!(shown.len(), 5);
    assert!(shown[0].starts_with("Why does `weather today`"));
    assert_eq!(shown[1], "thinking");
    assert_eq!(shown[2], "result");
    assert!(shown[3].starts_with("`render.rs` prints it"));
    assert!(summary
        .warnings
        .iter()
        .any(|w| w.contains("not in this file")));

    let summary = import(b, "claude-code-null-parents.jsonl").await;
    let shown = current_texts(b, summary.conversations[0].conversation_id).await;
    assert_eq!(shown.len(), 11);
    assert_eq!(shown[10], "Thanks, that's all.");
    assert!(summary.warnings.iter().any(|w| w.contains("no parentUuid")));
}

#[tokio::test]
async fn broken_and_missing_parent_chains_are_read_in_file_order() {
    on_every_backend!(broken_and_missing_chains);
}

async fn compaction_and_rewind(b: &Backend) {
    let summary = import(b, "claude-code-compaction-preserved.jsonl").await;
    assert!(summary.warnings.is_empty(), "{:?}", summary.warnings);
    let conv = summary.conversations[0].conversation_id;
    assert_eq!(summary.conversations[0].counts.messages, 10);
    let shown = current_texts(b, conv).await;
    assert_eq!(shown.len(), 8);
    assert!(shown[0].starts_with("Conversation compacted"));
    assert_eq!(shown[2], "Use ~/.cache/weather-cli for it.");
    assert_eq!(
        shown[7],
        "Entries older than an hour are now ignored and rewritten."
    );
    let (origin, before) = other_thread_texts(b, conv, 3).await;
    assert_eq!(
        origin,
        ThreadOrigin::SourceBranch {
            branch: BranchKind::Compaction
        }
    );
    assert_eq!(before.len(), 6);
    assert_eq!(before[0], "Add caching to the forecast fetcher.");
    // The whole history, stored as a thread of its own: every message once, no summary.
    let history = b.service.history(conv).await.unwrap();
    let whole = history
        .iter()
        .find(|h| {
            h.thread.origin
                == ThreadOrigin::SourceBranch {
                    branch: BranchKind::WholeHistory,
                }
        })
        .expect("the whole history");
    assert!(!whole.is_current);
    let whole = thread_texts(b, conv, whole.thread.id).await;
    assert_eq!(whole.len(), 8);
    assert_eq!(whole[0], "Add caching to the forecast fetcher.");
    assert_eq!(whole[2], "Use ~/.cache/weather-cli for it.");
    assert_eq!(
        whole[7],
        "Entries older than an hour are now ignored and rewritten."
    );
    assert!(
        !whole.iter().any(|t| t.starts_with("Conversation compacted")
            || t.starts_with("This session is being continued"))
    );

    let summary = import(b, "claude-code-rewind.jsonl").await;
    let conv = summary.conversations[0].conversation_id;
    let shown = current_texts(b, conv).await;
    assert_eq!(
        shown[2],
        "Keep ureq, but add a timeout. Check both call sites."
    );
    assert_eq!(shown.len(), 7);
    let (origin, abandoned) = other_thread_texts(b, conv, 2).await;
    assert_eq!(
        origin,
        ThreadOrigin::SourceBranch {
            branch: BranchKind::Rewind
        }
    );
    assert_eq!(abandoned[2], "Switch it to reqwest with tokio.");
    assert_eq!(abandoned.len(), 4);

    // Idempotent: the same sources again write nothing.
    for name in [
        "claude-code-compaction-preserved.jsonl",
        "claude-code-rewind.jsonl",
    ] {
        let again = import(b, name).await;
        assert_already_imported(&again, name);
    }
}

#[tokio::test]
async fn compactions_and_rewinds_become_threads() {
    on_every_backend!(compaction_and_rewind);
}

async fn sidechains_and_line_types(b: &Backend) {
    let summary = import(b, "claude-code-sidechain-pieces.jsonl").await;
    assert_eq!(summary.conversations.len(), 2);
    let side = &summary.conversations[1];
    assert!(side.sidechain);
    assert_eq!(side.counts.messages, 6);
    assert!(side.display_name.ends_with("sub-agent: Find date parsing"));

    let summary = import(b, "claude-code-line-types.jsonl").await;
    let conv = &summary.conversations[0];
    assert_eq!(conv.display_name, "Release 0.4.0");
    let view = b
        .service
        .current_thread(conv.conversation_id)
        .await
        .unwrap();
    let warnings: Vec<&str> = view
        .messages
        .iter()
        .flat_map(|m| &m.content)
        .filter_map(|i| match i {
            ContentItem::System {
                level: SystemLevel::Warning,
                content,
                ..
            } => Some(content.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("lint-prompt: command not found"));
    assert!(warnings[1].contains("Diff in src/main.rs at line 3"));
    assert!(texts(&view.messages).contains(&"also update CHANGELOG".to_owned()));
    let report = &summary.file_reports[0].records;
    assert_eq!(
        (report.messages, report.metadata, report.skipped),
        (7, 9, 0)
    );
}

#[tokio::test]
async fn sub_agent_pieces_join_and_every_line_type_is_kept() {
    on_every_backend!(sidechains_and_line_types);
}

#[test]
fn every_shape_fixture_is_in_the_data_folder() {
    for name in SHAPES {
        assert!(data(name).is_file(), "{name}");
    }
}
