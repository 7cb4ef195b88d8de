//! The Anthropic Messages API (`POST {base}/v1/messages`).

mod wire;

pub(crate) use wire::stop_reason;

use std::time::Duration;

use async_trait::async_trait;
use reqwest::header::HeaderMap;
use reqwest::StatusCode;
use tokio_util::sync::CancellationToken;

use crate::env::non_empty as non_empty_env;
use crate::error::{redact, LlmError};
use crate::guard::timed;
use crate::http::{self, ErrorBody, SseReader, DEFAULT_TIMEOUT};
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelInfo};
use crate::retry::{with_retry, RetryPolicy};
use squash_core::ProviderKind;
use wire::{ErrorEnvelope, MessagesRequest, MessagesResponse, StreamEvent};

/// Where the API lives unless `ANTHROPIC_BASE_URL` says otherwise.
pub const ANTHROPIC_DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
/// The model used unless `ANTHROPIC_MODEL` or the configuration says otherwise.
pub const ANTHROPIC_DEFAULT_MODEL: &str = "claude-sonnet-4-5";
const API_VERSION: &str = "2023-06-01";
/// Every current Claude model accepts 200k tokens by default.
const CONTEXT_WINDOW: u32 = 200_000;

/// How to reach the Anthropic API.
#[derive(Clone)]
pub struct AnthropicConfig {
    pub api_key: String,
    /// Without the `/v1` suffix, e.g. `https://api.anthropic.com`.
    pub base_url: String,
    pub model: String,
    pub context_window_tokens: u32,
    /// Per attempt; for a stream, the longest wait for its next event.
    pub timeout: Duration,
    pub retry: RetryPolicy,
}

impl std::fmt::Debug for AnthropicConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnthropicConfig")
            .field("api_key", &"[redacted]")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("context_window_tokens", &self.context_window_tokens)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .finish()
    }
}

impl AnthropicConfig {
    /// The defaults with the given key.
    pub fn new(api_key: impl Into<String>) -> AnthropicConfig {
        AnthropicConfig {
            api_key: api_key.into(),
            base_url: ANTHROPIC_DEFAULT_BASE_URL.to_string(),
            model: ANTHROPIC_DEFAULT_MODEL.to_string(),
            context_window_tokens: CONTEXT_WINDOW,
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
        }
    }

    /// Reads `ANTHROPIC_API_KEY` (required), `ANTHROPIC_BASE_URL` and `ANTHROPIC_MODEL`.
    pub fn from_env() -> Result<AnthropicConfig, LlmError> {
        let api_key = non_empty_env("ANTHROPIC_API_KEY")
            .ok_or_else(|| LlmError::NotConfigured("ANTHROPIC_API_KEY is not set".into()))?;
        let mut config = AnthropicConfig::new(api_key);
        if let Some(base_url) = non_empty_env("ANTHROPIC_BASE_URL") {
            config.base_url = base_url;
        }
        if let Some(model) = non_empty_env("ANTHROPIC_MODEL") {
            config.model = model;
        }
        Ok(config)
    }
}

/// A Claude model behind the Anthropic Messages API.
pub struct AnthropicModel {
    config: AnthropicConfig,
    client: reqwest::Client,
    endpoint: String,
}

impl AnthropicModel {
    /// A model for `config`; fails only when the HTTP client cannot be built.
    pub fn new(config: AnthropicConfig) -> Result<AnthropicModel, LlmError> {
        if config.api_key.trim().is_empty() {
            return Err(LlmError::NotConfigured(
                "the Anthropic API key is empty".into(),
            ));
        }
        let endpoint = format!("{}/v1/messages", config.base_url.trim_end_matches('/'));
        Ok(AnthropicModel {
            client: http::client(config.timeout)?,
            config,
            endpoint,
        })
    }

    /// A model configured from the environment, see [`AnthropicConfig::from_env`].
    pub fn from_env() -> Result<AnthropicModel, LlmError> {
        AnthropicModel::new(AnthropicConfig::from_env()?)
    }

    fn request(&self, body: &MessagesRequest<'_>) -> reqwest::RequestBuilder {
        self.client
            .post(&self.endpoint)
            .header("x-api-key", &self.config.api_key)
            .header("anthropic-version", API_VERSION)
            .json(body)
    }

    fn classify(&self, status: StatusCode, headers: &HeaderMap, body: &str) -> LlmError {
        let detail = serde_json::from_str::<ErrorEnvelope>(body).ok();
        let (message, code) = match detail {
            Some(envelope) => (envelope.error.message, Some(envelope.error.kind)),
            None => (body.to_string(), None),
        };
        let message = redact(&message, Some(&self.config.api_key));
        http::classify_status(
            ProviderKind::Anthropic,
            status.as_u16(),
            headers,
            ErrorBody { message, code },
        )
    }

