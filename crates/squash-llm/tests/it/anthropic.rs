//! The Anthropic provider against a local server speaking the Messages API.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::wire::{assert_answer, squash_request, wire_tests, Wire};
use serde_json::json;
use squash_llm::{
    AnthropicConfig, AnthropicModel, CancellationToken, ChatModel, LlmError, ProviderKind,
    RetryPolicy, StopReason,
};
use squash_testkit::model_server::{
    cancel_after, complete_err, complete_ok, fast_retry, stream_err, Deltas, MockServer, Reply,
};

const KEY: &str = "sk-ant-test-secret-key-123";

fn model(server_url: &str) -> AnthropicModel {
    let mut config = AnthropicConfig::new(KEY);
    config.base_url = format!("{server_url}/");
    config.retry = fast_retry(3);
    AnthropicModel::new(config).expect("model")
}

fn model_with(server_url: &str, edit: impl FnOnce(&mut AnthropicConfig)) -> AnthropicModel {
    let mut config = AnthropicConfig::new(KEY);
    config.base_url = server_url.to_string();
    config.retry = fast_retry(3);
    edit(&mut config);
    AnthropicModel::new(config).expect("model")
}

fn success_body(text: &str) -> serde_json::Value {
    json!({
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": null,
        "usage": {"input_tokens": 120, "output_tokens": 7}
    })
}

fn error_body(kind: &str, message: &str) -> serde_json::Value {
    json!({"type": "error", "error": {"type": kind, "message": message}})
}

/// The Messages API for the shared tests of `wire.rs`.
struct Anthropic;

impl Wire for Anthropic {
    type Model = AnthropicModel;

    fn model(url: &str, retry: RetryPolicy, timeout: Option<Duration>) -> AnthropicModel {
        model_with(url, |c| {
            c.retry = retry;
            if let Some(timeout) = timeout {
                c.timeout = timeout;
            }
        })
    }

    fn answer(text: &str) -> serde_json::Value {
        success_body(text)
    }

    fn rate_limited() -> serde_json::Value {
        error_body("rate_limit_error", "slow down")
    }
}

wire_tests!(Anthropic);

#[tokio::test]
async fn complete_sends_the_documented_request() {
    let server = MockServer::start(vec![Reply::json(200, success_body("squashed"))]).await;
    let response = complete_ok(&model(&server.url), &squash_request()).await;
    assert_answer(
        &response,
        "squashed",
        "claude-sonnet-4-5-20250929",
        (120, 7),
    );
    assert_eq!(response.stop_reason, Some(StopReason::EndTurn));

    let request = server.only_request();
    assert_eq!(request.path, "/v1/messages");
    assert_eq!(request.headers["x-api-key"], KEY);
    assert_eq!(request.headers["anthropic-version"], "2023-06-01");
    assert!(!request.headers.contains_key("authorization"));
    let body = request.body;
    assert_eq!(body["model"], "claude-sonnet-4-5");
    assert_eq!(body["max_tokens"], 4096);
    assert_eq!(body["temperature"].as_f64(), Some(0.3));
    assert_eq!(body["system"], "You compress conversations.");
    assert_eq!(
        body["messages"],
        json!([
            {"role": "user", "content": [{"type": "text", "text": "first question"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "first answer"}]},
            {"role": "user", "content": [
                {"type": "text", "text": "<messages_to_squash>...</messages_to_squash>"}
            ]},
        ])
    );
    for absent in ["tools", "tool_choice", "thinking", "stream"] {
        assert!(
            body.get(absent).is_none(),
            "unexpected `{absent}` in {body}"
        );
    }
}

#[tokio::test]
async fn a_request_may_override_the_model() {
    let server = MockServer::start(vec![Reply::json(200, success_body("ok"))]).await;
    let mut request = squash_request();
    request.model = Some("claude-haiku-4-5".into());
    let model = model(&server.url);
    model
        .complete(&request, &CancellationToken::new())
        .await
        .expect("answer");
    assert_eq!(server.only_request().body["model"], "claude-haiku-4-5");
    let info = model.info();
    assert_eq!(info.provider, ProviderKind::Anthropic);
    assert_eq!(info.model, "claude-sonnet-4-5");
    assert_eq!(info.context_window_tokens, 200_000);
}

#[tokio::test]
async fn unauthorized_is_auth_and_never_shows_the_key() {
    let server = MockServer::start(vec![Reply::json(
        401,
        error_body("authentication_error", &format!("invalid x-api-key {KEY}")),
    )])
    .await;
    let error = complete_err(&model(&server.url), &squash_request()).await;
    assert!(matches!(error, LlmError::Auth { .. }), "{error:?}");
    assert_eq!(error.class(), "auth");
    assert!(error.hint().contains("ANTHROPIC_API_KEY"));
    assert!(!format!("{error} {error:?}").contains(KEY), "{error:?}");
    assert_eq!(server.requests().len(), 1, "auth errors are not retried");
}

