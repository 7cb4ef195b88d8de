//! `squash resume` with the real Claude Code CLI, end to end: Claude Code runs two turns against a
//! loopback Anthropic server (really running the scripted shell commands, whose long outputs
//! land in its own session file); `squash resume` finds that session from the working directory,
//! trims the old outputs (`--strategy mask`: to the lines that carry facts), writes a new session
//! beside the original and execs `claude --resume NEW`; the request the resumed CLI sends is
//! checked: the middles of the outputs are gone, the trim markers are there, every call has its
//! result, the first request and the
//! last turn are verbatim, and the original session file is unchanged.

use std::path::{Path, PathBuf};

use crate::squash_with_agent as squash;
use serde_json::{json, Value};
use squash_testkit::agents::anthropic::{AnthropicServer, Block};
use squash_testkit::agents::cli::{assert_ran, session_files};
use squash_testkit::agents::openai::{Item, ResponsesServer};
use squash_testkit::agents::{Agent, AgentKind, Sandbox};

const FIRST: &str = "Count the lines of the two generated reports.";
const SECOND: &str = "Now write the probe.";
const ANSWER_1: &str = "Both reports are generated: 1500 and 1501 lines.";
const ANSWER_2: &str = "The probe is written.";
const RESUMED: &str = "Resumed with a smaller history.";
const PROBE: &str = "resume-probe-7";

fn script_one() -> Vec<Vec<Block>> {
    vec![
        vec![Block::tool_use(
            "toolu_report_a",
            "Bash",
            json!({"command": "seq 1 1500 | sed 's/^/report line /'", "description": "Report A"}),
        )],
        vec![Block::tool_use(
            "toolu_report_b",
            "Bash",
            json!({"command": "seq 2000 3500 | sed 's/^/row /'", "description": "Report B"}),
        )],
        vec![Block::text(ANSWER_1)],
    ]
}

fn script_two() -> Vec<Vec<Block>> {
    vec![
        vec![Block::tool_use(
            "toolu_probe",
            "Bash",
            json!({"command": format!("echo {PROBE}"), "description": "Probe"}),
        )],
        vec![Block::text(ANSWER_2)],
    ]
}

fn blocks(message: &Value) -> Vec<Value> {
    match &message["content"] {
        Value::Array(b) => b.clone(),
        Value::String(s) => vec![json!({"type": "text", "text": s})],
        _ => Vec::new(),
    }
}

/// Blocks without the cache markers the CLI moves between requests.
fn plain(message: &Value) -> Vec<Value> {
    blocks(message)
        .into_iter()
        .map(|mut b| {
            if let Some(o) = b.as_object_mut() {
                o.remove("cache_control");
            }
            b
        })
        .collect()
}

fn sha256(path: &Path) -> String {
    squash_formats::sha256_hex(&std::fs::read(path).expect("session file"))
}

pub(crate) async fn two_turns(claude: &Agent, sandbox: &Sandbox) -> (PathBuf, Vec<Value>) {
    let one = AnthropicServer::start(script_one()).await;
    let out = sandbox.claude(claude, &one.base_url(), &[], FIRST).await;
    assert_ran(&out, "claude -p (turn 1)");
    let projects = sandbox.claude_config().join("projects");
    let first = session_files(&projects);
    assert_eq!(first.len(), 1, "{first:?}");
    let id = first[0].file_stem().unwrap().to_string_lossy().into_owned();
    let two = AnthropicServer::start(script_two()).await;
    let out = sandbox
        .claude(claude, &two.base_url(), &["--resume", &id], SECOND)
        .await;
    assert_ran(&out, "claude --resume -p (turn 2)");
    assert_eq!(two.unserved(), 0);
    // The session the second turn was written to: the most recently modified.
    let latest = session_files(&projects)
        .into_iter()
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .expect("a session");
    let sent = two.agent_requests();
    let last = sent.last().expect("turn 2 requests")["messages"]
        .as_array()
        .expect("messages")
        .clone();
    (latest, last)
}

