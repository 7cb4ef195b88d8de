//! OpenAI-compatible Chat Completions (`POST {base}/chat/completions`): OpenAI itself and the
//! local servers that speak its protocol (Ollama, llama.cpp, vLLM, LM Studio).

mod wire;

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
pub use wire::TokenLimitField;
use wire::{Chunk, Completion, CompletionRequest, ModelList, WireUsage};

/// Where the API lives unless `OPENAI_BASE_URL` says otherwise.
pub const OPENAI_DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
/// The model used unless `OPENAI_MODEL` or the configuration says otherwise.
pub const OPENAI_DEFAULT_MODEL: &str = "gpt-4o-mini";

/// How to reach an OpenAI-compatible server.
#[derive(Clone)]
pub struct OpenAiConfig {
    /// Optional: local servers usually need none.
    pub api_key: Option<String>,
    /// Including the version path, e.g. `https://api.openai.com/v1` or
    /// `http://localhost:11434/v1`.
    pub base_url: String,
    pub model: String,
    pub context_window_tokens: u32,
    pub token_limit_field: TokenLimitField,
    /// Per attempt; for a stream, the longest wait for its next event.
    pub timeout: Duration,
    pub retry: RetryPolicy,
}

impl std::fmt::Debug for OpenAiConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiConfig")
            .field("api_key", &self.api_key.as_ref().map(|_| "[redacted]"))
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("context_window_tokens", &self.context_window_tokens)
            .field("token_limit_field", &self.token_limit_field)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .finish()
    }
}

impl OpenAiConfig {
    /// A configuration for `model` at `base_url`, with the field and context window that suit
    /// them (see [`OpenAiConfig::default_token_limit_field`] and
    /// [`OpenAiConfig::default_context_window`]).
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> OpenAiConfig {
        let base_url = base_url.into();
        let model = model.into();
        OpenAiConfig {
            api_key: None,
            token_limit_field: OpenAiConfig::default_token_limit_field(&base_url),
            context_window_tokens: OpenAiConfig::default_context_window(&base_url, &model),
            base_url,
            model,
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
        }
    }

    /// Reads `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_MODEL` and `OPENAI_CONTEXT_WINDOW`.
    /// OpenAI itself needs the key; a custom base URL (a local server) does not.
    pub fn from_env() -> Result<OpenAiConfig, LlmError> {
        let api_key = non_empty_env("OPENAI_API_KEY");
        let base_url = non_empty_env("OPENAI_BASE_URL");
        if api_key.is_none() && base_url.is_none() {
            return Err(LlmError::NotConfigured(
                "neither OPENAI_API_KEY nor OPENAI_BASE_URL is set".into(),
            ));
        }
        let mut config = OpenAiConfig::new(
            base_url.unwrap_or_else(|| OPENAI_DEFAULT_BASE_URL.to_string()),
            non_empty_env("OPENAI_MODEL").unwrap_or_else(|| OPENAI_DEFAULT_MODEL.to_string()),
        );
        config.api_key = api_key;
        if let Some(window) = non_empty_env("OPENAI_CONTEXT_WINDOW") {
            config.context_window_tokens = window.trim().parse().map_err(|_| {
                LlmError::NotConfigured(format!(
                    "OPENAI_CONTEXT_WINDOW is not a number of tokens: {window}"
                ))
            })?;
        }
        Ok(config)
    }

    /// OpenAI's own API gets `max_completion_tokens` (its reasoning models refuse
    /// `max_tokens`); every other server gets `max_tokens`, which all of them understand.
    pub fn default_token_limit_field(base_url: &str) -> TokenLimitField {
        if is_official(base_url) {
            TokenLimitField::MaxCompletionTokens
        } else {
            TokenLimitField::MaxTokens
        }
    }

    /// The context window of well-known OpenAI models (the shared table,
    /// [`crate::context_window_for`]); 8192 tokens for anything else, since a local server's
    /// window depends on how it was started (set it explicitly there).
    pub fn default_context_window(base_url: &str, model: &str) -> u32 {
        if !is_official(base_url) {
            return 8_192;
        }
        crate::context_window_for(model).unwrap_or(8_192)
    }
}

/// Asks an OpenAI-compatible server at `base_url` (with its version path, e.g.
/// `http://127.0.0.1:11434/v1`) which models it serves, giving up after `timeout`. Provider
/// detection uses it to find a local server (Ollama, llama.cpp's server) that answers.
pub async fn list_models(base_url: &str, timeout: Duration) -> Result<Vec<String>, LlmError> {
    let client = http::client(timeout)?;
    let url = format!("{}/models", base_url.trim_end_matches('/'));
    let response = client
        .get(&url)
        .send()
        .await
        .map_err(|e| LlmError::Network(redact(&e.to_string(), None)))?;
    let status = response.status();
    if !status.is_success() {
        return Err(LlmError::Network(format!(
            "{} answered {status}",
            redact(&url, None)
        )));
    }
    let list: ModelList = response
        .json()
        .await
        .map_err(|e| LlmError::MalformedResponse(redact(&e.to_string(), None)))?;
    Ok(list.data.into_iter().map(|m| m.id).collect())
}

