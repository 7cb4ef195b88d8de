//! Classified model errors. Callers decide what to do from the class (retry, tell the user to
//! fix a key, shrink the input) rather than from provider-specific text.

use std::time::Duration;

use thiserror::Error;

use squash_core::ProviderKind;

/// Why a model call failed. Messages never include credentials: provider text is redacted
/// (the configured key and anything shaped like `sk-...` removed) before it lands here.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LlmError {
    /// The credentials are missing, wrong or lack permission.
    #[error("{provider} rejected the credentials: {message}")]
    Auth {
        provider: ProviderKind,
        message: String,
    },
    /// The provider asks us to slow down.
    #[error("rate limited{}: {message}", retry_after_text(.retry_after))]
    RateLimited {
        retry_after: Option<Duration>,
        message: String,
    },
    /// The prompt does not fit the model's context window.
    #[error("the input is too long for the model's context window: {message}")]
    ContextTooLong { message: String },
    /// The provider refused the request as malformed (a bug here or an unsupported option).
    #[error("the provider refused the request: {0}")]
    BadRequest(String),
    /// The connection failed before an answer arrived.
    #[error("network error: {0}")]
    Network(String),
    /// No answer within the configured time.
    #[error("no answer within {}s", .after.as_secs_f32())]
    Timeout { after: Duration },
    /// The provider failed on its side (5xx, overloaded) or reported an error we cannot
    /// classify further. `status` is the HTTP status where there is one.
    #[error("provider error{}: {message}", status_text(.status))]
    Provider {
        status: Option<u16>,
        message: String,
    },
    /// The provider answered with something that is not its documented format.
    #[error("malformed response from the provider: {0}")]
    MalformedResponse(String),
    /// The caller cancelled the call.
    #[error("cancelled")]
    Cancelled,
    /// The provider cannot be used as configured (missing key, missing executable, bad URL).
    #[error("not configured: {0}")]
    NotConfigured(String),
}

fn retry_after_text(retry_after: &Option<Duration>) -> String {
    match retry_after {
        Some(d) => format!(" (retry after {}s)", d.as_secs()),
        None => String::new(),
    }
}

fn status_text(status: &Option<u16>) -> String {
    match status {
        Some(s) => format!(" (HTTP {s})"),
        None => String::new(),
    }
}

impl LlmError {
    /// Whether the same request may succeed if sent again later.
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::Auth { .. } => false,
            LlmError::RateLimited { .. } => true,
            LlmError::ContextTooLong { .. } => false,
            LlmError::BadRequest(_) => false,
            LlmError::Network(_) => true,
            LlmError::Timeout { .. } => true,
            // Unclassified 4xx (404 unknown model, 429 out of quota) need a human; server-side
            // failures and status-less provider errors are usually transient.
            LlmError::Provider { status, .. } => {
                status.is_none_or(|s| s >= 500 || s == 408 || s == 409)
            }
            LlmError::MalformedResponse(_) => false,
            LlmError::Cancelled => false,
            LlmError::NotConfigured(_) => false,
        }
    }

    /// A stable snake_case code for logs, API responses and metrics.
    pub fn class(&self) -> &'static str {
        match self {
            LlmError::Auth { .. } => "auth",
            LlmError::RateLimited { .. } => "rate_limit",
            LlmError::ContextTooLong { .. } => "context_too_long",
            LlmError::BadRequest(_) => "bad_request",
            LlmError::Network(_) => "network",
            LlmError::Timeout { .. } => "timeout",
            LlmError::Provider { .. } => "provider",
            LlmError::MalformedResponse(_) => "malformed_response",
            LlmError::Cancelled => "cancelled",
            LlmError::NotConfigured(_) => "not_configured",
        }
    }

    /// What the user can do about it, in one sentence.
    pub fn hint(&self) -> &'static str {
        match self {
            LlmError::Auth { provider, .. } => match provider {
                ProviderKind::Anthropic => "Check ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL).",
                ProviderKind::OpenAi => "Check OPENAI_API_KEY (and OPENAI_BASE_URL).",
                ProviderKind::ClaudeCli => {
                    "Run `claude` once and log in, or set ANTHROPIC_API_KEY for it."
                }
                ProviderKind::Local => "Check the model configuration.",
                ProviderKind::Fake => "Check the model configuration.",
            },
            LlmError::RateLimited { .. } => {
                "Wait a moment and try again, or use a model with a higher rate limit."
            }
            LlmError::ContextTooLong { .. } => {
                "Select fewer or shorter messages, or use a model with a larger context window."
            }
            LlmError::BadRequest(_) => {
                "Check the model name and options; if they are right, report this as a bug."
            }
            LlmError::Network(_) => {
                "Check the network connection and the provider's base URL, then try again."
            }
            LlmError::Timeout { .. } => {
                "Try again, select fewer messages, or raise the request timeout."
            }
            LlmError::Provider { status, .. } => match status {
                Some(404) => "Check the model name and the provider's base URL.",
                Some(429) => "Check the account's quota and billing.",
                _ => "The provider had a problem; try again later.",
            },
            LlmError::MalformedResponse(_) => {
                "Check that the base URL points at the right kind of API."
            }
            LlmError::Cancelled => "Nothing to do: the call was cancelled.",
            LlmError::NotConfigured(_) => {
                "Set ANTHROPIC_API_KEY or OPENAI_API_KEY, or install the `claude` CLI."
            }
        }
    }
}

