//! The OpenAI-compatible provider against a local server speaking Chat Completions.

use std::time::{Duration, Instant};

use crate::wire::{assert_answer, squash_request, wire_tests, Wire};
use serde_json::json;
use squash_llm::{
    CancellationToken, ChatModel, LlmError, OpenAiConfig, OpenAiModel, ProviderKind, RetryPolicy,
    StopReason, TokenLimitField,
};
use squash_testkit::model_server::{
    complete_err, complete_ok, fast_retry, stream_err, Deltas, MockServer, Reply,
};

const KEY: &str = "sk-proj-test-secret-key-456";

fn model_with(server_url: &str, edit: impl FnOnce(&mut OpenAiConfig)) -> OpenAiModel {
    let mut config = OpenAiConfig::new(format!("{server_url}/v1"), "gpt-4o-mini");
    config.api_key = Some(KEY.into());
    config.retry = fast_retry(3);
    edit(&mut config);
    OpenAiModel::new(config).expect("model")
}

fn model(server_url: &str) -> OpenAiModel {
    model_with(server_url, |_| {})
}

fn success_body(text: &str) -> serde_json::Value {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": text},
            "finish_reason": "stop"
        }],
        "usage": {"prompt_tokens": 80, "completion_tokens": 6, "total_tokens": 86}
    })
}

fn error_body(message: &str, kind: &str, code: Option<&str>) -> serde_json::Value {
    json!({"error": {"message": message, "type": kind, "param": null, "code": code}})
}

/// Chat Completions for the shared tests of `wire.rs`.
struct OpenAi;

impl Wire for OpenAi {
    type Model = OpenAiModel;

    fn model(url: &str, retry: RetryPolicy, timeout: Option<Duration>) -> OpenAiModel {
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
        error_body(
            "Rate limit reached",
            "requests",
            Some("rate_limit_exceeded"),
        )
    }
}

wire_tests!(OpenAi);

#[tokio::test]
async fn a_cut_off_answer_without_usage_says_so_and_counts_nothing() {
    // A local server that does not count tokens and stopped at the output limit.
    let mut body = success_body("half an ans");
    body["choices"][0]["finish_reason"] = json!("length");
    body.as_object_mut().expect("object").remove("usage");
    let server = MockServer::start(vec![Reply::json(200, body)]).await;
    let response = complete_ok(&model(&server.url), &squash_request()).await;
    assert_eq!(response.usage, None, "unknown, not zero");
    assert_eq!(response.stop_reason, Some(StopReason::MaxTokens));
    assert!(response
        .stop_reason
        .as_ref()
        .is_some_and(StopReason::is_truncated));
}

#[tokio::test]
async fn complete_sends_the_documented_request() {
    let server = MockServer::start(vec![Reply::json(200, success_body("squashed"))]).await;
    let response = complete_ok(&model(&server.url), &squash_request()).await;
    assert_answer(&response, "squashed", "gpt-4o-mini-2024-07-18", (80, 6));
    assert_eq!(response.stop_reason, Some(StopReason::EndTurn));

    let request = server.only_request();
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(request.headers["authorization"], format!("Bearer {KEY}"));
    let body = request.body;
    assert_eq!(body["model"], "gpt-4o-mini");
    assert_eq!(body["temperature"].as_f64(), Some(0.3));
    // Not OpenAI's own host, so the field every compatible server knows.
    assert_eq!(body["max_tokens"], 4096);
    assert!(body.get("max_completion_tokens").is_none());
    assert_eq!(
        body["messages"],
        json!([
            {"role": "system", "content": "You compress conversations."},
            {"role": "user", "content": "first question"},
            {"role": "assistant", "content": "first answer"},
            {"role": "user", "content": "<messages_to_squash>...</messages_to_squash>"},
        ])
    );
    for absent in [
        "tools",
        "tool_choice",
        "functions",
        "stream",
        "stream_options",
    ] {
        assert!(
            body.get(absent).is_none(),
            "unexpected `{absent}` in {body}"
        );
    }
}

#[tokio::test]
async fn local_servers_need_no_key_and_may_take_max_completion_tokens() {
    let server = MockServer::start(vec![Reply::json(200, success_body("ok"))]).await;
    let model = model_with(&server.url, |c| {
        c.api_key = None;
        c.token_limit_field = TokenLimitField::MaxCompletionTokens;
    });
    complete_ok(&model, &squash_request()).await;
    let request = server.only_request();
    assert!(!request.headers.contains_key("authorization"));
    assert_eq!(request.body["max_completion_tokens"], 4096);
    assert!(request.body.get("max_tokens").is_none());
    let info = model.info();
    assert_eq!(info.provider, ProviderKind::OpenAi);
    assert_eq!(info.model, "gpt-4o-mini");
    assert_eq!(info.context_window_tokens, 8_192);
}

#[test]
fn official_openai_gets_its_own_defaults() {
    let config = OpenAiConfig::new("https://api.openai.com/v1", "gpt-4o-mini");
    assert_eq!(
        config.token_limit_field,
        TokenLimitField::MaxCompletionTokens
    );
    assert_eq!(config.context_window_tokens, 128_000);
    assert!(!format!("{config:?}").contains("sk-"));
}

