//! Every agent's sessions in and out, with the real CLIs against loopback model servers whose
//! answers are scripted (tool calls included, so the agents really run them and write their
//! own session files): Gemini CLI's recording and opencode's store are imported with every
//! record accounted for, written back by Squash and resumed by the real program; a Claude Code
//! session is handed to the real Codex and a Codex rollout to the real Claude Code with
//! `squash resume SESSION --agent OTHER`. Each time the request the resumed agent sends is
//! checked: the history is there and every call is paired with its result.
//!
//! Needs the four CLIs (`SQUASH_{CLAUDE,CODEX,GEMINI,OPENCODE}_BIN`, else `PATH`; `.ci/run`
//! installs them); without one a test notes the skip, unless `SQUASH_REQUIRE_AGENTS` is set.

use std::path::{Path, PathBuf};

use crate::squash_with_agent as squash;
use serde_json::{json, Value};
use squash_testkit::agents::anthropic::{AnthropicServer, Block};
use squash_testkit::agents::chat::{ChatServer, Turn};
use squash_testkit::agents::cli::{assert_ran, session_files};
use squash_testkit::agents::gemini::{self, GeminiServer};
use squash_testkit::agents::openai::{Item, ResponsesServer};
use squash_testkit::agents::{Agent, AgentKind, Sandbox};

const PROMPT: &str = "Write the probe file, then read it back.";
const PROBE: &str = "handoff-probe-42";
const ANSWER: &str = "The probe file says handoff-probe-42.";
const RESUMED: &str = "Resumed with the history.";

async fn squash_json(sandbox: &Sandbox, bin: &Path, args: &[&str]) -> Value {
    let output = squash(sandbox, bin)
        .arg("--json")
        .args(args)
        .output()
        .await
        .expect("run squash");
    assert_ran(&output, &format!("squash {}", args.join(" ")));
    serde_json::from_slice(&output.stdout).expect("squash --json output")
}

/// The one file's records all accounted for; returns the imported conversation's id.
fn imported(report: &Value, records: usize) -> String {
    let file = &report["summary"]["file_reports"][0];
    assert_eq!(file["lines"], json!(records), "{file}");
    let sum = ["messages", "metadata", "skipped"]
        .iter()
        .map(|k| file[k].as_u64().expect("a count"))
        .sum::<u64>();
    assert_eq!(
        sum, records as u64,
        "every record is a message, metadata or skipped: {file}"
    );
    assert_eq!(file["skipped"], json!(0), "{report}");
    let convs = report["summary"]["conversations"].as_array().expect("list");
    convs
        .iter()
        .find(|c| c["sidechain"] == json!(false))
        .and_then(|c| c["conversation_id"].as_str())
        .expect("a conversation")
        .to_owned()
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .expect("session file")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count()
}

fn probe_command() -> String {
    format!("echo {PROBE} > out.txt && cat out.txt")
}

// ---- Gemini CLI ----------------------------------------------------------------------------

