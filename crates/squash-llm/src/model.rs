//! The provider-neutral request, response and trait every model implements.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::error::LlmError;
pub use squash_core::ProviderKind;

/// What a model is, for provenance records and for sizing a prompt before sending it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub provider: ProviderKind,
    /// The configured model id (a request may override it).
    pub model: String,
    /// How many tokens of input plus output the model accepts.
    pub context_window_tokens: u32,
}

impl ModelInfo {
    pub fn new(
        provider: ProviderKind,
        model: impl Into<String>,
        context_window_tokens: u32,
    ) -> Self {
        ModelInfo {
            provider,
            model: model.into(),
            context_window_tokens,
        }
    }
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

/// Tokens counted by the provider: the domain's type, so an answer's count is recorded as is.
pub use squash_core::TokenUsage as Usage;

/// Why the model stopped writing, as each provider's wire conversion reads it.
///
/// Serialized as the plain name [`StopReason::as_str`] gives (`"max_tokens"`), the shape JSON
/// answers had when this was a string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The model finished its answer (Anthropic `end_turn`, OpenAI `stop`).
    EndTurn,
    /// The answer hit the output limit and may be cut off (Anthropic `max_tokens`, OpenAI
    /// `length`).
    MaxTokens,
    /// A stop sequence ended it (Anthropic `stop_sequence`).
    StopSequence,
    /// The model wants to call a tool (Anthropic `tool_use`, OpenAI `tool_calls`).
    ToolUse,
    /// The provider refused or filtered the answer (Anthropic `refusal`, OpenAI
    /// `content_filter`).
    Refusal,
    /// Anything else, verbatim.
    Other(String),
}

impl StopReason {
    /// The inverse of [`StopReason::as_str`]. Each provider reads its own names in its wire
    /// conversion; this reads the neutral ones back (from JSON).
    pub fn parse(name: &str) -> StopReason {
        match name {
            "end_turn" => StopReason::EndTurn,
            "max_tokens" => StopReason::MaxTokens,
            "stop_sequence" => StopReason::StopSequence,
            "tool_use" => StopReason::ToolUse,
            "refusal" => StopReason::Refusal,
            other => StopReason::Other(other.to_owned()),
        }
    }

    /// Whether the answer was cut off by the output limit.
    pub fn is_truncated(&self) -> bool {
        matches!(self, StopReason::MaxTokens)
    }

    /// A stable name for records and JSON answers (`end_turn`, `max_tokens`, ...); an unknown
    /// reason keeps the provider's own name.
    pub fn as_str(&self) -> &str {
        match self {
            StopReason::EndTurn => "end_turn",
            StopReason::MaxTokens => "max_tokens",
            StopReason::StopSequence => "stop_sequence",
            StopReason::ToolUse => "tool_use",
            StopReason::Refusal => "refusal",
            StopReason::Other(reason) => reason,
        }
    }
}

impl Serialize for StopReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for StopReason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Ok(StopReason::parse(&name))
    }
}

squash_core::display_by_name!(StopReason);

/// A finished answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    pub text: String,
    /// The model id the provider reports having used (may be more specific than requested).
    pub model: String,
    /// `None` when the provider did not say: unknown, which is not zero.
    pub usage: Option<Usage>,
    /// `None` when the provider did not say.
    pub stop_reason: Option<StopReason>,
}

/// Where a streamed answer's text goes, delta by delta. (Each delta's lifetime is its own, so
/// that a delta can be a local string; `'a` bounds what the callback borrows.)
pub type OnDelta<'a> = dyn for<'d> Fn(&'d str) + Send + Sync + 'a;

/// One call of a model: what is asked, the caller's cancellation, and where text goes as it
/// arrives (`None`: the caller waits for the whole answer).
#[derive(Clone, Copy)]
pub struct ChatCall<'a> {
    pub request: &'a ChatRequest,
    pub cancel: &'a CancellationToken,
    pub on_delta: Option<&'a OnDelta<'a>>,
}

impl ChatCall<'_> {
    /// Reports `text` as one delta when the caller streams: what a provider that cannot stream
    /// does with its whole answer.
    pub fn deliver_whole(&self, text: &str) {
        if let Some(on_delta) = self.on_delta.filter(|_| !text.is_empty()) {
            on_delta(text);
        }
    }
}