#[tokio::test]
async fn squash_resume_masks_old_outputs_and_the_real_claude_resumes_it() {
    let Some(claude) = Agent::find(AgentKind::Claude) else {
        return;
    };
    let sandbox = Sandbox::new();
    let (session, turn_two) = two_turns(&claude, &sandbox).await;
    let original_hash = sha256(&session);
    let server = AnthropicServer::start(vec![vec![Block::text(RESUMED)]]).await;
    let output = resume_with_claude(&sandbox, &claude, &server).await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("starting: "), "{stdout}");
    assert!(
        stdout.contains(RESUMED),
        "the exec'd claude answered: {stdout}"
    );
    assert_eq!(
        sha256(&session),
        original_hash,
        "the original session is untouched"
    );
    let sessions = session_files(&sandbox.claude_config().join("projects"));
    assert!(
        sessions
            .iter()
            .any(|p| p != &session && p.parent() == session.parent()),
        "a new session beside the original: {sessions:?}"
    );

    let sent = server.agent_requests();
    assert_eq!(sent.len(), 1, "{sent:#?}");
    let messages = sent[0]["messages"].as_array().expect("messages").clone();
    let shaped: Vec<Value> = messages
        .iter()
        .map(|m| json!({"role": m["role"], "content": blocks(m)}))
        .collect();
    squash_testkit::assert_api_pairing(&shaped);
    let history = serde_json::to_string(&messages).unwrap();
    for gone in ["report line 750", "row 2750", "report line 1497"] {
        assert!(!history.contains(gone), "{gone} is still sent");
    }
    assert_eq!(
        history.matches("[trimmed by squash:").count(),
        2,
        "both old outputs are trimmed: {history}"
    );
    for kept in ["report line 1", "report line 1500", "row 2000", "row 3500"] {
        assert!(
            history.contains(kept),
            "a trimmed output keeps its first and last lines: {kept}"
        );
    }
    // The first request, verbatim.
    let first_text: Vec<String> = plain(&messages[0])
        .iter()
        .filter_map(|b| b["text"].as_str().map(|t| t.trim_end().to_owned()))
        .collect();
    assert!(first_text.iter().any(|t| t == FIRST), "{first_text:?}");
    // The last turn, verbatim: from the second request on, as the CLI sent it in turn 2.
    let at = |ms: &[Value]| {
        ms.iter()
            .position(|m| {
                plain(m)
                    .iter()
                    .any(|b| b["text"].as_str().is_some_and(|t| t.trim_end() == SECOND))
            })
            .expect("the second request")
    };
    let before: Vec<Vec<Value>> = turn_two[at(&turn_two)..].iter().map(plain).collect();
    let now: Vec<Vec<Value>> = messages[at(&messages)..].iter().map(plain).collect();
    assert_eq!(now[..before.len()], before[..], "the last turn is verbatim");
    assert!(history.contains(PROBE) && history.contains(ANSWER_2));
}

const CODEX_FIRST: &str = "Generate the report and count it.";
const CODEX_SECOND: &str = "Check the probe.";

