//! Codex rollouts of every shape (prompts only in events, compaction, legacy, exit codes in the
//! output text) and ChatGPT data exports (branches, tools, attachments, several conversations),
//! through the import service on every backend: exact messages and threads, every record
//! accounted for, re-import idempotent, bad input refused with nothing written.

use squash_testkit::fixtures::{assert_already_imported, import_options, session_data as data};
use squash_testkit::on_every_backend;
use std::sync::Arc;

use squash_app::import::ImportSummary;
use squash_app::{ImportFormat, ImportOptions, NoProgress};
use squash_core::{ContentItem, ConversationId, Message, Role, SourceFormat, ThreadId};
use squash_testkit::Backend;

fn options() -> ImportOptions {
    import_options("/tmp/import-tests")
}

/// Imports a file (format detected) and checks what every import must hold: one file report
/// whose records add up, of the expected format, nothing skipped.
async fn import(b: &Backend, name: &str, format: SourceFormat) -> ImportSummary {
    let summary = b
        .service
        .import_path(&data(name), &options(), Arc::new(NoProgress))
        .await
        .unwrap_or_else(|e| panic!("import of {name} failed: {e}"));
    assert_eq!(summary.file_reports.len(), 1, "{name}");
    let report = &summary.file_reports[0];
    assert_eq!(report.format, format, "{name}");
    assert!(report.records.balanced(), "{name}: {:?}", report.records);
    assert!(summary.skipped.is_empty(), "{name}: {:?}", summary.skipped);
    summary
}

/// Importing the same file again writes nothing.
async fn again_writes_nothing(b: &Backend, name: &str, format: SourceFormat) {
    let before = b.store.stats().await.unwrap();
    let again = import(b, name, format).await;
    assert_already_imported(&again, name);
    assert_eq!(
        b.store.stats().await.unwrap().messages,
        before.messages,
        "{name}"
    );
}

/// Role and the start of the first item of each message.
fn outline(messages: &[Message]) -> Vec<(Role, String)> {
    messages
        .iter()
        .map(|m| {
            let first = match m.content.first() {
                Some(ContentItem::UserMessage { text }) => text.clone(),
                Some(ContentItem::AssistantMessage { structured }) => structured.full_text.clone(),
                Some(ContentItem::System { content, .. }) => content.clone(),
                Some(ContentItem::Thinking { thinking, .. }) => format!("thinking: {thinking}"),
                Some(ContentItem::ToolCall { name, .. }) => format!("call {name}"),
                Some(ContentItem::ToolResult { is_error, .. }) => {
                    format!("result error={is_error}")
                }
                Some(ContentItem::Image { .. }) => "image".to_owned(),
                Some(other) => format!("{other:?}"),
                None => String::new(),
            };
            (m.role, first.chars().take(40).collect())
        })
        .collect()
}

fn u(t: &str) -> (Role, String) {
    (Role::User, t.to_owned())
}

fn a(t: &str) -> (Role, String) {
    (Role::Assistant, t.to_owned())
}

async fn current(b: &Backend, conv: ConversationId) -> Vec<(Role, String)> {
    outline(&b.service.current_thread(conv).await.unwrap().messages)
}

async fn thread(b: &Backend, id: ThreadId) -> Vec<(Role, String)> {
    outline(&b.service.thread_view(id).await.unwrap().messages)
}

async fn no_violations(b: &Backend, summary: &ImportSummary) {
    for c in &summary.conversations {
        let v = squash_testkit::violations(b, c.conversation_id).await;
        assert!(v.is_empty(), "{v:?}");
    }
}

// ---- Codex -----------------------------------------------------------------------------------

async fn codex_event_prompts(b: &Backend) {
    let name = "codex-event-msg-prompts.jsonl";
    let summary = import(b, name, SourceFormat::Codex).await;
    let conv = &summary.conversations[0];
    assert_eq!(
        conv.display_name,
        "List the files in src/ and tell me what each one does"
    );
    assert_eq!(
        current(b, conv.conversation_id).await,
        [
            u("<environment_context>\n  <cwd>/home/dev/n"),
            u("List the files in src/ and tell me what "),
            a("thinking: **Listing the source directory"),
            u("result error=false"),
            a("`main.rs` parses the arguments and `stor"),
            u("Now add a --json flag to the list comman"),
            a("Added `--json` to `list`; it prints the "),
            u("Thanks, that's all"),
            a("You're welcome."),
        ]
    );
    let r = summary.file_reports[0].records;
    assert_eq!((r.lines, r.messages, r.metadata, r.skipped), (16, 10, 6, 0));
    no_violations(b, &summary).await;
    again_writes_nothing(b, name, SourceFormat::Codex).await;
}

