//! Codex: the real CLI's rollout imported, a call and its output squashed, exported as a new
//! rollout beside the original and resumed with `codex exec resume NEW`; what the CLI then sends
//! the model is the squashed history.

use serde_json::Value;
use squash_app::{ExportFormat, ExportOptions};
use squash_formats::sha256_hex;

use super::{
    backends, codex_output_sent, codex_rollout, squash_pair_and_export, CodexRun, CODEX_FIRST,
    FAIL_CALL, PROBE, PROMPT, RESUMED, WRITE_CALL,
};
use squash_testkit::agents::cli::assert_ran;
use squash_testkit::agents::openai::{Item, ResponsesServer};
use squash_testkit::agents::{Agent, AgentKind};
use squash_testkit::Backend;

const SQUASHED: &str = "Wrote squash-probe-42 into out.txt with exec_command.";

fn sha256_of(path: &std::path::Path) -> String {
    sha256_hex(&std::fs::read(path).expect("the rollout"))
}

/// Squashes the write call and its output, exports the thread as a new rollout in the sandbox's
/// Codex home and returns its id.
async fn export_squashed(b: &Backend, run: &CodexRun) -> String {
    let session_id = uuid::Uuid::now_v7().to_string();
    let options = ExportOptions {
        session_id: Some(session_id.clone()),
        cwd: Some(run.sandbox.cwd.to_string_lossy().into_owned()),
        ..ExportOptions::new(ExportFormat::Codex)
    };
    let out = squash_pair_and_export(b, &run.rollout, (WRITE_CALL, SQUASHED), &options).await;
    let path = squash_app::export::rollout_path(
        &run.sandbox.codex_home(),
        &session_id,
        &chrono::Local::now(),
    );
    assert!(!path.exists(), "a new session: {}", path.display());
    std::fs::create_dir_all(path.parent().expect("a day directory")).unwrap();
    std::fs::write(&path, &out).unwrap();
    session_id
}

/// The text of a message item's parts.
fn text_of(item: &Value) -> String {
    squash_testkit::content_text(&item["content"], "")
}

/// The history the resumed CLI sent: the squash in, the squashed call, its output and the text
/// around it out, every call answered, the first request and the rest as the first run sent it.
fn check_resumed_input(input: &[Value], run: &CodexRun) {
    let sent = serde_json::to_string(input).unwrap();
    let first_run = run.server.response_requests();
    let write_output = codex_output_sent(&first_run, WRITE_CALL);
    assert!(sent.contains(SQUASHED), "{sent}");
    for gone in [
        WRITE_CALL,
        CODEX_FIRST,
        "echo squash-probe-42",
        write_output.as_str(),
    ] {
        assert!(!sent.contains(gone), "{gone} is still sent: {sent}");
    }
    // Every call has its output, right after it; none is left over.
    let mut open: Vec<&str> = Vec::new();
    for item in input {
        let id = item["call_id"].as_str().unwrap_or("");
        match item["type"].as_str() {
            Some("function_call") => open.push(id),
            Some("function_call_output") => {
                assert_eq!(open.pop(), Some(id), "{sent}");
            }
            _ => {}
        }
    }
    assert!(open.is_empty(), "{open:?}");
    // The failed call and its output as the first run sent them.
    let fail = |items: &[Value]| -> Vec<Value> {
        items
            .iter()
            .filter(|i| i["call_id"] == FAIL_CALL)
            .map(|i| {
                serde_json::json!({"type": i["type"], "name": i["name"],
                    "arguments": serde_json::from_str::<Value>(i["arguments"].as_str().unwrap_or("null")).ok(),
                    "output": i["output"]})
            })
            .collect()
    };
    let before = first_run
        .last()
        .and_then(|b| b["input"].as_array())
        .unwrap();
    assert_eq!(fail(input), fail(before));
    assert_eq!(fail(input).len(), 2);
    // The first request, verbatim, as the first thing the user typed.
    let users: Vec<String> = input
        .iter()
        .filter(|i| i["type"] == "message" && i["role"] == "user")
        .map(text_of)
        .collect();
    let typed: Vec<&String> = users
        .iter()
        .filter(|t| !t.starts_with("<environment_context>"))
        .collect();
    assert_eq!(typed.first().map(|t| t.as_str()), Some(PROMPT), "{users:?}");
    // The context the first run gave is not given again (its record came along).
    let contexts = users
        .iter()
        .filter(|t| t.starts_with("<environment_context>"))
        .count();
    assert_eq!(contexts, 1, "{users:?}");
    assert!(sent.contains(PROBE));
    let last = input.last().expect("the new prompt");
    assert_eq!(
        (&last["role"], text_of(last).as_str()),
        (&"user".into(), "go on")
    );
}

async fn resume_squashed(b: &Backend, codex: &Agent, run: &CodexRun) {
    let session_id = export_squashed(b, run).await;
    let server = ResponsesServer::start(vec![vec![Item::message(RESUMED)]]).await;
    let output = run
        .sandbox
        .codex(codex, &server.base_url(), &["resume", &session_id], "go on")
        .await;
    assert_ran(&output, "codex exec resume");
    assert!(String::from_utf8_lossy(&output.stdout).contains(RESUMED));
    let sent = server.response_requests();
    assert_eq!(sent.len(), 1, "{sent:#?}");
    check_resumed_input(sent[0]["input"].as_array().expect("input"), run);
}

#[tokio::test]
async fn a_squashed_codex_export_resumes_in_the_real_cli() {
    let Some(codex) = Agent::find(AgentKind::Codex) else {
        return;
    };
    let run = codex_rollout(&codex).await;
    let original = sha256_of(&run.rollout);
    for b in backends().await {
        resume_squashed(&b, &codex, &run).await;
        assert_eq!(
            sha256_of(&run.rollout),
            original,
            "the original is untouched"
        );
        eprintln!("{}: ok", b.name);
        b.cleanup().await;
    }
}