/// Codex writes a two-turn rollout (a long output in the first turn); `squash resume --agent
/// codex --dry-run` masks it into a new rollout, which the real `codex exec resume NEW` takes.
#[tokio::test]
async fn squash_resume_masks_a_codex_rollout_and_the_real_codex_resumes_it() {
    let Some(codex) = Agent::find(AgentKind::Codex) else {
        return;
    };
    let sandbox = Sandbox::new();
    let one = ResponsesServer::start(vec![
        vec![Item::call(
            "call_report",
            "exec_command",
            json!({"cmd": "seq 1 1500 | sed 's/^/report line /'"}),
        )],
        vec![Item::message(ANSWER_1)],
    ])
    .await;
    assert_ran(
        &sandbox
            .codex(&codex, &one.base_url(), &[], CODEX_FIRST)
            .await,
        "codex exec (turn 1)",
    );
    let sessions = sandbox.codex_home().join("sessions");
    let first = session_files(&sessions);
    assert_eq!(first.len(), 1, "{first:?}");
    let stem = first[0].file_stem().unwrap().to_string_lossy().into_owned();
    let id = stem[stem.len() - 36..].to_owned();
    let two = ResponsesServer::start(vec![
        vec![Item::call(
            "call_probe",
            "exec_command",
            json!({"cmd": format!("echo {PROBE}")}),
        )],
        vec![Item::message(ANSWER_2)],
    ])
    .await;
    assert_ran(
        &sandbox
            .codex(&codex, &two.base_url(), &["resume", &id], CODEX_SECOND)
            .await,
        "codex exec resume (turn 2)",
    );
    let original = session_files(&sessions)
        .into_iter()
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .expect("a rollout");
    let hash = sha256(&original);

    let output = squash(&sandbox, &codex.bin)
        .args(["--json", "resume", "--agent", "codex", "--strategy", "mask"])
        .args(["--keep-last", "1", "--budget", "3k", "--dry-run"])
        .output()
        .await
        .expect("run squash resume");
    assert_ran(&output, "squash resume --dry-run");
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(sha256(&original), hash, "the original rollout is untouched");
    let new_id = report["written"]["session_id"]
        .as_str()
        .expect("a new rollout");
    // `codex [-c mcp_servers.squash.… ] resume NEW`: the recall server's registration first.
    let command: Vec<&str> = report["command"]
        .as_array()
        .expect("the command")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let at = command.iter().position(|w| *w == "resume").expect("resume");
    assert_eq!(command[at + 1], new_id);
    let overrides = &command[1..at];
    assert!(
        overrides
            .iter()
            .any(|o| o.starts_with("mcp_servers.squash.command=")),
        "{command:?}"
    );

    // The reference the trimmed report carries in the new rollout.
    let written = report["written"]["path"]
        .as_str()
        .expect("the rollout's path");
    let rollout = std::fs::read_to_string(written).expect("the new rollout");
    let line = rollout
        .lines()
        .find(|l| l.contains("[trimmed by squash:") && l.contains("report line 1500"))
        .expect("the trimmed report");
    let recall = squash_core::recall::refs_in(line)[0].get().to_string();
    // A line of the report that the original rollout holds (Codex itself keeps only the head
    // and tail of a long output) and the trim cut.
    let original_text = std::fs::read_to_string(&original).expect("the original rollout");
    let cut = (2..1500)
        .map(|n| format!("report line {n}\\n"))
        .find(|l| original_text.contains(l.as_str()) && !rollout.contains(l.as_str()))
        .expect("a cut line")
        .replace("\\n", "");

    // The model asks the recall server for the trimmed output's middle, then answers.
    let server = ResponsesServer::start(vec![
        vec![Item::namespaced_call(
            "call_recall",
            "mcp__squash",
            "recall",
            json!({"ref": recall, "limit": 2000}),
        )],
        vec![Item::message(RESUMED)],
    ])
    .await;
    let mut extra: Vec<&str> = overrides.to_vec();
    extra.extend(["resume", new_id]);
    let resumed = sandbox
        .codex(&codex, &server.base_url(), &extra, "go on")
        .await;
    assert_ran(&resumed, "codex exec resume NEW");
    assert!(String::from_utf8_lossy(&resumed.stdout).contains(RESUMED));
    let sent = server.response_requests();
    assert_eq!(sent.len(), 2, "{sent:#?}");
    let tools = serde_json::to_string(&sent[0]["tools"]).unwrap();
    assert!(
        tools.contains("recall"),
        "the recall tool is offered: {tools}"
    );
    let answer = sent[1]["input"]
        .as_array()
        .expect("input")
        .iter()
        .find(|i| i["type"] == "function_call_output" && i["call_id"] == "call_recall")
        .expect("the recall tool's output")
        .to_string();
    assert!(
        answer.contains(&format!("[ref {recall}] stands for a trimmed output")),
        "{answer}"
    );
    assert!(answer.contains(&format!("{cut}\\n")), "{cut} in {answer}");
    let input = sent[0]["input"].as_array().expect("input");
    let history = serde_json::to_string(input).unwrap();
    assert!(
        !history.contains("report line 750"),
        "the masked output is not sent"
    );
    assert!(history.contains("[trimmed by squash:"), "{history}");
    assert!(
        history.contains("report line 1500"),
        "its last line is kept"
    );
    assert!(history.contains(CODEX_FIRST) && history.contains(CODEX_SECOND));
    assert!(
        history.contains(PROBE) && history.contains(ANSWER_2),
        "the last turn is there"
    );
    let ids = |kind: &str| -> Vec<String> {
        input
            .iter()
            .filter(|i| i["type"] == kind)
            .filter_map(|i| i["call_id"].as_str().map(str::to_owned))
            .collect()
    };
    assert_eq!(
        ids("function_call"),
        ids("function_call_output"),
        "every call answered"
    );
    assert_eq!(ids("function_call").len(), 2);
}

