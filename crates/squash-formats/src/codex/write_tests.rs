//! The rollout writer: every fixture written back and read again gives the same messages; what
//! a squash or another source changes is paired and reported.

use std::collections::HashMap;

use chrono::{DateTime, FixedOffset, TimeZone, Utc};
use serde_json::{json, Value};
use squash_core::{ContentItem, ConversationId, Message, MessageId, Role};

use super::*;
use crate::session::{Session, Written};
use crate::test_support::session_text;

const FIXTURES: [&str; 5] = [
    "codex-compacted.jsonl",
    "codex-event-msg-prompts.jsonl",
    "codex-exit-code.jsonl",
    "codex-legacy.jsonl",
    "codex-rollout-sample.jsonl",
];

fn read(name: &str, text: &str) -> crate::ImportedConversation {
    let mut parsed = CodexParser::parse_str(name, text, "h");
    assert!(parsed.skipped.is_empty(), "{name}: {:?}", parsed.skipped);
    assert_eq!(parsed.conversations.len(), 1, "{name}");
    parsed.conversations.remove(0)
}

fn fixture(name: &str) -> crate::ImportedConversation {
    read(name, &session_text(name))
}

/// The messages of the conversation's current thread, in order.
fn current(conv: &crate::ImportedConversation) -> Vec<Message> {
    let thread = conv
        .threads
        .iter()
        .find(|t| t.id == conv.current_thread_id)
        .expect("the current thread");
    thread
        .links
        .iter()
        .map(|id| {
            conv.messages
                .iter()
                .find(|m| m.id == *id)
                .cloned()
                .expect("a linked message")
        })
        .collect()
}

