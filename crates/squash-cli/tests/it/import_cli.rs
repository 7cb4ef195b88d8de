//! `squash import` as a script sees it, through the built binary: a forced format that does not
//! match fails with one line saying what was expected and what was found and writes nothing; a
//! directory import goes on past a bad file and fails at the end; a session whose first line is
//! longer than detection reads is still detected; a closed stdout ends the run quietly.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};
use squash_testkit::cli::{one_line_failure, session_data as data, stderr, Sandbox as Env};

/// A database that holds one conversation already, so that "nothing written" means something.
fn seeded() -> (Env, Vec<Value>) {
    let env = crate::sandbox();
    let out = env.import(&data("claude-code-linear-1af7fc5e.jsonl"), "auto");
    assert!(out.status.success(), "{}", stderr(&out));
    let before = env.conversations();
    assert_eq!(before.len(), 1);
    (env, before)
}

#[test]
fn a_forced_format_that_does_not_match_fails_and_writes_nothing() {
    let (env, before) = seeded();
    let garbage = env.path("garbage.jsonl");
    std::fs::write(&garbage, "this is\nnot a session\n").unwrap();
    let cases: [(&str, PathBuf, &str); 10] = [
        (
            "chatgpt",
            data("claude-code-linear-1af7fc5e.jsonl"),
            "expected a ChatGPT export, found a Claude Code session",
        ),
        (
            "openai",
            data("chatgpt-conversations.json"),
            "expected an OpenAI-style chat, found a ChatGPT export",
        ),
        (
            "claude-code",
            garbage.clone(),
            "expected a Claude Code session, found no JSON",
        ),
        (
            "claude-code",
            data("codex-rollout-sample.jsonl"),
            "expected a Claude Code session, found a Codex rollout",
        ),
        (
            "codex",
            data("claude-code-subagents-5c0375b4.jsonl"),
            "expected a Codex rollout, found a Claude Code session",
        ),
        (
            "openai",
            data("codex-rollout-sample.jsonl"),
            "expected an OpenAI-style chat, found a Codex rollout",
        ),
        (
            "anthropic",
            data("swe-agent-marshmallow-1867.traj"),
            "expected an Anthropic-style chat, found an OpenAI-style chat",
        ),
        (
            "gromozeka",
            data("codex-rollout-sample.jsonl"),
            "expected a Gromozeka database, found a Codex rollout",
        ),
        (
            "squash",
            data("claude-code-linear-1af7fc5e.jsonl"),
            "expected a Squash export, found a Claude Code session",
        ),
        (
            "claude-code",
            data("swe-agent-marshmallow-1867.traj"),
            "expected a Claude Code session, found an OpenAI-style chat",
        ),
    ];
    for (format, path, expected) in cases {
        let out = env.import(&path, format);
        let line = one_line_failure(&out);
        let name = path.display().to_string();
        assert_eq!(
            line,
            format!("error: {name}: {expected}"),
            "--format {format}"
        );
        assert!(out.stdout.is_empty(), "--format {format}: nothing printed");
        assert_eq!(
            env.conversations(),
            before,
            "--format {format}: nothing written"
        );
    }
}

#[test]
fn a_directory_import_goes_past_a_bad_file_and_fails() {
    let (env, before) = seeded();
    let dir = env.path("sessions");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(
        data("codex-rollout-sample.jsonl"),
        dir.join("a-codex.jsonl"),
    )
    .unwrap();
    std::fs::write(dir.join("b-broken.jsonl"), "{{{ not json\n").unwrap();
    // An empty session file (agents leave them) is nothing to import, not a failure.
    std::fs::write(dir.join("b-empty.jsonl"), "").unwrap();
    std::fs::copy(
        data("swe-agent-marshmallow-1867.traj"),
        dir.join("c-swe.traj"),
    )
    .unwrap();
    let out = env.import(&dir, "auto");
    let line = one_line_failure(&out);
    let bad = dir.join("b-broken.jsonl").display().to_string();
    assert!(line.contains(&bad), "{line}");
    assert!(line.contains("cannot tell the format"), "{line}");
    // The files around it were imported, and the report says which one failed.
    assert_eq!(env.conversations().len(), before.len() + 2);
    let report: Value = serde_json::from_slice(&out.stdout).expect("summary JSON");
    let failed = report["summary"]["failed"].as_array().expect("failed list");
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0]["file"], json!(bad));
    assert_eq!(
        report["summary"]["file_reports"].as_array().map(Vec::len),
        Some(2)
    );
    let empty = format!(
        "{}: empty; nothing to import",
        dir.join("b-empty.jsonl").display()
    );
    let warnings = &report["summary"]["warnings"];
    assert!(
        warnings
            .as_array()
            .is_some_and(|w| w.contains(&json!(empty))),
        "{warnings}"
    );
}

