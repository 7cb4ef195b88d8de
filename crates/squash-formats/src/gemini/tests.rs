use std::collections::HashMap;

use chrono::Utc;
use serde_json::{json, Value};
use squash_core::{ContentItem, Message, Role, ThreadOrigin};

use super::*;
use crate::detect::{detect_bytes, inspect, Found};
use crate::session::Session;
use crate::test_support::{content_kinds, session_text};
use crate::SourceFormat;

fn fixture() -> String {
    session_text("gemini-cli-0.61-probe.jsonl")
}

/// What the real CLI (0.61) wrote for a shell call and a failed read: every line accounted
/// for, the repeated turn records folded, the results on the calls, the duplicate result
/// records kept as metadata.
#[test]
fn the_real_recording_reads_whole() {
    let text = fixture();
    assert_eq!(detect_bytes(text.as_bytes()), Some(SourceFormat::Gemini));
    let parsed = parse_str("probe.jsonl", &text, "h", Utc::now()).unwrap();
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    assert_eq!(parsed.records.lines, text.lines().count());
    assert_eq!(parsed.records.skipped, 0, "{:?}", parsed.skipped);
    let conv = &parsed.conversations[0];
    assert_eq!(
        conv.source_key,
        "gemini:0908d049-573b-41da-9e22-6a7ce0c7e78f"
    );
    assert_eq!(
        conv.display_name,
        "Write the probe file, then read it back."
    );
    assert_eq!(
        content_kinds(&conv.messages),
        [
            (Role::System, "system"),
            (Role::User, "user"),
            (Role::Assistant, "thinking"),
            (Role::Assistant, "text"),
            (Role::Assistant, "call"),
            (Role::User, "result"),
            (Role::Assistant, "call"),
            (Role::User, "result"),
            (Role::Assistant, "text"),
        ]
    );
    let results: Vec<(&str, bool)> = conv
        .messages
        .iter()
        .flat_map(|m| &m.content)
        .filter_map(|i| match i {
            ContentItem::ToolResult {
                result, is_error, ..
            } => Some((
                match &result[0] {
                    squash_core::ToolResultData::Text { text } => text.as_str(),
                    _ => "",
                },
                *is_error,
            )),
            _ => None,
        })
        .collect();
    assert!(results[0].0.contains("gemini-probe-42"), "{results:?}");
    assert!(!results[0].1);
    assert!(results[1].0.contains("file_path"), "{results:?}");
    assert!(results[1].1, "the failed read is an error");
    assert_eq!(conv.threads.len(), 1);
}