fn extras(conv: &crate::ImportedConversation) -> Vec<Value> {
    conv.metadata.as_ref().expect("metadata")[META_KEY]["extras"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

const ID: &str = "0199a0b0-0000-7000-8000-000000000001";

fn export(messages: &[Message], extras: &[Value]) -> (String, Written) {
    let operations = HashMap::new();
    let session = Session {
        session_id: ID,
        cwd: "/work/demo",
        created_at: Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap(),
        messages,
        operations: &operations,
    };
    let mut out = Vec::new();
    let written = write(&session, extras, &mut out).expect("written");
    let text = String::from_utf8(out).expect("UTF-8");
    assert_eq!(written.lines, text.lines().count());
    (text, written)
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The response items, in order.
fn items(text: &str) -> Vec<Value> {
    lines(text)
        .into_iter()
        .filter(|l| l["type"] == "response_item")
        .map(|l| l["payload"].clone())
        .collect()
}

#[test]
fn every_fixture_written_back_reads_as_the_same_messages() {
    for name in FIXTURES {
        let conv = fixture(name);
        let before = current(&conv);
        let (text, written) = export(&before, &extras(&conv));
        assert!(
            written.warnings.is_empty(),
            "{name}: {:?}",
            written.warnings
        );
        let meta = &lines(&text)[0];
        assert_eq!(meta["type"], "session_meta", "{name}");
        assert_eq!(meta["payload"]["id"], ID);
        assert_eq!(meta["payload"]["cwd"], "/work/demo");
        let again = read("again.jsonl", &text);
        assert_eq!(again.source_key, format!("codex:{ID}"));
        let after = current(&again);
        let outline = |ms: &[Message]| -> Vec<(Role, Vec<ContentItem>, DateTime<Utc>)> {
            ms.iter()
                .map(|m| (m.role, m.content.clone(), m.created_at))
                .collect()
        };
        assert_eq!(outline(&after), outline(&before), "{name}");
    }
}

#[test]
fn unchanged_items_come_back_as_they_were() {
    let conv = fixture("codex-event-msg-prompts.jsonl");
    let original = session_text("codex-event-msg-prompts.jsonl");
    let (text, _) = export(&current(&conv), &extras(&conv));
    let kind = |ls: &[Value], k: &str| -> Vec<Value> {
        ls.iter()
            .filter(|p| p["type"] == k)
            .cloned()
            .collect::<Vec<_>>()
    };
    let was = items(&original);
    let now = items(&text);
    // Reasoning (with its encrypted content) and outputs, byte for byte; calls with the same
    // arguments.
    for k in ["reasoning", "function_call_output"] {
        assert_eq!(kind(&now, k), kind(&was, k), "{k}");
        assert!(!kind(&now, k).is_empty(), "{k}");
    }
    let args = |ls: &[Value]| -> Vec<Value> {
        kind(ls, "function_call")
            .iter()
            .map(|c| serde_json::from_str(c["arguments"].as_str().unwrap()).unwrap())
            .collect()
    };
    assert_eq!(args(&now), args(&was));
    // The turn contexts are back; the events are not.
    let types = |t: &str| -> Vec<String> {
        lines(t)
            .iter()
            .map(|l| l["type"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    let count = |t: &str, k: &str| types(t).iter().filter(|x| *x == k).count();
    assert_eq!(
        count(&text, "turn_context"),
        count(&original, "turn_context")
    );
    assert_eq!(count(&text, "event_msg"), 0);
    // The prompts recorded only as events are user message items now.
    let messages = kind(&now, "message");
    let prompts: Vec<&str> = messages
        .iter()
        .filter(|m| m["role"] == "user")
        .filter_map(|m| m["content"][0]["text"].as_str())
        .collect();
    assert!(prompts.contains(&"Thanks, that's all"), "{prompts:?}");
}

#[test]
fn session_meta_keeps_what_describes_the_session() {
    let conv = fixture("codex-event-msg-prompts.jsonl");
    let original = extras(&conv)[0]["json"]["payload"].clone();
    let (text, _) = export(&current(&conv), &extras(&conv));
    let meta = &lines(&text)[0];
    assert_eq!(meta["timestamp"], "2026-01-02T03:04:05.000Z");
    let p = &meta["payload"];
    for key in ["instructions", "git", "originator", "cli_version"] {
        assert_eq!(p[key], original[key], "{key}");
    }
    assert_eq!(p["timestamp"], meta["timestamp"]);
    // Without an original: the interactive CLI's description.
    let (text, _) = export(&current(&conv), &[]);
    let p = &lines(&text)[0]["payload"];
    assert_eq!(
        (&p["originator"], &p["cli_version"], &p["source"]),
        (
            &json!(FALLBACK_ORIGINATOR),
            &json!(FALLBACK_CLI_VERSION),
            &json!("cli")
        )
    );
    assert!(p.get("instructions").is_none() && p.get("base_instructions").is_none());
}

#[test]
fn an_output_whose_call_was_squashed_away_becomes_text() {
    let conv = fixture("codex-exit-code.jsonl");
    let mut messages = current(&conv);
    let holds_call = |m: &Message| {
        m.content
            .iter()
            .any(|i| matches!(i, ContentItem::ToolCall { .. }))
    };
    let at = messages.iter().position(holds_call).expect("a call");
    let gone = messages.remove(at);
    let ids: Vec<String> = gone
        .content
        .iter()
        .filter_map(|i| match i {
            ContentItem::ToolCall { id, .. } => Some(id.clone()),
            _ => None,
        })
        .collect();
    let (text, written) = export(&messages, &extras(&conv));
    assert_eq!(written.warnings.len(), ids.len(), "{:?}", written.warnings);
    for id in &ids {
        assert!(written.warnings.iter().any(|w| w.contains(id.as_str())));
        let as_text = format!("[result of tool call {id}]");
        assert!(items(&text).iter().any(|i| i["role"] == "user"
            && i["content"][0]["text"]
                .as_str()
                .is_some_and(|t| t.starts_with(&as_text))));
    }
    check_paired(&items(&text));
}

/// Every output follows its call, of the matching kind, once; every call is answered.
fn check_paired(items: &[Value]) {
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
            _ => {}
        }
    }
    assert!(open.is_empty(), "unanswered: {open:?}");
}

fn message(role: Role, content: Vec<ContentItem>) -> Message {
    Message {
        id: MessageId::new(),
        conversation_id: ConversationId::new(),
        squash_operation_id: None,
        reply_to: None,
        role,
        content,
        instructions: Vec::new(),
        metadata: None,
        created_at: Utc.with_ymd_and_hms(2025, 5, 6, 7, 8, 9).unwrap(),
    }
}

#[test]
fn messages_of_another_source_become_fresh_items() {
    let said = ContentItem::text_for;
    let result = |id: &str, text: &str| ContentItem::tool_result(id, "Bash", text, false);
    let messages = [
        message(Role::System, vec![said(Role::System, "Be brief.")]),
        message(Role::User, vec![said(Role::User, "Where is the bug?")]),
        // Gromozeka keeps a call, its result and the answer in one assistant message.
        message(
            Role::Assistant,
            vec![
                ContentItem::Thinking {
                    signature: "sig".into(),
                    thinking: "Let me grep.".into(),
                },
                said(Role::Assistant, "Searching."),
                ContentItem::tool_call("toolu_1", "Bash", json!({"command": "grep -n unwrap src"})),
                result("toolu_1", "src/lib.rs:7: x.unwrap()"),
                said(Role::Assistant, "Line 7."),
            ],
        ),
        // A call that was never answered.
        message(
            Role::Assistant,
            vec![ContentItem::tool_call(
                "toolu_2",
                "Bash",
                json!({"command": "cargo test"}),
            )],
        ),
    ];
    let (text, written) = export(&messages, &[]);
    let got = items(&text);
    let shape: Vec<(String, String)> = got
        .iter()
        .map(|i| {
            (
                i["type"].as_str().unwrap_or("").to_owned(),
                i["role"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let s = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    assert_eq!(
        shape,
        [
            s("message", "developer"),
            s("message", "user"),
            s("message", "assistant"),
            s("function_call", ""),
            s("function_call_output", ""),
            s("message", "assistant"),
            s("function_call", ""),
            s("function_call_output", ""),
        ]
    );
    assert_eq!(got[3]["arguments"], r#"{"command":"grep -n unwrap src"}"#);
    assert_eq!(got[5]["content"][0]["type"], "output_text");
    assert_eq!(
        written.warnings,
        ["tool call toolu_2 has no output at the end of the session; an output saying so was written"]
    );
    assert!(!text.contains("Let me grep."), "thinking is not replayed");
    check_paired(&got);
    // Read again: the same calls and results.
    let again = current(&read("again.jsonl", &text));
    let calls = |ms: &[Message]| -> Vec<ContentItem> {
        ms.iter()
            .flat_map(|m| m.content.clone())
            .filter(|i| matches!(i, ContentItem::ToolCall { .. }))
            .collect()
    };
    assert_eq!(calls(&again), calls(&messages));
}

#[test]
fn the_rollout_path_is_the_clis() {
    let at = FixedOffset::east_opt(2 * 3600)
        .unwrap()
        .with_ymd_and_hms(2026, 3, 4, 5, 6, 7)
        .unwrap();
    let path = rollout_path(std::path::Path::new("/h/.codex"), ID, &at);
    assert_eq!(
        path,
        std::path::Path::new(&format!(
            "/h/.codex/sessions/2026/03/04/rollout-2026-03-04T05-06-07-{ID}.jsonl"
        ))
    );
}
