//! Import and export of real sessions, on every backend: counts against figures computed
//! independently from the raw files, idempotency, growth, round trips, and a Gromozeka
//! database built here from the schema and JSON shapes of the spec.

use squash_testkit::fixtures::{
    import_options, new_conversation, session_data as data, GROMOZEKA_SCHEMA,
};
use squash_testkit::on_every_backend;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value};
use squash_app::import::{ImportStatus, ImportSummary};
use squash_app::{
    EditRequest, ExportFormat, ExportOptions, ImportFormat, ImportOptions, ManualSquashRequest,
    NoProgress, PartnerPolicy,
};
use squash_core::{ContentItem, ConversationId, Message, ThreadOrigin};
use squash_testkit::{mixed_content, Backend};

fn options() -> ImportOptions {
    import_options("/tmp/import-tests")
}

async fn import(b: &Backend, path: &Path) -> ImportSummary {
    b.service
        .import_path(path, &options(), Arc::new(NoProgress))
        .await
        .unwrap_or_else(|e| panic!("import of {} failed: {e}", path.display()))
}

// ---- figures computed from the raw files, without the importer ------------------------------

#[derive(Debug, Default, PartialEq, Eq)]
struct Figures {
    messages: usize,
    tool_calls: usize,
    tool_errors: usize,
    sidechains: usize,
}

fn raw_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A Claude Code file: messages are user/assistant/system lines, the consecutive assistant
/// lines of one response (same `message.id`) counting once, per chain (main or sidechain).
fn claude_figures(path: &Path) -> Figures {
    let lines = raw_lines(path);
    let mut f = Figures::default();
    // The previous message line's response id, per chain (the main one and each sidechain,
    // tracked by the root a line descends from).
    let mut root_of: HashMap<String, String> = HashMap::new();
    let mut last_response: HashMap<String, Option<String>> = HashMap::new();
    for line in &lines {
        let kind = line["type"].as_str().unwrap_or("");
        let uuid = line["uuid"].as_str().unwrap_or("").to_owned();
        let side = line["isSidechain"].as_bool().unwrap_or(false);
        let parent = line["parentUuid"].as_str();
        if side && parent.is_none() {
            f.sidechains += 1;
        }
        let chain = if side {
            match parent.and_then(|p| root_of.get(p)) {
                Some(root) => root.clone(),
                None => uuid.clone(),
            }
        } else {
            "main".to_owned()
        };
        root_of.insert(uuid, chain.clone());
        if !matches!(kind, "user" | "assistant" | "system") {
            continue;
        }
        let response = (kind == "assistant")
            .then(|| line["message"]["id"].as_str().map(str::to_owned))
            .flatten();
        let previous = last_response.insert(chain, response.clone());
        if response.is_none() || previous.flatten() != response {
            f.messages += 1;
        }
        if let Some(blocks) = line["message"]["content"].as_array() {
            for b in blocks {
                match b["type"].as_str() {
                    Some("tool_use") => f.tool_calls += 1,
                    Some("tool_result") if b["is_error"].as_bool() == Some(true) => {
                        f.tool_errors += 1
                    }
                    _ => {}
                }
            }
        }
    }
    f
}

fn codex_figures(path: &Path) -> Figures {
    let mut f = Figures::default();
    let mut assistant_open = false;
    for line in raw_lines(path) {
        if line["type"] != "response_item" {
            continue;
        }
        let p = &line["payload"];
        match (p["type"].as_str(), p["role"].as_str()) {
            (Some("message"), Some("assistant")) | (Some("reasoning"), _) => {
                if !assistant_open {
                    f.messages += 1;
                }
                assistant_open = true;
            }
            (Some("function_call"), _) => {
                f.tool_calls += 1;
                if !assistant_open {
                    f.messages += 1;
                }
                assistant_open = true;
            }
            _ => {
                f.messages += 1;
                assistant_open = false;
            }
        }
    }
    f
}

fn openai_figures(path: &Path) -> Figures {
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let history = doc["history"].as_array().unwrap();
    Figures {
        messages: history.len(),
        tool_calls: history
            .iter()
            .map(|m| m["tool_calls"].as_array().map_or(0, Vec::len))
            .sum(),
        tool_errors: 0,
        sidechains: 0,
    }
}

fn imported_figures(summary: &ImportSummary) -> Figures {
    let t = summary.totals();
    Figures {
        messages: t.counts.messages,
        tool_calls: t.counts.tool_calls,
        tool_errors: t.counts.tool_errors,
        sidechains: t.sidechains,
    }
}

/// What the store holds for the conversations a summary names, counted from stored messages.
async fn stored_figures(b: &Backend, summary: &ImportSummary) -> Figures {
    let mut f = Figures::default();
    for c in &summary.conversations {
        let view = b.service.current_thread(c.conversation_id).await.unwrap();
        f.messages += view.messages.len();
        for item in view.messages.iter().flat_map(|m| &m.content) {
            match item {
                ContentItem::ToolCall { .. } => f.tool_calls += 1,
                ContentItem::ToolResult { is_error: true, .. } => f.tool_errors += 1,
                _ => {}
            }
        }
        if c.sidechain {
            f.sidechains += 1;
        }
        assert!(
            squash_testkit::violations(b, c.conversation_id)
                .await
                .is_empty(),
            "{:?}",
            squash_testkit::violations(b, c.conversation_id).await
        );
    }
    f
}

