//! The one chat call of every HTTP provider: the request sent with bounded retries and a
//! deadline per attempt, its failure classified, the answer read whole or as server-sent events.
//! A provider supplies only its wire format, as a [`ChatApi`]; its model is an [`HttpModel`]
//! of it (`AnthropicModel`, `OpenAiModel`).

use std::time::Duration;

use async_trait::async_trait;
use eventsource_stream::Event;
use reqwest::header::{HeaderMap, CONTENT_TYPE};
use squash_core::ProviderKind;
use tokio_util::sync::CancellationToken;

use crate::error::{redact, LlmError};
use crate::guard::timed;
use crate::http::client::{self, body_text};
use crate::http::retry::{with_retry, RetryPolicy};
use crate::http::sse::SseReader;
use crate::http::status::{classify_status, ErrorBody};
use crate::model::{ChatCall, ChatModel, ChatRequest, ChatResponse, ModelInfo, OnDelta};

/// An HTTP chat API's wire format: how a request is addressed and written, and how its
/// answers, stream events and error bodies read.
pub trait ChatApi: Send + Sync + 'static {
    /// Whose API it is, for errors and provenance.
    const PROVIDER: ProviderKind;
    /// What a stream that ends before the answer is complete is reported as.
    const CUT_SHORT: &'static str;

    /// The text to remove from anything the provider says back (its API key).
    fn secret(&self) -> Option<&str>;

    /// The JSON body asking `model` for `req`, streamed or not.
    fn body(&self, req: &ChatRequest, model: &str, stream: bool) -> serde_json::Result<Vec<u8>>;

    /// A POST of the endpoint with the API's headers (its credentials, its version).
    fn post(&self, client: &reqwest::Client) -> reqwest::RequestBuilder;

    /// The message and code of an error body.
    fn error_parts(&self, body: &str) -> (String, Option<String>);

    /// A whole answer's body; `model` is the one asked for.
    fn answer(&self, body: &str, model: &str) -> Result<ChatResponse, LlmError>;

    /// Reads one event of a streamed answer into `out`, reporting its text to `on_delta`.
    fn event(
        &self,
        event: &Event,
        out: &mut ChatResponse,
        on_delta: &OnDelta<'_>,
    ) -> Result<Step, LlmError>;
}

/// What a stream event means for the rest of the stream.
pub enum Step {
    /// More is coming.
    More,
    /// The answer is complete.
    Done,
    /// The provider reports a failure inside the stream, with the HTTP status its kind of
    /// failure would have had.
    Failed {
        status: u16,
        message: String,
        code: Option<String>,
    },
}

/// A model behind an HTTP chat API.
pub struct HttpModel<A> {
    api: A,
    /// The provider, the model asked for unless a request names another, and its window.
    info: ModelInfo,
    client: reqwest::Client,
    /// Per attempt; for a stream, the longest wait for its next event.
    timeout: Duration,
    retry: RetryPolicy,
}

impl<A: ChatApi> HttpModel<A> {
    /// A model of `api` that asks for `model` (whose window is `context_window_tokens`) unless
    /// a request names another. Fails only when the HTTP client cannot be built.
    pub(crate) fn with(
        api: A,
        model: String,
        context_window_tokens: u32,
        timeout: Duration,
        retry: RetryPolicy,
    ) -> Result<HttpModel<A>, LlmError> {
        Ok(HttpModel {
            api,
            info: ModelInfo::new(A::PROVIDER, model, context_window_tokens),
            client: client::client(timeout)?,
            timeout,
            retry,
        })
    }

    fn failure(
        &self,
        status: u16,
        headers: &HeaderMap,
        message: &str,
        code: Option<String>,
    ) -> LlmError {
        let message = redact(message, self.api.secret());
        classify_status(A::PROVIDER, status, headers, ErrorBody { message, code })
    }

    /// One attempt at sending `body`, up to the answer's headers.
    async fn send(&self, body: &[u8]) -> Result<reqwest::Response, LlmError> {
        let request = self
            .api
            .post(&self.client)
            .header(CONTENT_TYPE, "application/json")
            .body(body.to_vec());
        client::send(request, self.timeout, |status, headers, text| {
            let (message, code) = self.api.error_parts(text);
            self.failure(status.as_u16(), headers, &message, code)
        })
        .await
    }

    fn body(&self, req: &ChatRequest, model: &str, stream: bool) -> Result<Vec<u8>, LlmError> {
        self.api
            .body(req, model, stream)
            .map_err(|e| LlmError::BadRequest(format!("the request cannot be written: {e}")))
    }

    async fn complete(
        &self,
        req: &ChatRequest,
        model: &str,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError> {
        let body = &self.body(req, model, false)?;
        let timeout = self.timeout;
        let text = with_retry(&self.retry, cancel, || {
            timed(timeout, async move {
                body_text(self.send(body).await?, timeout).await
            })
        })
        .await?;
        self.api.answer(&text, model)
    }

    async fn stream(
        &self,
        req: &ChatRequest,
        model: &str,
        cancel: &CancellationToken,
        on_delta: &OnDelta<'_>,
    ) -> Result<ChatResponse, LlmError> {
        let body = &self.body(req, model, true)?;
        let timeout = self.timeout;
        // Only the request is retried: once deltas were reported, a retry would repeat them.
        let response = with_retry(&self.retry, cancel, || timed(timeout, self.send(body))).await?;
        let mut events = SseReader::new(response, timeout);
        let mut out = ChatResponse {
            text: String::new(),
            model: model.to_string(),
            usage: None,
            stop_reason: None,
        };
        let mut done = false;
        while let Some(event) = events.next(cancel).await? {
            if event.data.trim().is_empty() {
                continue;
            }
            match self.api.event(&event, &mut out, on_delta)? {
                Step::More => {}
                Step::Done => {
                    done = true;
                    break;
                }
                Step::Failed {
                    status,
                    message,
                    code,
                } => return Err(self.failure(status, &HeaderMap::new(), &message, code)),
            }
        }
        // Some servers close without saying the end; a stop reason still proves the answer whole.
        if !done && out.stop_reason.is_none() {
            return Err(LlmError::Network(A::CUT_SHORT.into()));
        }
        Ok(out)
    }
}

#[async_trait]
impl<A: ChatApi> ChatModel for HttpModel<A> {
    fn info(&self) -> ModelInfo {
        self.info.clone()
    }

    async fn answer(&self, call: ChatCall<'_>) -> Result<ChatResponse, LlmError> {
        let model = call.request.model.as_deref().unwrap_or(&self.info.model);
        match call.on_delta {
            None => self.complete(call.request, model, call.cancel).await,
            Some(on_delta) => {
                self.stream(call.request, model, call.cancel, on_delta)
                    .await
            }
        }
    }
}