#[tokio::test]
async fn server_errors_are_retried_a_bounded_number_of_times() {
    let server = MockServer::always(Reply::json(500, error_body("api_error", "boom"))).await;
    let error = complete_err(&model(&server.url), &squash_request()).await;
    assert_eq!(
        error,
        LlmError::Provider {
            status: Some(500),
            message: "boom".into()
        }
    );
    assert!(error.is_retryable());
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn overloaded_then_success() {
    let server = MockServer::start(vec![
        Reply::json(529, error_body("overloaded_error", "Overloaded")),
        Reply::json(200, success_body("fine now")),
    ])
    .await;
    let response = complete_ok(&model(&server.url), &squash_request()).await;
    assert_eq!(response.text, "fine now");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_malformed_body_is_reported() {
    let server = MockServer::start(vec![Reply::text(200, "<html>gateway</html>")]).await;
    let error = complete_err(&model(&server.url), &squash_request()).await;
    assert!(matches!(error, LlmError::MalformedResponse(_)), "{error:?}");
}

#[tokio::test]
async fn a_too_long_prompt_is_context_too_long() {
    let server = MockServer::start(vec![Reply::json(
        400,
        error_body(
            "invalid_request_error",
            "prompt is too long: 212345 tokens > 200000 maximum",
        ),
    )])
    .await;
    let error = complete_err(&model(&server.url), &squash_request()).await;
    assert_eq!(error.class(), "context_too_long");
    assert!(error.to_string().contains("212345 tokens"), "{error}");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn other_bad_requests_are_not_retried() {
    let server = MockServer::start(vec![Reply::json(
        400,
        error_body("invalid_request_error", "temperature: must be <= 1"),
    )])
    .await;
    let error = complete_err(&model(&server.url), &squash_request()).await;
    assert_eq!(
        error,
        LlmError::BadRequest("temperature: must be <= 1".into())
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn cancellation_stops_a_backoff_wait() {
    let server = MockServer::always(
        Reply::json(429, error_body("rate_limit_error", "slow down")).header("retry-after", "30"),
    )
    .await;
    let model = model_with(&server.url, |c| c.retry.max_delay = Duration::from_secs(60));
    let cancel = cancel_after(Duration::from_millis(200));
    let started = Instant::now();
    let error = model
        .complete(&squash_request(), &cancel)
        .await
        .unwrap_err();
    assert_eq!(error, LlmError::Cancelled);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(server.requests().len(), 1);
}

fn sse(kind: &str, data: serde_json::Value) -> String {
    format!("event: {kind}\ndata: {data}")
}

fn stream_events(deltas: &[&str]) -> Vec<String> {
    let mut events = vec![
        sse(
            "message_start",
            json!({"type": "message_start", "message": {
                "id": "msg_1", "type": "message", "role": "assistant", "content": [],
                "model": "claude-sonnet-4-5-20250929", "stop_reason": null,
                "usage": {"input_tokens": 55, "output_tokens": 1}
            }}),
        ),
        sse(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0,
                   "content_block": {"type": "text", "text": ""}}),
        ),
        sse("ping", json!({"type": "ping"})),
    ];
    for delta in deltas {
        events.push(sse(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
                   "delta": {"type": "text_delta", "text": delta}}),
        ));
    }
    events.push(sse(
        "content_block_stop",
        json!({"type": "content_block_stop", "index": 0}),
    ));
    events.push(sse(
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null},
               "usage": {"output_tokens": 9}}),
    ));
    events.push(sse("message_stop", json!({"type": "message_stop"})));
    events
}

#[tokio::test]
async fn streaming_reports_deltas_and_the_whole_answer() {
    let server = MockServer::start(vec![Reply::sse(
        &stream_events(&["Squa", "shed ", "text"]),
        Duration::from_millis(5),
    )])
    .await;
    let deltas = Deltas::default();
    let response = model(&server.url)
        .stream(&squash_request(), &CancellationToken::new(), &|d| {
            deltas.push(d)
        })
        .await
        .expect("streamed answer");
    assert_eq!(deltas.all(), vec!["Squa", "shed ", "text"]);
    assert_eq!(response.text, "Squashed text");
    assert_eq!(response.model, "claude-sonnet-4-5-20250929");
    assert_eq!(response.usage.map(|u| u.input_tokens), Some(55));
    assert_eq!(response.usage.map(|u| u.output_tokens), Some(9));
    assert_eq!(response.stop_reason, Some(StopReason::EndTurn));
    let body = server.only_request().body;
    assert_eq!(body["stream"], true);
    assert!(body.get("tools").is_none());
}

#[tokio::test]
async fn a_stream_error_event_is_classified() {
    let mut events = stream_events(&["partial"]);
    events.truncate(4);
    events.push(sse(
        "error",
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    ));
    let server = MockServer::start(vec![Reply::sse(&events, Duration::ZERO)]).await;
    let error = stream_err(&model(&server.url), &squash_request()).await;
    assert_eq!(
        error,
        LlmError::Provider {
            status: Some(529),
            message: "Overloaded".into()
        }
    );
}

#[tokio::test]
async fn a_stream_cut_short_is_a_network_error() {
    let mut events = stream_events(&["partial"]);
    events.truncate(4);
    let server = MockServer::start(vec![Reply::sse(&events, Duration::ZERO)]).await;
    let error = stream_err(&model(&server.url), &squash_request()).await;
    assert_eq!(error.class(), "network", "{error:?}");
}

#[tokio::test]
async fn cancellation_stops_a_stream_midway() {
    let server = MockServer::start(vec![Reply::sse(
        &stream_events(&["one", "two", "three", "four"]),
        Duration::from_millis(300),
    )])
    .await;
    let cancel = CancellationToken::new();
    let deltas = Arc::new(Deltas::default());
    let seen = Arc::clone(&deltas);
    let trigger = cancel.clone();
    let error = model(&server.url)
        .stream(&squash_request(), &cancel, &move |d| {
            seen.push(d);
            trigger.cancel();
        })
        .await
        .unwrap_err();
    assert_eq!(error, LlmError::Cancelled);
    assert_eq!(deltas.all(), vec!["one"]);
}
