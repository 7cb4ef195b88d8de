//! The Messages API's JSON, as far as Squash uses it. A field the API may leave out is an
//! `Option` (serde reads a missing one as `None`) or a `Vec` marked `#[serde(default)]`.

use serde::{Deserialize, Serialize};

use crate::model::{ChatImage, ChatMessage, ChatPart, ChatRequest, ChatRole, Usage};
use crate::transcript::part_text;

#[derive(Debug, Serialize)]
pub(super) struct MessagesRequest<'a> {
    pub model: &'a str,
    pub max_tokens: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<&'a str>,
    pub messages: Vec<WireMessage<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f32>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stream: bool,
}

#[derive(Debug, Serialize)]
pub(super) struct WireMessage<'a> {
    role: &'static str,
    content: Vec<Block<'a>>,
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block<'a> {
    Text {
        text: String,
    },
    Thinking {
        thinking: &'a str,
        signature: &'a str,
    },
    Image {
        source: ImageSource<'a>,
    },
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ImageSource<'a> {
    Base64 { media_type: &'a str, data: &'a str },
    Url { url: &'a str },
}

impl<'a> MessagesRequest<'a> {
    pub(super) fn new(req: &'a ChatRequest, model: &'a str, stream: bool) -> Self {
        MessagesRequest {
            model,
            max_tokens: req.max_output_tokens,
            system: req.system.as_deref().filter(|s| !s.trim().is_empty()),
            messages: wire_messages(&req.messages),
            temperature: req.temperature,
            stream,
        }
    }
}

/// Turns as the API accepts them. Tool blocks go as text: the API refuses `tool_use` and
/// `tool_result` blocks in a request that defines no tools, and Squash defines none. Thinking is
/// replayed only in assistant turns and only signed, the one form the API verifies; empty turns
/// are dropped and the turns around them merged so that roles still alternate.
fn wire_messages(messages: &[ChatMessage]) -> Vec<WireMessage<'_>> {
    let mut out: Vec<WireMessage<'_>> = Vec::new();
    for message in messages {
        let role = message.role;
        let blocks: Vec<Block<'_>> = message
            .content
            .iter()
            .filter_map(|part| block(role, part))
            .collect();
        if blocks.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.role == role.as_str() => last.content.extend(blocks),
            _ => out.push(WireMessage {
                role: role.as_str(),
                content: blocks,
            }),
        }
    }
    out
}

fn block(role: ChatRole, part: &ChatPart) -> Option<Block<'_>> {
    match part {
        ChatPart::Thinking {
            thinking,
            signature: Some(signature),
        } if role == ChatRole::Assistant && !signature.is_empty() => Some(Block::Thinking {
            thinking,
            signature,
        }),
        ChatPart::Thinking { .. } => None,
        ChatPart::Image(image) if role == ChatRole::User => Some(Block::Image {
            source: match image {
                ChatImage::Base64 { media_type, data } => ImageSource::Base64 { media_type, data },
                ChatImage::Url { url } => ImageSource::Url { url },
            },
        }),
        // The API rejects empty text blocks.
        _ => part_text(part)
            .filter(|t| !t.trim().is_empty())
            .map(|text| Block::Text { text }),
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct MessagesResponse {
    pub model: String,
    #[serde(default)]
    pub content: Vec<ResponseBlock>,
    pub stop_reason: Option<String>,
    pub usage: Option<WireUsage>,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum ResponseBlock {
    Text {
        text: String,
    },
    #[serde(other)]
    Other,
}

impl MessagesResponse {
    /// The answer's text; thinking and other block kinds are not part of it.
    pub(super) fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(|b| match b {
                ResponseBlock::Text { text } => Some(text.as_str()),
                ResponseBlock::Other => None,
            })
            .collect()
    }
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct WireUsage {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub cache_creation_input_tokens: Option<u64>,
    pub cache_read_input_tokens: Option<u64>,
}

impl WireUsage {
    /// Cached prompt tokens are reported apart from `input_tokens`; the prompt's size is the sum.
    /// `None` when the API left the count out: unknown, not zero.
    pub(super) fn total_input(&self) -> Option<u64> {
        Some(
            self.input_tokens?
                + self.cache_creation_input_tokens.unwrap_or(0)
                + self.cache_read_input_tokens.unwrap_or(0),
        )
    }

    /// Both counts, when the API reported them.
    pub(super) fn usage(&self) -> Option<Usage> {
        Some(Usage {
            input_tokens: self.total_input()?,
            output_tokens: self.output_tokens?,
        })
    }
}

/// The HTTP status of an error of type `kind`: an `error` event inside a stream is classified
/// as the HTTP error of the same type would be.
pub(super) fn error_status(kind: &str) -> u16 {
    match kind {
        "invalid_request_error" => 400,
        "authentication_error" => 401,
        "permission_error" => 403,
        "not_found_error" => 404,
        "request_too_large" => 413,
        "rate_limit_error" => 429,
        "overloaded_error" => 529,
        _ => 500,
    }
}

/// One server-sent event of a streamed answer.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum StreamEvent {
    MessageStart {
        message: StartedMessage,
    },
    ContentBlockDelta {
        delta: BlockDelta,
    },
    MessageDelta {
        #[serde(default)]
        delta: MessageDeltaBody,
        usage: Option<DeltaUsage>,
    },
    MessageStop {},
    Error {
        error: ErrorDetail,
    },
    /// `ping`, `content_block_start`, `content_block_stop` and whatever is added later.
    #[serde(other)]
    Other,
}

#[derive(Debug, Deserialize)]
pub(super) struct StartedMessage {
    #[serde(default)]
    pub model: String,
    pub usage: Option<WireUsage>,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum BlockDelta {
    TextDelta {
        text: String,
    },
    #[serde(other)]
    Other,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct MessageDeltaBody {
    pub stop_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct DeltaUsage {
    pub output_tokens: Option<u64>,
}

/// `{"type":"error","error":{"type":"...","message":"..."}}`
#[derive(Debug, Deserialize)]
pub(super) struct ErrorEnvelope {
    pub error: ErrorDetail,
}

#[derive(Debug, Deserialize)]
pub(super) struct ErrorDetail {
    #[serde(rename = "type", default)]
    pub kind: String,
    #[serde(default)]
    pub message: String,
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
