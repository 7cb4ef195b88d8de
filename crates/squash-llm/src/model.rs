//! The provider-neutral request, response and trait every model implements.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::error::LlmError;

/// Which implementation answers a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// The Anthropic Messages API.
    Anthropic,
    /// An OpenAI-compatible Chat Completions API (OpenAI, Ollama, llama.cpp, vLLM, LM Studio).
    OpenAi,
    /// The Claude Code `claude` executable in print mode.
    ClaudeCli,
    /// A model embedded in the process.
    Local,
    /// The scripted model used in tests.
    Fake,
}

impl ProviderKind {
    /// Every kind, in a stable order.
    pub const ALL: [ProviderKind; 5] = [
        ProviderKind::Anthropic,
        ProviderKind::OpenAi,
        ProviderKind::ClaudeCli,
        ProviderKind::Local,
        ProviderKind::Fake,
    ];

    /// A stable snake_case name, as stored in squash provenance records.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::OpenAi => "openai",
            ProviderKind::ClaudeCli => "claude_cli",
            ProviderKind::Local => "local",
            ProviderKind::Fake => "fake",
        }
    }

    /// The inverse of [`ProviderKind::as_str`].
    pub fn parse(s: &str) -> Option<ProviderKind> {
        ProviderKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

impl std::fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a model is, for provenance records and for sizing a prompt before sending it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub provider: ProviderKind,
    /// The configured model id (a request may override it).
    pub model: String,
    /// How many tokens of input plus output the model accepts.
    pub context_window_tokens: u32,
}

/// Who speaks a turn. System text travels in [`ChatRequest::system`], never as a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatRole {
    User,
    Assistant,
}

impl ChatRole {
    /// The wire name shared by every provider.
    pub fn as_str(self) -> &'static str {
        match self {
            ChatRole::User => "user",
            ChatRole::Assistant => "assistant",
        }
    }
}

/// An image sent to the model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChatImage {
    /// Inline image bytes, base64-encoded, with their MIME type (`image/png`).
    Base64 { media_type: String, data: String },
    /// An image the provider fetches itself.
    Url { url: String },
}

/// One block of a turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatPart {
    /// Plain text.
    Text(String),
    /// Extended thinking from an earlier assistant turn. Providers only replay it where their
    /// API accepts it (Anthropic, assistant turns, with a signature) and drop it elsewhere.
    Thinking {
        thinking: String,
        signature: Option<String>,
    },
    /// A tool call the assistant made earlier. Providers that get no tool definitions send it
    /// as text (Anthropic, the CLI); OpenAI-compatible ones as `tool_calls`.
    ToolUse {
        id: String,
        name: String,
        input: serde_json::Value,
    },
    /// The result of the call `tool_use_id`, sent from the user side.
    ToolResult {
        tool_use_id: String,
        content: String,
        is_error: bool,
    },
    /// An image, accepted on the user side only.
    Image(ChatImage),
}

impl ChatPart {
    /// A text part.
    pub fn text(text: impl Into<String>) -> ChatPart {
        ChatPart::Text(text.into())
    }
}

/// One turn of the conversation sent to a model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: ChatRole,
    pub content: Vec<ChatPart>,
}

impl ChatMessage {
    /// A user turn holding one text part.
    pub fn user(text: impl Into<String>) -> ChatMessage {
        ChatMessage {
            role: ChatRole::User,
            content: vec![ChatPart::text(text)],
        }
    }

    /// An assistant turn holding one text part.
    pub fn assistant(text: impl Into<String>) -> ChatMessage {
        ChatMessage {
            role: ChatRole::Assistant,
            content: vec![ChatPart::text(text)],
        }
    }
}

/// A request for one model answer. It carries no tool definitions: Squash never lets a model
/// act, it only asks for text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// Instructions sent the way each provider takes them (system field, system message, CLI
    /// flag).
    pub system: Option<String>,
    /// The conversation, oldest first; see [`crate::chat_messages_from_domain`].
    pub messages: Vec<ChatMessage>,
    /// `None` leaves the provider's default. Not supported by the CLI, which ignores it.
    pub temperature: Option<f32>,
    /// The most tokens the answer may have. Not supported by the CLI, which ignores it.
    pub max_output_tokens: u32,
    /// Overrides the provider's configured model for this request.
    pub model: Option<String>,
}

impl ChatRequest {
    /// A request with the given turns, no system prompt, provider-default temperature and
    /// `max_output_tokens` of 4096.
    pub fn new(messages: Vec<ChatMessage>) -> ChatRequest {
        ChatRequest {
            system: None,
            messages,
            temperature: None,
            max_output_tokens: 4096,
            model: None,
        }
    }
}

/// Tokens counted by the provider.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// A finished answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    pub text: String,
    /// The model id the provider reports having used (may be more specific than requested).
    pub model: String,
    pub usage: Usage,
    /// The provider's own stop reason (`end_turn`, `stop`, `max_tokens`, `length`, ...).
    pub stop_reason: Option<String>,
}

/// A chat model. Implementations must honour `cancel` at every await point and classify every
/// failure into an [`LlmError`].
#[async_trait]
pub trait ChatModel: Send + Sync {
    /// What this model is.
    fn info(&self) -> ModelInfo;

    /// Asks for one complete answer.
    async fn complete(
        &self,
        req: &ChatRequest,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError>;

    /// Asks for one answer, reporting text deltas as they arrive; returns the same full
    /// response as [`ChatModel::complete`]. A provider without streaming reports the whole
    /// text as a single delta.
    ///
    /// (`for<'d>` is spelled out because `async_trait` would otherwise bind the delta's
    /// lifetime to the call, and no delta could be a local string.)
    async fn stream(
        &self,
        req: &ChatRequest,
        cancel: &CancellationToken,
        on_delta: &(dyn for<'d> Fn(&'d str) + Send + Sync),
    ) -> Result<ChatResponse, LlmError> {
        let response = self.complete(req, cancel).await?;
        if !response.text.is_empty() {
            on_delta(&response.text);
        }
        Ok(response)
    }
}