/// Files of the data folder whose shapes tests/it/import_codex_chatgpt.rs checks message by message.
const COVERED_ELSEWHERE: [&str; 5] = [
    "chatgpt-conversations.json",
    "codex-compacted.jsonl",
    "codex-event-msg-prompts.jsonl",
    "codex-exit-code.jsonl",
    "codex-legacy.jsonl",
];
/// Real Codex rollouts and an opencode export with a compaction, read by the fit's evaluation
/// against the agent's own compaction (`examples/fit_eval`); tests/it/import_accounting.rs
/// imports them.
const COVERED_BY_FIT_EVAL: [&str; 11] = [
    "codex-compacted-019d473b",
    "codex-compacted-019d7372",
    "codex-compacted-019d7e8e",
    "codex-compacted-019ed893",
    "codex-compacted-019f1111",
    "codex-compacted-019f1f6f",
    "codex-compacted-019f201a",
    "codex-compacted-019f21d1",
    "codex-compacted-019f53c2",
    "codex-compacted-019f5cfd",
    "opencode-compacted-277daa81",
];
/// Files of the data folder whose readers' tests and tests/it/agent_formats.rs check them (Gemini
/// CLI, opencode, claude.ai), and the dump opencode's store is rebuilt from.
const COVERED_BY_AGENT_FORMATS: [&str; 4] = [
    "claude-ai-conversations.json",
    "gemini-cli-0.61-probe.jsonl",
    "opencode-1.18-export.json",
    "opencode-1.18-store.sql",
];
/// Fixtures written for the shapes of issue 12, not real sessions: `claude-code-<shape>.jsonl`
/// with a shape name instead of a session id.
fn is_claude_shape_fixture(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("claude-code-") else {
        return false;
    };
    !rest.contains("1af7fc5e") && !rest.contains("5c0375b4")
}

