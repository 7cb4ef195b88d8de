use squash_core::{ContentItem, MessageId, Role};

use super::*;
use crate::test_support::{session_bytes, session_text};

#[test]
fn a_turn_becomes_assistant_and_tool_messages() {
    let lines = [
        r#"{"timestamp":"2025-12-28T12:18:30.522Z","type":"session_meta","payload":{"id":"abc","cwd":"/w"}}"#,
        r#"{"timestamp":"2025-12-28T12:18:31Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}}"#,
        r#"{"timestamp":"2025-12-28T12:18:32Z","type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"look"}],"encrypted_content":"enc"}}"#,
        r#"{"timestamp":"2025-12-28T12:18:33Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}}"#,
        r#"{"timestamp":"2025-12-28T12:18:34Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"boom\",\"metadata\":{\"exit_code\":2}}"}}"#,
        r#"{"timestamp":"2025-12-28T12:18:35Z","type":"compacted","payload":{"message":"summary"}}"#,
        r#"{"timestamp":"2025-12-28T12:18:36Z","type":"event_msg","payload":{"type":"token_count"}}"#,
    ]
    .join("\n");
    let parsed = CodexParser::parse_str("r.jsonl", &lines, "h");
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    assert_eq!((parsed.records.messages, parsed.records.metadata), (5, 2));
    let conv = &parsed.conversations[0];
    assert_eq!(conv.source_key, "codex:abc");
    assert_eq!(conv.project_path.as_deref(), Some("/w"));
    let roles: Vec<Role> = conv.messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [Role::User, Role::Assistant, Role::User, Role::System]
    );
    assert_eq!(conv.messages[1].content.len(), 2);
    match &conv.messages[2].content[0] {
        ContentItem::ToolResult {
            is_error,
            tool_name,
            ..
        } => {
            assert!(*is_error);
            assert_eq!(tool_name, "shell");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(conv.display_name, "fix it");
}

fn fixture(name: &str) -> Parsed {
    let text = session_text(name);
    let parsed = CodexParser::parse_str(name, &text, "h");
    assert!(parsed.records.balanced(), "{name}: {:?}", parsed.records);
    assert!(parsed.skipped.is_empty(), "{name}: {:?}", parsed.skipped);
    parsed
}

/// Role and first text of each message, for short asserts.
fn outline(messages: &[Message]) -> Vec<(Role, String)> {
    messages
        .iter()
        .map(|m| {
            let first = m.content.first().map(|i| match i {
                ContentItem::UserMessage { text } => text.clone(),
                ContentItem::AssistantMessage { structured } => structured.full_text.clone(),
                ContentItem::System { content, .. } => content.clone(),
                ContentItem::Thinking { thinking, .. } => format!("thinking: {thinking}"),
                ContentItem::ToolCall { name, .. } => format!("call: {name}"),
                ContentItem::ToolResult { is_error, .. } => format!("result, error: {is_error}"),
                other => format!("{other:?}"),
            });
            (m.role, first.unwrap_or_default())
        })
        .collect()
}

#[test]
fn prompts_recorded_only_as_events_become_user_messages_once() {
    let parsed = fixture("codex-event-msg-prompts.jsonl");
    let c = &parsed.conversations[0];
    let texts: Vec<(Role, String)> = outline(&c.messages)
        .into_iter()
        .map(|(r, t)| (r, t.lines().next().unwrap_or("").to_owned()))
        .collect();
    let user = |t: &str| (Role::User, t.to_owned());
    let assistant = |t: &str| (Role::Assistant, t.to_owned());
    assert_eq!(
        texts,
        [
            user("<environment_context>"),
            user("List the files in src/ and tell me what each one does"),
            assistant("thinking: **Listing the source directory**"),
            user("result, error: false"),
            assistant(
                "`main.rs` parses the arguments and `store.rs` keeps the notes in a JSON file."
            ),
            user("Now add a --json flag to the list command"),
            assistant("Added `--json` to `list`; it prints the notes as a JSON array."),
            user("Thanks, that's all"),
            assistant("You're welcome."),
        ]
    );
    assert_eq!(
        c.display_name,
        "List the files in src/ and tell me what each one does"
    );
    // The context Codex injects is marked as its own; what the person typed is not.
    let by_agent: Vec<bool> = c.messages.iter().map(|m| m.written_by_agent()).collect();
    assert_eq!(
        by_agent,
        [true, false, false, false, false, false, false, false, false]
    );
    // 10 lines made messages; the session, 2 turn contexts, 2 events that repeat what a
    // message says and the token count are metadata.
    assert_eq!((parsed.records.messages, parsed.records.metadata), (10, 6));
    assert!(c.appendable);
}

#[test]
fn a_compaction_with_a_replacement_history_starts_a_thread() {
    let parsed = fixture("codex-compacted.jsonl");
    let c = &parsed.conversations[0];
    assert_eq!(c.threads.len(), 3);
    let (before, after, whole) = (&c.threads[0], &c.threads[1], &c.threads[2]);
    assert_eq!(c.current_thread_id, after.id);
    assert_eq!(after.original_thread_id, Some(before.id));
    assert!(!c.appendable);
    let of = |links: &[MessageId]| -> Vec<(Role, String)> {
        let ms: Vec<Message> = links
            .iter()
            .map(|id| c.messages.iter().find(|m| m.id == *id).cloned().unwrap())
            .collect();
        outline(&ms)
            .into_iter()
            .map(|(r, t)| (r, t.chars().take(30).collect()))
            .collect()
    };
    let pre = of(&before.links);
    assert_eq!(pre.len(), 6, "{pre:?}");
    assert_eq!(
        pre[2],
        (Role::User, "Summarise the errors in logs/a".into())
    );
    assert_eq!(
        pre[3],
        (Role::Assistant, "thinking: **Reading the log**".into())
    );
    let post = of(&after.links);
    assert_eq!(
        post,
        [
            (Role::System, "Conversation compacted: the mo".into()),
            (Role::User, "<environment_context>\n  <cwd>/".into()),
            (Role::User, "Summarise the errors in logs/a".into()),
            (Role::User, "Another language model started".into()),
            (Role::User, "Raise the pool timeout to 30 s".into()),
            (Role::Assistant, "Done: `pool_timeout = 30` in c".into()),
        ]
    );
    // The prompt kept by the compaction is the same message in both threads.
    assert_eq!(before.links[2], after.links[2]);
    assert_eq!(c.messages.len(), 10);
    match &after.origin {
        squash_core::ThreadOrigin::SourceBranch { branch } => {
            assert_eq!(*branch, squash_core::BranchKind::Compaction)
        }
        other => panic!("{other:?}"),
    }
    assert_eq!((parsed.records.messages, parsed.records.metadata), (10, 10));
    // The whole history: the thread before, then what followed the compaction, without the
    // note and the summary the compaction wrote.
    let mut expected = pre.clone();
    expected.extend(post[4..].iter().cloned());
    assert_eq!(of(&whole.links), expected);
    assert_eq!(whole.original_thread_id, Some(after.id));
    assert_eq!(
        whole.origin,
        squash_core::ThreadOrigin::SourceBranch {
            branch: squash_core::BranchKind::WholeHistory
        }
    );
}

#[test]
fn legacy_rollouts_keep_the_prompt() {
    let parsed = fixture("codex-legacy.jsonl");
    let c = &parsed.conversations[0];
    assert_eq!(c.source_key, "codex:5f0c2a9e-81b4-4c7d-a3e2-0d9b6c1f4e27");
    assert_eq!(c.display_name, "Add a --verbose flag to greet.py");
    assert_eq!(
        outline(&c.messages),
        [
            (Role::User, "Add a --verbose flag to greet.py".into()),
            (
                Role::Assistant,
                "thinking: Finding the argument parser".into()
            ),
            (Role::User, "result, error: false".into()),
            (Role::Assistant, "call: shell".into()),
            (Role::User, "result, error: true".into()),
            (
                Role::Assistant,
                "I added `--verbose`; `test_quiet` now fails because it expects no output.".into()
            ),
        ]
    );
    assert_eq!(c.messages[1].content.len(), 2);
    assert_eq!((parsed.records.messages, parsed.records.metadata), (7, 4));
    let text = session_bytes("codex-legacy.jsonl");
    assert_eq!(
        crate::detect::detect_bytes(&text),
        Some(squash_core::SourceFormat::Codex)
    );
    let created = c.messages[0].created_at.to_rfc3339();
    assert_eq!(created, "2025-04-18T09:12:03.511+00:00");
}

#[test]
fn exit_codes_in_output_text_make_errors() {
    let parsed = fixture("codex-exit-code.jsonl");
    let errors: Vec<bool> = parsed.conversations[0]
        .messages
        .iter()
        .flat_map(|m| &m.content)
        .filter_map(|i| match i {
            ContentItem::ToolResult { is_error, .. } => Some(*is_error),
            _ => None,
        })
        .collect();
    // exit 2 (unified exec), 101 (shell), 1 (code mode), 0, and 0 with "code 1" in the output.
    assert_eq!(errors, [true, true, true, false, false]);
}

#[test]
fn exit_code_headers_are_read_above_the_output_only() {
    use super::output::header_exit_code;
    assert_eq!(
        header_exit_code("Exit code: 3\nWall time: 1s\nOutput:\n"),
        Some(3)
    );
    assert_eq!(
        header_exit_code("Chunk ID: a\nProcess exited with code 0\nOutput:\nExit code: 1\n"),
        Some(0)
    );
    assert_eq!(
        header_exit_code("Output:\nProcess exited with code 1\n"),
        None
    );
    assert_eq!(header_exit_code("plain text"), None);
}

#[test]
fn every_line_is_accounted_for_even_bad_ones() {
    let text = "{\"timestamp\":\"2025-01-01T00:00:00Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"s\"}}\n\nnot json\n[1]\n{\"what\":1}\n{\"timestamp\":\"2025-01-01T00:00:01Z\",\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"hi\"}}";
    let parsed = CodexParser::parse_str("x.jsonl", text, "h");
    assert_eq!(
        parsed.records,
        crate::RecordCounts {
            lines: 5,
            messages: 1,
            metadata: 1,
            skipped: 3
        }
    );
    // The blank line 2 is no record; the line numbers are the file's.
    let lines: Vec<Option<usize>> = parsed.skipped.iter().map(|s| s.line).collect();
    assert_eq!(lines, [Some(3), Some(4), Some(5)]);
    assert_eq!(parsed.conversations[0].messages.len(), 1);
}

#[test]
fn a_new_turn_starts_a_new_assistant_message() {
    let lines = [
        r#"{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Reply 2."}]}}"#,
        r#"{"timestamp":"2026-01-01T00:00:01Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}"#,
        r#"{"timestamp":"2026-01-01T00:00:02Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Summary: ..."}]}}"#,
        r#"{"timestamp":"2026-01-01T00:00:03Z","type":"turn_context","payload":{"turn_id":"t3"}}"#,
        r#"{"timestamp":"2026-01-01T00:00:04Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Reply 4."}]}}"#,
    ]
    .join("\n");
    let parsed = CodexParser::parse_str("r.jsonl", &lines, "h");
    let texts: Vec<String> = outline(&parsed.conversations[0].messages)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert_eq!(texts, ["Reply 2.", "Summary: ...", "Reply 4."]);
}

/// Bare lines are items only in a legacy rollout: lines of another tool (here Claude Code) read
/// as Codex make no message, and each is reported.
#[test]
fn bare_lines_of_a_current_rollout_or_another_tool_are_no_items() {
    let text = "{\"parentUuid\":null,\"type\":\"user\",\"uuid\":\"u\",\"sessionId\":\"s\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{\"parentUuid\":\"u\",\"type\":\"assistant\",\"uuid\":\"a\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"hello\"}]}}";
    let parsed = CodexParser::parse_str("claude.jsonl", text, "h");
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    assert_eq!((parsed.records.lines, parsed.records.skipped), (2, 2));
    assert!(parsed.conversations.iter().all(|c| c.messages.is_empty()));
}

#[test]
fn codex_own_instructions_are_marked_as_its_own_and_a_developer_note_is_not() {
    let lines = [
        r#"{"timestamp":"2026-04-01T12:00:00Z","type":"session_meta","payload":{"id":"abc","cwd":"/w"}}"#,
        r###"{"timestamp":"2026-04-01T12:00:01Z","type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>\nsandbox\n</permissions instructions>"},{"type":"input_text","text":"<skills_instructions>\n## Skills\n</skills_instructions>"},{"type":"input_text","text":"<app-context>\n# Codex desktop context\n</app-context>"},{"type":"input_text","text":"## Memory\n\nYou have access to a memory folder.\n\n========= MEMORY_SUMMARY BEGINS =========\nnone\n========= MEMORY_SUMMARY ENDS ========="}]}}"###,
        r###"{"timestamp":"2026-04-01T12:00:01Z","type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"## Memory\n\nKeep notes short."}]}}"###,
        r#"{"timestamp":"2026-04-01T12:00:02Z","type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"Answer in French."}]}}"#,
        r#"{"timestamp":"2026-04-01T12:00:03Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}}"#,
    ]
    .join("\n");
    let parsed = CodexParser::parse_str("r.jsonl", &lines, "h");
    let conv = &parsed.conversations[0];
    let by_agent: Vec<(Role, bool)> = conv
        .messages
        .iter()
        .map(|m| (m.role, m.written_by_agent()))
        .collect();
    // Codex writes its permissions, skills, the desktop app's context and its memory's
    // instructions again in every session; an instruction a person gave the model as a
    // developer message is theirs, whatever its heading.
    assert_eq!(
        by_agent,
        [
            (Role::System, true),
            (Role::System, false),
            (Role::System, false),
            (Role::User, false)
        ]
    );
}
