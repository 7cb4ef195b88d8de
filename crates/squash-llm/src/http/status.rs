//! Which error class an HTTP failure is, the same way for every provider.

use reqwest::header::HeaderMap;
use squash_core::ProviderKind;

use crate::error::LlmError;

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
            retry_after: crate::http::retry::retry_after(headers),
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
