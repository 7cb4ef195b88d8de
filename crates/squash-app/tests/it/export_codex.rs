//! Codex rollouts exported from the store, on every backend: imported, exported and imported
//! again they give the same messages; a squashed thread exports as a rollout whose calls and
//! outputs are paired and whose squash is user text.

use squash_testkit::fixtures::session_data as data;
use squash_testkit::on_every_backend;
use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;
use squash_app::import::{ImportStatus, ImportSummary};
use squash_app::{ExportFormat, ExportOptions, ManualSquashRequest, PartnerPolicy};
use squash_core::{ContentItem, ConversationId, Message};
use squash_testkit::Backend;

async fn import(b: &Backend, path: &Path) -> ImportSummary {
    b.import(path, "/tmp/export-codex").await
}

/// The thread as a Codex rollout of a new session.
async fn export(b: &Backend, conv: ConversationId) -> (String, squash_app::ExportReport) {
    let options = ExportOptions {
        session_id: Some(uuid::Uuid::now_v7().to_string()),
        cwd: Some("/work/demo".into()),
        ..ExportOptions::new(ExportFormat::Codex)
    };
    let mut out = Vec::new();
    let report = b.service.export(conv, &options, &mut out).await.unwrap();
    (String::from_utf8(out).unwrap(), report)
}

/// Writes the rollout of `session` where Codex would keep it and imports it.
async fn import_text(b: &Backend, session: &str, text: &str) -> Vec<Message> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir
        .path()
        .join(format!("rollout-2026-01-02T03-04-05-{session}.jsonl"));
    std::fs::write(&file, text).unwrap();
    let summary = import(b, &file).await;
    assert_eq!(summary.conversations.len(), 1);
    assert_eq!(summary.conversations[0].status, ImportStatus::Imported);
    let conv = summary.conversations[0].conversation_id;
    b.service.current_thread(conv).await.unwrap().messages
}

fn items(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["type"] == "response_item")
        .map(|l| l["payload"].clone())
        .collect()
}

/// Every output right after its call's run, once, of the call's kind; every call answered.
fn assert_paired(items: &[Value]) {
    let mut open: HashMap<String, String> = HashMap::new();
    for item in items {
        let kind = item["type"].as_str().unwrap_or("");
        let id = item["call_id"].as_str().unwrap_or("").to_owned();
        match kind {
            "function_call" | "custom_tool_call" => {
                open.insert(id, kind.to_owned());
            }
            k if k.ends_with("_output") => {
                let call = open.remove(&id).unwrap_or_else(|| panic!("{id}: no call"));
                assert_eq!(k, format!("{call}_output"));
            }
            "message" if item["role"] != "assistant" => {
                assert!(open.is_empty(), "unanswered before a message: {open:?}")
            }
            _ => {}
        }
    }
    assert!(open.is_empty(), "unanswered: {open:?}");
}

async fn round_trip(b: &Backend) {
    for name in [
        "codex-exit-code.jsonl",
        "codex-event-msg-prompts.jsonl",
        "codex-compacted.jsonl",
        "codex-legacy.jsonl",
    ] {
        let first = import(b, &data(name)).await;
        let conv = first.conversations[0].conversation_id;
        let messages = b.service.current_thread(conv).await.unwrap().messages;
        let (text, report) = export(b, conv).await;
        assert!(report.warnings.is_empty(), "{name}: {:?}", report.warnings);
        assert_eq!(report.lines, text.lines().count());
        let session = report.session_id.expect("the session id");
        let meta: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(meta["payload"]["id"], session.as_str());
        assert_paired(&items(&text));
        let again = import_text(b, &session, &text).await;
        let outline = |ms: &[Message]| -> Vec<_> {
            ms.iter()
                .map(|m| (m.role, m.content.clone(), m.created_at))
                .collect()
        };
        assert_eq!(outline(&again), outline(&messages), "{name}");
    }
}

#[tokio::test]
async fn codex_import_export_import_gives_the_same_messages() {
    on_every_backend!(round_trip);
}

const SQUASHED: &str = "Ran the failing command; it exited 1 because the file is missing.";

async fn squashed_export(b: &Backend) {
    let first = import(b, &data("codex-exit-code.jsonl")).await;
    let conv = first.conversations[0].conversation_id;
    let messages = b.service.current_thread(conv).await.unwrap().messages;
    let call = messages
        .iter()
        .position(|m| !m.tool_refs().calls.is_empty())
        .expect("a call");
    let outcome = b
        .service
        .squash_manual(
            conv,
            ManualSquashRequest {
                messages: vec![messages[call].id, messages[call + 1].id],
                text: Some(SQUASHED.into()),
                policy: PartnerPolicy::Include,
                ..ManualSquashRequest::default()
            },
        )
        .await
        .unwrap();
    let squashed = b.service.current_thread(conv).await.unwrap().messages;
    let (text, report) = export(b, conv).await;
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let got = items(&text);
    assert_paired(&got);
    let squash = got
        .iter()
        .find(|i| i["content"][0]["text"] == SQUASHED)
        .expect("the squash result");
    assert_eq!(
        (&squash["type"], &squash["role"]),
        (&"message".into(), &"user".into())
    );
    // The squashed-away calls are gone from the rollout.
    let gone: Vec<String> = outcome
        .sources
        .iter()
        .filter_map(|id| messages.iter().find(|m| m.id == *id))
        .flat_map(|m| &m.content)
        .filter_map(|i| match i {
            ContentItem::ToolCall { id, .. } => Some(id.clone()),
            _ => None,
        })
        .collect();
    assert!(!gone.is_empty());
    for id in &gone {
        assert!(!text.contains(id.as_str()), "{id} is still in the rollout");
    }
    let session = report.session_id.expect("the session id");
    let back = import_text(b, &session, &text).await;
    assert_eq!(back.len(), squashed.len());
    assert_eq!(outcome.sources.len() + back.len() - 1, messages.len());
}

#[tokio::test]
async fn a_squashed_codex_thread_exports_paired() {
    on_every_backend!(squashed_export);
}
