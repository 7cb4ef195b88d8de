//! A loopback Anthropic Messages API, as Claude Code (2.1.197) calls it: a `HEAD /`
//! reachability check, then `POST /v1/messages?beta=true` with `stream: true` (answered with
//! server-sent events), headers `x-api-key`, `anthropic-version: 2023-06-01`, `anthropic-beta`
//! (claude-code-20250219, context-management, interleaved-thinking, ...), `x-app: cli`,
//! `X-Claude-Code-Session-Id`; body `model`, `messages`, `system` (blocks), `tools` (24),
//! `metadata.user_id`, `max_tokens`, `thinking: {type: adaptive}`, `context_management`,
//! `output_config`. The first user message starts with a `<system-reminder>` text block; the
//! CLI joins consecutive lines of one role into one message. No token counting, no model list.
//! The agent's requests (the ones that offer tools) get the scripted turns in order; requests
//! without tools (side queries such as titles) get a short text; once the script is used up,
//! every request gets a final text, so a looping agent stops.

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::{json, Value};

use super::recorder::{respond, serve_script, sse, Recorded, Script, Scripted};

/// One content block of a scripted answer.
#[derive(Clone, Debug)]
pub enum Block {
    Text(String),
    Thinking {
        thinking: String,
        signature: String,
    },
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
}

impl Block {
    pub fn text(text: &str) -> Block {
        Block::Text(text.to_owned())
    }

    pub fn tool_use(id: &str, name: &str, input: Value) -> Block {
        Block::ToolUse {
            id: id.to_owned(),
            name: name.to_owned(),
            input,
        }
    }
}

pub const EXHAUSTED: &str = "The loopback script has no more turns.";
pub const SIDE_ANSWER: &str = "ok";

pub type AnthropicServer = Scripted<Vec<Block>>;

impl AnthropicServer {
    pub async fn start(script: Vec<Vec<Block>>) -> AnthropicServer {
        AnthropicServer::with_side_answer(script, SIDE_ANSWER).await
    }

    /// A server that answers requests without tools (side queries, or a CLI run with its tools
    /// turned off) with `side`.
    pub async fn with_side_answer(script: Vec<Vec<Block>>, side: &str) -> AnthropicServer {
        // The answer to requests that offer no tools.
        let side = side.to_owned();
        serve_script(script, move |state, recorded| {
            answer(state, side.clone(), recorded)
        })
        .await
    }

    /// What `ANTHROPIC_BASE_URL` must be.
    pub fn base_url(&self) -> String {
        self.url("")
    }

    /// The bodies of the agent's Messages requests (the ones that offer tools), in order.
    pub fn agent_requests(&self) -> Vec<Value> {
        let mut bodies = self.message_requests();
        bodies.retain(offers_tools);
        bodies
    }

    /// The bodies of every Messages request, in order.
    pub fn message_requests(&self) -> Vec<Value> {
        self.posted_to("/v1/messages")
    }
}

fn offers_tools(body: &Value) -> bool {
    body["tools"].as_array().is_some_and(|t| !t.is_empty())
}

async fn answer(state: Arc<Script<Vec<Block>>>, side: String, recorded: Recorded) -> Response {
    let route = recorded.route().to_owned();
    if recorded.method == Method::HEAD.as_str() {
        return respond(StatusCode::OK, "application/json", String::new());
    }
    if recorded.method != "POST" || !route.starts_with("/v1/messages") {
        let error =
            json!({"type": "error", "error": {"type": "not_found_error", "message": route}});
        return respond(StatusCode::NOT_FOUND, "application/json", error.to_string());
    }
    if route.ends_with("/count_tokens") {
        let tokens = recorded.body.to_string().len() / 4;
        return respond(
            StatusCode::OK,
            "application/json",
            json!({"input_tokens": tokens}).to_string(),
        );
    }
    let blocks = if offers_tools(&recorded.body) {
        let next = state.next();
        next.unwrap_or_else(|| vec![Block::text(EXHAUSTED)])
    } else {
        vec![Block::Text(side)]
    };
    let model = recorded.body["model"]
        .as_str()
        .unwrap_or("loopback")
        .to_owned();
    let id = format!("msg_loopback_{}", state.log.all().len());
    if recorded.body["stream"] == true {
        respond(
            StatusCode::OK,
            "text/event-stream",
            stream(&id, &model, &blocks),
        )
    } else {
        let message = message(
            &id,
            &model,
            blocks.iter().map(block_json).collect(),
            &blocks,
        );
        respond(StatusCode::OK, "application/json", message.to_string())
    }
}

fn stop_reason(blocks: &[Block]) -> &'static str {
    if blocks.iter().any(|b| matches!(b, Block::ToolUse { .. })) {
        "tool_use"
    } else {
        "end_turn"
    }
}

fn message(id: &str, model: &str, content: Vec<Value>, blocks: &[Block]) -> Value {
    let done = !content.is_empty();
    json!({
        "id": id, "type": "message", "role": "assistant", "model": model,
        "content": content,
        "stop_reason": if done { Some(stop_reason(blocks)) } else { None },
        "stop_sequence": null,
        "usage": {"input_tokens": 12, "output_tokens": if done { 7 } else { 1 }},
    })
}

fn block_json(block: &Block) -> Value {
    match block {
        Block::Text(text) => json!({"type": "text", "text": text}),
        Block::Thinking {
            thinking,
            signature,
        } => json!({"type": "thinking", "thinking": thinking, "signature": signature}),
        Block::ToolUse { id, name, input } => {
            json!({"type": "tool_use", "id": id, "name": name, "input": input})
        }
    }
}

/// The answer as the Messages API streams it: each block started, filled by deltas, stopped.
fn stream(id: &str, model: &str, blocks: &[Block]) -> String {
    let mut out = sse(
        "message_start",
        &json!({"type": "message_start", "message": message(id, model, vec![], blocks)}),
    );
    for (index, block) in blocks.iter().enumerate() {
        let (start, deltas) = match block {
            Block::Text(text) => (
                json!({"type": "text", "text": ""}),
                vec![json!({"type": "text_delta", "text": text})],
            ),
            Block::Thinking {
                thinking,
                signature,
            } => (
                json!({"type": "thinking", "thinking": "", "signature": ""}),
                vec![
                    json!({"type": "thinking_delta", "thinking": thinking}),
                    json!({"type": "signature_delta", "signature": signature}),
                ],
            ),
            Block::ToolUse { id, name, input } => (
                json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
                vec![json!({"type": "input_json_delta", "partial_json": input.to_string()})],
            ),
        };
        out += &sse(
            "content_block_start",
            &json!({"type": "content_block_start", "index": index, "content_block": start}),
        );
        for delta in deltas {
            out += &sse(
                "content_block_delta",
                &json!({"type": "content_block_delta", "index": index, "delta": delta}),
            );
        }
        out += &sse(
            "content_block_stop",
            &json!({"type": "content_block_stop", "index": index}),
        );
    }
    out += &sse(
        "message_delta",
        &json!({"type": "message_delta",
                "delta": {"stop_reason": stop_reason(blocks), "stop_sequence": null},
                "usage": {"output_tokens": 7}}),
    );
    out + &sse("message_stop", &json!({"type": "message_stop"}))
}