async fn real_files(b: &Backend) {
    let cases: [(&str, Figures); 4] = [
        (
            "claude-code-linear-1af7fc5e.jsonl",
            claude_figures(&data("claude-code-linear-1af7fc5e.jsonl")),
        ),
        (
            "claude-code-subagents-5c0375b4.jsonl",
            claude_figures(&data("claude-code-subagents-5c0375b4.jsonl")),
        ),
        (
            "codex-rollout-sample.jsonl",
            codex_figures(&data("codex-rollout-sample.jsonl")),
        ),
        (
            "swe-agent-marshmallow-1867.traj",
            openai_figures(&data("swe-agent-marshmallow-1867.traj")),
        ),
    ];
    // Every file of the data folder is covered (a file added there must be added here).
    let mut listed: Vec<String> = std::fs::read_dir(data(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        // The Claude Code shape fixtures are covered by import_claude_shapes.rs.
        .filter(|n| !is_claude_shape_fixture(n))
        .collect();
    listed.sort();
    let mut covered: Vec<String> = cases
        .iter()
        .map(|(n, _)| *n)
        .chain(COVERED_ELSEWHERE)
        .chain(COVERED_BY_AGENT_FORMATS)
        .chain(COVERED_BY_FIT_EVAL)
        .map(str::to_owned)
        .collect();
    covered.sort();
    assert_eq!(
        listed, covered,
        "files under testdata/sessions vs this test"
    );
    // The publishers' own figures (SOURCES.md), as a check on the independent counting.
    assert_eq!((cases[0].1.tool_calls, cases[0].1.tool_errors), (12, 1));
    assert_eq!((cases[1].1.tool_calls, cases[1].1.tool_errors), (21, 3));
    assert_eq!(cases[1].1.sidechains, 2);
    assert_eq!(cases[3].1.messages, 24);
    for (name, expected) in cases {
        let summary = import(b, &data(name)).await;
        assert!(summary.skipped.is_empty(), "{name}: {:?}", summary.skipped);
        assert_eq!(imported_figures(&summary), expected, "{name}: summary");
        assert_eq!(
            stored_figures(b, &summary).await,
            expected,
            "{name}: stored"
        );
        eprintln!("{name}: {expected:?}");

        // Idempotent: the same source again writes nothing.
        let stats = b.store.stats().await.unwrap();
        let again = import(b, &data(name)).await;
        assert!(again
            .conversations
            .iter()
            .all(|c| c.status == ImportStatus::AlreadyImported));
        assert_eq!(b.store.stats().await.unwrap().messages, stats.messages);
    }
    // Projects come from the sessions' working directories.
    let projects: Vec<String> = b
        .service
        .projects()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.path)
        .collect();
    assert!(
        projects.contains(&"/path/to/Demo".to_owned()),
        "{projects:?}"
    );
    assert!(projects.contains(&"/Users/macmini/Code/homelab-migration".to_owned()));
}

#[tokio::test]
async fn real_files_import_with_the_right_counts() {
    on_every_backend!(real_files);
}

// ---- structure of the Claude Code import -----------------------------------------------------

async fn claude_structure(b: &Backend) {
    let summary = import(b, &data("claude-code-subagents-5c0375b4.jsonl")).await;
    let main = &summary.conversations[0];
    assert!(!main.sidechain);
    assert_eq!(
        main.source_key,
        "claude-code:5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
    );
    let view = b
        .service
        .current_thread(main.conversation_id)
        .await
        .unwrap();
    // Tool results follow their calls; no sub-agent line is interleaved.
    let mut calls = std::collections::HashSet::new();
    for m in &view.messages {
        let refs = m.tool_refs();
        for r in &refs.results {
            assert!(calls.contains(r), "result {r} before its call");
        }
        calls.extend(refs.calls);
        let line = &m.metadata.as_ref().unwrap()["claude_code"]["lines"][0]["json"];
        assert_eq!(line["isSidechain"], false);
    }
    // The sub-agents are their own conversations, linked to the Task calls that started them.
    let sides: Vec<_> = summary
        .conversations
        .iter()
        .filter(|c| c.sidechain)
        .collect();
    assert_eq!(sides.len(), 2);
    for side in sides {
        assert!(
            side.display_name.contains("sub-agent"),
            "{}",
            side.display_name
        );
        let records = b
            .store
            .import_records_of(side.conversation_id)
            .await
            .unwrap();
        let link = &records[0].source.metadata.as_ref().unwrap()["claude_code"]["sidechain"];
        assert!(link["parent_tool_use_id"].as_str().is_some(), "{link}");
    }
}

#[tokio::test]
async fn claude_code_sidechains_are_their_own_conversations() {
    on_every_backend!(claude_structure);
}

// ---- malformed lines, growth -----------------------------------------------------------------

async fn malformed_and_growth(b: &Backend) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("session.jsonl");
    let text = std::fs::read_to_string(data("claude-code-linear-1af7fc5e.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();

    // The first 12 lines and a broken one.
    let mut head = lines[..12].join("\n");
    head.push_str("\n{\"type\": \"user\", broken\n");
    std::fs::write(&file, &head).unwrap();
    let first = import(b, &file).await;
    assert_eq!(first.skipped.len(), 1);
    assert_eq!(first.skipped[0].line, Some(13));
    assert!(first.skipped[0].reason.contains("invalid JSON"));
    let conv = first.conversations[0].conversation_id;
    let before = b.service.current_thread(conv).await.unwrap().messages;

    // Meanwhile the person squashes two messages here.
    let squash = b
        .service
        .squash_manual(
            conv,
            ManualSquashRequest {
                messages: vec![before[0].id, before[1].id],
                ..ManualSquashRequest::default()
            },
        )
        .await
        .unwrap();

    // The session grew: its new messages are appended to the current (squashed) thread.
    std::fs::write(&file, format!("{head}{}\n", lines[12..].join("\n"))).unwrap();
    let grown = import(b, &file).await;
    let full = claude_figures(&data("claude-code-linear-1af7fc5e.jsonl"));
    match &grown.conversations[0].status {
        ImportStatus::Appended { messages } => {
            assert_eq!(*messages, full.messages - before.len())
        }
        other => panic!("expected an append, got {other:?}"),
    }
    assert_eq!(grown.conversations[0].conversation_id, conv);
    let now = b.service.current_thread(conv).await.unwrap();
    assert_eq!(now.thread.id, squash.thread.id, "appended in place");
    assert_eq!(now.messages.len(), full.messages - 1);
    assert!(squash_testkit::violations(b, conv).await.is_empty());

    // A source that changed in another way is imported again as a new conversation.
    std::fs::write(&file, lines[..5].join("\n").replace("analyze", "analyse")).unwrap();
    let changed = import(b, &file).await;
    assert!(matches!(
        changed.conversations[0].status,
        ImportStatus::Reimported { previous } if previous == conv
    ));
}

#[tokio::test]
async fn malformed_lines_are_skipped_and_grown_sessions_appended() {
    on_every_backend!(malformed_and_growth);
}

// ---- Claude Code round trip ------------------------------------------------------------------

fn same_messages(a: &[Message], b: &[Message]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_eq!((x.role, &x.content), (y.role, &y.content));
        assert_eq!(x.created_at, y.created_at);
    }
}

async fn export_to(b: &Backend, conv: ConversationId, options: &ExportOptions) -> Vec<u8> {
    let mut out = Vec::new();
    b.service.export(conv, options, &mut out).await.unwrap();
    out
}

/// Every line has what `claude --resume` needs; parents chain; each result follows its call.
fn check_resumable(text: &str, session: &str) {
    let mut previous: Option<String> = None;
    let mut calls = std::collections::HashSet::new();
    let mut uuids = std::collections::HashSet::new();
    squash_testkit::assert_api_pairing(&squash_testkit::claude_api_messages(text));
    let chain: std::collections::HashSet<String> = squash_testkit::claude_chain(text)
        .iter()
        .filter_map(|l| l["uuid"].as_str().map(str::to_owned))
        .collect();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        // No dangling parents: every parent is a line written before.
        for key in ["parentUuid", "logicalParentUuid"] {
            if let Some(parent) = v[key].as_str() {
                assert!(
                    uuids.contains(parent),
                    "{key} {parent} is not in the file: {line}"
                );
            }
        }
        if let Some(uuid) = v["uuid"].as_str() {
            uuids.insert(uuid.to_owned());
        }
        let on_chain = v["uuid"].as_str().is_some_and(|u| chain.contains(u));
        if !matches!(v["type"].as_str(), Some("user" | "assistant")) || !on_chain {
            continue;
        }
        for key in [
            "uuid",
            "parentUuid",
            "sessionId",
            "type",
            "cwd",
            "version",
            "timestamp",
            "message",
        ] {
            assert!(v.get(key).is_some(), "{key} missing in {line}");
        }
        assert_eq!(v["sessionId"], session);
        assert_eq!(v["parentUuid"].as_str().map(str::to_owned), previous);
        previous = v["uuid"].as_str().map(str::to_owned);
        for block in v["message"]["content"].as_array().into_iter().flatten() {
            match block["type"].as_str() {
                Some("tool_use") => {
                    calls.insert(block["id"].as_str().unwrap().to_owned());
                }
                Some("tool_result") => {
                    assert!(calls.contains(block["tool_use_id"].as_str().unwrap()))
                }
                _ => {}
            }
        }
    }
}

async fn claude_round_trip(b: &Backend) {
    for name in [
        "claude-code-linear-1af7fc5e.jsonl",
        "claude-code-subagents-5c0375b4.jsonl",
    ] {
        let original = std::fs::read_to_string(data(name)).unwrap();
        let first = import(b, &data(name)).await;
        let conv = first.conversations[0].conversation_id;
        let messages = b.service.current_thread(conv).await.unwrap().messages;
        let out = export_to(b, conv, &ExportOptions::new(ExportFormat::ClaudeCode)).await;
        let text = String::from_utf8(out).unwrap();
        let session = serde_json::from_str::<Value>(text.lines().next().unwrap()).unwrap()
            ["sessionId"]
            .as_str()
            .unwrap()
            .to_owned();
        check_resumable(&text, &session);
        // Unchanged lines come back as they were, but for the session id.
        let main_lines: Vec<Value> = original
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|v| v["isSidechain"] == false)
            .collect();
        let exported: Vec<Value> = text
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                v["sessionId"] = main_lines[0]["sessionId"].clone();
                v
            })
            .collect();
        assert_eq!(exported, main_lines, "{name}: lines differ");

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(format!("{session}.jsonl"));
        std::fs::write(&file, &text).unwrap();
        let second = import(b, &file).await;
        assert_eq!(second.conversations.len(), 1);
        assert_eq!(second.conversations[0].status, ImportStatus::Imported);
        let again = b
            .service
            .current_thread(second.conversations[0].conversation_id)
            .await
            .unwrap()
            .messages;
        same_messages(&messages, &again);
    }
}

