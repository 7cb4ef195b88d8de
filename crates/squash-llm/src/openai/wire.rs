//! The Chat Completions JSON, as far as Squash uses it. Kept to the subset that OpenAI-compatible
//! servers (Ollama, llama.cpp, vLLM, LM Studio) also accept. A field a server may leave out is
//! an `Option` (serde reads a missing one as `None`) or a `Vec` marked `#[serde(default)]`.

use serde::{Deserialize, Serialize};

use crate::model::{ChatImage, ChatMessage, ChatPart, ChatRequest, ChatRole, StopReason, Usage};
use crate::transcript::part_text;

#[derive(Debug, Serialize)]
pub(super) struct CompletionRequest<'a> {
    pub model: &'a str,
    pub messages: Vec<WireMessage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_completion_tokens: Option<u32>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_options: Option<StreamOptions>,
}

#[derive(Debug, Serialize)]
pub(super) struct StreamOptions {
    pub include_usage: bool,
}

#[derive(Debug, Serialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub(super) enum WireMessage {
    System {
        content: String,
    },
    User {
        content: UserContent,
    },
    Assistant {
        content: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    Tool {
        tool_call_id: String,
        content: String,
    },
}

/// A plain string where possible: some compatible servers accept nothing else.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(super) enum UserContent {
    Text(String),
    Parts(Vec<UserPart>),
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum UserPart {
    Text { text: String },
    ImageUrl { image_url: ImageUrl },
}

#[derive(Debug, Serialize)]
pub(super) struct ImageUrl {
    url: String,
}

#[derive(Debug, Serialize)]
pub(super) struct ToolCall {
    id: String,
    #[serde(rename = "type")]
    kind: &'static str,
    function: FunctionCall,
}

#[derive(Debug, Serialize)]
pub(super) struct FunctionCall {
    name: String,
    /// The API wants the arguments as a JSON document inside a string.
    arguments: String,
}

/// Which field carries the output limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenLimitField {
    /// `max_tokens`: understood by every compatible server.
    MaxTokens,
    /// `max_completion_tokens`: what OpenAI itself now expects; its reasoning models refuse
    /// `max_tokens`.
    MaxCompletionTokens,
}

impl<'a> CompletionRequest<'a> {
    pub(super) fn new(
        req: &ChatRequest,
        model: &'a str,
        limit: TokenLimitField,
        stream: bool,
    ) -> Self {
        let mut messages = Vec::new();
        if let Some(system) = req.system.as_deref().filter(|s| !s.trim().is_empty()) {
            messages.push(WireMessage::System {
                content: system.to_string(),
            });
        }
        for message in &req.messages {
            match message.role {
                ChatRole::User => push_user(&mut messages, message),
                ChatRole::Assistant => push_assistant(&mut messages, message),
            }
        }
        let max = Some(req.max_output_tokens);
        CompletionRequest {
            model,
            messages,
            temperature: req.temperature,
            max_tokens: max.filter(|_| limit == TokenLimitField::MaxTokens),
            max_completion_tokens: max.filter(|_| limit == TokenLimitField::MaxCompletionTokens),
            stream,
            stream_options: stream.then_some(StreamOptions {
                include_usage: true,
            }),
        }
    }
}