#[tokio::test]
async fn codex_prompts_recorded_only_as_events_are_imported_once() {
    on_every_backend!(codex_event_prompts);
}

async fn codex_compacted(b: &Backend) {
    let name = "codex-compacted.jsonl";
    let summary = import(b, name, SourceFormat::Codex).await;
    let conv = summary.conversations[0].conversation_id;
    // Before, after, and the whole history.
    assert_eq!(summary.conversations[0].threads, 3);
    let after = [
        (
            Role::System,
            "Conversation compacted: the model goes o".to_owned(),
        ),
        u("<environment_context>\n  <cwd>/srv/logs-t"),
        u("Summarise the errors in logs/app.log"),
        u("Another language model started to solve "),
        u("Raise the pool timeout to 30 seconds"),
        a("Done: `pool_timeout = 30` in config/db.t"),
    ];
    assert_eq!(current(b, conv).await, after);
    // The history before the compaction is a thread one can switch to; so is the whole history,
    // derived from the current thread.
    let history = b.service.history(conv).await.unwrap();
    assert_eq!(history.len(), 3);
    assert!(history[1].is_current);
    assert!(history[2].thread.origin.is_whole_history());
    assert_eq!(
        history[2].thread.original_thread_id,
        Some(history[1].thread.id)
    );
    let whole = thread(b, history[2].thread.id).await;
    assert_eq!(whole.len(), 8);
    assert_eq!(whole[6], u("Raise the pool timeout to 30 seconds"));
    assert_eq!(
        history[1].thread.original_thread_id,
        Some(history[0].thread.id)
    );
    let before = history[0].thread.id;
    assert_eq!(
        thread(b, before).await,
        [
            (
                Role::System,
                "<permissions instructions>Commands run w".to_owned()
            ),
            u("<environment_context>\n  <cwd>/srv/logs-t"),
            u("Summarise the errors in logs/app.log"),
            a("thinking: **Reading the log**"),
            u("result error=false"),
            a("There are 3 errors, all database timeout"),
        ]
    );
    b.service.switch_thread(conv, before).await.unwrap();
    assert_eq!(current(b, conv).await.len(), 6);
    assert_eq!(current(b, conv).await[3].1, "thinking: **Reading the log**");
    let r = summary.file_reports[0].records;
    assert_eq!((r.lines, r.messages, r.metadata), (20, 10, 10));
    no_violations(b, &summary).await;
    again_writes_nothing(b, name, SourceFormat::Codex).await;
}

#[tokio::test]
async fn codex_compaction_keeps_the_history_before_it_as_a_thread() {
    on_every_backend!(codex_compacted);
}

async fn codex_legacy(b: &Backend) {
    let name = "codex-legacy.jsonl";
    let summary = import(b, name, SourceFormat::Codex).await;
    let conv = &summary.conversations[0];
    assert_eq!(
        conv.source_key,
        "codex:5f0c2a9e-81b4-4c7d-a3e2-0d9b6c1f4e27"
    );
    assert_eq!(conv.display_name, "Add a --verbose flag to greet.py");
    assert_eq!(
        current(b, conv.conversation_id).await,
        [
            u("Add a --verbose flag to greet.py"),
            a("thinking: Finding the argument parser"),
            u("result error=false"),
            a("call shell"),
            u("result error=true"),
            a("I added `--verbose`; `test_quiet` now fa"),
        ]
    );
    assert_eq!((conv.counts.tool_calls, conv.counts.tool_errors), (2, 1));
    no_violations(b, &summary).await;
    again_writes_nothing(b, name, SourceFormat::Codex).await;
}

#[tokio::test]
async fn codex_legacy_rollouts_import_with_their_prompt() {
    on_every_backend!(codex_legacy);
}

async fn codex_exit_codes(b: &Backend) {
    let name = "codex-exit-code.jsonl";
    let summary = import(b, name, SourceFormat::Codex).await;
    let conv = &summary.conversations[0];
    assert_eq!((conv.counts.tool_calls, conv.counts.tool_results), (5, 5));
    assert_eq!(conv.counts.tool_errors, 3);
    let stored = b
        .service
        .current_thread(conv.conversation_id)
        .await
        .unwrap();
    let errors: Vec<(String, bool)> = stored
        .messages
        .iter()
        .flat_map(|m| &m.content)
        .filter_map(|i| match i {
            ContentItem::ToolResult {
                tool_name,
                is_error,
                ..
            } => Some((tool_name.clone(), *is_error)),
            _ => None,
        })
        .collect();
    let e = |n: &str, x: bool| (n.to_owned(), x);
    assert_eq!(
        errors,
        [
            e("exec_command", true),
            e("shell", true),
            e("exec", true),
            e("exec_command", false),
            e("exec_command", false),
        ]
    );
    again_writes_nothing(b, name, SourceFormat::Codex).await;
}

