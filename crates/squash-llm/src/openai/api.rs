//! Chat Completions as a [`ChatApi`]: where requests go, the key they carry, and how its
//! answers, stream chunks and errors read.

use eventsource_stream::Event;
use squash_core::ProviderKind;

use super::settings::OpenAiConfig;
use super::wire::{self, Chunk, Completion, CompletionRequest, WireUsage};
use crate::error::LlmError;
use crate::http::chat::{ChatApi, HttpModel, Step};
use crate::model::{ChatRequest, ChatResponse, OnDelta};

/// An OpenAI-compatible Chat Completions API at one endpoint.
pub struct Completions {
    config: OpenAiConfig,
    endpoint: String,
}

impl HttpModel<Completions> {
    /// A model for `config`; fails only when the HTTP client cannot be built.
    pub fn new(config: OpenAiConfig) -> Result<HttpModel<Completions>, LlmError> {
        let endpoint = format!("{}/chat/completions", config.base_url.trim_end_matches('/'));
        let (model, window) = (config.model.clone(), config.context_window_tokens);
        let (timeout, retry) = (config.timeout, config.retry);
        HttpModel::with(
            Completions { config, endpoint },
            model,
            window,
            timeout,
            retry,
        )
    }
}

impl ChatApi for Completions {
    const PROVIDER: ProviderKind = ProviderKind::OpenAi;
    const CUT_SHORT: &'static str = "the answer stream ended before the answer was complete";

    fn secret(&self) -> Option<&str> {
        self.config.api_key.as_deref()
    }

    fn body(&self, req: &ChatRequest, model: &str, stream: bool) -> serde_json::Result<Vec<u8>> {
        let limit = self.config.token_limit_field;
        serde_json::to_vec(&CompletionRequest::new(req, model, limit, stream))
    }

    fn post(&self, client: &reqwest::Client) -> reqwest::RequestBuilder {
        let request = client.post(&self.endpoint);
        match &self.config.api_key {
            Some(key) => request.bearer_auth(key),
            None => request,
        }
    }

    fn error_parts(&self, body: &str) -> (String, Option<String>) {
        wire::error_parts(body)
    }

    fn answer(&self, body: &str, model: &str) -> Result<ChatResponse, LlmError> {
        let parsed: Completion = serde_json::from_str(body)
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

    fn event(
        &self,
        event: &Event,
        out: &mut ChatResponse,
        on_delta: &OnDelta<'_>,
    ) -> Result<Step, LlmError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            return Ok(Step::Done);
        }
        let chunk: Chunk = serde_json::from_str(data)
            .map_err(|e| LlmError::MalformedResponse(format!("stream chunk: {e}")))?;
        if let Some(error) = chunk.error {
            return Ok(stream_failure(&error));
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
        Ok(Step::More)
    }
}

/// An error reported inside a stream. It has no status of its own, so it counts as a provider
/// failure unless its code says what it is.
fn stream_failure(value: &serde_json::Value) -> Step {
    let (message, code) =
        wire::error_value_parts(value).unwrap_or_else(|| (value.to_string(), None));
    let status = match code.as_deref() {
        Some("rate_limit_exceeded") => 429,
        Some("invalid_request_error") => 400,
        _ => 500,
    };
    Step::Failed {
        status,
        message,
        code,
    }
}