/// The real Gemini CLI writes a recording (a shell call and a read); Squash imports it, writes
/// it back as a new session with `export --format gemini --install`, and the real `gemini
/// --resume` sends the whole history with each call answered.
#[tokio::test]
async fn gemini_recordings_import_and_the_real_gemini_resumes_what_squash_writes() {
    let Some(gemini) = Agent::find(AgentKind::Gemini) else {
        return;
    };
    let sandbox = Sandbox::new();
    let out_file = sandbox.cwd.join("out.txt").display().to_string();
    let server = GeminiServer::start(vec![
        vec![
            gemini::thought("A shell command writes the probe."),
            gemini::text("Writing the probe."),
            gemini::call(
                "run_shell_command",
                json!({"command": probe_command(), "description": "Write the probe"}),
            ),
        ],
        vec![gemini::call("read_file", json!({"file_path": out_file}))],
        vec![gemini::text(ANSWER)],
    ])
    .await;
    let output = sandbox
        .gemini(&gemini, &server.base_url(), &[], PROMPT)
        .await;
    assert_ran(&output, "gemini -p");
    assert_eq!(server.unserved(), 0, "{:#?}", server.turns());
    assert_eq!(
        std::fs::read_to_string(sandbox.cwd.join("out.txt")).expect("the tool ran"),
        format!("{PROBE}\n")
    );
    let files = session_files(&sandbox.gemini_home().join("tmp"));
    assert_eq!(files.len(), 1, "{files:?}");
    let recording = &files[0];

    let report = squash_json(
        &sandbox,
        &gemini.bin,
        &["import", &recording.to_string_lossy()],
    )
    .await;
    let conversation = imported(&report, lines(recording));
    assert_eq!(
        report["totals"]["counts"]["tool_calls"],
        json!(2),
        "{report}"
    );
    assert_eq!(
        report["totals"]["counts"]["tool_results"],
        json!(2),
        "{report}"
    );
    assert_eq!(
        report["summary"]["file_reports"][0]["format"],
        json!("gemini")
    );

    let cwd = sandbox.cwd.to_string_lossy().into_owned();
    let export = squash_json(
        &sandbox,
        &gemini.bin,
        &[
            "export",
            &conversation,
            "--format",
            "gemini",
            "--install",
            "--cwd",
            &cwd,
        ],
    )
    .await;
    let session = export["report"]["session_id"]
        .as_str()
        .expect("a session id");
    let written = PathBuf::from(export["path"].as_str().expect("a path"));
    assert_eq!(
        written.parent(),
        recording.parent(),
        "beside the CLI's own recordings"
    );

    let resumed = GeminiServer::start(vec![vec![gemini::text(RESUMED)]]).await;
    let output = sandbox
        .gemini(
            &gemini,
            &resumed.base_url(),
            &["--resume", session],
            "go on",
        )
        .await;
    assert_ran(&output, "gemini --resume");
    assert!(String::from_utf8_lossy(&output.stdout).contains(RESUMED));
    let turns = resumed.turns();
    assert_eq!(turns.len(), 1, "{turns:#?}");
    let contents = turns[0]["contents"].as_array().expect("contents");
    let history = serde_json::to_string(contents).unwrap();
    assert!(
        history.contains(PROMPT) && history.contains(ANSWER),
        "{history}"
    );
    assert!(history.contains("go on"));
    assert_gemini_pairing(contents);
    assert!(
        history.contains(PROBE),
        "the shell output is sent back: {history}"
    );
}

/// Every `functionCall` of a model turn is answered, by id, by a `functionResponse` in the
/// user turn right after it.
fn assert_gemini_pairing(contents: &[Value]) {
    let mut calls = 0;
    for (i, turn) in contents.iter().enumerate() {
        let ids = |t: &Value, kind: &str| -> Vec<String> {
            t["parts"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| p[kind]["id"].as_str().map(str::to_owned))
                .collect()
        };
        let asked = ids(turn, "functionCall");
        if asked.is_empty() {
            continue;
        }
        calls += asked.len();
        assert_eq!(turn["role"], "model", "{turn}");
        let next = contents.get(i + 1).expect("a turn after the calls");
        assert_eq!(next["role"], "user");
        assert_eq!(ids(next, "functionResponse"), asked, "{next}");
    }
    assert_eq!(calls, 2, "both calls are in the history");
}

// ---- opencode ------------------------------------------------------------------------------

/// The real opencode keeps a run in its SQLite store; Squash imports the store, writes the
/// session as a document that the real `opencode import` takes, and the real `opencode run
/// --session` sends the history with every call answered.
#[tokio::test]
async fn opencode_stores_import_and_the_real_opencode_resumes_what_squash_writes() {
    let Some(opencode) = Agent::find(AgentKind::Opencode) else {
        return;
    };
    let sandbox = Sandbox::new();
    let out_file = sandbox.cwd.join("out.txt").display().to_string();
    let server = ChatServer::start(vec![
        Turn {
            text: Some("Writing the probe.".into()),
            calls: vec![(
                "call_probe_1".into(),
                "bash".into(),
                json!({"command": probe_command(), "description": "Write the probe"}),
            )],
        },
        Turn::call("call_read_2", "read", json!({"filePath": out_file})),
        Turn::text(ANSWER),
    ])
    .await;
    let output = sandbox
        .opencode(&opencode, &server.base_url(), &[], PROMPT)
        .await;
    assert_ran(&output, "opencode run");
    assert_eq!(server.unserved(), 0, "{:#?}", server.turns());
    let db = sandbox.opencode_data().join("opencode.db");
    assert!(
        db.is_file(),
        "opencode keeps its sessions in {}",
        db.display()
    );

    let report = squash_json(&sandbox, &opencode.bin, &["import", &db.to_string_lossy()]).await;
    assert_eq!(
        report["summary"]["file_reports"][0]["format"],
        json!("opencode")
    );
    let records = report["summary"]["file_reports"][0]["lines"]
        .as_u64()
        .unwrap() as usize;
    let conversation = imported(&report, records);
    assert_eq!(
        report["totals"]["counts"]["tool_calls"],
        json!(2),
        "{report}"
    );

    let document = sandbox.home.join("handed.json");
    let export = squash_json(
        &sandbox,
        &opencode.bin,
        &[
            "export",
            &conversation,
            "--format",
            "opencode",
            "-o",
            &document.to_string_lossy(),
        ],
    )
    .await;
    let session = export["report"]["session_id"]
        .as_str()
        .expect("a session id");
    let imported = sandbox
        .opencode_cli(&opencode, &["import", &document.to_string_lossy()])
        .await;
    assert_ran(&imported, "opencode import");

    let resumed = ChatServer::start(vec![Turn::text(RESUMED)]).await;
    let output = sandbox
        .opencode(
            &opencode,
            &resumed.base_url(),
            &["--session", session],
            "go on",
        )
        .await;
    assert_ran(&output, "opencode run --session");
    assert!(String::from_utf8_lossy(&output.stdout).contains(RESUMED));
    let turns = resumed.turns();
    assert_eq!(turns.len(), 1, "{turns:#?}");
    let messages = turns[0]["messages"].as_array().expect("messages");
    let history = serde_json::to_string(messages).unwrap();
    assert!(
        history.contains(PROMPT) && history.contains(ANSWER),
        "{history}"
    );
    assert_chat_pairing(messages, 2);
    assert!(history.contains(PROBE), "{history}");
}

