//! Bounded retries with exponential backoff that honour the provider's `retry-after` and the
//! caller's cancellation.

use std::future::Future;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::error::LlmError;
use crate::guard::cancellable;

/// How often and how patiently the HTTP providers retry rate limits, 5xx answers and
/// connection failures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in total, the first included; 1 disables retries.
    pub max_attempts: u32,
    /// The wait before the first retry; it doubles with each further one.
    pub base_delay: Duration,
    /// The longest single wait, also the cap on a provider's `retry-after`.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// One attempt, no retries.
    pub fn none() -> RetryPolicy {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// Whether an attempt that failed with `error` is retried automatically. A timeout is not:
    /// the whole time budget was already spent waiting, and the caller can still choose to retry
    /// (it is [`LlmError::is_retryable`]).
    fn retries(&self, error: &LlmError) -> bool {
        error.is_retryable() && !matches!(error, LlmError::Timeout { .. })
    }

    /// The wait before retry number `retry` (1-based) after `error`.
    fn delay(&self, retry: u32, error: &LlmError) -> Duration {
        if let LlmError::RateLimited {
            retry_after: Some(after),
            ..
        } = error
        {
            return (*after).min(self.max_delay);
        }
        let factor = 2u32.saturating_pow(retry.saturating_sub(1));
        let backoff = self.base_delay.saturating_mul(factor).min(self.max_delay);
        // A little jitter keeps several clients that failed together from retrying together.
        backoff
            .mul_f64(0.8 + 0.4 * jitter_fraction())
            .min(self.max_delay)
    }
}

/// A number in [0, 1) that varies between calls; good enough for jitter, no RNG needed.
fn jitter_fraction() -> f64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    f64::from(nanos % 1000) / 1000.0
}

/// Runs `attempt` until it succeeds, fails with an error the policy does not retry, or runs out
/// of attempts. Cancellation wins at any point, including during the backoff sleep.
pub(crate) async fn with_retry<T, F, Fut>(
    policy: &RetryPolicy,
    cancel: &CancellationToken,
    mut attempt: F,
) -> Result<T, LlmError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, LlmError>>,
{
    let mut number = 1u32;
    loop {
        let result = cancellable(cancel, attempt()).await;
        let error = match result {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        if number >= policy.max_attempts.max(1) || !policy.retries(&error) {
            return Err(error);
        }
        let delay = policy.delay(number, &error);
        tracing::warn!(
            attempt = number,
            class = error.class(),
            delay_ms = delay.as_millis() as u64,
            "model call failed, retrying: {error}"
        );
        cancellable(cancel, async {
            tokio::time::sleep(delay).await;
            Ok(())
        })
        .await?;
        number += 1;
    }
}

/// Reads `retry-after-ms` (OpenAI) or `retry-after` in seconds. The HTTP-date form is ignored:
/// neither provider sends it, and the backoff covers its absence.
pub(crate) fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let seconds = |v: f64| {
        // Clamped so that an absurd header cannot overflow a Duration; the policy caps it anyway.
        (v.is_finite() && v >= 0.0).then(|| Duration::from_secs_f64(v.min(86_400.0)))
    };
    if let Some(ms) = text("retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok()) {
        if let Some(d) = seconds(ms / 1000.0) {
            return Some(d);
        }
    }
    seconds(text("retry-after")?.trim().parse::<f64>().ok()?)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    fn fast() -> RetryPolicy {
        RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(5),
        }
    }

    #[tokio::test]
    async fn retries_transient_errors_up_to_the_limit() {
        let calls = AtomicU32::new(0);
        let result: Result<(), _> = with_retry(&fast(), &CancellationToken::new(), || async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(LlmError::Network("reset".into()))
        })
        .await;
        assert_eq!(result, Err(LlmError::Network("reset".into())));
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn does_not_retry_permanent_errors_or_timeouts() {
        for error in [
            LlmError::BadRequest("no".into()),
            LlmError::Timeout {
                after: Duration::from_secs(1),
            },
        ] {
            let calls = AtomicU32::new(0);
            let result: Result<(), _> = with_retry(&fast(), &CancellationToken::new(), || {
                calls.fetch_add(1, Ordering::SeqCst);
                let error = error.clone();
                async move { Err(error) }
            })
            .await;
            assert_eq!(result, Err(error));
            assert_eq!(calls.load(Ordering::SeqCst), 1);
        }
    }

    #[test]
    fn retry_after_is_capped_and_backoff_grows() {
        let policy = RetryPolicy {
            max_attempts: 5,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(2),
        };
        let limited = LlmError::RateLimited {
            retry_after: Some(Duration::from_secs(60)),
            message: String::new(),
        };
        assert_eq!(policy.delay(1, &limited), Duration::from_secs(2));
        let network = LlmError::Network(String::new());
        assert!(policy.delay(1, &network) <= Duration::from_millis(120));
        assert!(policy.delay(3, &network) >= Duration::from_millis(320));
        assert!(policy.delay(30, &network) <= Duration::from_secs(2));
    }

    #[test]
    fn parses_retry_after_headers() {
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert("retry-after", "3".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(3)));
        headers.insert("retry-after-ms", "250".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(250)));
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(
            "retry-after",
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&headers), None);
    }
}
