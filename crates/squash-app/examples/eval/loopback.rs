//! A loopback OpenAI-compatible server whose model drops facts and invents a path: its first
//! answer to any squash is one vague sentence naming a file the messages never had. Asked to
//! repair, it states the facts the request lists and drops the invented path. It shows that
//! the repair works — and what a model that ignores it would leave (see `--stubborn`).

use std::net::SocketAddr;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

pub const INVENTED_PATH: &str = "src/utils/legacy_helpers.py";

#[derive(Clone, Copy)]
struct Behaviour {
    /// Ignores repair requests.
    stubborn: bool,
}

/// Starts the server on 127.0.0.1 and returns its base URL (with `/v1`).
pub async fn start(stubborn: bool) -> std::io::Result<String> {
    let app = Router::new()
        .route("/v1/chat/completions", post(completions))
        .route("/v1/models", get(models))
        .with_state(Behaviour { stubborn });
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok(format!("http://{addr}/v1"))
}

async fn models() -> Json<Value> {
    Json(json!({"object": "list", "data": [{"id": "forgetful-1", "object": "model"}]}))
}

async fn completions(State(b): State<Behaviour>, Json(body): Json<Value>) -> Response {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let last = messages
        .last()
        .and_then(|m| m["content"].as_str())
        .unwrap_or("")
        .to_owned();
    let text = if last.starts_with("Your answer needs one correction") && !b.stubborn {
        let facts: Vec<&str> = last.lines().filter_map(|l| l.strip_prefix("- ")).collect();
        if facts.is_empty() {
            "The assistant worked through the task.".to_owned()
        } else {
            format!("The assistant worked through the task. {}", facts.join(" "))
        }
    } else {
        format!("The assistant worked through the task and updated {INVENTED_PATH}.")
    };
    if body["stream"].as_bool().unwrap_or(false) {
        let chunk = json!({"id": "c", "object": "chat.completion.chunk", "model": "forgetful-1",
            "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]});
        let end = json!({"id": "c", "object": "chat.completion.chunk", "model": "forgetful-1",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20}});
        let sse = format!("data: {chunk}\n\ndata: {end}\n\ndata: [DONE]\n\n");
        return ([("content-type", "text/event-stream")], sse).into_response();
    }
    Json(json!({
        "id": "chatcmpl-loopback",
        "object": "chat.completion",
        "model": "forgetful-1",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    }))
    .into_response()
}
