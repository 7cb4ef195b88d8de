//! `squash resume` with the real Claude Code CLI, end to end: Claude Code runs two turns against a
//! loopback Anthropic server (really running the scripted shell commands, whose long outputs
//! land in its own session file); `squash resume` finds that session from the working directory,
//! masks the old outputs, writes a new session beside the original and execs
//! `claude --resume NEW`; the request the resumed CLI sends is checked: the masked outputs are
//! gone, their placeholders are there, every call has its result, the first request and the
//! last turn are verbatim, and the original session file is unchanged.

#[path = "../../squash-app/tests/agents/mod.rs"]
mod agents;
#[path = "../../squash-app/tests/agents/pairing.rs"]
mod pairing;

use std::path::{Path, PathBuf};

use agents::anthropic::{AnthropicServer, Block};
use agents::cli::{assert_ran, session_files};
use agents::{Agent, AgentKind, Sandbox};
use serde_json::{json, Value};

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

/// The directory holding `claude` first on PATH, so `squash resume` finds the real one.
fn path_with(bin: &Path) -> std::ffi::OsString {
    let dir = bin.parent().expect("bin dir").to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(dir).chain(std::env::split_paths(&rest))).expect("PATH")
}

async fn two_turns(claude: &Agent, sandbox: &Sandbox) -> (PathBuf, Vec<Value>) {
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
    let db = sandbox.home.join("squash.db");
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_squash"))
        .current_dir(&sandbox.cwd)
        .env_clear()
        .env("HOME", &sandbox.home)
        .env("PATH", path_with(&claude.bin))
        .env("LANG", "C.UTF-8")
        .env("CLAUDE_CONFIG_DIR", sandbox.claude_config())
        .env("ANTHROPIC_BASE_URL", server.base_url())
        .env("ANTHROPIC_API_KEY", "test")
        .env("IS_SANDBOX", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("DISABLE_TELEMETRY", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("SQUASH_LOCAL_SERVERS", "none")
        .arg("--db")
        .arg(&db)
        .args(["resume", "--agent", "claude", "--strategy", "mask"])
        .args(["--keep-last", "1", "--budget", "3k", "--"])
        .args(["--dangerously-skip-permissions", "-p", "go on"])
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .expect("run squash resume");
    assert_ran(&output, "squash resume");
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
    pairing::assert_api_pairing(&shaped);
    let history = serde_json::to_string(&messages).unwrap();
    for gone in ["report line 750", "row 2750", "report line 1497"] {
        assert!(!history.contains(gone), "{gone} is still sent");
    }
    assert_eq!(
        history.matches("[output masked by squash:").count(),
        2,
        "both old outputs are placeholders: {history}"
    );
    for kept in ["report line 1", "report line 1500", "row 2000", "row 3500"] {
        assert!(
            history.contains(kept),
            "a placeholder keeps the first and last lines: {kept}"
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
