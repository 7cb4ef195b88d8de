//! The reader on the fixture files of each shape in `testdata/sessions/` (and the real
//! sessions there): the exact messages, threads and warnings, and every line accounted for.

use std::collections::HashMap;

use squash_core::{BranchKind, ContentItem, Message, MessageId, SystemLevel, ThreadOrigin};

use super::{ClaudeCodeParser, META_KEY};
use crate::test_support::session_text;
use crate::{ImportedConversation, Parsed};

fn read(name: &str) -> Parsed {
    let text = session_text(name);
    let parsed = ClaudeCodeParser::parse_str(name, &text, "h");
    assert!(parsed.records.balanced(), "{name}: {:?}", parsed.records);
    assert_eq!(parsed.records.lines, text.lines().count(), "{name}");
    parsed
}

/// One message as `role: item, item`, each item in a few words.
fn shape(m: &Message) -> String {
    let items: Vec<String> = m
        .content
        .iter()
        .map(|i| match i {
            ContentItem::UserMessage { text } => cut(text),
            ContentItem::AssistantMessage { structured } => cut(&structured.full_text),
            ContentItem::ToolCall { name, .. } => format!("call {name}"),
            ContentItem::ToolResult { .. } => "result".to_owned(),
            ContentItem::Thinking { .. } => "thinking".to_owned(),
            ContentItem::System { level, content, .. } => format!("{level:?} {}", cut(content)),
            ContentItem::Image { .. } => "image".to_owned(),
            ContentItem::UnknownJson { .. } => "unknown".to_owned(),
        })
        .collect();
    format!("{:?}: {}", m.role, items.join(", "))
}

fn cut(text: &str) -> String {
    text.chars().take(24).collect()
}

fn thread_shapes(conv: &ImportedConversation, k: usize) -> Vec<String> {
    let by_id: HashMap<MessageId, &Message> = conv.messages.iter().map(|m| (m.id, m)).collect();
    conv.threads[k]
        .links
        .iter()
        .map(|id| shape(by_id[id]))
        .collect()
}

fn current(conv: &ImportedConversation) -> usize {
    conv.threads
        .iter()
        .position(|t| t.id == conv.current_thread_id)
        .unwrap()
}

fn extra_types(conv: &ImportedConversation) -> Vec<String> {
    conv.metadata.as_ref().unwrap()[META_KEY]["extras"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["json"]["type"].as_str().unwrap_or("?").to_owned())
        .collect()
}

#[test]
fn a_broken_chain_is_read_in_file_order_and_said_so() {
    let parsed = read("claude-code-broken-chain.jsonl");
    assert_eq!(parsed.conversations.len(), 1);
    let conv = &parsed.conversations[0];
    assert_eq!(conv.threads.len(), 1);
    assert_eq!(
        thread_shapes(conv, 0),
        [
            "User: Why does `weather today`",
            "Assistant: thinking, call Grep",
            "User: result",
            "Assistant: `render.rs` prints it on",
            "System: Info Turn took 8800 ms",
        ]
    );
    assert_eq!(
        conv.display_name,
        "Duplicate temperature output in weather today"
    );
    assert_eq!(parsed.warnings.len(), 2, "{:?}", parsed.warnings);
    assert!(
        parsed.warnings[0].contains("starts at line 1"),
        "{:?}",
        parsed.warnings
    );
    assert!(
        parsed.warnings[1]
            .contains("2 line(s) name a parent that is not in this file (first: line 3"),
        "{:?}",
        parsed.warnings
    );
    assert_eq!(parsed.records.messages, 6);
    assert_eq!(parsed.records.metadata, 1);
}

#[test]
fn null_parents_are_read_in_file_order_and_said_so() {
    let parsed = read("claude-code-null-parents.jsonl");
    let conv = &parsed.conversations[0];
    assert_eq!(conv.messages.len(), 11);
    assert_eq!(conv.threads.len(), 1);
    let shapes = thread_shapes(conv, 0);
    assert_eq!(shapes[0], "User: List the subcommands.");
    assert_eq!(shapes[1], "Assistant: Done: list the subcomman");
    assert_eq!(shapes[10], "User: Thanks, that's all.");
    assert_eq!(
        parsed.warnings,
        ["claude-code-null-parents.jsonl: the conversation: 10 line(s) have no parentUuid; they \
          are read in file order"]
    );
}

#[test]
fn a_compaction_with_a_preserved_segment_gives_its_history_the_thread_after_and_the_whole() {
    let parsed = read("claude-code-compaction-preserved.jsonl");
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    let conv = &parsed.conversations[0];
    assert_eq!(conv.messages.len(), 10);
    assert_eq!(conv.threads.len(), 3);
    assert_eq!(
        thread_shapes(conv, 0),
        [
            "User: Add caching to the forec",
            "Assistant: I'll add an on-disk cach",
            "User: Use ~/.cache/weather-cli",
            "Assistant: call Edit",
            "User: result",
            "Assistant: The cache now lives in ~",
        ]
    );
    assert_eq!(current(conv), 1);
    assert_eq!(
        thread_shapes(conv, 1),
        [
            "System: Info Conversation compacted (",
            "User: This session is being co",
            "User: Use ~/.cache/weather-cli",
            "Assistant: call Edit",
            "User: result",
            "Assistant: The cache now lives in ~",
            "User: Now expire entries after",
            "Assistant: Entries older than an ho",
        ]
    );
    assert_eq!(conv.threads[1].original_thread_id, Some(conv.threads[0].id));
    assert_eq!(
        conv.threads[1].origin,
        ThreadOrigin::SourceBranch {
            branch: BranchKind::Compaction
        }
    );
    // The whole history: the history (its preserved messages once), then what followed the
    // preserved segment — no boundary, no summary.
    let mut whole = thread_shapes(conv, 0);
    whole.extend(thread_shapes(conv, 1).into_iter().skip(6));
    assert_eq!(thread_shapes(conv, 2), whole);
    assert_eq!(whole.len(), 8);
    assert_eq!(conv.threads[2].original_thread_id, Some(conv.threads[1].id));
    assert_eq!(
        conv.threads[2].origin,
        ThreadOrigin::SourceBranch {
            branch: BranchKind::WholeHistory
        }
    );
    assert!(!conv.appendable);
}