#[test]
fn a_session_whose_first_line_is_huge_is_detected() {
    let env = crate::sandbox();
    let big = "y".repeat(20 * 1024 * 1024);
    let user = json!({
        "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": "/tmp/huge",
        "sessionId": "5e551011-0000-4000-8000-000000000001", "version": "2.0.0",
        "type": "user", "message": {"role": "user", "content": format!("summarise this: {big}")},
        "uuid": "00000000-0000-4000-8000-000000000001", "timestamp": "2025-11-02T15:32:01.123Z"
    });
    let assistant = json!({
        "parentUuid": "00000000-0000-4000-8000-000000000001", "isSidechain": false,
        "userType": "external", "cwd": "/tmp/huge",
        "sessionId": "5e551011-0000-4000-8000-000000000001", "version": "2.0.0",
        "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
            "content": [{"type": "text", "text": "It is many y's."}]},
        "type": "assistant", "uuid": "00000000-0000-4000-8000-000000000002",
        "timestamp": "2025-11-02T15:32:05.000Z"
    });
    let path = env.path("huge.jsonl");
    std::fs::write(&path, format!("{user}\n{assistant}\n")).unwrap();
    let out = env.import(&path, "auto");
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("summary JSON");
    assert_eq!(
        report["summary"]["file_reports"][0]["format"],
        json!("claude-code")
    );
    assert_eq!(report["totals"]["counts"]["messages"], json!(2));
    assert_eq!(env.conversations().len(), 1);
}

/// Enough conversations that their list is longer than a pipe holds: the output cannot all be
/// written before the reader goes away, whatever the timing.
fn many_conversations(env: &Env) {
    let dir = env.path("chats");
    std::fs::create_dir(&dir).unwrap();
    for n in 0..400 {
        let doc = json!({"messages": [
            {"role": "user", "content": format!("question number {n}")},
            {"role": "assistant", "content": format!("answer number {n}")}
        ]});
        std::fs::write(dir.join(format!("chat-{n:03}.json")), doc.to_string()).unwrap();
    }
    let out = env.import(&dir, "openai");
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Reads `limit` bytes of the command's stdout, closes it, and returns how the run ended.
fn read_then_close(mut command: Command, limit: usize) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn squash");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut head = vec![0u8; limit];
    stdout.read_exact(&mut head).expect("the first bytes");
    drop(stdout);
    child.wait_with_output().expect("wait")
}

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let env = crate::sandbox();
    many_conversations(&env);
    let list = read_then_close(env.command(&["--json", "conversation", "list"]), 100);
    let text = stderr(&list);
    assert!(!text.contains("panicked"), "{text}");
    assert_ne!(list.status.code(), Some(101), "{text}");
    assert!(
        text.trim().is_empty(),
        "nothing to say on a closed pipe: {text}"
    );
    // What a shell reports for a process a broken pipe stopped (128 + SIGPIPE).
    assert_eq!(list.status.code(), Some(141), "{text}");

    // An export streamed to stdout: the subagents session's is longer than a pipe holds.
    let env = crate::sandbox();
    let out = env.import(&data("claude-code-subagents-5c0375b4.jsonl"), "auto");
    assert!(out.status.success(), "{}", stderr(&out));
    let mut stopped = 0;
    for c in env.conversations() {
        let id = c["conversation"]["id"].as_str().expect("id");
        let export = read_then_close(env.command(&["export", id, "--format", "json"]), 10);
        let text = stderr(&export);
        assert!(!text.contains("panicked"), "{text}");
        assert_ne!(export.status.code(), Some(101), "{text}");
        if export.status.code() == Some(141) {
            assert!(text.trim().is_empty(), "{text}");
            stopped += 1;
        } else {
            assert!(export.status.success(), "{text}");
        }
    }
    assert!(stopped > 0, "no export was longer than the pipe");
}

