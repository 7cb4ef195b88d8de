//! `doctor`'s check of a provider: does it answer one tiny request, and how fast.

use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use crate::error::LlmError;
use crate::model::{ChatMessage, ChatModel, ChatRequest};

/// How long a check waits for the answer (each provider's settings shorten their waits to it
/// and drop their retries: see `ProviderSettings::for_verify`).
pub const VERIFY_TIMEOUT: Duration = Duration::from_secs(20);

/// A provider that answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reachable {
    /// The model the provider says answered.
    pub model: String,
    pub latency: Duration,
}

/// Sends `model` a request for one word.
pub async fn verify(
    model: &dyn ChatModel,
    cancel: &CancellationToken,
) -> Result<Reachable, LlmError> {
    let mut request = ChatRequest::new(vec![ChatMessage::user("Reply with the single word OK.")]);
    request.max_output_tokens = 16;
    let started = Instant::now();
    let response = model.complete(&request, cancel).await?;
    Ok(Reachable {
        model: response.model,
        latency: started.elapsed(),
    })
}
