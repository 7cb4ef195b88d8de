//! What every HTTP provider does the same way, whatever its wire: retries after the announced
//! delay, timeouts, cancellation, unreachable servers. One body each, run by each provider's
//! module with its own model and bodies.

use std::time::{Duration, Instant};

use squash_llm::{
    CancellationToken, ChatMessage, ChatModel, ChatRequest, ChatResponse, LlmError, RetryPolicy,
};
use squash_testkit::model_server::{
    cancel_after, closed_port_url, complete_err, MockServer, Reply,
};

/// A provider's side of the shared tests.
pub trait Wire {
    type Model: ChatModel;

    /// Its model against the server at `url`, with `retry` and, when given, `timeout`.
    fn model(url: &str, retry: RetryPolicy, timeout: Option<Duration>) -> Self::Model;

    /// A whole answer saying `text`.
    fn answer(text: &str) -> serde_json::Value;

    /// A 429 body asking to slow down.
    fn rate_limited() -> serde_json::Value;
}

/// The request the tests send: a system text, a short history and the squash turn.
pub fn squash_request() -> ChatRequest {
    ChatRequest {
        system: Some("You compress conversations.".into()),
        messages: vec![
            ChatMessage::user("first question"),
            ChatMessage::assistant("first answer"),
            ChatMessage::user("<messages_to_squash>...</messages_to_squash>"),
        ],
        temperature: Some(0.3),
        max_output_tokens: 4096,
        model: None,
    }
}

/// The answer says `text`, from `model`, with the `(input, output)` tokens the provider counted.
#[track_caller]
pub fn assert_answer(response: &ChatResponse, text: &str, model: &str, tokens: (u64, u64)) {
    assert_eq!(response.text, text);
    assert_eq!(response.model, model);
    assert_eq!(response.usage.map(|u| u.input_tokens), Some(tokens.0));
    assert_eq!(response.usage.map(|u| u.output_tokens), Some(tokens.1));
}

/// The call timed out after `after`.
#[track_caller]
pub fn assert_timeout(error: &LlmError, after: Duration) {
    assert_eq!(*error, LlmError::Timeout { after });
}

fn retry(attempts: u32) -> RetryPolicy {
    squash_testkit::model_server::fast_retry(attempts)
}

/// A 429 with `retry-after: 1` is retried after a second, not after the (long) backoff.
pub async fn rate_limit_is_retried_after_the_announced_delay<W: Wire>() {
    let server = MockServer::start(vec![
        Reply::json(429, W::rate_limited()).header("retry-after", "1"),
        Reply::json(200, W::answer("after the wait")),
    ])
    .await;
    // A long backoff proves the wait came from `retry-after`, not from the policy.
    let mut policy = retry(3);
    policy.base_delay = Duration::from_secs(20);
    policy.max_delay = Duration::from_secs(20);
    let model = W::model(&server.url, policy, None);
    let started = Instant::now();
    let response = model
        .complete(&squash_request(), &CancellationToken::new())
        .await
        .expect("answer after retry");
    let waited = started.elapsed();
    assert_eq!(response.text, "after the wait");
    assert_eq!(server.requests().len(), 2);
    assert!(waited >= Duration::from_millis(950), "waited {waited:?}");
    assert!(waited < Duration::from_secs(10), "waited {waited:?}");
}

/// A server slower than the timeout is a timeout, after the timeout, and not retried.
pub async fn a_slow_server_times_out<W: Wire>() {
    let server =
        MockServer::always(Reply::json(200, W::answer("too late")).delay(Duration::from_secs(5)))
            .await;
    let model = W::model(&server.url, retry(3), Some(Duration::from_millis(200)));
    let started = Instant::now();
    let error = complete_err(&model, &squash_request()).await;
    assert_timeout(&error, Duration::from_millis(200));
    assert_eq!(error.class(), "timeout");
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(server.requests().len(), 1, "timeouts are not retried");
}

/// Cancelling a call waiting for its answer ends it at once.
pub async fn cancellation_stops_a_call_in_flight<W: Wire>() {
    let server =
        MockServer::always(Reply::json(200, W::answer("never")).delay(Duration::from_secs(10)))
            .await;
    let cancel = cancel_after(Duration::from_millis(100));
    let started = Instant::now();
    let error = W::model(&server.url, retry(3), None)
        .complete(&squash_request(), &cancel)
        .await
        .unwrap_err();
    assert_eq!(error, LlmError::Cancelled);
    assert!(started.elapsed() < Duration::from_secs(3));
}

/// Nothing listening: a network error, worth retrying.
pub async fn an_unreachable_server_is_a_network_error<W: Wire>() {
    let url = closed_port_url().await;
    let error = complete_err(&W::model(&url, retry(3), None), &squash_request()).await;
    assert_eq!(error.class(), "network", "{error:?}");
    assert!(error.is_retryable());
}

/// Runs the shared tests as `#[tokio::test]`s of the calling module for the wire `$wire`.
macro_rules! wire_tests {
    ($wire:ty) => {
        crate::wire::wire_tests!(
            $wire:
            rate_limit_is_retried_after_the_announced_delay,
            a_slow_server_times_out,
            cancellation_stops_a_call_in_flight,
            an_unreachable_server_is_a_network_error
        );
    };
    ($wire:ty: $($test:ident),+) => {
        $(
            #[tokio::test]
            async fn $test() {
                crate::wire::$test::<$wire>().await;
            }
        )+
    };
}
pub(crate) use wire_tests;
