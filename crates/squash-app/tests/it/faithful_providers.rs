//! The faithful squash over the hosted providers' real protocols: the Anthropic Messages API
//! (a loopback server streaming server-sent events) and the Claude Code CLI (a stand-in
//! `claude` executable printing its JSON result). Each shows the repair request on the wire
//! and the fallback when no answer is usable.

use std::os::unix::fs::PermissionsExt;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::response::IntoResponse;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use squash_app::SquashEngine;
use squash_core::ledger::{build_ledger, check_facts};
use squash_core::prompt::SquashStyle;
use squash_core::quality::InventedOutcome;
use squash_core::{ConversationId, Message, MessageId};
use squash_llm::{AnthropicConfig, AnthropicModel, ClaudeCliConfig, ClaudeCliModel, RetryPolicy};
use squash_testkit::fixtures::store_demo;

const INVENTED: &str = "src/settings.py";

async fn demo(b: &squash_testkit::Backend) -> (ConversationId, Vec<Message>) {
    store_demo(b, "/tmp/providers").await
}

fn run(messages: &[Message]) -> Vec<MessageId> {
    messages[1..11].iter().map(|m| m.id).collect()
}

/// Every fact of the demo run, in one line: what a model that obeys the repair would say.
fn complete(messages: &[Message]) -> String {
    let refs: Vec<&Message> = messages[1..11].iter().collect();
    build_ledger(&refs)
        .facts
        .iter()
        .map(|f| f.text.clone())
        .collect::<Vec<_>>()
        .join(" ")
}

type Seen = Arc<Mutex<Vec<Value>>>;

#[derive(Clone)]
struct Anthropic {
    seen: Seen,
    repaired: String,
}

async fn messages(State(server): State<Anthropic>, Json(body): Json<Value>) -> impl IntoResponse {
    server.seen.lock().unwrap().push(body.clone());
    let last = body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m["content"].to_string())
        .unwrap_or_default();
    let text = if last.contains("Your answer needs one correction") {
        server.repaired.clone()
    } else {
        format!("The assistant fixed the config tests by editing {INVENTED}.")
    };
    let events = [
        (
            "message_start",
            json!({"type": "message_start", "message": {"id": "m", "type": "message",
            "role": "assistant", "content": [], "model": "claude-loopback", "stop_reason": null,
            "usage": {"input_tokens": 50, "output_tokens": 1}}}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "text", "text": ""}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "text_delta", "text": text}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 30}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ];
    let body: String = events
        .iter()
        .map(|(kind, data)| format!("event: {kind}\ndata: {data}\n\n"))
        .collect();
    ([("content-type", "text/event-stream")], body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anthropic_gets_a_repair_request_on_the_wire() {
    let b = squash_testkit::sqlite().await;
    let (conv, msgs) = demo(&b).await;
    let seen: Seen = Arc::default();
    let app = Router::new()
        .route("/v1/messages", post(messages))
        .with_state(Anthropic {
            seen: seen.clone(),
            repaired: complete(&msgs),
        });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let mut config = AnthropicConfig::new("test-key");
    config.base_url = url;
    config.model = "claude-loopback".into();
    config.retry = RetryPolicy::none();
    let model = Arc::new(AnthropicModel::new(config).unwrap());

    let done = SquashEngine::new(b.service.clone(), model)
        .squash_and_apply(conv, &run(&msgs), None)
        .await
        .unwrap();
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2, "the squash and one repair request");
    let repair = &seen[1];
    assert_eq!(repair["messages"].as_array().unwrap().len(), 3);
    assert_eq!(repair["messages"][1]["role"], "assistant");
    let follow = repair["messages"][2]["content"].to_string();
    assert!(
        follow.contains(INVENTED) && follow.contains("E0425"),
        "{follow}"
    );
    assert_eq!(repair["temperature"], json!(0.3));
    let text = &done.result.text;
    assert!(!text.contains(INVENTED), "{text}");
    let refs: Vec<&Message> = msgs[1..11].iter().collect();
    assert!(check_facts(&build_ledger(&refs), text).missing.is_empty());
    let facts = done.result.report.facts.as_ref().unwrap();
    assert_eq!(facts.invented[0].outcome, InventedOutcome::RemovedByRepair);
    assert_eq!(done.result.report.repairs, 1);
    let op = done.outcome.operation.unwrap();
    assert_eq!(op.kind.provider().map(|p| p.as_str()), Some("anthropic"));
    assert!(op
        .kind
        .prompt()
        .unwrap()
        .contains("=== prompt 2 of 2: repair ==="));
}

/// A stand-in `claude`: answers `first` to a squash and `repair` to a repair request, as the
/// real CLI's `--output-format json` result line.
fn stand_in(dir: &std::path::Path, first: &str, repair: &str) -> std::path::PathBuf {
    let line = |text: &str| {
        json!({"type": "result", "subtype": "success", "is_error": false, "result": text,
               "session_id": "s", "usage": {"input_tokens": 40, "output_tokens": 12}})
        .to_string()
    };
    let program = dir.join("claude");
    let script = format!(
        "#!/bin/sh\ninput=$(cat)\ncase \"$input\" in\n  *'Your answer needs one correction'*) \
         printf '%s\\n' '{}' ;;\n  *) printf '%s\\n' '{}' ;;\nesac\n",
        line(repair).replace('\'', "'\\''"),
        line(first).replace('\'', "'\\''"),
    );
    std::fs::write(&program, script).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    program
}

fn cli_model(program: &std::path::Path, dir: &std::path::Path) -> Arc<ClaudeCliModel> {
    let mut config = ClaudeCliConfig::new(program);
    config.working_dir = Some(dir.to_path_buf());
    Arc::new(ClaudeCliModel::new(config))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_claude_cli_is_repaired_and_falls_back() {
    let b = squash_testkit::sqlite().await;
    let (conv, msgs) = demo(&b).await;
    let dir = tempfile::tempdir().unwrap();

    // Repair: the second run of `claude` gets the correction and answers with every fact.
    let program = stand_in(
        dir.path(),
        &format!("Fixed the config tests in {INVENTED}."),
        &complete(&msgs),
    );
    let done = SquashEngine::new(b.service.clone(), cli_model(&program, dir.path()))
        .squash_messages(conv, &run(&msgs), None)
        .await
        .unwrap();
    assert_eq!(done.report.repairs, 1);
    assert!(done.report.fallback.is_none());
    assert!(!done.text.contains(INVENTED));
    assert_eq!(done.prompts.len(), 2);

    // Fallback: a CLI that only ever answers with a refusal.
    let refusal = "I'm sorry, but I can't help with that.";
    let program = stand_in(dir.path(), refusal, refusal);
    let done = SquashEngine::new(b.service.clone(), cli_model(&program, dir.path()))
        .squash_messages(conv, &run(&msgs), None)
        .await
        .unwrap();
    let fallback = done.report.fallback.expect("the extract stands in");
    assert_eq!(fallback.style, SquashStyle::Extract);
    assert!(fallback.reason.contains("refused"), "{}", fallback.reason);
    assert!(done.text.contains("E0425"));
}
