//! Recall in the agents whose MCP support `squash resume` registers without a command-line
//! flag: a Claude Code session handed over to the real Gemini CLI (its recall server through a
//! settings layer of Squash's own), and an opencode session resumed in the real opencode (the
//! server in `OPENCODE_CONFIG_CONTENT`); each loopback model calls `recall`, and the original's
//! lines reach it in the next request.

use crate::real_resume::two_turns;
use crate::squash_with_agent as squash;
use serde_json::json;
use squash_testkit::agents::chat::{ChatServer, Turn};
use squash_testkit::agents::cli::assert_ran;
use squash_testkit::agents::gemini::{self, GeminiServer};
use squash_testkit::agents::{Agent, AgentKind, Sandbox};

#[tokio::test]
async fn the_real_gemini_recalls_through_squash_mcp_after_a_handoff() {
    let Some((claude, gemini_cli)) = Agent::find_both(AgentKind::Claude, AgentKind::Gemini) else {
        return;
    };
    let sandbox = Sandbox::new();
    two_turns(&claude, &sandbox).await;
    let server = GeminiServer::start(vec![
        // Gemini CLI offers an MCP server's tools as `mcp_<server>_<tool>`.
        vec![gemini::call(
            "mcp_squash_recall",
            json!({"ref": "1", "offset": 740, "limit": 20}),
        )],
        vec![gemini::text("Recalled.")],
    ])
    .await;
    // Gemini CLI skips a settings file below a directory others may write (/tmp and anything
    // under it, which a checkout in /tmp and its target/ are): Squash's files go where the
    // person's data directory would be, here in a temporary folder of the real home.
    let home = std::env::var_os("HOME").expect("a home directory");
    let data = tempfile::Builder::new()
        .prefix(".squash-test-data-")
        .tempdir_in(home)
        .expect("a data directory");
    let output = squash(&sandbox, &gemini_cli.bin)
        .env("XDG_DATA_HOME", data.path())
        .env("GOOGLE_GEMINI_BASE_URL", server.base_url())
        .env("GEMINI_API_KEY", "test")
        .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
        .args(["resume", &claude_session(&sandbox), "--agent", "gemini"])
        .args([
            "--strategy",
            "mask",
            "--keep-last",
            "1",
            "--budget",
            "3k",
            "--",
        ])
        .args(["--yolo", "-p", "go on"])
        .output()
        .await
        .expect("run squash resume");
    assert_ran(&output, "squash resume --agent gemini");
    let turns = server.turns();
    assert!(turns.len() >= 2, "{turns:#?}");
    let tools = serde_json::to_string(&turns[0]["tools"]).unwrap();
    assert!(tools.contains("\"mcp_squash_recall\""), "{tools}");
    let history = serde_json::to_string(&turns[1]["contents"]).unwrap();
    for line in ["lines 741–760 of 1501", "report line 750"] {
        assert!(history.contains(line), "{line} in {history}");
    }
}

/// The real opencode runs a long command; `squash resume` of its store trims the output and
/// starts opencode on the fitted session, whose model recalls the middle of the output.
#[tokio::test]
async fn the_real_opencode_recalls_through_squash_mcp() {
    let Some(opencode) = Agent::find(AgentKind::Opencode) else {
        return;
    };
    let sandbox = Sandbox::new();
    let first = ChatServer::start(vec![
        Turn::call(
            "call_report",
            "bash",
            json!({"command": "seq 1 1500 | sed 's/^/report line /'", "description": "Report"}),
        ),
        Turn::text("The report has 1500 lines."),
    ])
    .await;
    let output = sandbox
        .opencode(&opencode, &first.base_url(), &[], "Make the report.")
        .await;
    assert_ran(&output, "opencode run");
    let server = ChatServer::start(vec![
        // opencode offers an MCP server's tools as `<server>_<tool>`.
        Turn::call(
            "call_recall",
            "squash_recall",
            json!({"ref": "1", "offset": 740, "limit": 20}),
        ),
        Turn::text("Recalled."),
    ])
    .await;
    // Before the resume: the document Squash writes names the model of the project's
    // configuration, and opencode goes on with a session's last model (one it does not know
    // fails the run with "Unexpected server error").
    sandbox.opencode_config(&server.base_url());
    let store = sandbox.opencode_data().join("opencode.db");
    let output = squash(&sandbox, &opencode.bin)
        .env("OPENCODE_DISABLE_AUTOUPDATE", "1")
        .args(["resume", &store.to_string_lossy(), "--agent", "opencode"])
        .args(["--strategy", "mask", "--budget", "3k", "--"])
        // `opencode --session ID run PROMPT`: one turn, without the terminal interface.
        .args(["run", "go on"])
        .output()
        .await
        .expect("run squash resume");
    assert_ran(&output, "squash resume --agent opencode");
    let turns = server.turns();
    assert_eq!(turns.len(), 2, "{turns:#?}");
    let tools = serde_json::to_string(&turns[0]["tools"]).unwrap();
    assert!(tools.contains("\"squash_recall\""), "{tools}");
    let fitted = serde_json::to_string(&turns[0]["messages"]).unwrap();
    assert!(
        fitted.contains("ref 1") && !fitted.contains("report line 750\\n"),
        "the output is trimmed: {fitted}"
    );
    let recalled = turns[1]["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == "call_recall")
        .and_then(|m| m["content"].as_str())
        .expect("the recall's result");
    for line in ["lines 741–760 of 1501", "report line 750\n"] {
        assert!(recalled.contains(line), "{line} in {recalled}");
    }
}

/// The Claude Code session the sandbox holds.
fn claude_session(sandbox: &Sandbox) -> String {
    let files =
        squash_testkit::agents::cli::session_files(&sandbox.claude_config().join("projects"));
    files
        .into_iter()
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .expect("a session")
        .to_string_lossy()
        .into_owned()
}