#[tokio::test]
async fn claude_code_import_export_import_gives_the_same_messages() {
    on_every_backend!(claude_round_trip);
}

async fn squashed_claude_export(b: &Backend) {
    let first = import(b, &data("claude-code-linear-1af7fc5e.jsonl")).await;
    let conv = first.conversations[0].conversation_id;
    let messages = b.service.current_thread(conv).await.unwrap().messages;
    // Squash a tool-call run: the partner results come along, so no pair is split.
    let call = messages
        .iter()
        .position(|m| !m.tool_refs().calls.is_empty())
        .unwrap();
    let outcome = b
        .service
        .squash_manual(
            conv,
            ManualSquashRequest {
                messages: vec![messages[call].id, messages[call + 3].id],
                text: Some("Looked around the project and listed the files.".into()),
                policy: PartnerPolicy::Include,
                ..ManualSquashRequest::default()
            },
        )
        .await
        .unwrap();
    let squashed = b.service.current_thread(conv).await.unwrap().messages;
    let options = ExportOptions {
        session_id: Some("11111111-2222-4333-8444-555555555555".into()),
        cwd: Some("/work/demo".into()),
        ..ExportOptions::new(ExportFormat::ClaudeCode)
    };
    let text = String::from_utf8(export_to(b, conv, &options).await).unwrap();
    check_resumable(&text, "11111111-2222-4333-8444-555555555555");
    let squash_line = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["message"]["content"] == "Looked around the project and listed the files.")
        .expect("the squash result is a user text line");
    assert_eq!(squash_line["type"], "user");
    assert_eq!(squash_line["cwd"], "/work/demo");

    let dir = tempfile::tempdir().unwrap();
    let file = dir
        .path()
        .join("11111111-2222-4333-8444-555555555555.jsonl");
    std::fs::write(&file, &text).unwrap();
    let again = import(b, &file).await;
    let back = b
        .service
        .current_thread(again.conversations[0].conversation_id)
        .await
        .unwrap()
        .messages;
    assert_eq!(back.len(), squashed.len());
    assert_eq!(outcome.sources.len() + back.len() - 1, messages.len());

    // The Markdown transcript marks the squash with its provenance.
    let md =
        String::from_utf8(export_to(b, conv, &ExportOptions::new(ExportFormat::Markdown)).await)
            .unwrap();
    assert!(
        md.contains(&format!(
            "Squashed from {} messages** — manual",
            outcome.sources.len()
        )),
        "{md}"
    );
    assert!(
        md.contains("**Tool error `Bash`**") || md.contains("**Tool error"),
        "{md}"
    );
}

#[tokio::test]
async fn squashed_sessions_export_as_resumable_claude_code() {
    on_every_backend!(squashed_claude_export);
}

/// A session with an abandoned branch (an earlier answer hanging from the tool result): after
/// the call and its result are squashed, no line may point at them.
fn claude_with_branch(path: &Path) {
    let line = |uuid: &str, parent: Option<&str>, at: &str, kind: &str, message: Value| {
        json!({"parentUuid": parent, "isSidechain": false, "userType": "external",
               "cwd": "/work/branchy", "sessionId": "0f0f0f0f-1111-4222-8333-444444444444",
               "version": "2.1.197", "gitBranch": "", "type": kind, "uuid": uuid,
               "timestamp": at, "message": message})
        .to_string()
    };
    let assistant = |id: &str, content: Value| {
        json!({"id": id, "type": "message", "role": "assistant", "model": "claude-x",
               "content": content, "stop_reason": null, "stop_sequence": null,
               "usage": {"input_tokens": 1, "output_tokens": 1}})
    };
    let lines = [
        line(
            "u1",
            None,
            "2026-01-01T10:00:00.000Z",
            "user",
            json!({"role": "user", "content": "Fix the failing test"}),
        ),
        line(
            "a1",
            Some("u1"),
            "2026-01-01T10:00:01.000Z",
            "assistant",
            assistant(
                "msg_1",
                json!([{"type": "tool_use", "id": "toolu_a", "name": "Bash",
                                         "input": {"command": "cargo test"}}]),
            ),
        ),
        line(
            "r1",
            Some("a1"),
            "2026-01-01T10:00:02.000Z",
            "user",
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a",
                                                  "content": "1 failed", "is_error": true}]}),
        ),
        line(
            "x1",
            Some("r1"),
            "2026-01-01T10:00:03.000Z",
            "assistant",
            assistant(
                "msg_x",
                json!([{"type": "text", "text": "An answer that was rewound."}]),
            ),
        ),
        line(
            "a2",
            Some("r1"),
            "2026-01-01T10:00:04.000Z",
            "assistant",
            assistant(
                "msg_2",
                json!([{"type": "text", "text": "Fixed the assertion."}]),
            ),
        ),
    ];
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