#[test]
fn a_rewind_leaves_a_thread_to_switch_to() {
    let parsed = read("claude-code-rewind.jsonl");
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    let conv = &parsed.conversations[0];
    assert_eq!(conv.threads.len(), 2);
    assert_eq!(
        thread_shapes(conv, 0),
        [
            "User: Which HTTP client does t",
            "Assistant: It uses `ureq` 2.9.",
            "User: Switch it to reqwest wit",
            "Assistant: That makes the whole CLI",
        ]
    );
    assert_eq!(current(conv), 1);
    // The parallel calls of one response are one message, their results follow it: no branch.
    assert_eq!(
        thread_shapes(conv, 1),
        [
            "User: Which HTTP client does t",
            "Assistant: It uses `ureq` 2.9.",
            "User: Keep ureq, but add a tim",
            "Assistant: call Read, call Read",
            "User: result",
            "User: result",
            "Assistant: Both call sites now use ",
        ]
    );
    assert_eq!(
        conv.threads[1].origin,
        ThreadOrigin::SourceBranch {
            branch: BranchKind::Rewind
        }
    );
    assert_eq!(conv.threads[1].original_thread_id, Some(conv.threads[0].id));
    assert_eq!(conv.messages.len(), 9);
    assert_eq!(extra_types(conv), ["last-prompt", "last-prompt"]);
}

#[test]
fn the_pieces_of_one_sub_agent_are_one_conversation() {
    let parsed = read("claude-code-sidechain-pieces.jsonl");
    assert_eq!(parsed.conversations.len(), 2);
    let side = &parsed.conversations[1];
    assert!(side.sidechain);
    assert_eq!(
        thread_shapes(side, 0),
        [
            "User: List every function in s",
            "Assistant: call Grep",
            "User: result",
            "Assistant: call Read",
            "User: result",
            "Assistant: Two: `forecast::parse_ti",
        ]
    );
    assert_eq!(
        side.display_name,
        "Find every place that parses dates. · sub-agent: Find date parsing"
    );
    let meta = &side.metadata.as_ref().unwrap()[META_KEY]["sidechain"];
    assert_eq!(meta["agent_id"], "a5e1c9d");
    assert_eq!(meta["parent_tool_use_id"], "toolu_01Task00000001");
    assert_eq!(parsed.conversations[0].messages.len(), 4);
    assert_eq!(parsed.warnings.len(), 1, "{:?}", parsed.warnings);
    assert!(parsed.warnings[0].contains("sub-agent run a5e1c9d: 1 line(s) name a parent"));
}

#[test]
fn every_current_line_type_is_kept_and_shown_where_it_matters() {
    let parsed = read("claude-code-line-types.jsonl");
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    let conv = &parsed.conversations[0];
    assert_eq!(conv.display_name, "Release 0.4.0");
    assert_eq!(
        thread_shapes(conv, 0),
        [
            "User: Bump the version to 0.4.",
            "System: Warning UserPromptSubmit hook fa",
            "Assistant: Version bumped to 0.4.0 ",
            "User: also update CHANGELOG",
            "Assistant: CHANGELOG has a 0.4.0 se",
            "System: Warning Stop hook `cargo fmt --c",
            "System: Info Turn took 9600 ms",
        ]
    );
    let hook = conv.messages.iter().find_map(|m| match &m.content[0] {
        ContentItem::System {
            level: SystemLevel::Warning,
            content,
            ..
        } if content.starts_with("Stop") => Some(content.clone()),
        _ => None,
    });
    assert_eq!(
        hook.as_deref(),
        Some(
            "Stop hook `cargo fmt --check` failed: Diff in src/main.rs at line 3:\n-use \
             std::io;\n+use std::io::{self};"
        )
    );
    assert_eq!(
        extra_types(conv),
        [
            "permission-mode",
            "file-history-snapshot",
            "queue-operation",
            "queue-operation",
            "attachment",
            "mode",
            "ai-title",
            "custom-future-record",
            "last-prompt",
        ]
    );
}

#[test]
fn every_line_of_the_real_sessions_is_accounted_for() {
    for name in [
        "claude-code-linear-1af7fc5e.jsonl",
        "claude-code-subagents-5c0375b4.jsonl",
    ] {
        let parsed = read(name);
        assert_eq!(parsed.records.skipped, 0, "{name}");
        assert!(parsed.warnings.is_empty(), "{name}: {:?}", parsed.warnings);
        for conv in &parsed.conversations {
            assert_eq!(conv.threads.len(), 1, "{name}");
        }
    }
}
