//! A streamed read (structure first, messages made later from the file) gives what an
//! in-memory read gives, on every fixture shape; and a file that changes in between fails.

use std::collections::HashMap;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde_json::Value;
use squash_core::{Message, MessageId, SourceFormat, ThreadId};

use crate::read::{read_file, read_file_streaming};
use crate::test_support::{session_path, session_text};
use crate::{FormatError, ImportedConversation, Parsed};

const SHAPES: [&str; 9] = [
    "claude-code-broken-chain.jsonl",
    "claude-code-compaction-preserved.jsonl",
    "claude-code-line-types.jsonl",
    "claude-code-linear-1af7fc5e.jsonl",
    "claude-code-null-parents.jsonl",
    "claude-code-rewind.jsonl",
    "claude-code-sidechain-pieces.jsonl",
    "claude-code-subagents-5c0375b4.jsonl",
    // Not a Claude Code session: every line is reported, the same way in both modes.
    "codex-legacy.jsonl",
];

fn read(path: &Path, streaming: bool, now: DateTime<Utc>) -> Result<Parsed, FormatError> {
    let reader = if streaming {
        read_file_streaming
    } else {
        read_file
    };
    reader(path, "s.jsonl", SourceFormat::ClaudeCode, now, &mut |_| {})
}

/// Every message of `conv`, made if the read deferred them.
fn messages(conv: &ImportedConversation) -> Result<Vec<Message>, FormatError> {
    match &conv.deferred {
        None => Ok(conv.messages.clone()),
        Some(d) => {
            let mut all = Vec::new();
            // Small chunks: the chunk borders must not matter.
            for chunk in d.chunks(2, 1 << 20) {
                all.extend(chunk?);
            }
            Ok(all)
        }
    }
}

/// A conversation with its ids replaced by their positions, so that two reads compare.
fn normalized(conv: &ImportedConversation) -> Value {
    let msgs = messages(conv).unwrap();
    let pos: HashMap<MessageId, usize> = msgs.iter().enumerate().map(|(i, m)| (m.id, i)).collect();
    let tpos: HashMap<ThreadId, usize> = conv
        .threads
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id, i))
        .collect();
    let msgs: Vec<Value> = msgs
        .iter()
        .map(|m| {
            serde_json::json!([
                m.role,
                m.content,
                m.metadata,
                m.created_at,
                m.reply_to,
                m.conversation_id == conv.conversation_id
            ])
        })
        .collect();
    let threads: Vec<Value> = conv
        .threads
        .iter()
        .map(|t| {
            let links: Vec<usize> = t.links.iter().map(|l| pos[l]).collect();
            serde_json::json!([
                links,
                t.origin,
                t.revision,
                t.created_at,
                t.updated_at,
                t.original_thread_id.map(|o| tpos[&o])
            ])
        })
        .collect();
    serde_json::json!({
        "key": conv.source_key, "name": conv.display_name, "project": conv.project_path,
        "created": conv.created_at, "updated": conv.updated_at, "messages": msgs,
        "threads": threads, "current": tpos[&conv.current_thread_id],
        "metadata": conv.metadata, "hash": conv.content_hash, "appendable": conv.appendable,
        "sidechain": conv.sidechain, "counts": conv.counts(),
    })
}

#[test]
fn a_streamed_read_gives_what_an_in_memory_read_gives() {
    let now = Utc::now();
    for name in SHAPES {
        let path = session_path(name);
        let memory = read(&path, false, now).unwrap();
        let streamed = read(&path, true, now).unwrap();
        assert_eq!(memory.records, streamed.records, "{name}");
        assert!(streamed.records.balanced(), "{name}");
        assert_eq!(memory.skipped, streamed.skipped, "{name}");
        assert_eq!(memory.warnings, streamed.warnings, "{name}");
        assert_eq!(
            memory.conversations.len(),
            streamed.conversations.len(),
            "{name}"
        );
        for (m, s) in memory.conversations.iter().zip(&streamed.conversations) {
            assert!(m.deferred.is_none() && s.messages.is_empty(), "{name}");
            let claude = name.starts_with("claude");
            assert_eq!(s.deferred.is_some(), claude, "{name}");
            assert_eq!(m.message_count(), s.message_count(), "{name}");
            assert_eq!(normalized(m), normalized(s), "{name}");
        }
    }
}

#[test]
fn a_file_that_changes_between_the_passes_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let original = session_text("claude-code-rewind.jsonl");
    let now = Utc::now();
    // Same length, other bytes (a letter of the first message line changed), then a file
    // that lost its message lines.
    let message = original.find("\"message\":{").unwrap();
    let line_start = original[..message].rfind('\n').map_or(0, |i| i + 1);
    let mut same_length = original.clone().into_bytes();
    let at = line_start + original[line_start..].find("\"userType\"").unwrap() + 1;
    same_length[at] = same_length[at].to_ascii_uppercase();
    let shorter = original[..line_start].to_owned();
    for changed in [same_length, shorter.into_bytes()] {
        std::fs::write(&path, &original).unwrap();
        let parsed = read(&path, true, now).unwrap();
        std::fs::write(&path, &changed).unwrap();
        let failed = parsed
            .conversations
            .iter()
            .map(messages)
            .find_map(Result::err);
        assert!(
            matches!(failed, Some(FormatError::Changed { .. })),
            "{failed:?}"
        );
    }
}

/// Blank lines are no records but their bytes move every later line: the second pass must still
/// find each line where the first one saw it.
#[test]
fn blank_lines_do_not_shift_the_second_pass() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("blank.jsonl");
    let original = session_text("claude-code-rewind.jsonl");
    let spaced: String = original.lines().map(|l| format!("{l}\n  \n\n")).collect();
    std::fs::write(&path, spaced).unwrap();
    let now = Utc::now();
    let memory = read(&path, false, now).unwrap();
    let streamed = read(&path, true, now).unwrap();
    assert_eq!(memory.records, streamed.records);
    assert!(streamed.records.balanced(), "{:?}", streamed.records);
    for (m, s) in memory.conversations.iter().zip(&streamed.conversations) {
        assert_eq!(normalized(m), normalized(s));
        let body = |c: &ImportedConversation| -> Vec<_> {
            messages(c)
                .unwrap()
                .into_iter()
                .map(|m| (m.role, m.content, m.metadata, m.created_at))
                .collect()
        };
        assert_eq!(body(m), body(s));
    }
}