/// Longest provider text kept in an error; bodies can be whole HTML pages.
const MAX_MESSAGE_CHARS: usize = 600;

/// Makes provider text safe to show: removes `secret` wherever it appears, masks anything that
/// looks like an API key (providers echo partial keys in auth errors), and shortens it.
pub(crate) fn redact(text: &str, secret: Option<&str>) -> String {
    let text = match secret {
        Some(secret) if !secret.is_empty() => text.replace(secret, "[redacted]"),
        _ => text.to_string(),
    };
    let masked = mask_key_like_tokens(&text);
    let masked = masked.trim();
    if masked.chars().count() > MAX_MESSAGE_CHARS {
        let cut: String = masked.chars().take(MAX_MESSAGE_CHARS).collect();
        format!("{cut}…")
    } else {
        masked.to_string()
    }
}

fn mask_key_like_tokens(text: &str) -> String {
    fn flush(out: &mut String, token: &mut String) {
        let is_key = (token.starts_with("sk-") || token.starts_with("sk_")) && token.len() >= 8;
        out.push_str(if is_key { "[redacted]" } else { token });
        token.clear();
    }
    let mut out = String::with_capacity(text.len());
    let mut token = String::new();
    for c in text.chars() {
        // `*` belongs to keys that providers echo half-masked, like `sk-proj-****1234`.
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '*' {
            token.push(c);
        } else {
            flush(&mut out, &mut token);
            out.push(c);
        }
    }
    flush(&mut out, &mut token);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_removes_the_secret_and_key_like_words() {
        let text = "Incorrect API key provided: sk-proj-abcdefgh1234. Also secret-xyz-123 here";
        let out = redact(text, Some("secret-xyz-123"));
        assert!(!out.contains("sk-proj-abcdefgh1234"), "{out}");
        assert!(!out.contains("secret-xyz-123"), "{out}");
        assert!(out.contains("Incorrect API key provided:"));
        assert!(out.contains("here"));
    }

    #[test]
    fn redact_shortens_long_bodies() {
        let text = "x".repeat(5000);
        assert!(redact(&text, None).chars().count() <= MAX_MESSAGE_CHARS + 1);
    }

    #[test]
    fn classes_are_distinct() {
        let errors = [
            LlmError::Auth {
                provider: ProviderKind::Anthropic,
                message: String::new(),
            },
            LlmError::RateLimited {
                retry_after: None,
                message: String::new(),
            },
            LlmError::ContextTooLong {
                message: String::new(),
            },
            LlmError::BadRequest(String::new()),
            LlmError::Network(String::new()),
            LlmError::Timeout {
                after: Duration::from_secs(1),
            },
            LlmError::Provider {
                status: Some(500),
                message: String::new(),
            },
            LlmError::MalformedResponse(String::new()),
            LlmError::Cancelled,
            LlmError::NotConfigured(String::new()),
        ];
        let mut classes: Vec<_> = errors.iter().map(LlmError::class).collect();
        classes.sort_unstable();
        classes.dedup();
        assert_eq!(classes.len(), errors.len());
        assert!(errors.iter().all(|e| !e.hint().is_empty()));
    }

    #[test]
    fn provider_errors_retry_only_when_transient() {
        let provider = |status| LlmError::Provider {
            status,
            message: String::new(),
        };
        assert!(provider(Some(500)).is_retryable());
        assert!(provider(Some(529)).is_retryable());
        assert!(provider(None).is_retryable());
        assert!(!provider(Some(404)).is_retryable());
        assert!(!LlmError::Cancelled.is_retryable());
    }
}