/// Tool results become `tool` messages, which must directly follow the assistant message that
/// made the calls; the rest of the turn becomes one user message after them.
fn push_user(out: &mut Vec<WireMessage>, message: &ChatMessage) {
    let mut parts = Vec::new();
    for part in &message.content {
        match part {
            ChatPart::ToolResult {
                tool_use_id,
                content,
                is_error,
            } => out.push(WireMessage::Tool {
                tool_call_id: tool_use_id.clone(),
                // The message has no error flag; say it in the text so the model knows.
                content: if *is_error {
                    format!("[error] {content}")
                } else {
                    content.clone()
                },
            }),
            ChatPart::Image(image) => parts.push(UserPart::ImageUrl {
                image_url: ImageUrl {
                    url: match image {
                        ChatImage::Base64 { media_type, data } => {
                            format!("data:{media_type};base64,{data}")
                        }
                        ChatImage::Url { url } => url.clone(),
                    },
                },
            }),
            ChatPart::Thinking { .. } => {}
            other => {
                if let Some(text) = part_text(other).filter(|t| !t.trim().is_empty()) {
                    parts.push(UserPart::Text { text });
                }
            }
        }
    }
    if parts.is_empty() {
        return;
    }
    let all_text = parts.iter().all(|p| matches!(p, UserPart::Text { .. }));
    let content = if all_text {
        UserContent::Text(
            parts
                .into_iter()
                .filter_map(|p| match p {
                    UserPart::Text { text } => Some(text),
                    UserPart::ImageUrl { .. } => None,
                })
                .collect::<Vec<_>>()
                .join("\n\n"),
        )
    } else {
        UserContent::Parts(parts)
    };
    out.push(WireMessage::User { content });
}

fn push_assistant(out: &mut Vec<WireMessage>, message: &ChatMessage) {
    let mut texts = Vec::new();
    let mut tool_calls = Vec::new();
    for part in &message.content {
        match part {
            ChatPart::ToolUse { id, name, input } => tool_calls.push(ToolCall {
                id: id.clone(),
                kind: "function",
                function: FunctionCall {
                    name: name.clone(),
                    arguments: serde_json::to_string(input).unwrap_or_else(|_| "{}".into()),
                },
            }),
            // The API has no place for earlier reasoning.
            ChatPart::Thinking { .. } => {}
            other => {
                if let Some(text) = part_text(other).filter(|t| !t.trim().is_empty()) {
                    texts.push(text);
                }
            }
        }
    }
    if texts.is_empty() && tool_calls.is_empty() {
        return;
    }
    out.push(WireMessage::Assistant {
        content: texts.join("\n\n"),
        tool_calls,
    });
}

/// A whole answer ([`Completion`]) or one `data:` chunk of a streamed one ([`Chunk`]): they
/// differ only in their choices.
#[derive(Debug, Deserialize)]
#[serde(bound(deserialize = "C: Deserialize<'de>"))]
pub(super) struct Answer<C> {
    pub model: Option<String>,
    #[serde(default)]
    pub choices: Vec<C>,
    pub usage: Option<WireUsage>,
    /// Some servers report failures inside the stream instead of as an HTTP status.
    pub error: Option<serde_json::Value>,
}

pub(super) type Completion = Answer<Choice>;
pub(super) type Chunk = Answer<ChunkChoice>;