#[tokio::test]
async fn codex_exit_codes_in_the_output_text_are_tool_errors() {
    on_every_backend!(codex_exit_codes);
}

async fn codex_sample_balanced(b: &Backend) {
    // The real rollout of the data folder, read by the same accounting.
    let summary = import(b, "codex-rollout-sample.jsonl", SourceFormat::Codex).await;
    let r = summary.file_reports[0].records;
    assert_eq!((r.lines, r.messages, r.metadata, r.skipped), (11, 3, 8, 0));
}

#[tokio::test]
async fn codex_sample_rollout_accounts_for_every_line() {
    on_every_backend!(codex_sample_balanced);
}

// ---- ChatGPT ---------------------------------------------------------------------------------

async fn chatgpt_export(b: &Backend) {
    let name = "chatgpt-conversations.json";
    let summary = import(b, name, SourceFormat::ChatGpt).await;
    let r = summary.file_reports[0].records;
    assert_eq!((r.lines, r.messages, r.metadata, r.skipped), (22, 18, 4, 0));
    assert_eq!(summary.conversations.len(), 2);
    let trip = &summary.conversations[0];
    assert_eq!(trip.display_name, "Lisbon trip");
    assert_eq!(trip.threads, 3);
    assert_eq!(
        current(b, trip.conversation_id).await,
        [
            u("Plan a 2-day trip to Lisbon"),
            a("Day 1: Belém and the riverside. Day 2: A"),
            u("Add a food tour on day 2"),
            a("call browser"),
            u("result error=false"),
            a("Day 2 now starts with the 11:00 Taste of"),
        ]
    );
    // The regenerated answer and the edited question are threads one can switch to.
    let history = b.service.history(trip.conversation_id).await.unwrap();
    assert!(history[0].is_current);
    assert_eq!(history[0].children.len(), 2);
    assert_eq!(
        thread(b, history[0].children[0]).await,
        [
            u("Plan a 2-day trip to Lisbon"),
            a("Day 1: Alfama and the castle. Day 2: Sin"),
        ]
    );
    let wine = history[0].children[1];
    assert_eq!(
        thread(b, wine).await[2],
        u("Add a wine tasting on day 2 instead")
    );
    b.service
        .switch_thread(trip.conversation_id, wine)
        .await
        .unwrap();
    assert_eq!(current(b, trip.conversation_id).await.len(), 4);

    let chart = &summary.conversations[1];
    assert_eq!(chart.display_name, "Sales chart");
    assert_eq!(chart.threads, 1);
    let c = &chart.counts;
    assert_eq!(
        (
            c.messages,
            c.images,
            c.thinking,
            c.tool_calls,
            c.tool_errors,
            c.unknown
        ),
        (9, 1, 1, 1, 1, 1)
    );
    assert_eq!(
        current(b, chart.conversation_id).await[..3],
        [
            u("image"),
            a("thinking: Reading the chart\nBars per mon"),
            (Role::Assistant, "Thought for 4 seconds".to_owned()),
        ]
    );
    no_violations(b, &summary).await;
    again_writes_nothing(b, name, SourceFormat::ChatGpt).await;
}

#[tokio::test]
async fn chatgpt_exports_import_with_their_branches_as_threads() {
    on_every_backend!(chatgpt_export);
}

async fn chatgpt_bad_input(b: &Backend) {
    let dir = tempfile::tempdir().unwrap();
    let before = b.store.stats().await.unwrap();
    // Cut short in its last conversation: the first one, read already, is not stored either.
    let text = std::fs::read_to_string(data("chatgpt-conversations.json")).unwrap();
    let cut = dir.path().join("conversations.json");
    std::fs::write(&cut, &text[..text.len() - 200]).unwrap();
    let forced = ImportOptions {
        format: ImportFormat::ChatGpt,
        ..options()
    };
    for opts in [options(), forced] {
        let err = b
            .service
            .import_path(&cut, &opts, Arc::new(NoProgress))
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("not a ChatGPT export: EOF while parsing"),
            "{err}"
        );
    }
    assert_eq!(b.store.stats().await.unwrap().messages, before.messages);
}

#[tokio::test]
async fn a_truncated_chatgpt_export_is_refused_with_nothing_written() {
    on_every_backend!(chatgpt_bad_input);
}
