//! `squash recall` and `squash mcp` through the binary: a real session is imported and fitted;
//! the references its thread shows give the originals back on the command line and, through
//! the MCP Inspector's CLI (an independent client of the protocol), over MCP.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use squash_testkit::agents::{Agent, AgentKind};
use squash_testkit::cli::{one_line_failure, stderr, stdout};

/// A real Claude Code session (its thread after its own compaction, 13.6k tokens), imported and
/// fitted to a fifth of its tokens: its id.
fn fitted(sandbox: &squash_testkit::cli::Sandbox) -> String {
    let session = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../testdata/sessions/claude-code-compacted-53ea1606/53ea1606-cf60-417b-928a-068324ecc7b3.jsonl",
    );
    let out = sandbox.import(&session, "claude-code");
    assert!(out.status.success(), "{}", one_line_failure(&out));
    let listed = &sandbox.conversations()[0];
    let conv = listed["conversation"]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    let budget = (listed["tokens"].as_u64().expect("tokens") / 5).to_string();
    sandbox.ok(&["fit", &conv, "--budget", &budget]);
    conv
}

#[test]
fn recall_shows_the_originals_behind_a_reference_and_refuses_what_is_none() {
    let sandbox = crate::sandbox();
    let conv = fitted(&sandbox);
    let shown = sandbox.ok(&["conversation", "show", &conv]);
    assert!(
        shown.contains("[ref 2]"),
        "the fitted thread shows its references: {shown}"
    );

    let page = sandbox.json(&["recall", &conv, "[ref 1]", "-n", "5"]);
    assert_eq!(page["recall_ref"], 1);
    assert_eq!(page["offset"], 0);
    assert!(page["messages"].as_u64().unwrap_or(0) >= 1, "{page}");
    assert_eq!(
        page["text"].as_str().unwrap_or("").lines().count(),
        5,
        "{page}"
    );
    let text = sandbox.ok(&["recall", &conv, "1", "-n", "3"]);
    assert!(text.contains("more lines: squash recall"), "{text}");

    for (args, says) in [
        (
            vec!["recall", &conv, "9999"],
            "no [ref 9999] in this conversation",
        ),
        (vec!["recall", &conv, "zero"], "is no recall reference"),
        (
            vec!["recall", &conv, "1", "--offset", "99999999"],
            "a page starts at 0 to",
        ),
        (vec!["recall", &conv, "1", "-n", "0"], "1 to 2000 lines"),
    ] {
        let out = sandbox.run(&args);
        assert!(!out.status.success(), "{args:?} must fail");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
    let no_scope = sandbox.run(&["mcp"]);
    assert_eq!(no_scope.status.code(), Some(2), "{}", stderr(&no_scope));
}

/// `mcp-inspector --cli … -- squash mcp --conversation C` with the database in its environment.
fn inspect(inspector: &Path, db: &Path, conv: &str, method: &[&str]) -> std::process::Output {
    Command::new(inspector)
        .arg("--cli")
        .arg("-e")
        .arg(format!("SQUASH_DB={}", db.display()))
        .args(["-e", "SQUASH_LOCAL_SERVERS=none", "--method"])
        .args(method)
        .args([
            "--",
            env!("CARGO_BIN_EXE_squash"),
            "mcp",
            "--conversation",
            conv,
        ])
        .output()
        .expect("run the MCP Inspector")
}

/// `tools/call TOOL` with `args` (`name=value` each) through the Inspector.
fn call_tool(
    inspector: &Path,
    db: &Path,
    conv: &str,
    tool: &str,
    args: &[&str],
) -> std::process::Output {
    let mut method = vec!["tools/call", "--tool-name", tool];
    for a in args {
        method.extend(["--tool-arg", a]);
    }
    inspect(inspector, db, conv, &method)
}

#[test]
fn an_independent_mcp_client_lists_the_tools_and_recalls_through_squash_mcp() {
    let Some(inspector) = Agent::find(AgentKind::McpInspector) else {
        return;
    };
    let sandbox = crate::sandbox();
    let conv = fitted(&sandbox);
    let db = sandbox.path("squash.db");

    let listed = inspect(&inspector.bin, &db, &conv, &["tools/list"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    let tools: Value = serde_json::from_str(&stdout(&listed)).expect("JSON");
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"recall"), "{names:?}");
    let recall = tools["tools"]
        .as_array()
        .and_then(|ts| ts.iter().find(|t| t["name"] == "recall"))
        .expect("recall");
    assert_eq!(
        recall["inputSchema"]["required"],
        serde_json::json!(["ref"])
    );
    assert_eq!(recall["annotations"]["readOnlyHint"], true);

    let called = call_tool(&inspector.bin, &db, &conv, "recall", &["ref=1", "limit=4"]);
    assert!(called.status.success(), "{}", stderr(&called));
    let answer: Value = serde_json::from_str(&stdout(&called)).expect("JSON");
    assert_eq!(answer["isError"], false, "{answer}");
    let text = answer["content"][0]["text"].as_str().expect("text");
    assert!(text.starts_with("[ref 1] stands for"), "{text}");
    assert!(text.contains("lines 1–4 of"), "{text}");

    let searched = call_tool(
        &inspector.bin,
        &db,
        &conv,
        "search",
        &["query=review", "limit=2"],
    );
    assert!(searched.status.success(), "{}", stderr(&searched));
    let answer: Value = serde_json::from_str(&stdout(&searched)).expect("JSON");
    let text = answer["content"][0]["text"].as_str().expect("text");
    assert!(text.starts_with("hits 1–2 of"), "{text}");

    let unknown = call_tool(&inspector.bin, &db, &conv, "recall", &["ref=9999"]);
    assert!(!unknown.status.success());
    let said = format!("{}{}", stdout(&unknown), stderr(&unknown));
    assert!(
        said.contains("no [ref 9999] in this conversation"),
        "{said}"
    );
}