#[derive(Debug, Deserialize)]
pub(super) struct Choice {
    pub message: ChoiceText,
    pub finish_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct ChunkChoice {
    pub delta: Option<ChoiceText>,
    pub finish_reason: Option<String>,
}

/// The text of a choice's message, or of a chunk's delta.
#[derive(Debug, Deserialize)]
pub(super) struct ChoiceText {
    pub content: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct WireUsage {
    pub prompt_tokens: Option<u64>,
    pub completion_tokens: Option<u64>,
}

impl WireUsage {
    /// The counts, when the server reported both: a server that leaves one out did not count,
    /// which is not the same as zero.
    pub(super) fn usage(&self) -> Option<Usage> {
        Some(Usage {
            input_tokens: self.prompt_tokens?,
            output_tokens: self.completion_tokens?,
        })
    }
}

/// A `finish_reason` in the provider-neutral terms.
pub(super) fn stop_reason(finish_reason: &str) -> StopReason {
    match finish_reason {
        "stop" => StopReason::EndTurn,
        "length" => StopReason::MaxTokens,
        "tool_calls" | "function_call" => StopReason::ToolUse,
        "content_filter" => StopReason::Refusal,
        other => StopReason::Other(other.to_owned()),
    }
}

/// The message and code of an error body. OpenAI sends `{"error":{"message","type","code"}}`;
/// compatible servers also send `{"error":"text"}`, `{"detail":"text"}` or plain text.
pub(super) fn error_parts(body: &str) -> (String, Option<String>) {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(body) else {
        return (body.to_string(), None);
    };
    error_value_parts(&value).unwrap_or_else(|| (body.to_string(), None))
}

pub(super) fn error_value_parts(value: &serde_json::Value) -> Option<(String, Option<String>)> {
    let error = value.get("error").unwrap_or(value);
    if let Some(text) = error.as_str() {
        return Some((text.to_string(), None));
    }
    let message = error
        .get("message")
        .or_else(|| error.get("detail"))
        .and_then(|m| m.as_str())?
        .to_string();
    let code = ["code", "type"]
        .iter()
        .filter_map(|k| error.get(*k).and_then(|c| c.as_str()))
        .find(|c| !c.is_empty())
        .map(str::to_string);
    Some((message, code))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn tool_calls_and_results_use_the_tool_shapes() {
        let mut req = ChatRequest::new(vec![
            ChatMessage::user("list"),
            ChatMessage {
                role: ChatRole::Assistant,
                content: vec![
                    ChatPart::Thinking {
                        thinking: "hmm".into(),
                        signature: Some("s".into()),
                    },
                    ChatPart::ToolUse {
                        id: "call_1".into(),
                        name: "ls".into(),
                        input: json!({"dir": "."}),
                    },
                ],
            },
            ChatMessage {
                role: ChatRole::User,
                content: vec![
                    ChatPart::ToolResult {
                        tool_use_id: "call_1".into(),
                        content: "a.txt".into(),
                        is_error: false,
                    },
                    ChatPart::text("thanks"),
                ],
            },
        ]);
        req.system = Some("be brief".into());
        let body = serde_json::to_value(CompletionRequest::new(
            &req,
            "m",
            TokenLimitField::MaxTokens,
            false,
        ))
        .unwrap();
        assert_eq!(
            body["messages"],
            json!([
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": "list"},
                {"role": "assistant", "content": "", "tool_calls": [
                    {"id": "call_1", "type": "function",
                     "function": {"name": "ls", "arguments": "{\"dir\":\".\"}"}}
                ]},
                {"role": "tool", "tool_call_id": "call_1", "content": "a.txt"},
                {"role": "user", "content": "thanks"},
            ])
        );
        assert_eq!(body["max_tokens"], json!(4096));
        assert!(body.get("max_completion_tokens").is_none());
        assert!(body.get("stream_options").is_none());
    }

    #[test]
    fn images_make_a_parts_array() {
        let req = ChatRequest::new(vec![ChatMessage {
            role: ChatRole::User,
            content: vec![
                ChatPart::text("what is this"),
                ChatPart::Image(ChatImage::Base64 {
                    media_type: "image/png".into(),
                    data: "QUJD".into(),
                }),
            ],
        }]);
        let body = serde_json::to_value(CompletionRequest::new(
            &req,
            "m",
            TokenLimitField::MaxCompletionTokens,
            true,
        ))
        .unwrap();
        assert_eq!(
            body["messages"][0]["content"],
            json!([
                {"type": "text", "text": "what is this"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,QUJD"}},
            ])
        );
        assert_eq!(body["max_completion_tokens"], json!(4096));
        assert_eq!(body["stream_options"], json!({"include_usage": true}));
    }

    #[test]
    fn error_bodies_of_several_shapes() {
        assert_eq!(
            error_parts(
                r#"{"error":{"message":"too long","type":"invalid_request_error","code":"context_length_exceeded"}}"#
            ),
            (
                "too long".to_string(),
                Some("context_length_exceeded".to_string())
            )
        );
        assert_eq!(
            error_parts(r#"{"error":"model not found"}"#),
            ("model not found".to_string(), None)
        );
        assert_eq!(
            error_parts("Bad Gateway"),
            ("Bad Gateway".to_string(), None)
        );
    }
}

/// `GET {base}/models`: the list a server says it serves.
#[derive(Deserialize)]
pub(super) struct ModelList {
    #[serde(default)]
    pub data: Vec<ModelEntry>,
}

#[derive(Deserialize)]
pub(super) struct ModelEntry {
    pub id: String,
}