/// What the issue found taken for OpenAI-style chats (every record skipped, an empty
/// conversation, exit 0) and a file of no known format: exit 1, one line that says what was
/// found and which formats exist, nothing written.
#[test]
fn files_whose_every_record_would_be_skipped_are_refused() {
    let (env, before) = seeded();
    let cases = [
        (
            "kind.json",
            r#"{"messages": [{"kind": "user", "text": "hi"}]}"#,
            "read as an OpenAI-style chat, but none of its 1 record(s) is a message",
        ),
        (
            "header.jsonl",
            "{\"sessionId\":\"s\",\"projectHash\":\"p\"}\n{\"what\":1}\n",
            "read as a Gemini CLI recording, but none of its 2 record(s) is a message",
        ),
        (
            "notes.json",
            r#"{"title": "notes", "items": [1, 2]}"#,
            "cannot tell the format (JSON of no format Squash reads)",
        ),
    ];
    for (name, text, expected) in cases {
        let path = env.path(name);
        std::fs::write(&path, text).unwrap();
        let out = env.import(&path, "auto");
        let line = one_line_failure(&out);
        assert_eq!(out.status.code(), Some(1), "{line}");
        assert!(line.contains(expected), "{name}: {line}");
        assert!(
            line.ends_with("--format takes auto, claude-code, codex, gemini, opencode, openai, anthropic, gromozeka, chatgpt, claude-ai, squash"),
            "{line}"
        );
        assert_eq!(env.conversations(), before, "{name}: nothing written");
    }
}

/// A published Claude Code 2.1 session whose compaction points at a line the file does not
/// hold (testdata/SOURCES.md): imported as the history before the compaction, the thread after
/// it and the whole history — not a branch for every tool call — and `thread list` says what
/// each is; a fit says which it fitted.
#[test]
fn a_compaction_pointing_past_the_file_lists_as_its_history_and_the_thread_after_it() {
    let env = crate::sandbox();
    let session = data("claude-code-compacted-8209f1c2/8209f1c2-ccba-4dd6-8b9e-8d6d142183e2.jsonl");
    let out = env.import(&session, "auto");
    assert!(out.status.success(), "{}", stderr(&out));
    let conversation = env.conversations()[0]["conversation"]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    let history = env.json(&["thread", "list", &conversation]);
    assert_eq!(history.as_array().map(Vec::len), Some(3), "{history:#}");
    let listed = env.ok(&["thread", "list", &conversation]);
    let lines: Vec<&str> = listed.lines().collect();
    assert!(lines[0].contains("Initial thread"), "{listed}");
    assert!(
        lines[1].starts_with("  * ")
            && lines[1].contains("Continued after a compaction (imported)"),
        "{listed}"
    );
    assert!(
        lines[2].starts_with("    - ")
            && lines[2].contains("The whole history, its compactions undone (imported)"),
        "{listed}"
    );
    // Fitted, the whole history says it was the thread fitted.
    let whole = history[2]["thread"]["id"].as_str().expect("a thread id");
    let switched = env.ok(&["thread", "switch", &conversation, whole]);
    assert!(
        switched.contains("(The whole history, its compactions undone (imported), "),
        "{switched}"
    );
    let fitted = env.ok(&["fit", &conversation, "--budget", "20k"]);
    assert!(
        fitted.contains(&format!(
            "of thread {whole} (The whole history, its compactions undone (imported), "
        )),
        "{fitted}"
    );
}
