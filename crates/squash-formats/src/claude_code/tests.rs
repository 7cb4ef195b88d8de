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

/// An assistant line holding one call, of the API response `response` (`None`: a response of
/// its own): Claude Code writes each call of a response as a line.
fn call_line(uuid: &str, parent: &str, id: &str, response: Option<&str>) -> String {
    let mut message = json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": id, "name": "Bash", "input": {"command": id}}]});
    if let Some(response) = response {
        message["id"] = json!(response);
    }
    line(
        uuid,
        Some(parent),
        "assistant",
        json!(null),
        json!({ "message": message }),
    )
}

/// A user line answering the call `id`.
fn result_line(uuid: &str, parent: &str, id: &str) -> String {
    line(
        uuid,
        Some(parent),
        "user",
        json!([{"type": "tool_result", "tool_use_id": id, "content": "done"}]),
        json!({}),
    )
}

/// A progress line (no message) under `parent`.
/// A prompt `a` and two calls made at once, as Claude Code writes them: the second call under
/// the first (`c1`, `c2`, one API response), each result under its call (`r1`, `r2`).
fn two_calls_at_once(prompt: &str) -> Vec<String> {
    vec![
        line("a", None, "user", json!(prompt), json!({})),
        call_line("c1", "a", "t1", Some("msg_r")),
        call_line("c2", "c1", "t2", Some("msg_r")),
        result_line("r1", "c1", "t1"),
        result_line("r2", "c2", "t2"),
    ]
}