/// A rewind leaves the branch it cut as a thread the current one derives from; a `$set` of
/// messages (a compression) does the same, and the whole history is a thread too.
#[test]
fn rewinds_and_compressions_keep_what_they_dropped() {
    let lines = [
        json!({"sessionId": "s-1", "projectHash": "p", "startTime": "2026-01-01T00:00:00Z", "kind": "main"}),
        json!({"id": "u1", "timestamp": "2026-01-01T00:00:01Z", "type": "user", "content": [{"text": "first"}]}),
        json!({"id": "g1", "timestamp": "2026-01-01T00:00:02Z", "type": "gemini", "content": "one"}),
        json!({"id": "u2", "timestamp": "2026-01-01T00:00:03Z", "type": "user", "content": [{"text": "second"}]}),
        json!({"$rewindTo": "u2"}),
        json!({"id": "u3", "timestamp": "2026-01-01T00:00:04Z", "type": "user", "content": [{"text": "instead"}]}),
        json!({"$set": {"messages": [
            {"id": "c1", "timestamp": "2026-01-01T00:00:05Z", "type": "user", "content": [{"text": "summary of it all"}]}
        ], "lastUpdated": "2026-01-01T00:00:05Z"}}),
        json!({"id": "g2", "timestamp": "2026-01-01T00:00:06Z", "type": "gemini", "content": "after"}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let parsed = parse_str("r.jsonl", &text, "h", Utc::now()).unwrap();
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    assert_eq!(parsed.records.lines, lines.len());
    let conv = &parsed.conversations[0];
    assert!(!conv.appendable);
    let by_id: HashMap<_, _> = conv.messages.iter().map(|m| (m.id, m)).collect();
    let texts = |t: &squash_core::ImportThread| -> Vec<String> {
        t.links
            .iter()
            .map(|id| squash_core::render::message_text(by_id[id]))
            .collect()
    };
    assert_eq!(conv.threads.len(), 4);
    assert_eq!(texts(&conv.threads[0]), ["first", "one", "second"]);
    assert_eq!(texts(&conv.threads[1]), ["first", "one", "instead"]);
    assert_eq!(texts(&conv.threads[2]), ["summary of it all", "after"]);
    assert_eq!(conv.current_thread_id, conv.threads[2].id);
    assert_eq!(conv.threads[2].original_thread_id, Some(conv.threads[1].id));
    assert!(matches!(
        conv.threads[1].origin,
        ThreadOrigin::SourceBranch {
            branch: squash_core::BranchKind::Rewind
        }
    ));
    // The whole history: the path to where the session is, without the compression's summary
    // (and without what the rewind dropped).
    assert_eq!(
        texts(&conv.threads[3]),
        ["first", "one", "instead", "after"]
    );
    assert_eq!(conv.threads[3].original_thread_id, Some(conv.threads[2].id));
    assert!(matches!(
        conv.threads[3].origin,
        ThreadOrigin::SourceBranch {
            branch: squash_core::BranchKind::WholeHistory
        }
    ));
}

/// The older recording is one JSON document (results only on the calls).
#[test]
fn the_older_document_reads_too() {
    let doc = json!({
        "sessionId": "f86f5318-f47b-4433-85f8-ec9d9a417f8e",
        "projectHash": "79b6fa86",
        "startTime": "2025-10-18T14:57:28.974Z",
        "lastUpdated": "2025-10-18T14:58:07.161Z",
        "messages": [
            {"id": "a", "timestamp": "2025-10-18T14:57:28.974Z", "type": "user",
             "content": "List the files in the current directory"},
            {"id": "b", "timestamp": "2025-10-18T14:57:31.000Z", "type": "gemini", "content": "",
             "thoughts": [{"subject": "Listing", "description": "I will list them.", "timestamp": "2025-10-18T14:57:30.000Z"}],
             "tokens": {"input": 10, "output": 5, "total": 15}, "model": "gemini-2.5-pro",
             "toolCalls": [{"id": "list_directory-1", "name": "list_directory", "args": {"path": "."},
                 "result": [{"functionResponse": {"id": "list_directory-1", "name": "list_directory",
                     "response": {"output": "a.txt\nb.txt"}}}], "status": "success"}]},
            {"id": "c", "timestamp": "2025-10-18T14:58:07.161Z", "type": "gemini", "content": "Two files."},
            {"id": "d", "timestamp": "2025-10-18T14:58:08.000Z", "type": "info", "content": "Session saved."}
        ]
    });
    let text = serde_json::to_string_pretty(&doc).unwrap();
    assert_eq!(
        inspect(text.as_bytes()),
        Found::Format(SourceFormat::Gemini)
    );
    let parsed = parse_str("old.json", &text, "h", Utc::now()).unwrap();
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    assert_eq!(parsed.records.lines, 4);
    let conv = &parsed.conversations[0];
    assert_eq!(
        content_kinds(&conv.messages),
        [
            (Role::User, "user"),
            (Role::Assistant, "thinking"),
            (Role::Assistant, "call"),
            (Role::User, "result"),
            (Role::Assistant, "text"),
            (Role::System, "system"),
        ]
    );
}

/// Written back, a recording reads as the same messages; the calls carry their results and the
/// header names the session and the project's hash.
#[test]
fn a_written_recording_reads_back() {
    let parsed = parse_str("probe.jsonl", &fixture(), "h", Utc::now()).unwrap();
    let conv = &parsed.conversations[0];
    let mut out = Vec::new();
    let written = write(
        &Session {
            session_id: "11111111-2222-4333-8444-555555555555",
            cwd: "/work/project",
            created_at: Utc::now(),
            messages: &conv.messages,
            operations: &HashMap::new(),
        },
        &mut out,
    )
    .unwrap();
    assert!(written.warnings.is_empty(), "{:?}", written.warnings);
    let text = String::from_utf8(out).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["projectHash"], json!(project_hash("/work/project")));
    let again = parse_str("again.jsonl", &text, "h2", Utc::now()).unwrap();
    assert!(again.records.balanced(), "{:?}", again.records);
    let back = &again.conversations[0];
    assert_eq!(content_kinds(&back.messages), content_kinds(&conv.messages));
    let content = |ms: &[Message]| ms.iter().map(|m| m.content.clone()).collect::<Vec<_>>();
    assert_eq!(content(&back.messages), content(&conv.messages));
}

#[test]
fn near_misses_are_not_recordings() {
    // A header without its project hash is no recording (Claude Code names a sessionId too).
    assert_ne!(
        detect_bytes(br#"{"sessionId":"s","startTime":"t","kind":"main"}"#),
        Some(SourceFormat::Gemini)
    );
    let parsed = parse_str(
        "x.jsonl",
        "{\"sessionId\":\"s\",\"projectHash\":\"p\"}\n{\"kind\":1}\nnot json\n",
        "h",
        Utc::now(),
    )
    .unwrap();
    assert!(parsed.conversations.is_empty());
    assert_eq!(parsed.records.skipped, 2);
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
}