async fn squash_leaves_no_dangling_parent(b: &Backend) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir
        .path()
        .join("0f0f0f0f-1111-4222-8333-444444444444.jsonl");
    claude_with_branch(&path);
    let first = import(b, &path).await;
    let conv = first.conversations[0].conversation_id;
    let messages = b.service.current_thread(conv).await.unwrap().messages;
    let call = messages
        .iter()
        .position(|m| !m.tool_refs().calls.is_empty())
        .expect("the call");
    b.service
        .squash_manual(
            conv,
            ManualSquashRequest {
                messages: vec![messages[call].id, messages[call + 1].id],
                text: Some("Ran cargo test: 1 failed.".into()),
                policy: PartnerPolicy::Include,
                ..ManualSquashRequest::default()
            },
        )
        .await
        .unwrap();
    let options = ExportOptions {
        session_id: Some("22222222-3333-4444-8555-666666666666".into()),
        ..ExportOptions::new(ExportFormat::ClaudeCode)
    };
    let text = String::from_utf8(export_to(b, conv, &options).await).unwrap();
    check_resumable(&text, "22222222-3333-4444-8555-666666666666");
    for gone in ["\"a1\"", "\"r1\"", "toolu_a"] {
        assert!(
            !text.contains(gone),
            "{gone} is still in the export:\n{text}"
        );
    }
    assert!(text.contains("Ran cargo test: 1 failed."));
}

#[tokio::test]
async fn squashed_claude_exports_have_no_dangling_parents() {
    on_every_backend!(squash_leaves_no_dangling_parent);
}

// ---- our JSON: lossless ----------------------------------------------------------------------

async fn json_round_trip(b: &Backend) {
    let s = &b.service;
    let conv = new_conversation(s, "/tmp/json-project", "Several threads").await;
    let mut ids = Vec::new();
    for n in 0..12 {
        let (role, content) = mixed_content(n);
        ids.push(s.append(conv.id, role, content).await.unwrap().0.id);
    }
    s.squash_manual(
        conv.id,
        ManualSquashRequest {
            messages: vec![ids[0], ids[1]],
            ..ManualSquashRequest::default()
        },
    )
    .await
    .unwrap();
    s.edit(
        conv.id,
        EditRequest {
            message: ids[9],
            content: vec![ContentItem::UserMessage {
                text: "edited".into(),
            }],
        },
    )
    .await
    .unwrap();
    s.undo(conv.id).await.unwrap();
    s.delete(conv.id, &[ids[4]], PartnerPolicy::Include)
        .await
        .unwrap();
    let original = snapshot(b, conv.id).await;
    assert!(original.threads.len() >= 4 && original.operations.len() == 2);

    let out = export_to(b, conv.id, &ExportOptions::new(ExportFormat::Json)).await;

    // Into a fresh store: the very same conversation, ids and all.
    let fresh = b.fresh().await;
    let summary = fresh
        .service
        .import_bytes("export.json", out.clone(), &options())
        .await
        .unwrap();
    assert_eq!(summary.conversations[0].conversation_id, conv.id);
    let copy = snapshot(&fresh, conv.id).await;
    assert_eq!(copy, original);
    assert_eq!(
        fresh
            .service
            .project(
                fresh
                    .service
                    .conversation(conv.id)
                    .await
                    .unwrap()
                    .project_id
            )
            .await
            .unwrap()
            .path,
        "/tmp/json-project"
    );
    fresh.cleanup().await;

    // Into the same store: a copy under new ids, same structure; a second time: nothing.
    let summary = s
        .import_bytes("export.json", out.clone(), &options())
        .await
        .unwrap();
    let copy_id = summary.conversations[0].conversation_id;
    assert_ne!(copy_id, conv.id);
    let copy = snapshot(b, copy_id).await;
    assert_eq!(copy.threads.len(), original.threads.len());
    assert_eq!(copy.operations.len(), original.operations.len());
    assert_eq!(copy.current.len(), original.current.len());
    for (x, y) in copy.current.iter().zip(&original.current) {
        assert_eq!((x.role, &x.content), (y.role, &y.content));
    }
    assert!(squash_testkit::violations(b, copy_id).await.is_empty());
    let again = s
        .import_bytes("export.json", out, &options())
        .await
        .unwrap();
    assert_eq!(again.conversations[0].status, ImportStatus::AlreadyImported);
}

#[derive(Debug, PartialEq)]
struct Snapshot {
    conversation: (String, chrono::DateTime<chrono::Utc>, squash_core::ThreadId),
    threads: Vec<(squash_core::Thread, Vec<squash_core::MessageId>)>,
    messages: Vec<Message>,
    operations: Vec<squash_core::SquashOperation>,
    current: Vec<Message>,
}

async fn snapshot(b: &Backend, conv: ConversationId) -> Snapshot {
    let c = b.store.conversation(conv).await.unwrap();
    let mut threads = Vec::new();
    for t in b.store.threads(conv).await.unwrap() {
        let snap = b.store.thread(t.id).await.unwrap();
        threads.push((snap.thread, snap.links));
    }
    Snapshot {
        conversation: (c.display_name, c.created_at, c.current_thread_id),
        threads,
        messages: b.store.all_messages(conv).await.unwrap(),
        operations: b.store.operations(conv).await.unwrap(),
        current: b.service.current_thread(conv).await.unwrap().messages,
    }
}

#[tokio::test]
async fn json_export_import_is_lossless() {
    on_every_backend!(json_round_trip);
}

// ---- Gromozeka -------------------------------------------------------------------------------

const OLD: &str = "com.gromozeka.shared.domain.Conversation.Message.ContentItem";
const NEW: &str = "com.gromozeka.domain.model.Conversation.Message.ContentItem";

fn gromozeka_message(id: &str, role: &str, created: &str, content: Value, extra: Value) -> String {
    let mut doc = json!({
        "id": id, "conversationId": "conv-1", "role": role, "content": content, "createdAt": created,
    });
    if let (Some(d), Value::Object(e)) = (doc.as_object_mut(), extra) {
        d.extend(e);
    }
    doc.to_string()
}