fn progress_line(uuid: &str, parent: &str) -> String {
    json!({"type": "progress", "uuid": uuid, "parentUuid": parent, "sessionId": "s1",
           "timestamp": "2025-09-03T00:47:19.293Z", "isSidechain": false,
           "data": {"type": "bash_progress"}})
    .to_string()
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

/// Claude Code ≥ 2.1.20 writes a compaction whose logical parent is a line the file does not
/// hold: the history before it ends at the last message written before the boundary, as one
/// thread, and the progress lines beside each call make no branches of their own.
#[test]
fn a_compaction_pointing_at_a_line_the_file_lacks_keeps_its_history_as_one_thread_and_the_whole() {
    let boundary = json!({"type": "system", "subtype": "compact_boundary", "uuid": "k",
            "parentUuid": null, "logicalParentUuid": "not-in-this-file", "sessionId": "s1",
            "timestamp": "2025-09-03T00:48:00Z", "isSidechain": false,
            "compactMetadata": {"trigger": "auto", "preTokens": 155000}, "content": "Conversation compacted"});
    let text = [
        line("a", None, "user", json!("list it twice"), json!({})),
        call_line("b", "a", "t1", None),
        progress_line("p1", "b"),
        progress_line("p2", "p1"),
        result_line("c", "b", "t1"),
        call_line("d", "c", "t2", None),
        progress_line("p3", "d"),
        result_line("e", "d", "t2"),
        boundary.to_string(),
        line(
            "f",
            Some("k"),
            "user",
            json!("This session is being continued…"),
            json!({"isCompactSummary": true}),
        ),
        answer("g", "f", "Listed twice.", json!({})),
    ]
    .join("\n");
    let parsed = ClaudeCodeParser::parse_str("s.jsonl", &text, "h");
    let conv = &parsed.conversations[0];
    assert_eq!(conv.messages.len(), 8);
    assert_eq!(conv.threads.len(), 3, "{:?}", conv.threads);
    assert_eq!(link_positions(conv, 0), [0, 1, 2, 3, 4]);
    assert_eq!(link_positions(conv, 1), [5, 6, 7]);
    // The whole history: the calls, then the answer after the summary.
    assert_eq!(link_positions(conv, 2), [0, 1, 2, 3, 4, 7]);
    assert_eq!(
        conv.threads[2].origin,
        ThreadOrigin::SourceBranch {
            branch: BranchKind::WholeHistory
        }
    );
    assert_eq!(conv.current_thread_id, conv.threads[1].id);
    assert_eq!(conv.threads[1].original_thread_id, Some(conv.threads[0].id));
    assert_eq!(
        conv.threads[1].origin,
        ThreadOrigin::SourceBranch {
            branch: BranchKind::Compaction
        }
    );
}

/// Claude Code ≥ 2.1 writes a response's parallel calls one line each, the next call under the
/// progress line of the call before it, and each result under its call: every call and result
/// is on the one thread, none a branch of its own.
#[test]
fn parallel_calls_hung_under_progress_lines_stay_on_the_thread() {
    let text = [
        line("a", None, "user", json!("check three things"), json!({})),
        call_line("c1", "a", "t1", Some("msg_r")),
        progress_line("p1", "c1"),
        call_line("c2", "p1", "t2", Some("msg_r")),
        result_line("r1", "c1", "t1"),
        progress_line("p2", "r1"),
        call_line("c3", "p2", "t3", Some("msg_r")),
        result_line("r2", "c2", "t2"),
        progress_line("p3", "r2"),
        result_line("r3", "c3", "t3"),
        answer("z", "r3", "All three pass.", json!({})),
    ]
    .join("\n");
    let parsed = ClaudeCodeParser::parse_str("s.jsonl", &text, "h");
    let conv = &parsed.conversations[0];
    assert_eq!(conv.threads.len(), 1, "{:?}", conv.threads);
    let on_thread = conv.threads[0].links.len();
    assert_eq!(on_thread, conv.messages.len(), "{:?}", conv.messages);
    let results = conv
        .messages
        .iter()
        .flat_map(|m| &m.content)
        .filter(|c| matches!(c, ContentItem::ToolResult { .. }))
        .count();
    assert_eq!(results, 3);
}

/// Claude Code 2.1.72 with hooks: a call's hook progress written late — after the turn
/// ended — under the call's line, and the next prompt under the end of that chain (and the
/// hook's system line). The prompt continues from where the conversation was (the answer),
/// not from the old call: one thread, not a rewind that skips the turn's end.
#[test]
fn a_prompt_under_late_hook_lines_continues_from_the_newest_message() {
    let mut lines = two_calls_at_once("look at both");
    lines.extend([
        answer("z", "r1", "Both read.", json!({})),
        progress_line("h1", "c2"),
        progress_line("h2", "h1"),
        json!({"type": "system", "subtype": "stop_hook_summary", "uuid": "s", "parentUuid": "h2",
               "sessionId": "s1", "timestamp": "2025-09-03T00:47:19.293Z", "isSidechain": false,
               "content": "hooks ran"})
        .to_string(),
        line("b", Some("s"), "user", json!("now commit"), json!({})),
        answer("y", "b", "Committed.", json!({})),
    ]);
    let text = lines.join("\n");
    let parsed = ClaudeCodeParser::parse_str("s.jsonl", &text, "h");
    let conv = &parsed.conversations[0];
    assert_eq!(conv.threads.len(), 1, "{:?}", conv.threads);
    // Every message on it, the prompt after the answer.
    let links = link_positions(conv, 0);
    assert_eq!(links.len(), conv.messages.len(), "{:?}", conv.messages);
    let prompt = conv
        .messages
        .iter()
        .position(|m| {
            m.content
                == [ContentItem::UserMessage {
                    text: "now commit".into(),
                }]
        })
        .unwrap();
    // The first turn's answer comes before it.
    let answer = conv
        .messages
        .iter()
        .position(|m| matches!(m.content[..], [ContentItem::AssistantMessage { .. }]))
        .unwrap();
    let at = |m: usize| links.iter().position(|&l| l == m).unwrap();
    assert!(at(answer) < at(prompt), "{links:?}");
}

/// A rewind goes back to where a turn ended (an answer): a prompt under hook lines that hang
/// from an old answer stays a branch of its own, whatever was written after that answer.
#[test]
fn a_prompt_under_hook_lines_from_an_old_answer_stays_a_rewind() {
    let text = [
        line("a", None, "user", json!("first"), json!({})),
        answer("x", "a", "First done.", json!({})),
        line("b", Some("x"), "user", json!("second"), json!({})),
        answer("y", "b", "Second done.", json!({})),
        progress_line("h1", "x"),
        line(
            "c",
            Some("h1"),
            "user",
            json!("second, differently"),
            json!({}),
        ),
        answer("z", "c", "Done differently.", json!({})),
    ]
    .join("\n");
    let parsed = ClaudeCodeParser::parse_str("s.jsonl", &text, "h");
    let conv = &parsed.conversations[0];
    assert_eq!(conv.threads.len(), 2, "{:?}", conv.threads);
    let current = conv
        .threads
        .iter()
        .position(|t| t.id == conv.current_thread_id)
        .unwrap();
    assert_eq!(link_positions(conv, current), [0, 1, 4, 5]);
}

/// A session that ends in a line the agent injected (a stop hook's feedback, `isMeta`) after
/// parallel calls: the person left off at the message before it, so the thread through it is
/// current — not the thread ending at the first call's result, the newest leaf that is not
/// injected.
#[test]
fn an_injected_last_line_leaves_the_thread_it_follows_current() {
    let mut lines = two_calls_at_once("find both");
    lines.extend([
        answer("z", "r2", "Both found.", json!({})),
        line(
            "m",
            Some("z"),
            "user",
            json!("Stop hook feedback: run the tests first"),
            json!({"isMeta": true}),
        ),
    ]);
    let text = lines.join("\n");
    let parsed = ClaudeCodeParser::parse_str("s.jsonl", &text, "h");
    let conv = &parsed.conversations[0];
    assert_eq!(conv.threads.len(), 1, "{:?}", conv.threads);
    assert_eq!(conv.threads[0].links.len(), conv.messages.len());
    assert_eq!(conv.current_thread_id, conv.threads[0].id);
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

/// A sub-agent line without `agentId` joins the run of the `Task` call that was running when
/// it was written: from the call to its result (which a reader keeps only for such calls).
#[test]
fn a_run_without_agent_id_belongs_to_the_call_running_then() {
    let at = |s: u32| json!({"timestamp": format!("2025-09-03T00:00:{s:02}Z")});
    let side = |s: u32| {
        let mut extra = at(s);
        extra["isSidechain"] = json!(true);
        extra
    };
    let call = |id: &str| {
        json!([{"type": "tool_use", "id": id, "name": "Task",
                "input": {"prompt": format!("prompt of {id}"), "description": format!("run {id}")}}])
    };
    let result = |id: &str| json!([{"type": "tool_result", "tool_use_id": id, "content": "done"}]);
    let text = [
        line("u1", None, "user", json!("start"), at(1)),
        line("a1", Some("u1"), "assistant", call("call-a"), at(2)),
        // Run A: its prompt is not the call's, so only the time ties it.
        line("s1", None, "user", json!("first run"), side(3)),
        answer("s2", "s1", "first run done", side(4)),
        line("r1", Some("a1"), "user", result("call-a"), at(5)),
        // A tool result of another call in between: not one the reader keeps.
        line("a2", Some("r1"), "assistant", json!([{"type": "tool_use", "id": "call-x", "name": "Bash", "input": {"command": "ls"}}]), at(6)),
        line("r2", Some("a2"), "user", result("call-x"), at(7)),
        line("a3", Some("r2"), "assistant", call("call-b"), at(8)),
        line("t1", None, "user", json!("second run"), side(9)),
        answer("t2", "t1", "second run done", side(10)),
        line("r3", Some("a3"), "user", result("call-b"), at(11)),
    ]
    .join("\n");
    let parsed = ClaudeCodeParser::parse_str("s.jsonl", &text, "h");
    let runs: Vec<(String, Value)> = parsed
        .conversations
        .iter()
        .filter(|c| c.sidechain)
        .map(|c| {
            let meta = &c.metadata.as_ref().unwrap()[META_KEY]["sidechain"];
            (c.display_name.clone(), meta["parent_tool_use_id"].clone())
        })
        .collect();
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert_eq!(runs[0].1, "call-a");
    assert!(
        runs[0].0.ends_with("sub-agent: run call-a"),
        "{}",
        runs[0].0
    );
    // Had call A's result not closed its time, the second run would fall in both calls' and
    // be tied to neither.
    assert_eq!(runs[1].1, "call-b");
    assert!(
        runs[1].0.ends_with("sub-agent: run call-b"),
        "{}",
        runs[1].0
    );
}
