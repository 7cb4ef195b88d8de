//! A loopback OpenAI Responses API, as Codex (0.171.0) calls it through a custom model
//! provider: only `POST /v1/responses` with `stream: true`, answered with server-sent events
//! (each output item as `response.output_item.done`, then `response.completed`). Headers
//! `authorization: Bearer <env_key>`, `originator: codex_exec`, `session-id`, `thread-id`,
//! `x-codex-turn-metadata`; body `model`, `input` (developer messages, an
//! `<environment_context>` user message, the prompt, then the turn's items), `tools`,
//! `tool_choice`, `parallel_tool_calls: false`, `reasoning`, `store: false`, `include`,
//! `prompt_cache_key`, `text`, `client_metadata`. The next request carries each
//! `function_call_output` (its text holds "Process exited with code N"). Every request takes the next
//! scripted turn; once the script is used up, a final message, so a looping agent stops.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};

use super::recorder::{respond, serve_script, sse, Recorded, Script, Scripted};

/// One output item of a scripted answer.
#[derive(Clone, Debug)]
pub enum Item {
    Message(String),
    /// `arguments` is sent JSON-encoded, as the API does; `namespace` names the group a tool
    /// is offered in (Codex offers each MCP server's tools as the namespace `mcp__<server>`).
    FunctionCall {
        call_id: String,
        name: String,
        namespace: Option<String>,
        arguments: Value,
    },
}

impl Item {
    pub fn message(text: &str) -> Item {
        Item::Message(text.to_owned())
    }

    pub fn call(call_id: &str, name: &str, arguments: Value) -> Item {
        Item::FunctionCall {
            call_id: call_id.to_owned(),
            name: name.to_owned(),
            namespace: None,
            arguments,
        }
    }

    /// A call of tool `name` of the namespace `namespace`.
    pub fn namespaced_call(call_id: &str, namespace: &str, name: &str, arguments: Value) -> Item {
        Item::FunctionCall {
            call_id: call_id.to_owned(),
            name: name.to_owned(),
            namespace: Some(namespace.to_owned()),
            arguments,
        }
    }
}

pub const EXHAUSTED: &str = "The loopback script has no more turns.";

pub type ResponsesServer = Scripted<Vec<Item>>;

impl ResponsesServer {
    pub async fn start(script: Vec<Vec<Item>>) -> ResponsesServer {
        serve_script(script, answer).await
    }

    /// The provider's `base_url` (Codex appends `/responses`).
    pub fn base_url(&self) -> String {
        self.url("/v1")
    }

    /// The bodies of the Responses requests, in order.
    pub fn response_requests(&self) -> Vec<Value> {
        self.posted_to("/v1/responses")
    }
}

async fn answer(state: Arc<Script<Vec<Item>>>, recorded: Recorded) -> Response {
    if recorded.method != "POST" || recorded.route() != "/v1/responses" {
        let error = json!({"error": {"message": format!("no route {}", recorded.path)}});
        return respond(StatusCode::NOT_FOUND, "application/json", error.to_string());
    }
    let items = state
        .next()
        .unwrap_or_else(|| vec![Item::message(EXHAUSTED)]);
    let n = state.log.all().len();
    respond(StatusCode::OK, "text/event-stream", stream(n, &items))
}

fn item_json(n: usize, index: usize, item: &Item) -> Value {
    match item {
        Item::Message(text) => json!({
            "type": "message", "role": "assistant", "id": format!("msg_loopback_{n}_{index}"),
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }),
        Item::FunctionCall {
            call_id,
            name,
            namespace,
            arguments,
        } => {
            let mut item = json!({
                "type": "function_call", "id": format!("fc_loopback_{n}_{index}"),
                "status": "completed", "call_id": call_id, "name": name,
                "arguments": arguments.to_string(),
            });
            if let Some(ns) = namespace {
                item["namespace"] = json!(ns);
            }
            item
        }
    }
}

fn stream(n: usize, items: &[Item]) -> String {
    let id = format!("resp_loopback_{n}");
    let mut out = sse(
        "response.created",
        &json!({"type": "response.created", "response": {"id": id}}),
    );
    for (index, item) in items.iter().enumerate() {
        out += &sse(
            "response.output_item.done",
            &json!({"type": "response.output_item.done", "output_index": index,
                    "item": item_json(n, index, item)}),
        );
    }
    out + &sse(
        "response.completed",
        &json!({"type": "response.completed", "response": {"id": id, "usage": {
            "input_tokens": 12, "input_tokens_details": null, "output_tokens": 7,
            "output_tokens_details": null, "total_tokens": 19}}}),
    )
}
