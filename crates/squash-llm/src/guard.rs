//! Deadlines and cancellation around any model call.

use std::future::Future;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::error::LlmError;

/// Runs `fut` unless `cancel` fires first.
pub(crate) async fn cancellable<T>(
    cancel: &CancellationToken,
    fut: impl Future<Output = Result<T, LlmError>>,
) -> Result<T, LlmError> {
    if cancel.is_cancelled() {
        return Err(LlmError::Cancelled);
    }
    tokio::select! {
        biased;
        _ = cancel.cancelled() => Err(LlmError::Cancelled),
        result = fut => result,
    }
}

/// Runs `fut` with a deadline.
pub(crate) async fn timed<T>(
    after: Duration,
    fut: impl Future<Output = Result<T, LlmError>>,
) -> Result<T, LlmError> {
    tokio::time::timeout(after, fut)
        .await
        .unwrap_or(Err(LlmError::Timeout { after }))
}
