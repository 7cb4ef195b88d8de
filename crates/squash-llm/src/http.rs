//! What the HTTP providers share: the client, per-attempt timeouts, status classification and
//! reading server-sent events with an idle timeout.

use std::pin::Pin;
use std::time::Duration;

use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures::{Stream, StreamExt};
use reqwest::header::HeaderMap;
use reqwest::StatusCode;
use tokio_util::sync::CancellationToken;

use crate::error::{redact, LlmError};
use crate::guard::cancellable;
use squash_core::ProviderKind;

/// How long a provider may take to answer before the call fails with [`LlmError::Timeout`].
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// Builds the client both HTTP providers use. Timeouts are applied per attempt by the callers
/// (a client-wide timeout would also cut long streams).
pub(crate) fn client(timeout: Duration) -> Result<reqwest::Client, LlmError> {
    reqwest::Client::builder()
        .connect_timeout(timeout.min(Duration::from_secs(30)))
        .user_agent(concat!("squash/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| LlmError::NotConfigured(format!("cannot build the HTTP client: {e}")))
}

/// Classifies a transport failure. The message names the causes (connection refused, DNS) but
/// not the URL, which could carry credentials.
pub(crate) fn transport_error(error: reqwest::Error, timeout: Duration) -> LlmError {
    if error.is_timeout() {
        return LlmError::Timeout { after: timeout };
    }
    let error = error.without_url();
    // `reqwest::Error` keeps the useful part ("Connection refused") in its source chain.
    let mut message = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    LlmError::Network(redact(&message, None))
}

/// Sends `request`; a non-2xx answer becomes the error `classify` makes of its body.
pub(crate) async fn send(
    request: reqwest::RequestBuilder,
    timeout: Duration,
    classify: impl FnOnce(StatusCode, &HeaderMap, &str) -> LlmError,
) -> Result<reqwest::Response, LlmError> {
    let response = request
        .send()
        .await
        .map_err(|e| transport_error(e, timeout))?;
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    let headers = response.headers().clone();
    let body = response.text().await.unwrap_or_default();
    Err(classify(status, &headers, &body))
}

/// Reads the whole body of a successful answer.
pub(crate) async fn body_text(
    response: reqwest::Response,
    timeout: Duration,
) -> Result<String, LlmError> {
    response
        .text()
        .await
        .map_err(|e| transport_error(e, timeout))
}

/// What a provider's error body said, in neutral terms.
pub(crate) struct ErrorBody {
    pub message: String,
    /// The provider's machine-readable code or type (`context_length_exceeded`,
    /// `overloaded_error`, ...).
    pub code: Option<String>,
}

/// Maps an HTTP failure to an error class, the same way for every provider.
pub(crate) fn classify_status(
    provider: ProviderKind,
    status: u16,
    headers: &HeaderMap,
    body: ErrorBody,
) -> LlmError {
    let ErrorBody { message, code } = body;
    let code = code.unwrap_or_default();
    if (400..500).contains(&status) && (status == 413 || is_context_error(&message, &code)) {
        return LlmError::ContextTooLong { message };
    }
    match status {
        401 | 403 => LlmError::Auth { provider, message },
        // OpenAI answers 429 also when the account is out of credit; waiting does not help.
        429 if code == "insufficient_quota" => LlmError::Provider {
            status: Some(status),
            message,
        },
        429 => LlmError::RateLimited {
            retry_after: crate::retry::retry_after(headers),
            message,
        },
        400 | 422 => LlmError::BadRequest(message),
        _ => LlmError::Provider {
            status: Some(status),
            message,
        },
    }
}

/// Whether a provider's error says the prompt does not fit. Providers word it differently:
/// Anthropic "prompt is too long", OpenAI `context_length_exceeded`, llama.cpp
/// `exceed_context_size_error`, vLLM "maximum context length".
pub(crate) fn is_context_error(message: &str, code: &str) -> bool {
    if code == "context_length_exceeded" || code == "exceed_context_size_error" {
        return true;
    }
    let message = message.to_lowercase();
    [
        "prompt is too long",
        "context length",
        "context_length",
        "context window",
        "context size",
        "maximum context",
        "too many tokens",
    ]
    .iter()
    .any(|needle| message.contains(needle))
}

type EventStream =
    Pin<Box<dyn Stream<Item = Result<Event, EventStreamError<reqwest::Error>>> + Send>>;

/// Server-sent events of one streaming answer.
pub(crate) struct SseReader {
    events: EventStream,
    idle_timeout: Duration,
}

impl SseReader {
    /// Streams are timed per event, not as a whole: a long answer that keeps arriving is fine,
    /// a stalled one is not.
    pub(crate) fn new(response: reqwest::Response, idle_timeout: Duration) -> SseReader {
        SseReader {
            events: Box::pin(response.bytes_stream().eventsource()),
            idle_timeout,
        }
    }

    /// The next event, `None` at the end of the stream.
    pub(crate) async fn next(
        &mut self,
        cancel: &CancellationToken,
    ) -> Result<Option<Event>, LlmError> {
        let idle = self.idle_timeout;
        let next = cancellable(cancel, async {
            Ok(tokio::time::timeout(idle, self.events.next()).await)
        })
        .await?;
        match next {
            Err(_) => Err(LlmError::Timeout { after: idle }),
            Ok(None) => Ok(None),
            Ok(Some(Ok(event))) => Ok(Some(event)),
            Ok(Some(Err(EventStreamError::Transport(e)))) => Err(transport_error(e, idle)),
            Ok(Some(Err(e))) => Err(LlmError::MalformedResponse(format!(
                "unreadable event stream: {e}"
            ))),
        }
    }
}
