//! A scripted model for tests: it answers from a queue and remembers what it was asked.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use squash_core::ProviderKind;

use crate::error::LlmError;
use crate::guard::cancellable;
use crate::model::{ChatCall, ChatModel, ChatRequest, ChatResponse, ModelInfo, StopReason, Usage};

/// One scripted answer.
#[derive(Clone, Debug)]
pub enum FakeReply {
    /// The whole text; streamed as a single delta.
    Text(String),
    /// Streamed delta by delta; the answer is their concatenation.
    Deltas(Vec<String>),
    /// The call fails with this error.
    Error(LlmError),
}

/// A [`ChatModel`] that returns queued replies in order and records every request.
///
/// When the queue is empty, calls fail with [`LlmError::NotConfigured`], so a test that asks
/// more often than it expects notices.
#[derive(Debug)]
pub struct FakeModel {
    info: ModelInfo,
    replies: Mutex<VecDeque<FakeReply>>,
    requests: Mutex<Vec<ChatRequest>>,
    delay: Option<Duration>,
    /// Whether answers report token usage, as most providers do.
    counts: bool,
}

impl Default for FakeModel {
    fn default() -> Self {
        FakeModel::new()
    }
}

impl FakeModel {
    /// A fake called `fake-model` with a 200k-token context window and no replies queued.
    pub fn new() -> FakeModel {
        FakeModel {
            info: ModelInfo::new(ProviderKind::Fake, "fake-model", 200_000),
            replies: Mutex::new(VecDeque::new()),
            requests: Mutex::new(Vec::new()),
            delay: None,
            counts: true,
        }
    }

    /// Answers without token usage, like a server that does not count.
    pub fn without_usage(mut self) -> FakeModel {
        self.counts = false;
        self
    }

    /// Replaces the reported model id.
    pub fn with_model(mut self, model: impl Into<String>) -> FakeModel {
        self.info.model = model.into();
        self
    }

    /// Replaces the reported context window, e.g. to test "input too large" paths.
    pub fn with_context_window(mut self, tokens: u32) -> FakeModel {
        self.info.context_window_tokens = tokens;
        self
    }

    /// Waits this long before answering (and between streamed deltas), honouring cancellation.
    pub fn with_delay(mut self, delay: Duration) -> FakeModel {
        self.delay = Some(delay);
        self
    }

    /// Queues a reply and returns the model, for building in one expression.
    pub fn with_reply(self, reply: FakeReply) -> FakeModel {
        self.push(reply);
        self
    }

    /// Queues a reply.
    pub fn push(&self, reply: FakeReply) {
        lock(&self.replies).push_back(reply);
    }

    /// Queues a text reply.
    pub fn push_text(&self, text: impl Into<String>) {
        self.push(FakeReply::Text(text.into()));
    }

    /// Queues an error.
    pub fn push_error(&self, error: LlmError) {
        self.push(FakeReply::Error(error));
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<ChatRequest> {
        lock(&self.requests).clone()
    }

    /// How many replies are still queued.
    pub fn remaining(&self) -> usize {
        lock(&self.replies).len()
    }

    async fn pause(&self, cancel: &CancellationToken) -> Result<(), LlmError> {
        match self.delay {
            Some(delay) => {
                cancellable(cancel, async {
                    tokio::time::sleep(delay).await;
                    Ok(())
                })
                .await
            }
            None => cancellable(cancel, async { Ok(()) }).await,
        }
    }

    fn next_reply(&self, req: &ChatRequest) -> Result<Vec<String>, LlmError> {
        lock(&self.requests).push(req.clone());
        match lock(&self.replies).pop_front() {
            Some(FakeReply::Text(text)) => Ok(vec![text]),
            Some(FakeReply::Deltas(deltas)) => Ok(deltas),
            Some(FakeReply::Error(error)) => Err(error),
            None => Err(LlmError::NotConfigured(
                "the fake model has no scripted reply left".into(),
            )),
        }
    }

    fn response(&self, req: &ChatRequest, text: String) -> ChatResponse {
        let input_chars: usize = req.system.as_deref().map_or(0, str::len)
            + req
                .messages
                .iter()
                .map(crate::transcript::message_text)
                .map(|t| t.len())
                .sum::<usize>();
        ChatResponse {
            usage: self.counts.then_some(Usage {
                // The usual four characters a token: close enough for a fake.
                input_tokens: (input_chars / 4) as u64,
                output_tokens: (text.len() / 4) as u64,
            }),
            text,
            model: req.model.clone().unwrap_or_else(|| self.info.model.clone()),
            stop_reason: Some(StopReason::EndTurn),
        }
    }
}

/// A test that panicked while holding the lock should not hide the real failure behind a
/// poisoned mutex.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[async_trait]
impl ChatModel for FakeModel {
    fn info(&self) -> ModelInfo {
        self.info.clone()
    }

    async fn answer(&self, call: ChatCall<'_>) -> Result<ChatResponse, LlmError> {
        let deltas = self.next_reply(call.request)?;
        let Some(on_delta) = call.on_delta else {
            self.pause(call.cancel).await?;
            return Ok(self.response(call.request, deltas.concat()));
        };
        let mut text = String::new();
        for delta in deltas {
            self.pause(call.cancel).await?;
            on_delta(&delta);
            text.push_str(&delta);
        }
        Ok(self.response(call.request, text))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::model::ChatMessage;

    #[tokio::test]
    async fn replies_in_order_and_records_requests() {
        let fake = FakeModel::new().with_reply(FakeReply::Text("one".into()));
        fake.push_error(LlmError::Timeout {
            after: Duration::from_secs(1),
        });
        let req = ChatRequest::new(vec![ChatMessage::user("hello")]);
        let cancel = CancellationToken::new();
        assert_eq!(fake.complete(&req, &cancel).await.unwrap().text, "one");
        assert_eq!(
            fake.complete(&req, &cancel).await.unwrap_err().class(),
            "timeout"
        );
        assert_eq!(
            fake.complete(&req, &cancel).await.unwrap_err().class(),
            "not_configured"
        );
        assert_eq!(fake.requests().len(), 3);
    }

    #[tokio::test]
    async fn streams_deltas_and_honours_cancellation() {
        let fake = FakeModel::new().with_reply(FakeReply::Deltas(vec!["a".into(), "b".into()]));
        let seen = Mutex::new(Vec::new());
        let req = ChatRequest::new(vec![ChatMessage::user("hi")]);
        let response = fake
            .stream(&req, &CancellationToken::new(), &|d| {
                seen.lock().unwrap().push(d.to_string())
            })
            .await
            .unwrap();
        assert_eq!(response.text, "ab");
        assert_eq!(*seen.lock().unwrap(), vec!["a", "b"]);

        let slow = FakeModel::new()
            .with_delay(Duration::from_secs(30))
            .with_reply(FakeReply::Text("late".into()));
        let cancel = CancellationToken::new();
        cancel.cancel();
        assert_eq!(
            slow.complete(&req, &cancel).await.unwrap_err(),
            LlmError::Cancelled
        );
    }
}