#[tokio::test]
async fn unauthorized_is_auth_and_never_shows_the_key() {
    let server = MockServer::start(vec![Reply::json(
        401,
        error_body(
            "Incorrect API key provided: sk-proj-****-456. You can find your API key at ...",
            "invalid_request_error",
            Some("invalid_api_key"),
        ),
    )])
    .await;
    let error = complete_err(&model(&server.url), &squash_request()).await;
    assert!(matches!(error, LlmError::Auth { .. }), "{error:?}");
    assert!(error.hint().contains("OPENAI_API_KEY"));
    let shown = format!("{error} {error:?}");
    assert!(
        !shown.contains(KEY) && !shown.contains("sk-proj"),
        "{shown}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn retry_after_ms_is_preferred() {
    let server = MockServer::start(vec![
        Reply::json(429, error_body("slow down", "requests", None))
            .header("retry-after", "20")
            .header("retry-after-ms", "50"),
        Reply::json(200, success_body("quick")),
    ])
    .await;
    let model = model_with(&server.url, |c| c.retry.max_delay = Duration::from_secs(30));
    let started = Instant::now();
    complete_ok(&model, &squash_request()).await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn an_exhausted_quota_is_not_retried() {
    let server = MockServer::always(Reply::json(
        429,
        error_body(
            "You exceeded your current quota",
            "insufficient_quota",
            Some("insufficient_quota"),
        ),
    ))
    .await;
    let error = complete_err(&model(&server.url), &squash_request()).await;
    assert_eq!(error.class(), "provider");
    assert!(!error.is_retryable());
    assert!(error.hint().contains("billing"));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn server_errors_are_retried_a_bounded_number_of_times() {
    let server = MockServer::always(Reply::text(502, "Bad Gateway")).await;
    let error = complete_err(&model(&server.url), &squash_request()).await;
    assert_eq!(
        error,
        LlmError::Provider {
            status: Some(502),
            message: "Bad Gateway".into()
        }
    );
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn malformed_bodies_are_reported() {
    let server = MockServer::start(vec![
        Reply::text(200, "{\"choices\": 42"),
        Reply::json(200, json!({"model": "m", "choices": []})),
    ])
    .await;
    let model = model(&server.url);
    for _ in 0..2 {
        let error = complete_err(&model, &squash_request()).await;
        assert!(matches!(error, LlmError::MalformedResponse(_)), "{error:?}");
    }
}

#[tokio::test]
async fn context_length_errors_are_recognised() {
    let server = MockServer::start(vec![
        Reply::json(
            400,
            error_body(
                "This model's maximum context length is 128000 tokens.",
                "invalid_request_error",
                Some("context_length_exceeded"),
            ),
        ),
        // llama.cpp's wording.
        Reply::json(
            400,
            json!({"error": {"code": 400, "type": "exceed_context_size_error",
                             "message": "the request exceeds the available context size"}}),
        ),
    ])
    .await;
    let model = model(&server.url);
    for _ in 0..2 {
        let error = complete_err(&model, &squash_request()).await;
        assert_eq!(error.class(), "context_too_long", "{error:?}");
    }
    assert_eq!(server.requests().len(), 2);
}

fn chunk(content: Option<&str>, finish: Option<&str>) -> String {
    let delta = match content {
        Some(text) => json!({"content": text}),
        None => json!({}),
    };
    let data = json!({
        "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
    });
    format!("data: {data}")
}

#[tokio::test]
async fn streaming_reports_deltas_usage_and_the_whole_answer() {
    let events = vec![
        format!(
            "data: {}",
            json!({"id": "c", "model": "gpt-4o-mini-2024-07-18",
                   "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]})
        ),
        chunk(Some("Squa"), None),
        chunk(Some("shed"), None),
        chunk(None, Some("stop")),
        format!(
            "data: {}",
            json!({"id": "c", "model": "gpt-4o-mini-2024-07-18", "choices": [],
                   "usage": {"prompt_tokens": 42, "completion_tokens": 3, "total_tokens": 45}})
        ),
        "data: [DONE]".to_string(),
    ];
    let server = MockServer::start(vec![Reply::sse(&events, Duration::from_millis(5))]).await;
    let deltas = Deltas::default();
    let response = model(&server.url)
        .stream(&squash_request(), &CancellationToken::new(), &|d| {
            deltas.push(d)
        })
        .await
        .expect("streamed answer");
    assert_eq!(deltas.all(), vec!["Squa", "shed"]);
    assert_eq!(response.text, "Squashed");
    assert_eq!(response.model, "gpt-4o-mini-2024-07-18");
    assert_eq!(response.usage.map(|u| u.input_tokens), Some(42));
    assert_eq!(response.usage.map(|u| u.output_tokens), Some(3));
    assert_eq!(response.stop_reason, Some(StopReason::EndTurn));
    let body = server.only_request().body;
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"], json!({"include_usage": true}));
    assert!(body.get("tools").is_none());
}

#[tokio::test]
async fn an_error_inside_a_stream_is_classified() {
    let events = vec![
        chunk(Some("part"), None),
        format!(
            "data: {}",
            json!({"error": {"message": "context length exceeded", "type": "invalid_request_error"}})
        ),
    ];
    let server = MockServer::start(vec![Reply::sse(&events, Duration::ZERO)]).await;
    let error = stream_err(&model(&server.url), &squash_request()).await;
    assert_eq!(error.class(), "context_too_long", "{error:?}");
}

#[tokio::test]
async fn a_stream_cut_short_is_a_network_error() {
    let events = vec![chunk(Some("part"), None)];
    let server = MockServer::start(vec![Reply::sse(&events, Duration::ZERO)]).await;
    let error = stream_err(&model(&server.url), &squash_request()).await;
    assert_eq!(error.class(), "network", "{error:?}");
}

#[tokio::test]
async fn a_stalled_stream_times_out() {
    let events = vec![chunk(Some("part"), None), chunk(None, Some("stop"))];
    let server = MockServer::start(vec![Reply::sse(&events, Duration::from_secs(5))]).await;
    let model = model_with(&server.url, |c| c.timeout = Duration::from_millis(300));
    let error = stream_err(&model, &squash_request()).await;
    assert_eq!(error.class(), "timeout", "{error:?}");
}