/// A chat model. Implementations must honour `cancel` at every await point and classify every
/// failure into an [`LlmError`].
#[async_trait]
pub trait ChatModel: Send + Sync {
    /// What this model is.
    fn info(&self) -> ModelInfo;

    /// The tokens of `text` in the model's own tokenizer, where this process has it (the
    /// embedded model); `None` where only the provider knows (hosted APIs, which count a whole
    /// request at best, over the network). Callers then estimate
    /// (`squash_core::tokens::estimate_tokens`).
    fn count_tokens(&self, _text: &str) -> Option<u64> {
        None
    }

    /// Answers one call: the one method a provider implements. [`ChatModel::complete`] and
    /// [`ChatModel::stream`] are this call without and with deltas.
    async fn answer(&self, call: ChatCall<'_>) -> Result<ChatResponse, LlmError>;

    /// Asks for one complete answer.
    async fn complete(
        &self,
        req: &ChatRequest,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError> {
        let call = ChatCall {
            request: req,
            cancel,
            on_delta: None,
        };
        self.answer(call).await
    }

    /// Asks for one answer, reporting text deltas as they arrive; returns the same full
    /// response as [`ChatModel::complete`]. A provider without streaming reports the whole
    /// text as a single delta.
    async fn stream(
        &self,
        req: &ChatRequest,
        cancel: &CancellationToken,
        on_delta: &OnDelta<'_>,
    ) -> Result<ChatResponse, LlmError> {
        let call = ChatCall {
            request: req,
            cancel,
            on_delta: Some(on_delta),
        };
        self.answer(call).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling_for_serde_display_and_parse() {
        for (kind, name) in [
            (ProviderKind::Anthropic, "anthropic"),
            (ProviderKind::OpenAi, "openai"),
            (ProviderKind::ClaudeCli, "claude-cli"),
            (ProviderKind::Local, "local"),
        ] {
            assert_eq!(kind.to_string(), name);
            assert_eq!(serde_json::to_value(kind).unwrap(), serde_json::json!(name));
            assert_eq!(ProviderKind::parse(name), Some(kind));
            assert_eq!(
                serde_json::from_value::<ProviderKind>(serde_json::json!(name)).unwrap(),
                kind
            );
        }
        assert_eq!(
            ProviderKind::names(),
            "anthropic, openai, claude-cli, local"
        );
    }

    #[test]
    fn old_records_still_read() {
        assert_eq!(ProviderKind::parse("open_ai"), Some(ProviderKind::OpenAi));
        assert_eq!(
            ProviderKind::parse(" Claude_CLI "),
            Some(ProviderKind::ClaudeCli)
        );
        assert_eq!(ProviderKind::parse("OpenAI"), Some(ProviderKind::OpenAi));
        let old: ModelInfo = serde_json::from_value(serde_json::json!({
            "provider": "claude_cli", "model": "m", "context_window_tokens": 1
        }))
        .unwrap();
        assert_eq!(old.provider, ProviderKind::ClaudeCli);
        // ... and are written in the one spelling.
        assert_eq!(
            serde_json::to_value(&old).unwrap()["provider"],
            "claude-cli"
        );
    }

    #[test]
    fn unknown_names_are_refused_with_the_list() {
        assert_eq!(ProviderKind::parse("gemini"), None);
        let err = "gemini".parse::<ProviderKind>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown provider `gemini`: use one of anthropic, openai, claude-cli, local"
        );
        assert!(serde_json::from_value::<ProviderKind>(serde_json::json!("nope")).is_err());
    }

    #[test]
    fn stop_reasons_round_trip_and_know_truncation() {
        for reason in [
            StopReason::EndTurn,
            StopReason::MaxTokens,
            StopReason::StopSequence,
            StopReason::ToolUse,
            StopReason::Refusal,
            StopReason::Other("pause_turn".into()),
        ] {
            let json = serde_json::to_value(&reason).unwrap();
            assert_eq!(json, serde_json::json!(reason.as_str()));
            assert_eq!(serde_json::from_value::<StopReason>(json).unwrap(), reason);
            assert_eq!(reason.is_truncated(), reason == StopReason::MaxTokens);
        }
    }
}
