//! Unit tests of the reader on small sessions written inline; the fixture files of each shape
//! are tested in `fixtures.rs`.

use serde_json::{json, Value};
use squash_core::{BranchKind, ContentItem, Role, ThreadOrigin};

use super::{ClaudeCodeParser, META_KEY};
use crate::ImportedConversation;

fn line(uuid: &str, parent: Option<&str>, kind: &str, content: Value, extra: Value) -> String {
    let mut v = json!({
        "uuid": uuid, "parentUuid": parent, "type": kind, "sessionId": "s1",
        "timestamp": "2025-09-03T00:47:19.293Z", "cwd": "/p", "isSidechain": false,
        "message": {"role": kind, "content": content},
    });
    if let (Some(obj), Value::Object(more)) = (v.as_object_mut(), extra) {
        obj.extend(more);
    }
    v.to_string()
}

/// Where each link of a thread points, as positions in the conversation's messages.
fn link_positions(conv: &ImportedConversation, thread: usize) -> Vec<usize> {
    conv.threads[thread]
        .links
        .iter()
        .map(|id| conv.messages.iter().position(|m| m.id == *id).unwrap())
        .collect()
}

/// An assistant line of one text block.
fn answer(uuid: &str, parent: &str, text: &str, extra: Value) -> String {
    line(
        uuid,
        Some(parent),
        "assistant",
        json!([{"type": "text", "text": text}]),
        extra,
    )
}

#[test]
fn the_newest_branch_is_current_and_the_other_a_thread() {
    let text = [
        line("a", None, "user", json!("hello"), json!({})),
        answer(
            "b",
            "a",
            "old answer",
            json!({"timestamp": "2025-09-03T00:47:20Z"}),
        ),
        answer(
            "c",
            "a",
            "new answer",
            json!({"timestamp": "2025-09-03T00:47:30Z"}),
        ),
        "{\"type\":\"summary\",\"summary\":\"Greeting\",\"leafUuid\":\"c\"}".to_owned(),
        "not json".to_owned(),
    ]
    .join("\n");
    let parsed = ClaudeCodeParser::parse_str("s.jsonl", &text, "h");
    assert_eq!(parsed.conversations.len(), 1);
    let conv = &parsed.conversations[0];
    assert_eq!(conv.messages.len(), 3);
    assert_eq!(conv.threads.len(), 2);
    assert_eq!(conv.current_thread_id, conv.threads[1].id);
    assert_eq!(link_positions(conv, 0), [0, 1]);
    assert_eq!(link_positions(conv, 1), [0, 2]);
    assert_eq!(
        conv.threads[1].origin,
        ThreadOrigin::SourceBranch {
            branch: BranchKind::Rewind
        }
    );
    assert_eq!(conv.display_name, "Greeting");
    assert_eq!(conv.source_key, "claude-code:s1");
    let extras = &conv.metadata.as_ref().unwrap()[META_KEY]["extras"];
    assert_eq!(extras.as_array().unwrap().len(), 1, "{extras}");
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    assert_eq!(parsed.skipped.len(), 1);
    assert_eq!(parsed.skipped[0].line, Some(5));
}

#[test]
fn compaction_keeps_history_and_marks_the_boundary() {
    let boundary = json!({"type": "system", "subtype": "compact_boundary", "uuid": "c",
            "parentUuid": null, "logicalParentUuid": "b", "sessionId": "s1",
            "timestamp": "2025-09-03T00:48:00Z", "isSidechain": false,
            "compactMetadata": {"trigger": "auto", "preTokens": 155000}, "content": "Conversation compacted"});
    let text = [
        line("a", None, "user", json!("hello"), json!({})),
        answer("b", "a", "hi", json!({})),
        boundary.to_string(),
        line(
            "d",
            Some("c"),
            "user",
            json!("This session is being continued…"),
            json!({"isCompactSummary": true}),
        ),
    ]
    .join("\n");
    let parsed = ClaudeCodeParser::parse_str("s.jsonl", &text, "h");
    let conv = &parsed.conversations[0];
    assert_eq!(conv.messages.len(), 4);
    assert_eq!(conv.messages[2].role, Role::System);
    match &conv.messages[2].content[0] {
        ContentItem::System { content, .. } => assert!(content.contains("155000"), "{content}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(conv.threads.len(), 2);
    assert_eq!(link_positions(conv, 0), [0, 1]);
    assert_eq!(link_positions(conv, 1), [2, 3]);
    assert_eq!(conv.current_thread_id, conv.threads[1].id);
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
}

#[test]
fn a_slash_command_s_expanded_template_is_not_what_the_person_typed() {
    let text = [
        line(
            "a",
            None,
            "user",
            json!("<command-name>/review</command-name>\n<command-args>PR 2</command-args>"),
            json!({}),
        ),
        line(
            "b",
            Some("a"),
            "user",
            json!([{"type": "text", "text": "# Review Command\n\nRun every reviewer."}]),
            json!({"isMeta": true}),
        ),
        answer("c", "b", "Reviewing PR 2.", json!({})),
    ]
    .join("\n");
    let parsed = ClaudeCodeParser::parse_str("s.jsonl", &text, "h");
    let conv = &parsed.conversations[0];
    let by_agent: Vec<bool> = conv.messages.iter().map(|m| m.written_by_agent()).collect();
    assert_eq!(by_agent, [false, true, false]);
    assert_eq!(
        conv.messages[1].instructions,
        [squash_core::Instruction::Source {
            source: squash_core::InstructionSource::Agent
        }]
    );
    assert_eq!(
        conv.messages[1].role,
        Role::User,
        "the line stays as it was"
    );
}