/// A Gromozeka database as the app left it: a manual squash stored the old way (originalIds),
/// an edit the same way, an AI squash with its squash_operations row, a delete, tool calls, and
/// `created_at` columns as integers and as local-time text.
fn build_gromozeka(path: &Path) {
    let db = rusqlite::Connection::open(path).unwrap();
    db.execute_batch(GROMOZEKA_SCHEMA).unwrap();
    db.execute(
        "INSERT INTO projects VALUES ('p1', '/home/dev/gromozeka-project', 'demo', 1762097000000)",
        [],
    )
    .unwrap();
    db.execute(
        "INSERT INTO conversations VALUES ('conv-1', 'p1', 'Fix the build', 't4', 'CLAUDE_CODE', 'sonnet', \
         1762097521123, '2025-11-02 16:00:00.5')",
        [],
    )
    .unwrap();
    let messages = [
        gromozeka_message(
            "m1",
            "USER",
            "2025-11-02T15:32:01Z",
            json!([{"type": "Message", "text": "The build fails with E0308"}]),
            json!({"instructions": [{"type": "user"}]}),
        ),
        gromozeka_message(
            "m2",
            "ASSISTANT",
            "2025-11-02T15:32:02.5Z",
            json!([{"type": "IntermediateMessage", "structured": {"fullText": "Let me run it."}},
                   {"type": format!("{OLD}.ToolCall"), "id": "toolu_1", "call": {"name": "Bash", "input": {"command": "cargo build"}}}]),
            json!({}),
        ),
        gromozeka_message(
            "m3",
            "USER",
            "2025-11-02T15:32:03.123456789Z",
            json!([{"type": format!("{OLD}.ToolResult"), "toolUseId": "toolu_1", "toolName": "Bash",
                    "result": [{"type": format!("{OLD}.ToolResult.Data.Text"), "content": "error[E0308]"}], "isError": true}]),
            json!({}),
        ),
        gromozeka_message(
            "m4",
            "ASSISTANT",
            "2025-11-02T15:32:04.100Z",
            json!([{"type": format!("{NEW}.Thinking"), "signature": "sig", "thinking": "a type mismatch"},
                   {"type": "IntermediateMessage", "structured": {"fullText": "Fixed the type in main.rs."}}]),
            json!({}),
        ),
        // A manual squash of m2 + m3, stored the old way.
        gromozeka_message(
            "m5",
            "USER",
            "2025-11-02T15:40:00Z",
            json!([{"type": "Message", "text": "[assistant] Let me run it. [tool error] error[E0308]"}]),
            json!({"originalIds": ["m2", "m3"]}),
        ),
        // An edit of m1, the old way.
        gromozeka_message(
            "m6",
            "USER",
            "2025-11-02T15:41:00Z",
            json!([{"type": "Message", "text": "The build fails with E0308 in main.rs"}]),
            json!({"originalIds": ["m1"]}),
        ),
        // An AI squash of m6 + m5, recorded in squash_operations.
        gromozeka_message(
            "m7",
            "USER",
            "2025-11-02T15:50:00Z",
            json!([{"type": "Message", "text": "Build failed with E0308 (type mismatch) in main.rs."}]),
            json!({"squashOperationId": "op-1"}),
        ),
    ];
    let created = [
        rusqlite::types::Value::Integer(1762097521000),
        rusqlite::types::Value::Text("2025-11-02 15:32:02.500".into()),
        rusqlite::types::Value::Integer(1762097523123),
        rusqlite::types::Value::Text("2025-11-02 15:32:04".into()),
        rusqlite::types::Value::Integer(1762098000000),
        rusqlite::types::Value::Integer(1762098060000),
        rusqlite::types::Value::Text("2025-11-02 15:50:00.000".into()),
    ];
    for (i, (doc, at)) in messages.iter().zip(created).enumerate() {
        db.execute(
            "INSERT INTO messages VALUES (?1, 'conv-1', ?2, ?3)",
            rusqlite::params![format!("m{}", i + 1), doc, at],
        )
        .unwrap();
    }
    let threads: [(&str, Option<&str>, &[&str], &str); 5] = [
        ("t1", None, &["m1", "m2", "m3", "m4"], "2025-11-02 15:32:01"),
        ("t2", Some("t1"), &["m1", "m5", "m4"], "2025-11-02 15:40:00"),
        ("t3", Some("t2"), &["m6", "m5", "m4"], "2025-11-02 15:41:00"),
        ("t4", Some("t3"), &["m7", "m4"], "2025-11-02 15:50:00.250"),
        ("t5", Some("t3"), &["m6", "m5"], "2025-11-02 15:51:00"),
    ];
    for (id, original, links, at) in threads {
        db.execute(
            "INSERT INTO threads VALUES (?1, 'conv-1', ?2, ?3, ?3)",
            rusqlite::params![id, original, at],
        )
        .unwrap();
        for (pos, m) in links.iter().enumerate() {
            db.execute(
                "INSERT INTO thread_messages VALUES (?1, ?2, ?3)",
                rusqlite::params![id, m, pos as i64],
            )
            .unwrap();
        }
    }
    db.execute(
        "INSERT INTO squash_operations VALUES ('op-1', 'conv-1', '[\"m5\",\"m6\"]', 'm7', \
         '<task>Compress…</task>', 'sonnet', 1, '2025-11-02 15:50:00')",
        [],
    )
    .unwrap();
    // A second conversation with a message the parser cannot read.
    db.execute(
        "INSERT INTO conversations VALUES ('conv-2', 'p1', '', 'u1', NULL, NULL, 1762097521123, 1762097521123)",
        [],
    )
    .unwrap();
    db.execute(
        "INSERT INTO threads VALUES ('u1', 'conv-2', NULL, 1762097521123, 1762097521123)",
        [],
    )
    .unwrap();
    db.execute(
        "INSERT INTO messages VALUES ('x1', 'conv-2', ?1, 1762097521123)",
        [gromozeka_message(
            "x1",
            "USER",
            "2025-11-02T15:32:01Z",
            json!([{"type": "Message", "text": "hello"}]),
            json!({}),
        )],
    )
    .unwrap();
    db.execute(
        "INSERT INTO messages VALUES ('x2', 'conv-2', '{not json', 1762097521124)",
        [],
    )
    .unwrap();
    db.execute(
        "INSERT INTO thread_messages VALUES ('u1', 'x1', 0), ('u1', 'x2', 1)",
        [],
    )
    .unwrap();
}