fn is_official(base_url: &str) -> bool {
    base_url.contains("://api.openai.com")
}

/// A model behind an OpenAI-compatible Chat Completions API.
pub struct OpenAiModel {
    config: OpenAiConfig,
    client: reqwest::Client,
    endpoint: String,
}

impl OpenAiModel {
    /// A model for `config`; fails only when the HTTP client cannot be built.
    pub fn new(config: OpenAiConfig) -> Result<OpenAiModel, LlmError> {
        let endpoint = format!("{}/chat/completions", config.base_url.trim_end_matches('/'));
        Ok(OpenAiModel {
            client: http::client(config.timeout)?,
            config,
            endpoint,
        })
    }

    /// A model configured from the environment, see [`OpenAiConfig::from_env`].
    pub fn from_env() -> Result<OpenAiModel, LlmError> {
        OpenAiModel::new(OpenAiConfig::from_env()?)
    }

    fn request(&self, body: &CompletionRequest<'_>) -> reqwest::RequestBuilder {
        let request = self.client.post(&self.endpoint).json(body);
        match &self.config.api_key {
            Some(key) => request.bearer_auth(key),
            None => request,
        }
    }

    fn classify(&self, status: StatusCode, headers: &HeaderMap, body: &str) -> LlmError {
        let (message, code) = wire::error_parts(body);
        http::classify_status(
            ProviderKind::OpenAi,
            status.as_u16(),
            headers,
            ErrorBody {
                message: redact(&message, self.config.api_key.as_deref()),
                code,
            },
        )
    }

    /// An error reported inside a stream. It has no status of its own, so it counts as a
    /// provider failure unless its text says what it is.
    fn stream_error(&self, value: &serde_json::Value) -> LlmError {
        let (message, code) =
            wire::error_value_parts(value).unwrap_or_else(|| (value.to_string(), None));
        let status = match code.as_deref() {
            Some("rate_limit_exceeded") => 429,
            Some("invalid_request_error") => 400,
            _ => 500,
        };
        http::classify_status(
            ProviderKind::OpenAi,
            status,
            &HeaderMap::new(),
            ErrorBody {
                message: redact(&message, self.config.api_key.as_deref()),
                code,
            },
        )
    }
}

#[async_trait]
impl ChatModel for OpenAiModel {
    fn info(&self) -> ModelInfo {
        ModelInfo {
            provider: ProviderKind::OpenAi,
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
        let body = &CompletionRequest::new(req, model, self.config.token_limit_field, false);
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
        let parsed: Completion = serde_json::from_str(&text)
            .map_err(|e| LlmError::MalformedResponse(format!("chat completion: {e}")))?;
        let choice =
            parsed.choices.into_iter().next().ok_or_else(|| {
                LlmError::MalformedResponse("chat completion without choices".into())
            })?;
        Ok(ChatResponse {
            text: choice.message.content.unwrap_or_default(),
            model: parsed.model.unwrap_or_else(|| model.to_string()),
            usage: parsed.usage.as_ref().and_then(WireUsage::usage),
            stop_reason: choice.finish_reason.as_deref().map(wire::stop_reason),
        })
    }

    async fn stream(
        &self,
        req: &ChatRequest,
        cancel: &CancellationToken,
        on_delta: &(dyn for<'d> Fn(&'d str) + Send + Sync),
    ) -> Result<ChatResponse, LlmError> {
        let model = req.model.as_deref().unwrap_or(&self.config.model);
        let body = &CompletionRequest::new(req, model, self.config.token_limit_field, true);
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
        let mut done = false;
        while let Some(event) = events.next(cancel).await? {
            let data = event.data.trim();
            if data.is_empty() {
                continue;
            }
            if data == "[DONE]" {
                done = true;
                break;
            }
            let chunk: Chunk = serde_json::from_str(data)
                .map_err(|e| LlmError::MalformedResponse(format!("stream chunk: {e}")))?;
            if let Some(error) = chunk.error {
                return Err(self.stream_error(&error));
            }
            if let Some(reported) = chunk.model.filter(|m| !m.is_empty()) {
                out.model = reported;
            }
            if let Some(usage) = chunk.usage.as_ref().and_then(WireUsage::usage) {
                out.usage = Some(usage);
            }
            for choice in chunk.choices {
                if let Some(text) = choice.delta.and_then(|d| d.content) {
                    if !text.is_empty() {
                        on_delta(&text);
                        out.text.push_str(&text);
                    }
                }
                if let Some(reason) = choice.finish_reason.as_deref() {
                    out.stop_reason = Some(wire::stop_reason(reason));
                }
            }
        }
        // Some servers close without `[DONE]`; a finish reason still proves the answer whole.
        if !done && out.stop_reason.is_none() {
            return Err(LlmError::Network(
                "the answer stream ended before the answer was complete".into(),
            ));
        }
        Ok(out)
    }
}
