use std::collections::HashMap;

use chrono::Utc;
use serde_json::{json, Value};
use squash_core::{render, ContentItem, Role};

use super::*;
use crate::detect::{detect_bytes, inspect, Found};
use crate::test_support::{assert_on_threads, read_export, session_bytes};

fn fixture() -> Vec<u8> {
    session_bytes("claude-ai-conversations.json")
}

#[test]
fn an_export_reads_with_its_branches_tools_and_attachments() {
    let data = fixture();
    assert_eq!(detect_bytes(&data), Some(SourceFormat::ClaudeAi));
    let parsed = EXPORT
        .read(&data[..], "conversations.json", Utc::now(), &mut |_| {})
        .unwrap();
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    assert_eq!(parsed.records.lines, 8, "the chat messages are the records");
    assert_eq!(parsed.records.skipped, 0);
    // The conversation without messages is reported, not made.
    assert_eq!(parsed.conversations.len(), 2);
    assert!(parsed.warnings.iter().any(|w| w.contains("no message")));
    let conv = &parsed.conversations[0];
    assert_eq!(conv.display_name, "Parse a CSV in Rust");
    assert_eq!(conv.threads.len(), 2, "an edit makes a second branch");
    let by_id: HashMap<_, _> = conv.messages.iter().map(|m| (m.id, m)).collect();
    let current = conv
        .threads
        .iter()
        .find(|t| t.id == conv.current_thread_id)
        .unwrap();
    let roles: Vec<Role> = current.links.iter().map(|id| by_id[id].role).collect();
    // The question with its attachment; thinking, text and the artifact call; its result; the
    // text after it; the newest branch.
    assert_eq!(
        roles,
        [
            Role::User,
            Role::Assistant,
            Role::User,
            Role::Assistant,
            Role::User,
            Role::Assistant
        ]
    );
    let text: Vec<String> = current
        .links
        .iter()
        .map(|id| render::message_text(by_id[id]))
        .collect();
    assert!(text[0].contains("apple,1.20"), "{text:?}");
    assert!(text.last().unwrap().contains("has_headers(false)"));
    let first = by_id[&current.links[1]];
    assert!(matches!(first.content[0], ContentItem::Thinking { .. }));
    let call = first.content.iter().find_map(|i| match i {
        ContentItem::ToolCall { id, name, .. } => Some((id.clone(), name.clone())),
        _ => None,
    });
    let (call_id, name) = call.expect("the artifact call");
    assert_eq!(name, "artifacts");
    let result = &by_id[&current.links[2]].content[0];
    assert!(
        matches!(result, ContentItem::ToolResult { tool_use_id, .. } if *tool_use_id == call_id)
    );
    // The older shape: text only.
    assert_eq!(parsed.conversations[1].messages.len(), 2);
}

#[test]
fn one_conversation_object_reads_too() {
    let data = fixture();
    let list: Vec<Value> = serde_json::from_slice(&data).unwrap();
    let one = serde_json::to_vec(&list[0]).unwrap();
    assert_eq!(inspect(&one), Found::Format(SourceFormat::ClaudeAi));
    let parsed = EXPORT
        .read(&one[..], "one.json", Utc::now(), &mut |_| {})
        .unwrap();
    assert_eq!(parsed.conversations.len(), 1);
    assert!(parsed.records.balanced());
}

#[test]
fn near_misses_are_refused_or_skipped() {
    assert_ne!(
        detect_bytes(br#"[{"uuid": "x", "messages": []}]"#),
        Some(SourceFormat::ClaudeAi)
    );
    let parsed = EXPORT.parse_value(
        "x",
        json!([{"uuid": "x", "chat_messages": [1, {"sender": "human"}]}]),
        Utc::now(),
    );
    assert!(parsed.conversations.is_empty());
    assert_eq!(parsed.records.skipped, 2);
    assert!(parsed.records.balanced());
}

/// Found by the fuzzer (`fuzz/fuzz_targets/claude_ai.rs`): a uuid given twice, next to a
/// message whose parent is not in the file, left the second message on no thread.
#[test]
fn a_repeated_uuid_is_a_message_of_its_own_on_a_thread() {
    let data = json!([{ "chat_messages": [
        { "text": "How do I parse it?", "parent_message_uuid": "m1" },
        { "uuid": "m3", "text": "Use the csv crate.", "sender": "assistant" },
        { "uuid": "m3", "text": "And with headers." }
    ]}]);
    let parsed = read_export(&EXPORT, &data, "dup.json");
    let conv = &parsed.conversations[0];
    assert_eq!(conv.messages.len(), 3);
    assert_on_threads(conv);
    assert!(parsed
        .warnings
        .iter()
        .any(|w| w.contains("repeats the uuid")));
}

/// Found by the fuzzer too: two messages whose parents point at each other are reached from no
/// root; they make a branch of their own.
#[test]
fn messages_whose_parents_loop_are_a_branch_of_their_own() {
    let data = json!([{ "chat_messages": [
        { "uuid": "m1", "text": "How do I parse it?" },
        { "uuid": "m3", "text": "And with headers?", "parent_message_uuid": "m4" },
        { "uuid": "m4", "text": "Headers are read by default.", "parent_message_uuid": "m3",
          "sender": "assistant" }
    ]}]);
    let parsed = read_export(&EXPORT, &data, "loop.json");
    let conv = &parsed.conversations[0];
    assert_eq!(conv.messages.len(), 3);
    assert_on_threads(conv);
    assert!(conv.threads.iter().any(|t| t.id == conv.current_thread_id));
}