/// What the fit cut stays one tool call away: `squash resume` starts the real Claude Code with
/// `squash mcp` registered; the loopback model calls its `recall` tool with the reference of
/// the first trimmed output (a page from its middle), and the CLI sends the original's cut
/// lines back in its next request.
#[tokio::test]
async fn the_real_claude_recalls_what_the_fit_trimmed_through_squash_mcp() {
    let Some(claude) = Agent::find(AgentKind::Claude) else {
        return;
    };
    let sandbox = Sandbox::new();
    let (_session, _) = two_turns(&claude, &sandbox).await;
    let server = AnthropicServer::start(vec![
        vec![Block::tool_use(
            "toolu_recall",
            "mcp__squash__recall",
            json!({"ref": "1", "offset": 740, "limit": 20}),
        )],
        vec![Block::text(RESUMED)],
    ])
    .await;
    resume_with_claude(&sandbox, &claude, &server).await;
    assert_eq!(server.unserved(), 0, "the model was asked twice");
    let sent = server.agent_requests();
    assert_eq!(sent.len(), 2, "{sent:#?}");

    let first = serde_json::to_string(&sent[0]["messages"]).unwrap();
    assert!(
        first.contains(&format!("ref 1: {}", squash_core::recall::HOW)),
        "the fitted thread says once how to recall: {first}"
    );
    assert!(
        !first.contains("report line 750"),
        "the cut lines are not sent"
    );
    let tools: Vec<&str> = sent[0]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(tools.contains(&"mcp__squash__recall"), "{tools:?}");

    // The tool's answer, as the CLI sends it back: the original output, the cut lines too.
    let messages = sent[1]["messages"].as_array().expect("messages");
    let answer = messages
        .last()
        .map(blocks)
        .unwrap_or_default()
        .into_iter()
        .find(|b| b["type"] == "tool_result" && b["tool_use_id"] == "toolu_recall")
        .expect("the recall tool's result");
    let text = serde_json::to_string(&answer["content"]).unwrap();
    assert!(answer["is_error"] != json!(true), "{text}");
    for line in [
        "[ref 1] stands for a trimmed output of 1 message; lines 741–760 of 1501",
        "report line 750",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
}

/// `squash resume` of the sandbox's latest Claude Code session (its old outputs masked, to
/// 3k tokens), which execs the real claude against `server` to go on.
async fn resume_with_claude(
    sandbox: &Sandbox,
    claude: &Agent,
    server: &AnthropicServer,
) -> std::process::Output {
    let output = squash(sandbox, &claude.bin)
        .env("ANTHROPIC_BASE_URL", server.base_url())
        .env("ANTHROPIC_API_KEY", "test")
        .env("IS_SANDBOX", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("DISABLE_TELEMETRY", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .args(["resume", "--agent", "claude", "--strategy", "mask"])
        .args(["--keep-last", "1", "--budget", "3k", "--"])
        .args(["--dangerously-skip-permissions", "-p", "go on"])
        .output()
        .await
        .expect("run squash resume");
    assert_ran(&output, "squash resume");
    output
}