async fn gromozeka(b: &Backend) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gromozeka.db");
    build_gromozeka(&path);
    let summary = b
        .service
        .import_path(&path, &options(), Arc::new(NoProgress))
        .await
        .unwrap();
    assert_eq!(summary.conversations.len(), 2, "{}", summary.text());
    assert_eq!(summary.warnings.len(), 1, "{:?}", summary.warnings);
    let report = &summary.conversations[0];
    assert_eq!(report.display_name, "Fix the build");
    assert_eq!(report.backfilled_operations, 2);
    let conv = report.conversation_id;
    assert!(
        squash_testkit::violations(b, conv).await.is_empty(),
        "{:?}",
        squash_testkit::violations(b, conv).await
    );

    let c = b.service.conversation(conv).await.unwrap();
    assert_eq!(
        b.service.project(c.project_id).await.unwrap().path,
        "/home/dev/gromozeka-project"
    );
    assert_eq!(c.created_at.timestamp_millis(), 1762097521123);
    let by_source: HashMap<String, Message> = b
        .store
        .all_messages(conv)
        .await
        .unwrap()
        .into_iter()
        .map(|m| (squash_app::import::source_id(&m).unwrap().to_owned(), m))
        .collect();
    let id = |g: &str| by_source[g].id;
    assert_eq!(
        by_source["m3"].created_at.timestamp_nanos_opt(),
        Some(1_762_097_523_123_456_000),
        "nine fraction digits kept to the microsecond"
    );

    // Thread history preserved, with what made each thread.
    let threads = b.store.threads(conv).await.unwrap();
    assert_eq!(threads.len(), 5);
    let origins: Vec<&str> = threads.iter().map(|t| t.origin.label()).collect();
    assert_eq!(origins, ["initial", "squash", "edit", "squash", "delete"]);
    assert_eq!(
        threads[4].origin,
        ThreadOrigin::Delete {
            message_ids: vec![id("m4")]
        }
    );
    assert_eq!(c.current_thread_id, threads[3].id);
    let expected_local = chrono::TimeZone::from_local_datetime(
        &chrono::Local,
        &chrono::NaiveDateTime::parse_from_str("2025-11-02 15:50:00.250", "%Y-%m-%d %H:%M:%S%.f")
            .unwrap(),
    )
    .earliest()
    .unwrap();
    assert_eq!(
        threads[3].created_at,
        expected_local.with_timezone(&chrono::Utc)
    );
    let current = b.service.current_thread(conv).await.unwrap();
    assert_eq!(
        current.messages.iter().map(|m| m.id).collect::<Vec<_>>(),
        [id("m7"), id("m4")]
    );

    // Backfilled provenance and the kept operation.
    let ops = b.store.operations(conv).await.unwrap();
    assert_eq!(ops.len(), 3);
    let op_of = |g: &str| {
        ops.iter()
            .find(|o| o.result_message_id == id(g))
            .unwrap_or_else(|| panic!("no operation for {g}"))
    };
    let squash = op_of("m5");
    assert_eq!(squash.source_message_ids, [id("m2"), id("m3")]);
    assert!(
        !squash.kind.performed_by_agent()
            && squash.kind.prompt().is_none()
            && squash.kind.model().is_none()
    );
    assert_eq!(squash.base_thread_id, Some(threads[0].id));
    assert_eq!(squash.result_thread_id, Some(threads[1].id));
    let edit = op_of("m6");
    assert!(edit.is_edit());
    assert_eq!(edit.source_message_ids, [id("m1")]);
    let ai = op_of("m7");
    assert!(ai.kind.performed_by_agent());
    assert_eq!(ai.kind.model(), Some("sonnet"));
    assert_eq!(
        ai.source_message_ids,
        [id("m6"), id("m5")],
        "in thread order"
    );
    for g in ["m5", "m6", "m7"] {
        assert_eq!(by_source[g].squash_operation_id, Some(op_of(g).id));
    }
    assert_eq!(
        threads[1].origin,
        ThreadOrigin::Squash {
            operation_id: squash.id
        }
    );

    // Content converted item by item.
    match &by_source["m3"].content[0] {
        ContentItem::ToolResult {
            tool_use_id,
            is_error,
            tool_name,
            ..
        } => {
            assert_eq!(
                (tool_use_id.as_str(), *is_error, tool_name.as_str()),
                ("toolu_1", true, "Bash")
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        by_source["m4"].content[0],
        ContentItem::Thinking { .. }
    ));
    assert_eq!(by_source["m1"].instructions.len(), 1);

    // The unreadable message is kept as unknown content; the conversation is whole.
    let second = &summary.conversations[1];
    let view = b
        .service
        .current_thread(second.conversation_id)
        .await
        .unwrap();
    assert_eq!(view.messages.len(), 2);
    assert!(matches!(
        view.messages[1].content[0],
        ContentItem::UnknownJson { .. }
    ));
    assert_eq!(second.display_name, "hello");

    // Again: nothing new.
    let again = b
        .service
        .import_path(&path, &options(), Arc::new(NoProgress))
        .await
        .unwrap();
    assert!(again
        .conversations
        .iter()
        .all(|c| c.status == ImportStatus::AlreadyImported));

    // And its JSON export imports back losslessly elsewhere.
    let out = export_to(b, conv, &ExportOptions::new(ExportFormat::Json)).await;
    let original = snapshot(b, conv).await;
    let fresh = b.fresh().await;
    let opts = ImportOptions {
        format: ImportFormat::Squash,
        ..options()
    };
    fresh
        .service
        .import_bytes("g.json", out, &opts)
        .await
        .unwrap();
    assert_eq!(snapshot(&fresh, conv).await, original);
    fresh.cleanup().await;
}

