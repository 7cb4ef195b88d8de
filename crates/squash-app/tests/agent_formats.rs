//! The formats of issue 22 through the import and export services, one story on both backends:
//! Gemini CLI recordings, opencode stores and exports, claude.ai exports and a single ChatGPT
//! conversation object import with every record accounted for and round-trip (import → export
//! → import) with nothing lost; the near misses of each reader are refused, and nothing is
//! written for them.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::Backend;
use serde_json::Value;
use squash_app::import::{ImportError, ImportSummary};
use squash_app::{AppError, Remedy};
use squash_app::{ExportFormat, ExportOptions, ImportFormat, ImportOptions, NoProgress};
use squash_core::{ContentItem, Message};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/sessions")
        .join(name)
}

fn options() -> ImportOptions {
    ImportOptions {
        fallback_project: "/tmp/agent-formats".into(),
        ..ImportOptions::default()
    }
}

async fn import(b: &Backend, path: &Path) -> Result<ImportSummary, ImportError> {
    b.service
        .import_path(path, &options(), Arc::new(NoProgress))
        .await
}

/// The first conversation's current thread, message by message, without ids and times (an
/// export holds one conversation).
async fn content(b: &Backend, summary: &ImportSummary) -> Vec<Vec<ContentItem>> {
    let first = summary.conversations[0].conversation_id;
    let view = b.service.current_thread(first).await.unwrap();
    view.messages
        .iter()
        .map(|m: &Message| m.content.clone())
        .collect()
}

async fn export(b: &Backend, summary: &ImportSummary, format: ExportFormat) -> Vec<u8> {
    let conv = summary.conversations[0].conversation_id;
    let mut out = Vec::new();
    let options = ExportOptions {
        cwd: Some("/work/project".into()),
        ..ExportOptions::new(format)
    };
    b.service.export(conv, &options, &mut out).await.unwrap();
    out
}

fn check_records(summary: &ImportSummary) {
    for f in &summary.file_reports {
        assert!(f.records.balanced(), "{}: {:?}", f.file, f.records);
        assert_eq!(f.records.skipped, 0, "{}: {:?}", f.file, summary.skipped);
    }
    assert!(summary.failed.is_empty(), "{:?}", summary.failed);
}

/// Import, export in `format`, import the export into a fresh store: the same messages.
async fn round_trip(b: &Backend, fresh: &Backend, file: &str, format: ExportFormat) {
    let summary = import(b, &data(file)).await.unwrap();
    check_records(&summary);
    let before = content(b, &summary).await;
    assert!(!before.is_empty(), "{file}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("again.{}", format.extension()));
    std::fs::write(&path, export(b, &summary, format).await).unwrap();
    let again = import(fresh, &path).await.unwrap();
    check_records(&again);
    assert_eq!(content(fresh, &again).await, before, "{file} via {format}");
}

async fn story(b: &Backend, fresh: &Backend) {
    round_trip(
        b,
        fresh,
        "gemini-cli-0.61-probe.jsonl",
        ExportFormat::Gemini,
    )
    .await;
    round_trip(
        b,
        fresh,
        "opencode-1.18-export.json",
        ExportFormat::Opencode,
    )
    .await;
    for file in [
        "gemini-cli-0.61-probe.jsonl",
        "opencode-1.18-export.json",
        "claude-ai-conversations.json",
    ] {
        round_trip(b, fresh, file, ExportFormat::Json).await;
    }

    // One ChatGPT conversation, as one-conversation exporters save it.
    let list: Vec<Value> =
        serde_json::from_slice(&std::fs::read(data("chatgpt-conversations.json")).unwrap())
            .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one-chat.json");
    std::fs::write(&one, serde_json::to_vec(&list[0]).unwrap()).unwrap();
    let summary = import(b, &one).await.unwrap();
    check_records(&summary);
    assert_eq!(
        summary.file_reports[0].format,
        squash_app::import::SourceFormat::ChatGpt
    );
    assert_eq!(summary.conversations.len(), 1);

    near_misses(b, dir.path()).await;
}

/// Files that look like a format but hold nothing of it: refused, nothing written.
async fn near_misses(b: &Backend, dir: &Path) {
    let before = b.service.list_conversations(None).await.unwrap().len();
    let cases: [(&str, &str, &str); 7] = [
        // The shapes the issue names: taken for OpenAI-style chats before.
        (
            "kind.json",
            r#"{"messages": [{"kind": "user"}, {"kind": "bot"}]}"#,
            "none of its 2 record(s) is a message",
        ),
        (
            "gemini-header.jsonl",
            "{\"sessionId\":\"s\",\"projectHash\":\"p\"}\n{\"note\":1}\n",
            "none of its 2 record(s)",
        ),
        (
            "claude-ai.json",
            r#"[{"uuid": "c", "chat_messages": [{"sender": "human"}]}]"#,
            "none of its 1 record(s)",
        ),
        (
            "opencode.json",
            r#"{"info": {"id": "ses_x"}, "messages": [{"info": {"id": "m"}, "parts": [{"type": "text"}]}]}"#,
            "is a message",
        ),
        (
            "unknown.json",
            r#"{"name": "x", "version": 2}"#,
            "cannot tell the format",
        ),
        ("prose.jsonl", "hello\nworld\n", "cannot tell the format"),
        (
            "chatgpt.json",
            r#"{"title": "t", "mapping": {"a": {"id": "a", "message": null, "parent": null}}}"#,
            "none of its",
        ),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let err = import(b, &path).await.expect_err(name);
        let error = err.to_string();
        assert!(error.contains(expected), "{name}: {error}");
        // The way out is the format's name; the CLI words it as `--format takes …`.
        assert!(
            matches!(err.remedies().as_slice(), [Remedy::NameFormat { known }] if known.len() == ImportFormat::ALL.len()),
            "{name}: {error}"
        );
        assert!(!error.contains('\n'), "one line: {error}");
    }
    // Forced formats on files of another.
    let forced = ImportOptions {
        format: ImportFormat::Gemini,
        ..options()
    };
    let error = b
        .service
        .import_path(
            &data("codex-rollout-sample.jsonl"),
            &forced,
            Arc::new(NoProgress),
        )
        .await
        .expect_err("a rollout is no recording")
        .to_string();
    assert!(
        error.contains("expected a Gemini CLI recording, found a Codex rollout"),
        "{error}"
    );
    assert_eq!(
        b.service.list_conversations(None).await.unwrap().len(),
        before,
        "nothing written for a file that is refused"
    );
}

#[tokio::test]
async fn agent_formats_on_sqlite() {
    story(&common::sqlite().await, &common::sqlite().await).await;
}

#[tokio::test]
async fn agent_formats_on_postgres() {
    story(&common::postgres().await, &common::postgres().await).await;
}