    /// An `error` event in a stream, classified as the HTTP error of the same type would be.
    fn stream_error(&self, kind: &str, message: &str) -> LlmError {
        let status = match kind {
            "invalid_request_error" => 400,
            "authentication_error" => 401,
            "permission_error" => 403,
            "not_found_error" => 404,
            "request_too_large" => 413,
            "rate_limit_error" => 429,
            "overloaded_error" => 529,
            _ => 500,
        };
        http::classify_status(
            ProviderKind::Anthropic,
            status,
            &HeaderMap::new(),
            ErrorBody {
                message: redact(message, Some(&self.config.api_key)),
                code: Some(kind.to_string()),
            },
        )
    }
}

#[async_trait]
impl ChatModel for AnthropicModel {
    fn info(&self) -> ModelInfo {
        ModelInfo {
            provider: ProviderKind::Anthropic,
            model: self.config.model.clone(),
            context_window_tokens: self.config.context_window_tokens,
        }
    }

    async fn complete(
        &self,
        req: &ChatRequest,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError> {
        let model = req.model.as_deref().unwrap_or(&self.config.model);
        let body = &MessagesRequest::new(req, model, false);
        let timeout = self.config.timeout;
        let text = with_retry(&self.config.retry, cancel, || {
            timed(timeout, async move {
                let response = http::send(self.request(body), timeout, |s, h, b| {
                    self.classify(s, h, b)
                })
                .await?;
                http::body_text(response, timeout).await
            })
        })
        .await?;
        let parsed: MessagesResponse = serde_json::from_str(&text)
            .map_err(|e| LlmError::MalformedResponse(format!("messages response: {e}")))?;
        Ok(ChatResponse {
            text: parsed.text(),
            usage: parsed.usage.as_ref().and_then(wire::WireUsage::usage),
            model: parsed.model,
            stop_reason: parsed.stop_reason.as_deref().map(stop_reason),
        })
    }

    async fn stream(
        &self,
        req: &ChatRequest,
        cancel: &CancellationToken,
        on_delta: &(dyn for<'d> Fn(&'d str) + Send + Sync),
    ) -> Result<ChatResponse, LlmError> {
        let model = req.model.as_deref().unwrap_or(&self.config.model);
        let body = &MessagesRequest::new(req, model, true);
        let timeout = self.config.timeout;
        // Only the request is retried: once deltas were reported, a retry would repeat them.
        let response = with_retry(&self.config.retry, cancel, || {
            timed(
                timeout,
                http::send(self.request(body), timeout, |s, h, b| {
                    self.classify(s, h, b)
                }),
            )
        })
        .await?;

        let mut events = SseReader::new(response, timeout);
        let mut out = ChatResponse {
            text: String::new(),
            model: model.to_string(),
            usage: None,
            stop_reason: None,
        };
        let mut stopped = false;
        while let Some(event) = events.next(cancel).await? {
            if event.data.trim().is_empty() {
                continue;
            }
            let parsed: StreamEvent = serde_json::from_str(&event.data).map_err(|e| {
                LlmError::MalformedResponse(format!("stream event `{}`: {e}", event.event))
            })?;
            match parsed {
                StreamEvent::MessageStart { message } => {
                    if !message.model.is_empty() {
                        out.model = message.model;
                    }
                    out.usage = message.usage.as_ref().and_then(wire::WireUsage::usage);
                }
                StreamEvent::ContentBlockDelta {
                    delta: wire::BlockDelta::TextDelta { text },
                } => {
                    on_delta(&text);
                    out.text.push_str(&text);
                }
                StreamEvent::ContentBlockDelta { .. } => {}
                StreamEvent::MessageDelta { delta, usage } => {
                    if let Some(reason) = delta.stop_reason.as_deref() {
                        out.stop_reason = Some(stop_reason(reason));
                    }
                    // The final count replaces the one `message_start` reported.
                    if let (Some(known), Some(tokens)) =
                        (out.usage.as_mut(), usage.and_then(|u| u.output_tokens))
                    {
                        known.output_tokens = tokens;
                    }
                }
                StreamEvent::MessageStop {} => {
                    stopped = true;
                    break;
                }
                StreamEvent::Error { error } => {
                    return Err(self.stream_error(&error.kind, &error.message))
                }
                StreamEvent::Other => {}
            }
        }
        if !stopped && out.stop_reason.is_none() {
            return Err(LlmError::Network(
                "the answer stream ended before the message was complete".into(),
            ));
        }
        Ok(out)
    }
}
