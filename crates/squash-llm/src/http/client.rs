//! The client both HTTP providers use, and sending one request with it.

use std::time::Duration;

use reqwest::header::HeaderMap;
use reqwest::StatusCode;

use crate::error::{redact, LlmError};

/// How long a provider may take to answer before the call fails with [`LlmError::Timeout`].
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// Builds the client. Timeouts are applied per attempt by the callers (a client-wide timeout
/// would also cut long streams).
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
