//! The Messages API as an [`ChatApi`]: where requests go, the headers they carry, and how its
//! answers, stream events and errors read.

use eventsource_stream::Event;
use squash_core::ProviderKind;

use super::settings::AnthropicConfig;
use super::wire::{
    self, BlockDelta, ErrorEnvelope, MessagesRequest, MessagesResponse, StreamEvent, WireUsage,
};
use crate::error::LlmError;
use crate::http::chat::{ChatApi, HttpModel, Step};
use crate::model::{ChatRequest, ChatResponse, OnDelta, StopReason};

const API_VERSION: &str = "2023-06-01";

/// The Anthropic Messages API at one endpoint.
pub struct Messages {
    config: AnthropicConfig,
    endpoint: String,
}

impl HttpModel<Messages> {
    /// A model for `config`; fails only when the key is empty or the HTTP client cannot be
    /// built.
    pub fn new(config: AnthropicConfig) -> Result<HttpModel<Messages>, LlmError> {
        if config.api_key.trim().is_empty() {
            return Err(LlmError::NotConfigured(
                "the Anthropic API key is empty".into(),
            ));
        }
        let endpoint = format!("{}/v1/messages", config.base_url.trim_end_matches('/'));
        let (model, window) = (config.model.clone(), config.context_window_tokens);
        let (timeout, retry) = (config.timeout, config.retry);
        HttpModel::with(Messages { config, endpoint }, model, window, timeout, retry)
    }
}

impl ChatApi for Messages {
    const PROVIDER: ProviderKind = ProviderKind::Anthropic;
    const CUT_SHORT: &'static str = "the answer stream ended before the message was complete";

    fn secret(&self) -> Option<&str> {
        Some(&self.config.api_key)
    }

    fn body(&self, req: &ChatRequest, model: &str, stream: bool) -> serde_json::Result<Vec<u8>> {
        serde_json::to_vec(&MessagesRequest::new(req, model, stream))
    }

    fn post(&self, client: &reqwest::Client) -> reqwest::RequestBuilder {
        client
            .post(&self.endpoint)
            .header("x-api-key", &self.config.api_key)
            .header("anthropic-version", API_VERSION)
    }

    fn error_parts(&self, body: &str) -> (String, Option<String>) {
        match serde_json::from_str::<ErrorEnvelope>(body) {
            Ok(envelope) => (envelope.error.message, Some(envelope.error.kind)),
            Err(_) => (body.to_string(), None),
        }
    }

    fn answer(&self, body: &str, _model: &str) -> Result<ChatResponse, LlmError> {
        let parsed: MessagesResponse = serde_json::from_str(body)
            .map_err(|e| LlmError::MalformedResponse(format!("messages response: {e}")))?;
        Ok(ChatResponse {
            text: parsed.text(),
            usage: parsed.usage.as_ref().and_then(WireUsage::usage),
            model: parsed.model,
            stop_reason: parsed.stop_reason.as_deref().map(StopReason::parse),
        })
    }

    fn event(
        &self,
        event: &Event,
        out: &mut ChatResponse,
        on_delta: &OnDelta<'_>,
    ) -> Result<Step, LlmError> {
        let parsed: StreamEvent = serde_json::from_str(&event.data).map_err(|e| {
            LlmError::MalformedResponse(format!("stream event `{}`: {e}", event.event))
        })?;
        match parsed {
            StreamEvent::MessageStart { message } => {
                if !message.model.is_empty() {
                    out.model = message.model;
                }
                out.usage = message.usage.as_ref().and_then(WireUsage::usage);
            }
            StreamEvent::ContentBlockDelta {
                delta: BlockDelta::TextDelta { text },
            } => {
                on_delta(&text);
                out.text.push_str(&text);
            }
            StreamEvent::ContentBlockDelta { .. } | StreamEvent::Other => {}
            StreamEvent::MessageDelta { delta, usage } => {
                if let Some(reason) = delta.stop_reason.as_deref() {
                    out.stop_reason = Some(StopReason::parse(reason));
                }
                // The final count replaces the one `message_start` reported.
                if let (Some(known), Some(tokens)) =
                    (out.usage.as_mut(), usage.and_then(|u| u.output_tokens))
                {
                    known.output_tokens = tokens;
                }
            }
            StreamEvent::MessageStop {} => return Ok(Step::Done),
            StreamEvent::Error { error } => {
                return Ok(Step::Failed {
                    status: wire::error_status(&error.kind),
                    message: error.message,
                    code: Some(error.kind),
                })
            }
        }
        Ok(Step::More)
    }
}