/// A Gromozeka conversation as the app stores tool use: the assistant message holds the call
/// and its result.
fn build_gromozeka_tools(path: &Path) {
    let db = rusqlite::Connection::open(path).unwrap();
    db.execute_batch(GROMOZEKA_SCHEMA).unwrap();
    db.execute_batch(
        "INSERT INTO projects VALUES ('p1', '/home/dev/tools', 'tools', 1762097000000);
         INSERT INTO conversations VALUES ('conv-t', 'p1', 'Find the bug', 't1', 'CLAUDE_CODE',
             'sonnet', 1762097521000, 1762097529000);
         INSERT INTO threads VALUES ('t1', 'conv-t', NULL, 1762097521000, 1762097529000);",
    )
    .unwrap();
    let call = |id: &str, name: &str, input: Value| json!({"type": format!("{NEW}.ToolCall"), "id": id, "call": {"name": name, "input": input}});
    let result = |id: &str, name: &str, text: &str, error: bool| {
        json!({"type": format!("{NEW}.ToolResult"), "toolUseId": id, "toolName": name,
               "result": [{"type": format!("{NEW}.ToolResult.Data.Text"), "content": text}],
               "isError": error})
    };
    let messages = [
        gromozeka_message(
            "g1",
            "USER",
            "2025-11-02T15:32:01Z",
            json!([{"type": "Message", "text": "Where is the bug?"}]),
            json!({}),
        ),
        gromozeka_message(
            "g2",
            "ASSISTANT",
            "2025-11-02T15:32:02Z",
            json!([{"type": "IntermediateMessage", "structured": {"fullText": "Searching."}},
                   call("toolu_g1", "Grep", json!({"pattern": "unwrap"})),
                   result("toolu_g1", "Grep", "src/lib.rs:7: x.unwrap()", false)]),
            json!({}),
        ),
        gromozeka_message(
            "g3",
            "ASSISTANT",
            "2025-11-02T15:32:03Z",
            json!([call("toolu_g2", "Bash", json!({"command": "cargo test"})),
                   result("toolu_g2", "Bash", "1 failed", true),
                   {"type": "IntermediateMessage", "structured": {"fullText": "The test fails."}}]),
            json!({}),
        ),
        gromozeka_message(
            "g4",
            "ASSISTANT",
            "2025-11-02T15:32:04Z",
            json!([{"type": "IntermediateMessage", "structured": {"fullText": "The bug is the unwrap in src/lib.rs:7."}}]),
            json!({}),
        ),
    ];
    for (i, doc) in messages.iter().enumerate() {
        db.execute(
            "INSERT INTO messages VALUES (?1, 'conv-t', ?2, ?3)",
            rusqlite::params![
                format!("g{}", i + 1),
                doc,
                1762097521000i64 + i as i64 * 1000
            ],
        )
        .unwrap();
        db.execute(
            "INSERT INTO thread_messages VALUES ('t1', ?1, ?2)",
            rusqlite::params![format!("g{}", i + 1), i as i64],
        )
        .unwrap();
    }
}

async fn gromozeka_tools_export(b: &Backend) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gromozeka.db");
    build_gromozeka_tools(&path);
    let summary = import(b, &path).await;
    let conv = summary.conversations[0].conversation_id;
    let options = ExportOptions {
        session_id: Some("33333333-4444-4555-8666-777777777777".into()),
        ..ExportOptions::new(ExportFormat::ClaudeCode)
    };
    let text = String::from_utf8(export_to(b, conv, &options).await).unwrap();
    check_resumable(&text, "33333333-4444-4555-8666-777777777777");
    // Nothing was turned into text on the way: both results are results, after their calls.
    let api = squash_testkit::claude_api_messages(&text);
    let roles: Vec<&str> = api.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(
        roles,
        [
            "user",
            "assistant",
            "user",
            "assistant",
            "user",
            "assistant"
        ],
        "{text}"
    );
    for (at, id) in [(2, "toolu_g1"), (4, "toolu_g2")] {
        assert_eq!(api[at]["content"][0]["type"], "tool_result", "{text}");
        assert_eq!(api[at]["content"][0]["tool_use_id"], id, "{text}");
    }
    assert_eq!(api[4]["content"][0]["is_error"], true);
    // The text after the failed call keeps its place, after the result.
    assert_eq!(api[5]["content"][0]["text"], "The test fails.", "{text}");
}

#[tokio::test]
async fn gromozeka_tool_use_exports_with_results_in_user_turns() {
    on_every_backend!(gromozeka_tools_export);
}

#[tokio::test]
async fn gromozeka_databases_import_with_history_and_backfilled_provenance() {
    on_every_backend!(gromozeka);
}

/// An export written by main at f59860d, before operation records had kinds (an edit, two
/// manual squashes, an AI squash with instructions, an extract), imports with each record as
/// its kind (`testdata/migration/export-f59860d.json`, written by `squash export --format json`
/// from the migration fixture's story).
async fn export_before_kinds(b: &Backend) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/migration/export-f59860d.json");
    let summary = import(b, &path).await;
    let conversation = summary.conversations[0].conversation_id;
    let ops = b.service.operations(conversation).await.unwrap();
    let mut kinds: Vec<&str> = ops.iter().map(|o| o.kind.tag().as_str()).collect();
    kinds.sort_unstable();
    assert_eq!(kinds, ["ai", "edit", "extract", "manual", "manual"]);
    let ai = ops
        .iter()
        .find_map(|o| match &o.kind {
            squash_core::OperationKind::Ai(ai) => Some(ai),
            _ => None,
        })
        .expect("the engine's whole AI record");
    assert_eq!(ai.provider, squash_core::ProviderKind::OpenAi);
    assert_eq!(
        ai.custom_instructions.as_deref(),
        Some("keep every file position")
    );
}

#[tokio::test]
async fn an_export_before_operation_kinds_imports() {
    on_every_backend!(export_before_kinds);
}