/// Every assistant `tool_calls` entry is answered by the `tool` messages right after it.
fn assert_chat_pairing(messages: &[Value], expected: usize) {
    let mut calls = 0;
    for (i, m) in messages.iter().enumerate() {
        let Some(asked) = m["tool_calls"].as_array() else {
            continue;
        };
        let asked: Vec<&str> = asked.iter().filter_map(|c| c["id"].as_str()).collect();
        calls += asked.len();
        let answered: Vec<&str> = messages[i + 1..]
            .iter()
            .take_while(|r| r["role"] == "tool")
            .filter_map(|r| r["tool_call_id"].as_str())
            .collect();
        assert_eq!(
            answered, asked,
            "the calls of message {i} are answered right after it"
        );
    }
    assert_eq!(calls, expected, "{messages:#?}");
}

// ---- Handoff between Claude Code and Codex -------------------------------------------------

/// A session the real Claude Code wrote (a Bash call, a Read, an answer) handed to the real
/// Codex: the Bash call becomes Codex's `exec_command` with its output, the Read (Codex has no
/// such tool) text that says what it was, and `codex exec resume` sends it all.
#[tokio::test]
async fn a_claude_session_is_handed_to_the_real_codex() {
    let Some((claude, codex)) = Agent::find_both(AgentKind::Claude, AgentKind::Codex) else {
        return;
    };
    let sandbox = Sandbox::new();
    let server = AnthropicServer::start(vec![
        vec![
            Block::text("I'll write the probe file."),
            Block::tool_use(
                "toolu_probe_bash",
                "Bash",
                json!({"command": probe_command(), "description": "Write the probe"}),
            ),
        ],
        vec![Block::tool_use(
            "toolu_probe_read",
            "Read",
            json!({"file_path": sandbox.cwd.join("out.txt").to_string_lossy()}),
        )],
        vec![Block::text(ANSWER)],
    ])
    .await;
    let output = sandbox
        .claude(&claude, &server.base_url(), &[], PROMPT)
        .await;
    assert_ran(&output, "claude -p");
    let files = session_files(&sandbox.claude_config().join("projects"));
    assert_eq!(files.len(), 1, "{files:?}");
    let session = &files[0];

    let report = squash_json(
        &sandbox,
        &codex.bin,
        &[
            "resume",
            &session.to_string_lossy(),
            "--agent",
            "codex",
            "--dry-run",
        ],
    )
    .await;
    assert_eq!(report["agent"], json!("codex"), "{report}");
    let new_id = report["written"]["session_id"]
        .as_str()
        .expect("a new rollout");
    assert_eq!(verb_of(&report), "resume");
    let handoff = &report["written"]["report"]["handoff"];
    assert_eq!(handoff["calls_mapped"], json!(1), "{handoff}");
    assert_eq!(handoff["calls_as_text"], json!(1), "{handoff}");
    assert!(session_files(&sandbox.codex_home().join("sessions"))
        .iter()
        .any(|p| p.to_string_lossy().contains(new_id)));

    let resumed = ResponsesServer::start(vec![vec![Item::message(RESUMED)]]).await;
    let output = sandbox
        .codex(&codex, &resumed.base_url(), &["resume", new_id], "go on")
        .await;
    assert_ran(&output, "codex exec resume NEW");
    assert!(String::from_utf8_lossy(&output.stdout).contains(RESUMED));
    let sent = resumed.response_requests();
    assert_eq!(sent.len(), 1, "{sent:#?}");
    let input = sent[0]["input"].as_array().expect("input");
    let history = serde_json::to_string(input).unwrap();
    assert!(
        history.contains(PROMPT) && history.contains(ANSWER),
        "{history}"
    );
    let calls: Vec<&Value> = input
        .iter()
        .filter(|i| i["type"] == "function_call")
        .collect();
    assert_eq!(calls.len(), 1, "{history}");
    assert_eq!(calls[0]["name"], "exec_command");
    let args: Value = serde_json::from_str(calls[0]["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(args["cmd"], json!(probe_command()));
    let output_of = input
        .iter()
        .find(|i| i["type"] == "function_call_output" && i["call_id"] == calls[0]["call_id"])
        .expect("the call is answered");
    assert!(output_of.to_string().contains(PROBE));
    assert!(
        history.contains("`Read`"),
        "the Read is told as text: {history}"
    );
}

/// A rollout the real Codex wrote (an `exec_command` call and an answer) handed to the real
/// Claude Code: the call becomes Claude Code's `Bash` with its result, and `claude --resume`
/// sends a history the Messages API accepts.
#[tokio::test]
async fn a_codex_rollout_is_handed_to_the_real_claude() {
    let Some((claude, codex)) = Agent::find_both(AgentKind::Claude, AgentKind::Codex) else {
        return;
    };
    let sandbox = Sandbox::new();
    let server = ResponsesServer::start(vec![
        vec![Item::call(
            "call_probe",
            "exec_command",
            json!({"cmd": probe_command()}),
        )],
        vec![Item::message(ANSWER)],
    ])
    .await;
    let output = sandbox.codex(&codex, &server.base_url(), &[], PROMPT).await;
    assert_ran(&output, "codex exec");
    let rollouts = session_files(&sandbox.codex_home().join("sessions"));
    assert_eq!(rollouts.len(), 1, "{rollouts:?}");

    let report = squash_json(
        &sandbox,
        &claude.bin,
        &[
            "resume",
            &rollouts[0].to_string_lossy(),
            "--agent",
            "claude",
            "--dry-run",
        ],
    )
    .await;
    assert_eq!(report["agent"], json!("claude"), "{report}");
    let new_id = report["written"]["session_id"]
        .as_str()
        .expect("a new session");
    assert_eq!(verb_of(&report), "--resume");
    assert_eq!(
        report["written"]["report"]["handoff"]["calls_mapped"],
        json!(1)
    );

    let resumed = AnthropicServer::start(vec![vec![Block::text(RESUMED)]]).await;
    let output = sandbox
        .claude(&claude, &resumed.base_url(), &["--resume", new_id], "go on")
        .await;
    assert_ran(&output, "claude --resume NEW");
    assert!(String::from_utf8_lossy(&output.stdout).contains(RESUMED));
    let sent = resumed.agent_requests();
    assert_eq!(sent.len(), 1, "{sent:#?}");
    let messages = sent[0]["messages"].as_array().expect("messages").clone();
    let shaped: Vec<Value> = messages
        .iter()
        .map(|m| {
            let content = match &m["content"] {
                Value::String(s) => json!([{"type": "text", "text": s}]),
                other => other.clone(),
            };
            json!({"role": m["role"], "content": content})
        })
        .collect();
    squash_testkit::assert_api_pairing(&shaped);
    let history = serde_json::to_string(&messages).unwrap();
    assert!(
        history.contains(PROMPT) && history.contains(ANSWER),
        "{history}"
    );
    let bash = messages
        .iter()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .find(|b| b["type"] == "tool_use")
        .expect("a tool_use in the history");
    assert_eq!(bash["name"], "Bash");
    assert_eq!(bash["input"]["command"], json!(probe_command()));
    assert!(history.contains(PROBE), "its result is sent: {history}");
}

/// The word of a resume's command that resumes the session: the first after the recall
/// server's registration (`--mcp-config …`, `-c mcp_servers.…`), which comes before it.
fn verb_of(report: &Value) -> &str {
    let words: Vec<&str> = report["command"]
        .as_array()
        .expect("the command")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    words
        .iter()
        .copied()
        .find(|w| *w == "resume" || *w == "--resume")
        .expect("a resume verb")
}
