//! A loopback OpenAI Chat Completions API, as opencode (1.18) calls a custom provider through
//! `@ai-sdk/openai-compatible`: `POST /v1/chat/completions` with `stream: true`, answered with
//! server-sent chunks (the text, then each tool call whole, then the finish reason and usage,
//! then `[DONE]`). The agent's turns carry `tools`; its side requests (the session's title)
//! get a short text. Body: `model`, `messages` (system, user, assistant with `tool_calls`,
//! `tool` replies), `tools`, `tool_choice`, `stream_options`. Once the script is used up, a
//! final text.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};

use super::recorder::{respond, serve_script, Recorded, Script, Scripted};

pub const EXHAUSTED: &str = "The loopback script has no more turns.";
pub const TITLE: &str = "Loopback session";

/// One scripted answer: text and tool calls `(id, name, arguments)`.
#[derive(Clone, Debug, Default)]
pub struct Turn {
    pub text: Option<String>,
    pub calls: Vec<(String, String, Value)>,
}

impl Turn {
    pub fn text(text: &str) -> Turn {
        Turn {
            text: Some(text.to_owned()),
            calls: Vec::new(),
        }
    }

    pub fn call(id: &str, name: &str, args: Value) -> Turn {
        Turn {
            text: None,
            calls: vec![(id.to_owned(), name.to_owned(), args)],
        }
    }
}

pub type ChatServer = Scripted<Turn>;

impl ChatServer {
    pub async fn start(script: Vec<Turn>) -> ChatServer {
        serve_script(script, answer).await
    }

    /// The provider's `baseURL`.
    pub fn base_url(&self) -> String {
        self.url("/v1")
    }

    /// The bodies of the agent's turns (the requests with tools), in order.
    pub fn turns(&self) -> Vec<Value> {
        self.requests()
            .into_iter()
            .filter(|r| r.body.get("tools").is_some_and(|t| !t.is_null()))
            .map(|r| r.body)
            .collect()
    }
}

async fn answer(state: Arc<Script<Turn>>, recorded: Recorded) -> Response {
    if recorded.method != "POST" || !recorded.route().ends_with("/chat/completions") {
        let error = json!({"error": {"message": format!("no route {}", recorded.path)}});
        return respond(StatusCode::NOT_FOUND, "application/json", error.to_string());
    }
    let turn = if recorded.body.get("tools").is_some_and(|t| !t.is_null()) {
        state.next().unwrap_or_else(|| Turn::text(EXHAUSTED))
    } else {
        Turn::text(TITLE)
    };
    let model = recorded.body["model"].clone();
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-loopback", "object": "chat.completion.chunk", "created": 1,
               "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let mut events = Vec::new();
    if let Some(text) = &turn.text {
        events.push(chunk(
            json!({"role": "assistant", "content": text}),
            Value::Null,
        ));
    }
    for (i, (id, name, args)) in turn.calls.iter().enumerate() {
        events.push(chunk(
            json!({"role": "assistant", "tool_calls": [{"index": i, "id": id, "type": "function",
                   "function": {"name": name, "arguments": args.to_string()}}]}),
            Value::Null,
        ));
    }
    let finish = if turn.calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    let mut last = chunk(json!({}), json!(finish));
    last["usage"] = json!({"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19});
    events.push(last);
    let body: String = events
        .iter()
        .map(|e| format!("data: {e}\n\n"))
        .chain(std::iter::once("data: [DONE]\n\n".to_owned()))
        .collect();
    respond(StatusCode::OK, "text/event-stream", body)
}
