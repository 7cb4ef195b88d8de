//! The answers the API shares with `squash --json`, with a real OpenAI-compatible model on a
//! loopback port: one provider spelling (`openai`), one shape for a computed squash and for an
//! operation's outcome (crates/squash-cli/tests/it/ai_cli.rs checks the CLI against the same
//! lists, `squash_testkit::answers`), and unknown token usage reported as unknown.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, Method, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde_json::{json, Value};
use squash_app::{ConversationService, SquashOptions};
use squash_llm::{OpenAiConfig, OpenAiModel, RetryPolicy};
use squash_store::sqlite::SqliteStore;
use squash_testkit::answers::{OUTCOME_KEYS, SQUASH_RESULT_KEYS};
use squash_web::AppState;
use tower::ServiceExt;

/// One streamed answer: its text, and whether the server counts tokens.
struct Answer {
    text: &'static str,
    counted: bool,
}

#[derive(Default)]
struct ModelServer {
    answers: Mutex<VecDeque<Answer>>,
}

impl ModelServer {
    /// The next answer the server streams: `text`, with its tokens counted or not.
    fn will_answer(&self, text: &'static str, counted: bool) {
        let mut answers = self.answers.lock().expect("lock");
        answers.push_back(Answer { text, counted });
    }
}

async fn completions(State(server): State<Arc<ModelServer>>) -> Response {
    let Some(answer) = server.answers.lock().expect("lock").pop_front() else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "no answer scripted").into_response();
    };
    let mut last = json!({"model": "loopback-model",
                          "choices": [{"delta": {}, "finish_reason": "stop"}]});
    if answer.counted {
        last["usage"] = json!({"prompt_tokens": 120, "completion_tokens": 9});
    }
    let body = format!(
        "data: {}\n\ndata: {last}\n\ndata: [DONE]\n\n",
        json!({"model": "loopback-model",
               "choices": [{"delta": {"content": answer.text}, "finish_reason": null}]})
    );
    ([(header::CONTENT_TYPE, "text/event-stream")], body).into_response()
}

async fn start_model_server() -> (Arc<ModelServer>, String) {
    let server = Arc::new(ModelServer::default());
    let url = crate::serve_completions(completions, server.clone()).await;
    (server, url)
}

struct App {
    router: Router,
    _dir: tempfile::TempDir,
}

impl App {
    async fn new(base_url: &str) -> App {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SqliteStore::open(dir.path().join("squash.db")).expect("open sqlite");
        let mut config = OpenAiConfig::new(base_url, "loopback-model");
        config.retry = RetryPolicy::none();
        let model = OpenAiModel::new(config).expect("model");
        let state = AppState::new(ConversationService::new(Arc::new(store)))
            .with_default_project("/work/demo")
            .with_model(Arc::new(model))
            // One scripted answer per squash: the shape is under test here, not the repair.
            .with_squash_options(SquashOptions {
                repair_rounds: Some(0),
                ..SquashOptions::default()
            });
        App {
            router: squash_web::router(state),
            _dir: dir,
        }
    }

    async fn call(&self, method: Method, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        let mut req = Request::builder().method(method.clone()).uri(uri);
        if method != Method::GET {
            req = req
                .header("x-squash-csrf", "1")
                .header(header::CONTENT_TYPE, "application/json");
        }
        let req = req
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .expect("request");
        let response = self.router.clone().oneshot(req).await.expect("infallible");
        let status = response.status();
        let bytes = crate::body_bytes(response).await;
        let text = String::from_utf8_lossy(&bytes);
        let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        (status, value)
    }

    async fn ok(&self, method: Method, uri: &str, body: Option<Value>) -> Value {
        let (status, value) = self.call(method, uri, body).await;
        assert!(status.is_success(), "{status}: {value}");
        value
    }
}

fn keys(value: &Value, leave_out: &[&str]) -> Vec<String> {
    let mut keys: Vec<String> = value
        .as_object()
        .unwrap_or_else(|| panic!("an object: {value}"))
        .keys()
        .filter(|k| !leave_out.contains(&k.as_str()))
        .cloned()
        .collect();
    keys.sort_unstable();
    keys
}

#[tokio::test]
async fn answers_name_openai_and_share_the_cli_shape() {
    let (server, base_url) = start_model_server().await;
    let app = App::new(&base_url).await;

    let model = app.ok(Method::GET, "/api/model", None).await;
    assert_eq!(model["provider"], "openai");

    let conv = app
        .ok(
            Method::POST,
            "/api/conversations",
            Some(json!({"name": "Fix the build"})),
        )
        .await["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let mut ids = Vec::new();
    for (role, text) in [
        (
            "user",
            "The build fails with error E0308 in src/main.rs line 42.",
        ),
        (
            "assistant",
            "Fixed the E0308: load_config returns Result. I went through every place that calls \
             it as well, and none of them needed more than handling the error it now returns, so \
             the rest of the code stays as it was.",
        ),
        ("user", "Thanks, the build passes now."),
    ] {
        let added = app
            .ok(
                Method::POST,
                &format!("/api/conversations/{conv}/messages"),
                Some(json!({"role": role, "text": text})),
            )
            .await;
        ids.push(added["message"]["id"].as_str().expect("id").to_owned());
    }

    // A preview: the computed result, as `squash --json ai --preview` prints its `result`.
    let squash_ai = format!("/api/conversations/{conv}/squash/ai");
    server.will_answer(
        "E0308 in src/main.rs fixed: load_config returns Result.",
        true,
    );
    let selection = json!({"messages": [ids[0], ids[1]]});
    let preview = app.ok(Method::POST, &squash_ai, Some(selection)).await;
    assert_eq!(preview["provider"], "openai", "{preview}");
    assert_eq!(
        keys(&preview, &["preview_id", "selection"]),
        SQUASH_RESULT_KEYS
    );
    assert_eq!(preview["usage"]["input_tokens"], 120);
    assert_eq!(preview["stop_reason"], "end_turn");

    // Applied at once: the result and the outcome, each in the shared shape.
    server.will_answer("E0308 fixed in src/main.rs.", false);
    let selection = json!({"messages": [ids[0], ids[1]], "apply": true});
    let applied = app.ok(Method::POST, &squash_ai, Some(selection)).await;
    assert_eq!(keys(&applied["result"], &[]), SQUASH_RESULT_KEYS);
    assert_eq!(applied["result"]["provider"], "openai");
    assert_eq!(keys(&applied["outcome"], &[]), OUTCOME_KEYS);
    assert_eq!(applied["outcome"]["operation"]["provider"], "openai");
    // The server did not count: the usage is unknown, in the answer and in the record.
    assert_eq!(applied["result"]["usage"], Value::Null);
    assert_eq!(applied["outcome"]["operation"]["usage"], Value::Null);

    // A manual squash answers with the same outcome shape.
    app.ok(
        Method::POST,
        &format!("/api/conversations/{conv}/undo"),
        Some(json!({})),
    )
    .await;
    let manual = app
        .ok(
            Method::POST,
            &format!("/api/conversations/{conv}/squash/manual"),
            Some(json!({"messages": [ids[1], ids[2]]})),
        )
        .await;
    assert_eq!(keys(&manual, &[]), OUTCOME_KEYS);
}
