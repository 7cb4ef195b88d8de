//! A loopback Gemini API, as Gemini CLI (0.61) calls it with `GOOGLE_GEMINI_BASE_URL` and an API
//! key: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` for the agent's turns (the
//! requests that carry `tools`), answered with one server-sent event holding the scripted parts
//! (text, `thought` text, `functionCall`s), and `:generateContent` for its side questions
//! (routing, whether to go on), answered so that the user speaks next. Body: `contents` (the
//! history: `user` and `model` turns, `functionCall` and `functionResponse` parts),
//! `systemInstruction`, `tools`, `generationConfig`; header `x-goog-api-key`. Once the script
//! is used up, a final text, so a looping agent stops.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};

use super::recorder::{respond, serve_script, Recorded, Script, Scripted};

pub const EXHAUSTED: &str = "The loopback script has no more turns.";

pub type GeminiServer = Scripted<Vec<Value>>;

/// A `functionCall` part.
pub fn call(name: &str, args: Value) -> Value {
    json!({"functionCall": {"name": name, "args": args}})
}

pub fn text(text: &str) -> Value {
    json!({"text": text})
}

pub fn thought(text: &str) -> Value {
    json!({"text": text, "thought": true})
}

impl GeminiServer {
    pub async fn start(script: Vec<Vec<Value>>) -> GeminiServer {
        serve_script(script, answer).await
    }

    /// `GOOGLE_GEMINI_BASE_URL`.
    pub fn base_url(&self) -> String {
        self.url("")
    }

    /// The bodies of the agent's turns (the requests with tools), in order.
    pub fn turns(&self) -> Vec<Value> {
        self.requests()
            .into_iter()
            .filter(|r| r.body.get("tools").is_some())
            .map(|r| r.body)
            .collect()
    }
}

async fn answer(state: Arc<Script<Vec<Value>>>, recorded: Recorded) -> Response {
    let route = recorded.route().to_owned();
    let parts = if recorded.body.get("tools").is_some() {
        state.next().unwrap_or_else(|| vec![text(EXHAUSTED)])
    } else {
        vec![text(
            r#"{"reasoning": "the turn is done", "next_speaker": "user"}"#,
        )]
    };
    let body = json!({
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 7, "totalTokenCount": 19},
        "modelVersion": "loopback",
    });
    if route.ends_with(":streamGenerateContent") {
        respond(
            StatusCode::OK,
            "text/event-stream",
            format!("data: {body}\r\n\r\n"),
        )
    } else if route.ends_with(":generateContent") {
        respond(StatusCode::OK, "application/json", body.to_string())
    } else if route.ends_with(":countTokens") {
        respond(
            StatusCode::OK,
            "application/json",
            json!({"totalTokens": 10}).to_string(),
        )
    } else {
        let error = json!({"error": {"code": 404, "message": format!("no route {route}")}});
        respond(StatusCode::NOT_FOUND, "application/json", error.to_string())
    }
}
