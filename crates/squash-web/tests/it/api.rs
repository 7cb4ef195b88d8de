//! The API through the router (no sockets): every endpoint, every error code, the event
//! streams, the security guard and the pages, over a fresh SQLite file per test.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use squash_app::{ConversationService, SquashOptions};
use squash_llm::{FakeModel, FakeReply, LlmError, ProviderKind};
use squash_store::sqlite::SqliteStore;
use squash_testkit::fixtures::{cargo_log, GROMOZEKA_SCHEMA};
use squash_web::AppState;
use tower::ServiceExt;

struct App {
    router: Router,
    model: Arc<FakeModel>,
    db: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

fn service(dir: &tempfile::TempDir) -> (ConversationService, std::path::PathBuf) {
    let path = dir.path().join("squash.db");
    let store = SqliteStore::open(&path).expect("open sqlite");
    (
        ConversationService::new(Arc::new(store)).with_actor(Some("tester".into())),
        path,
    )
}

/// An app with a scripted model.
/// The web plumbing under test, with a scripted model whose answers are taken as they are:
/// no repair request (the faithful squash has its own tests in squash-app), facts the answer
/// leaves out appended as lines below it.
fn app() -> App {
    app_with(|state, _| {
        state.with_squash_options(SquashOptions {
            repair_rounds: Some(0),
            ..SquashOptions::default()
        })
    })
}

fn app_with(configure: impl FnOnce(AppState, Arc<FakeModel>) -> AppState) -> App {
    let dir = tempfile::tempdir().expect("temp dir");
    let (service, db) = service(&dir);
    let model = Arc::new(FakeModel::new());
    let state = AppState::new(service)
        .with_default_project("/work/demo")
        .with_model(model.clone());
    let state = configure(state, model.clone());
    App {
        router: squash_web::router(state),
        model,
        db,
        _dir: dir,
    }
}

struct Reply {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    text: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    /// Asserts the error shape and code, returns the error object.
    fn error(&self, status: StatusCode, code: &str) -> Value {
        assert_eq!(self.status, status, "{}", self.text);
        let body = self.json();
        let error = body["error"].clone();
        assert_eq!(error["code"], code, "{}", self.text);
        assert!(
            error["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{}",
            self.text
        );
        error
    }

    /// `(event, data)` pairs of an event stream.
    fn events(&self) -> Vec<(String, Value)> {
        self.text
            .replace("\r\n", "\n")
            .split("\n\n")
            .filter_map(|raw| {
                let (name, data) = crate::parse_event(raw);
                (!data.is_empty()).then(|| (name, serde_json::from_str(&data).expect("event JSON")))
            })
            .collect()
    }
}

impl App {
    async fn send(&self, req: Request<Body>) -> Reply {
        let response = self.router.clone().oneshot(req).await.expect("infallible");
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = crate::body_bytes(response).await;
        Reply {
            status,
            headers,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    fn request(method: Method, uri: &str, body: Option<Value>) -> axum::http::request::Builder {
        let mut builder = Request::builder().method(method.clone()).uri(uri);
        if method != Method::GET {
            builder = builder.header("x-squash-csrf", "1");
        }
        if body.is_some() {
            builder = builder.header(header::CONTENT_TYPE, "application/json");
        }
        builder
    }

    async fn call(&self, method: Method, uri: &str, body: Option<Value>) -> Reply {
        let req = App::request(method, uri, body.clone())
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .expect("request");
        self.send(req).await
    }

    async fn get(&self, uri: &str) -> Reply {
        self.call(Method::GET, uri, None).await
    }

    async fn post(&self, uri: &str, body: Value) -> Reply {
        self.call(Method::POST, uri, Some(body)).await
    }

    /// A POST asking for an event stream.
    async fn post_events(&self, uri: &str, body: Value) -> Reply {
        let req = App::request(Method::POST, uri, Some(body.clone()))
            .header(header::ACCEPT, "text/event-stream")
            .body(Body::from(body.to_string()))
            .expect("request");
        self.send(req).await
    }

    async fn conversation(&self, name: &str) -> String {
        let r = self
            .post("/api/conversations", json!({ "name": name }))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        r.json()["id"].as_str().expect("id").to_owned()
    }

    async fn append(&self, conv: &str, role: &str, text: &str) -> String {
        let r = self
            .post(
                &format!("/api/conversations/{conv}/messages"),
                json!({ "role": role, "text": text }),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        r.json()["message"]["id"].as_str().expect("id").to_owned()
    }

    async fn thread_ids(&self, conv: &str) -> Vec<String> {
        let r = self.get(&format!("/api/conversations/{conv}/thread")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        r.json()["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| m["id"].as_str().expect("id").to_owned())
            .collect()
    }

    /// A conversation with five messages.
    async fn five(&self) -> (String, Vec<String>) {
        let conv = self.conversation("Fix the build").await;
        let mut ids = Vec::new();
        for (role, text) in [
            (
                "user",
                "The build fails with error E0308 in src/main.rs line 42.",
            ),
            (
                "assistant",
                "Let me look at src/main.rs; the mismatched type is the config loader.",
            ),
            (
                "user",
                "I also see a warning about unused imports in src/lib.rs.",
            ),
            (
                "assistant",
                "Fixed the E0308: load_config now returns Result<Config, Error>. I went \
                 through every place that calls it as well, and none of them needed more than \
                 handling the error it now returns, so the rest of the code stays as it was.",
            ),
            ("user", "Thanks, the build passes now."),
        ] {
            ids.push(self.append(&conv, role, text).await);
        }
        (conv, ids)
    }
}

#[tokio::test]
async fn conversations_crud_and_listing() {
    let app = app();
    let created = app
        .post(
            "/api/conversations",
            json!({ "name": "  First ", "project": "/p/one" }),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED);
    let first = created.json();
    assert_eq!(first["display_name"], "First");
    assert_eq!(first["project_path"], "/p/one");
    let id = first["id"].as_str().unwrap().to_owned();
    let second = app.conversation("Second").await;

    let all = app.get("/api/conversations").await.json();
    assert_eq!(all["conversations"].as_array().unwrap().len(), 2);
    let only = app
        .get("/api/conversations?project=%2Fp%2Fone")
        .await
        .json();
    assert_eq!(only["conversations"].as_array().unwrap().len(), 1);
    assert_eq!(only["conversations"][0]["id"], id.as_str());
    let projects = app.get("/api/projects").await.json();
    let paths: Vec<&str> = crate::strings_of(&projects["projects"], "path");
    assert!(
        paths.contains(&"/p/one") && paths.contains(&"/work/demo"),
        "{paths:?}"
    );

    let got = app.get(&format!("/api/conversations/{second}")).await;
    assert_eq!(got.json()["project_path"], "/work/demo");

    let renamed = app
        .call(
            Method::PATCH,
            &format!("/api/conversations/{id}"),
            Some(json!({ "name": "Renamed" })),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    assert_eq!(renamed.json()["display_name"], "Renamed");

    let deleted = app
        .call(Method::DELETE, &format!("/api/conversations/{id}"), None)
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    app.get(&format!("/api/conversations/{id}"))
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
}

#[tokio::test]
async fn search_finds_messages_of_current_threads() {
    let app = app();
    let (conv, ids) = app.five().await;
    let other = app.conversation("Other").await;
    let haiku = app
        .append(&other, "user", "A haiku about the build server at night")
        .await;

    let r = app.get("/api/search?q=E0308").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let body = r.json();
    assert_eq!(body["total"], 2);
    let hits = body["hits"].as_array().unwrap();
    let mut found: Vec<&str> = hits
        .iter()
        .map(|h| h["message_id"].as_str().unwrap())
        .collect();
    found.sort();
    let mut expected = vec![ids[0].as_str(), ids[3].as_str()];
    expected.sort();
    assert_eq!(found, expected);
    let first = &hits[0];
    assert_eq!(first["conversation_id"], conv.as_str());
    assert_eq!(first["conversation_name"], "Fix the build");
    assert!(first["position"].is_u64() && first["rank"].is_number());
    let marked: Vec<&str> = first["snippet"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["hit"] == true)
        .map(|p| p["text"].as_str().unwrap())
        .collect();
    assert_eq!(marked, vec!["E0308"], "{}", r.text);

    // Scoped to one conversation, limited, phrases.
    let scoped = app
        .get(&format!("/api/search?q=build&conversation={other}"))
        .await
        .json();
    assert_eq!(scoped["total"], 1);
    assert_eq!(scoped["hits"][0]["message_id"], haiku.as_str());
    let limited = app.get("/api/search?q=build&limit=1").await.json();
    assert_eq!(limited["hits"].as_array().unwrap().len(), 1);
    assert_eq!(limited["total"], 3, "{limited}");
    assert_eq!(limited["more"], false);
    let phrase = app.get("/api/search?q=%22build+passes%22").await.json();
    assert_eq!(phrase["total"], 1);
    assert_eq!(phrase["hits"][0]["message_id"], ids[4].as_str());
    // Engine syntax is text, never an error.
    let odd = app.get("/api/search?q=NEAR(%22x+OR+-y*").await;
    assert_eq!(odd.status, StatusCode::OK, "{}", odd.text);

    // A squashed-away message is no hit.
    let squash = app
        .post(
            &format!("/api/conversations/{conv}/squash/manual"),
            json!({ "messages": [ids[0], ids[1]], "text": "Build broke; looked at the loader." }),
        )
        .await;
    assert_eq!(squash.status, StatusCode::OK, "{}", squash.text);
    let after = app.get("/api/search?q=E0308").await.json();
    assert_eq!(after["total"], 1);
    assert_eq!(after["hits"][0]["message_id"], ids[3].as_str());

    // Clear refusals.
    for bad in [
        "/api/search",
        "/api/search?q=",
        "/api/search?q=%20%2A%2A%2A",
        "/api/search?q=build&limit=0",
        "/api/search?q=build&limit=201",
        "/api/search?q=build&limit=many",
        "/api/search?q=build&conversation=nope",
        "/api/search?q=build&colour=red",
    ] {
        app.get(bad)
            .await
            .error(StatusCode::BAD_REQUEST, "invalid_input");
    }
    app.get(&format!(
        "/api/search?q=build&conversation={}",
        squash_core::ConversationId::new()
    ))
    .await
    .error(StatusCode::NOT_FOUND, "not_found");
}

#[tokio::test]
async fn bad_input_is_invalid_input() {
    let app = app();
    let conv = app.conversation("x").await;
    // Domain validation.
    app.post("/api/conversations", json!({ "name": "  " }))
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    // Not an id.
    app.get("/api/conversations/nope")
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    // Malformed JSON, unknown fields, wrong types.
    let req = App::request(Method::POST, "/api/conversations", Some(json!({})))
        .body(Body::from("{not json"))
        .unwrap();
    app.send(req)
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.post(
        "/api/conversations",
        json!({ "name": "a", "colour": "red" }),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.post(
        &format!("/api/conversations/{conv}/messages"),
        json!({ "role": "robot", "text": "hi" }),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "invalid_input");
    // No JSON content type.
    let req = Request::builder()
        .method(Method::POST)
        .uri("/api/conversations")
        .header("x-squash-csrf", "1")
        .body(Body::from(r#"{"name":"a"}"#))
        .unwrap();
    app.send(req)
        .await
        .error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "invalid_input");
    // Both text and content, neither, blank text.
    let uri = format!("/api/conversations/{conv}/messages");
    app.post(&uri, json!({ "text": "a", "content": [] }))
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.post(&uri, json!({ "role": "user" }))
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.post(&uri, json!({ "text": "   " }))
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
}

#[tokio::test]
async fn unknown_routes_and_methods() {
    let app = app();
    app.get("/api/nothing-here")
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
    app.call(Method::PUT, "/api/conversations", Some(json!({})))
        .await
        .error(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
    let page = app.get("/no/such/page").await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert!(page.text.contains("<html"), "{}", page.text);
}

#[tokio::test]
async fn messages_append_read_edit_delete() {
    let app = app();
    let (conv, ids) = app.five().await;

    // Content items, not just text: a tool call and its result.
    let call = app
        .post(
            &format!("/api/conversations/{conv}/messages"),
            json!({ "role": "assistant", "content": [
                { "type": "tool_call", "id": "t1", "name": "Bash", "input": { "command": "cargo build" } }
            ]}),
        )
        .await;
    assert_eq!(call.status, StatusCode::CREATED, "{}", call.text);
    let appended = call.json();
    assert_eq!(appended["position"], 5);
    let call_id = appended["message"]["id"].as_str().unwrap().to_owned();
    let result_id = app
        .post(
            &format!("/api/conversations/{conv}/messages"),
            json!({ "role": "user", "content": [
                { "type": "tool_result", "tool_use_id": "t1", "tool_name": "Bash",
                  "result": [{ "type": "text", "text": "ok" }], "is_error": false }
            ]}),
        )
        .await
        .json()["message"]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let message = app.get(&format!("/api/messages/{}", ids[0])).await;
    assert_eq!(message.status, StatusCode::OK);
    assert_eq!(message.json()["role"], "user");
    app.get(&format!("/api/messages/{}", uuid7()))
        .await
        .error(StatusCode::NOT_FOUND, "not_found");

    // Edit: a new thread, the original still stored.
    let edited = app
        .call(
            Method::PUT,
            &format!("/api/conversations/{conv}/messages/{}", ids[1]),
            Some(json!({ "text": "Edited answer." })),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);
    let edited = edited.json();
    let new_id = edited["message"]["id"].as_str().unwrap().to_owned();
    assert_eq!(edited["message"]["content"][0]["type"], "assistant_message");
    let thread = app.thread_ids(&conv).await;
    assert_eq!(thread[1], new_id);
    let thread_id = edited["thread"]["id"].as_str().unwrap();
    let by_id = app.get(&format!("/api/threads/{thread_id}")).await;
    assert_eq!(by_id.json()["messages"][1]["id"], new_id.as_str());
    app.get(&format!("/api/threads/{}", uuid7()))
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
    // Editing to the same content changes nothing: refused.
    app.call(
        Method::PUT,
        &format!("/api/conversations/{conv}/messages/{new_id}"),
        Some(json!({ "text": "Edited answer." })),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "invalid_input");

    // Delete one; deleting a tool call brings its result along (or is refused when strict).
    app.call(
        Method::DELETE,
        &format!("/api/conversations/{conv}/messages/{call_id}?strict=true"),
        None,
    )
    .await
    .error(StatusCode::BAD_REQUEST, "invalid_input");
    let gone = app
        .call(
            Method::DELETE,
            &format!("/api/conversations/{conv}/messages/{call_id}"),
            None,
        )
        .await;
    assert_eq!(gone.status, StatusCode::OK, "{}", gone.text);
    let gone = gone.json();
    assert_eq!(gone["sources"], json!([call_id, result_id]));
    assert_eq!(gone["added_partners"][0]["side"], "result");

    // Delete several.
    let many = app
        .post(
            &format!("/api/conversations/{conv}/messages/delete"),
            json!({ "messages": [ids[4], ids[0]] }),
        )
        .await;
    assert_eq!(many.status, StatusCode::OK, "{}", many.text);
    assert_eq!(
        app.thread_ids(&conv).await,
        vec![new_id, ids[2].clone(), ids[3].clone()]
    );
    app.post(
        &format!("/api/conversations/{conv}/messages/delete"),
        json!({ "messages": [] }),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "invalid_input");
}

#[tokio::test]
async fn manual_squash_history_undo_redo_switch_provenance() {
    let app = app();
    let (conv, ids) = app.five().await;
    let original = app.thread_ids(&conv).await;

    // Three non-contiguous messages, selected out of order.
    let squashed = app
        .post(
            &format!("/api/conversations/{conv}/squash/manual"),
            json!({ "messages": [ids[3], ids[0], ids[2]] }),
        )
        .await;
    assert_eq!(squashed.status, StatusCode::OK, "{}", squashed.text);
    let squashed = squashed.json();
    assert_eq!(squashed["sources"], json!([ids[0], ids[2], ids[3]]));
    let result = squashed["message"]["id"].as_str().unwrap().to_owned();
    let text = squashed["message"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("E0308") && text.contains("unused imports"),
        "{text}"
    );
    // The result takes the first source's place.
    assert_eq!(
        app.thread_ids(&conv).await,
        vec![result.clone(), ids[1].clone(), ids[4].clone()]
    );
    let op_id = squashed["operation"]["id"].as_str().unwrap().to_owned();

    // Provenance, operations.
    let prov = app
        .get(&format!("/api/messages/{result}/provenance"))
        .await
        .json();
    assert_eq!(prov["operation"]["performed_by_agent"], false);
    assert_eq!(prov["sources"].as_array().unwrap().len(), 3);
    assert_eq!(prov["sources"][0]["message"]["id"], ids[0].as_str());
    let ops = app
        .get(&format!("/api/conversations/{conv}/operations"))
        .await
        .json();
    assert_eq!(ops["operations"][0]["id"], op_id.as_str());
    let op = app.get(&format!("/api/operations/{op_id}")).await.json();
    assert_eq!(op["result_message_id"], result.as_str());
    app.get(&format!("/api/operations/{}", uuid7()))
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
    app.get(&format!("/api/messages/{}/provenance", uuid7()))
        .await
        .error(StatusCode::NOT_FOUND, "not_found");

    // A squash of one message is bad input; of a message not in the thread too.
    app.post(
        &format!("/api/conversations/{conv}/squash/manual"),
        json!({ "messages": [result] }),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.post(
        &format!("/api/conversations/{conv}/squash/manual"),
        json!({ "messages": [result, ids[0]] }),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "invalid_input");

    // Undo restores the original list; redo brings the squash back.
    let undone = app
        .post(&format!("/api/conversations/{conv}/undo"), json!({}))
        .await;
    assert_eq!(undone.status, StatusCode::OK, "{}", undone.text);
    assert_eq!(app.thread_ids(&conv).await, original);
    let redone = app
        .post(&format!("/api/conversations/{conv}/redo"), json!({}))
        .await;
    assert_eq!(redone.status, StatusCode::OK, "{}", redone.text);
    // The answer is the thread's header (its messages are read a page at a time).
    let redone_thread = app.thread_ids(&conv).await;
    assert_eq!(redone_thread[0], result);
    assert_eq!(
        redone.json()["thread"]["message_count"],
        json!(redone_thread.len())
    );
    assert!(redone.json().get("message_ids").is_none());
    app.post(&format!("/api/conversations/{conv}/redo"), json!({}))
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");

    // History: two threads, the squash current; switch to the first.
    let history = app
        .get(&format!("/api/conversations/{conv}/history"))
        .await
        .json();
    let threads = history["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 2);
    assert_eq!(threads[1]["is_current"], true);
    assert_eq!(threads[1]["operation"]["id"], op_id.as_str());
    let first = threads[0]["thread"]["id"].as_str().unwrap();
    let switched = app
        .post(
            &format!("/api/conversations/{conv}/switch"),
            json!({ "thread": first }),
        )
        .await;
    assert_eq!(switched.status, StatusCode::OK, "{}", switched.text);
    assert_eq!(app.thread_ids(&conv).await, original);
    app.post(&format!("/api/conversations/{conv}/undo"), json!({}))
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    // A thread of another conversation, or none at all.
    let other = app.conversation("other").await;
    let other_thread = app.get(&format!("/api/conversations/{other}")).await.json()
        ["current_thread_id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(
        &format!("/api/conversations/{conv}/switch"),
        json!({ "thread": other_thread }),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.post(
        &format!("/api/conversations/{conv}/switch"),
        json!({ "thread": uuid7() }),
    )
    .await
    .error(StatusCode::NOT_FOUND, "not_found");
}

/// A thread answer's `tokens`, checked against its messages (each with its own `tokens`, the
/// estimate of the message the answer returns); returns it.
fn checked_tokens(answer: &Value) -> u64 {
    let mut sum = 0;
    for value in answer["messages"].as_array().expect("messages") {
        let message: squash_core::Message =
            serde_json::from_value(value.clone()).expect("a message");
        let tokens = squash_core::tokens::message_tokens(&message);
        assert_eq!(value["tokens"].as_u64(), Some(tokens), "{value}");
        sum += tokens;
    }
    assert_eq!(answer["tokens"].as_u64(), Some(sum), "{answer}");
    sum
}

#[tokio::test]
async fn thread_answers_and_listings_carry_tokens() {
    let app = app();
    let (conv, ids) = app.five().await;
    let current = app.get(&format!("/api/conversations/{conv}/thread")).await;
    assert_eq!(current.status, StatusCode::OK, "{}", current.text);
    let current = current.json();
    let five = checked_tokens(&current);
    assert!(five > 5 * squash_core::tokens::MESSAGE_OVERHEAD);
    let first_thread = current["thread"]["id"].as_str().unwrap().to_owned();

    let listed = app.get("/api/conversations").await.json();
    assert_eq!(listed["conversations"][0]["id"], conv.as_str());
    assert_eq!(listed["conversations"][0]["tokens"].as_u64(), Some(five));
    assert_eq!(listed["conversations"][0]["message_count"], 5);

    let squashed = app
        .post(
            &format!("/api/conversations/{conv}/squash/manual"),
            json!({ "messages": [ids[0], ids[1], ids[2]], "text": "E0308 in src/main.rs." }),
        )
        .await;
    assert_eq!(squashed.status, StatusCode::OK, "{}", squashed.text);
    let after = app
        .get(&format!("/api/conversations/{conv}/thread"))
        .await
        .json();
    let three = checked_tokens(&after);
    assert!(three < five, "{three} vs {five}");
    let listed = app.get("/api/conversations").await.json();
    assert_eq!(listed["conversations"][0]["tokens"].as_u64(), Some(three));
    assert_eq!(listed["conversations"][0]["message_count"], 3);
    // The thread before the squash keeps its size.
    let old = app
        .get(&format!("/api/threads/{first_thread}"))
        .await
        .json();
    assert_eq!(checked_tokens(&old), five);

    // The page's meter: the thread against the model's 200k window, with the exact numbers
    // for screen readers.
    let page = app.get(&format!("/c/{conv}")).await;
    assert_eq!(page.status, StatusCode::OK);
    let percent = three * 100 / 200_000;
    let compact = format!(
        "{} / 200k tokens ({percent}%)",
        squash_core::tokens::format_compact(three)
    );
    assert!(page.text.contains(&compact), "{compact} not in the page");
    assert!(
        page.text.contains(&format!(
            "aria-valuetext=\"{} of 200,000 tokens ({percent}%)\"",
            squash_core::tokens::format_count(three)
        )),
        "{}",
        page.text
    );
    assert!(page.text.contains(&format!("value=\"{three}\"")));
}

#[tokio::test]
async fn ai_squash_streams_a_preview_then_applies_it() {
    let app = app();
    let (conv, ids) = app.five().await;
    app.model.push(FakeReply::Deltas(vec![
        "Build failed with E0308 in src/main.rs; ".into(),
        "fixed: load_config returns Result.".into(),
    ]));
    let r = app
        .post_events(
            &format!("/api/conversations/{conv}/squash/ai"),
            json!({ "messages": [ids[3], ids[0], ids[1]], "instructions": "Keep error codes." }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let events = r.events();
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["start", "delta", "delta", "preview"], "{}", r.text);
    assert_eq!(events[0].1["model"], "fake-model");
    assert_eq!(
        events[1].1["text"],
        "Build failed with E0308 in src/main.rs; "
    );
    let preview = &events[3].1;
    // The answer, then the facts it left out.
    let text = preview["text"].as_str().unwrap();
    assert!(
        text.starts_with(
            "Build failed with E0308 in src/main.rs; fixed: load_config returns Result.\n\n- "
        ),
        "{text}"
    );
    assert!(preview["report"]["facts"]["total"].as_u64().unwrap() > 0);
    assert_eq!(preview["sources"], json!([ids[0], ids[1], ids[3]]));
    assert_eq!(preview["custom_instructions"], "Keep error codes.");
    assert_eq!(preview["provider"], "fake");
    assert!(preview["report"]["kept"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t == "E0308"));
    assert!(preview["report"]["char_ratio"].as_f64().unwrap() < 1.0);
    // The instructions reached the model.
    let sent = format!("{:?}", app.model.requests()[0]);
    assert!(sent.contains("Keep error codes."), "{sent}");
    // Nothing changed yet.
    assert_eq!(app.thread_ids(&conv).await, ids);

    let pid = preview["preview_id"].as_str().unwrap().to_owned();
    let base = format!("/api/conversations/{conv}/previews/{pid}");
    let fetched = app.get(&base).await;
    assert_eq!(fetched.status, StatusCode::OK);
    assert_eq!(fetched.json()["preview_id"], pid.as_str());
    // A preview belongs to its conversation.
    let other = app.conversation("other").await;
    app.get(&format!("/api/conversations/{other}/previews/{pid}"))
        .await
        .error(StatusCode::NOT_FOUND, "not_found");

    // Apply with the person's edit.
    let applied = app
        .post(
            &format!("{base}/apply"),
            json!({ "text": "E0308 fixed in src/main.rs." }),
        )
        .await;
    assert_eq!(applied.status, StatusCode::OK, "{}", applied.text);
    let applied = applied.json();
    assert_eq!(applied["edited"], true);
    assert_eq!(applied["operation"]["performed_by_agent"], true);
    assert_eq!(applied["operation"]["model"], "fake-model");
    assert_eq!(
        applied["operation"]["custom_instructions"],
        "Keep error codes."
    );
    let result = applied["message"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        app.thread_ids(&conv).await,
        vec![result.clone(), ids[2].clone(), ids[4].clone()]
    );
    let prov = app
        .get(&format!("/api/messages/{result}/provenance"))
        .await
        .json();
    assert!(prov["operation"]["prompt"]
        .as_str()
        .unwrap()
        .contains("Keep error codes."));
    // Applied once: the preview is gone.
    app.post(&format!("{base}/apply"), json!({}))
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
    app.get("/api/conversations/x/previews/y")
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
}

#[tokio::test]
async fn preview_retry_discard_and_blocking_json() {
    let app = app();
    let (conv, ids) = app.five().await;
    app.model.push_text("E0308 in src/main.rs, fixed.");
    app.model
        .push_text("E0308 fixed: load_config returns Result.");
    // Without an event-stream Accept header the answer is the final JSON.
    let first = app
        .post(
            &format!("/api/conversations/{conv}/squash/ai"),
            json!({ "messages": [ids[0], ids[3]] }),
        )
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let pid = first.json()["preview_id"].as_str().unwrap().to_owned();
    let base = format!("/api/conversations/{conv}/previews/{pid}");

    let retried = app.post_events(&format!("{base}/retry"), json!({})).await;
    let events = retried.events();
    let (name, preview) = events.last().unwrap();
    assert_eq!(name, "preview", "{}", retried.text);
    assert!(preview["text"]
        .as_str()
        .unwrap()
        .starts_with("E0308 fixed: load_config returns Result."));
    assert_eq!(preview["selection"], json!([ids[0], ids[3]]));
    let new_pid = preview["preview_id"].as_str().unwrap().to_owned();
    assert_ne!(new_pid, pid);
    app.get(&base)
        .await
        .error(StatusCode::NOT_FOUND, "not_found");

    let new_base = format!("/api/conversations/{conv}/previews/{new_pid}");
    let discarded = app.call(Method::DELETE, &new_base, None).await;
    assert_eq!(discarded.status, StatusCode::NO_CONTENT);
    app.call(Method::DELETE, &new_base, None)
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
    app.post(&format!("{new_base}/retry"), json!({}))
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(app.thread_ids(&conv).await, ids);
}

#[tokio::test]
async fn ai_squash_applied_at_once_and_rerun() {
    let app = app();
    let (conv, ids) = app.five().await;
    app.model
        .push_text("E0308 in src/main.rs fixed by returning Result.");
    let r = app
        .post_events(
            &format!("/api/conversations/{conv}/squash/ai"),
            json!({ "messages": [ids[0], ids[1], ids[3]], "apply": true }),
        )
        .await;
    let events = r.events();
    let (name, applied) = events.last().unwrap();
    assert_eq!(name, "applied", "{}", r.text);
    let op = applied["outcome"]["operation"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let result = applied["outcome"]["message"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(app.thread_ids(&conv).await[0], result);

    // Re-run needs the sources back in the current thread: undo first.
    app.post(&format!("/api/operations/{op}/rerun"), json!({}))
        .await
        .error(StatusCode::CONFLICT, "conflict");
    app.post(&format!("/api/conversations/{conv}/undo"), json!({}))
        .await;
    app.model.push_text("E0308 fixed (src/main.rs).");
    let rerun = app
        .post(&format!("/api/operations/{op}/rerun"), json!({}))
        .await;
    assert_eq!(rerun.status, StatusCode::OK, "{}", rerun.text);
    let rerun = rerun.json();
    assert!(rerun["result"]["text"]
        .as_str()
        .unwrap()
        .starts_with("E0308 fixed (src/main.rs)."));
    assert_ne!(rerun["outcome"]["operation"]["id"], op.as_str());

    // A manual squash cannot be re-run.
    app.post(&format!("/api/conversations/{conv}/undo"), json!({}))
        .await;
    let manual = app
        .post(
            &format!("/api/conversations/{conv}/squash/manual"),
            json!({ "messages": [ids[0], ids[1]] }),
        )
        .await
        .json();
    let manual_op = manual["operation"]["id"].as_str().unwrap();
    app.post(&format!("/api/operations/{manual_op}/rerun"), json!({}))
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.post(&format!("/api/operations/{}/rerun", uuid7()), json!({}))
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
}

#[tokio::test]
async fn model_failures_change_nothing_and_say_why() {
    let app = app();
    let (conv, ids) = app.five().await;
    let uri = format!("/api/conversations/{conv}/squash/ai");
    let body = json!({ "messages": [ids[0], ids[3]] });

    app.model.push_error(LlmError::Auth {
        provider: ProviderKind::OpenAi,
        message: "invalid api key".into(),
    });
    let e = app
        .post(&uri, body.clone())
        .await
        .error(StatusCode::BAD_GATEWAY, "model_error");
    assert_eq!(e["class"], "auth");
    assert!(
        e["hint"].as_str().unwrap().contains("OPENAI_API_KEY"),
        "{e}"
    );

    // The same as an event: the stream itself is fine, the operation failed.
    app.model.push_error(LlmError::RateLimited {
        retry_after: None,
        message: "slow down".into(),
    });
    let r = app.post_events(&uri, body.clone()).await;
    assert_eq!(r.status, StatusCode::OK);
    let events = r.events();
    let (name, data) = events.last().unwrap();
    assert_eq!(name, "error", "{}", r.text);
    assert_eq!(data["error"]["code"], "model_error");
    assert_eq!(data["error"]["class"], "rate_limit");
    assert_eq!(data["error"]["retryable"], true);

    assert_eq!(app.thread_ids(&conv).await, ids);
    let history = app
        .get(&format!("/api/conversations/{conv}/history"))
        .await
        .json();
    assert_eq!(history["threads"].as_array().unwrap().len(), 1);

    // Answers that are not a compression, twice: the extract stands in, and says so.
    app.model.push_text("   ");
    app.model.push_text("   ");
    let r = app.post(&uri, body.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let v = r.json();
    assert_eq!(v["report"]["fallback"]["style"], "extract", "{v}");
    assert_eq!(v["report"]["repairs"], 1);
    assert_eq!(v["style"], "extract");
    assert_eq!(v["requested_style"], "prose");
    // A preview: nothing applied yet.
    assert_eq!(app.thread_ids(&conv).await, ids);
}

#[tokio::test]
async fn input_too_large_for_the_model() {
    let app = app_with(|state, _| {
        state.with_model(Arc::new(FakeModel::new().with_context_window(1_000)))
    });
    let (conv, ids) = app.five().await;
    let e = app
        .post(
            &format!("/api/conversations/{conv}/squash/ai"),
            json!({ "messages": [ids[0], ids[1]] }),
        )
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY, "input_too_large");
    assert!(e["hint"].is_string());
}

#[tokio::test]
async fn applying_a_stale_preview_is_a_conflict() {
    let app = app();
    let (conv, ids) = app.five().await;
    app.model.push_text("E0308 fixed in src/main.rs.");
    let preview = app
        .post(
            &format!("/api/conversations/{conv}/squash/ai"),
            json!({ "messages": [ids[0], ids[3]] }),
        )
        .await
        .json();
    let pid = preview["preview_id"].as_str().unwrap();
    // Meanwhile a source left the thread.
    app.call(
        Method::DELETE,
        &format!("/api/conversations/{conv}/messages/{}", ids[3]),
        None,
    )
    .await;
    let after_delete = app.thread_ids(&conv).await;
    app.post(
        &format!("/api/conversations/{conv}/previews/{pid}/apply"),
        json!({}),
    )
    .await
    .error(StatusCode::CONFLICT, "conflict");
    assert_eq!(app.thread_ids(&conv).await, after_delete);
    // The proposal is still there: undo the delete and apply it.
    app.post(&format!("/api/conversations/{conv}/undo"), json!({}))
        .await;
    let applied = app
        .post(
            &format!("/api/conversations/{conv}/previews/{pid}/apply"),
            json!({}),
        )
        .await;
    assert_eq!(applied.status, StatusCode::OK, "{}", applied.text);
    assert_eq!(applied.json()["edited"], false);
}

#[tokio::test]
async fn without_a_model_ai_actions_say_so_and_the_rest_works() {
    let app = app_with(|state, _| state.without_model("no model is configured"));
    let (conv, ids) = app.five().await;
    let model = app.get("/api/model").await.json();
    assert_eq!(model["configured"], false);
    for (uri, body) in [
        (
            format!("/api/conversations/{conv}/squash/ai"),
            json!({ "messages": [ids[0], ids[1]] }),
        ),
        (
            format!("/api/conversations/{conv}/chat"),
            json!({ "text": "hello" }),
        ),
        (format!("/api/operations/{}/rerun", uuid7()), json!({})),
    ] {
        let e = app
            .post(&uri, body)
            .await
            .error(StatusCode::SERVICE_UNAVAILABLE, "not_configured");
        assert!(e["hint"].as_str().unwrap().contains("Manual squash"), "{e}");
    }
    let manual = app
        .post(
            &format!("/api/conversations/{conv}/squash/manual"),
            json!({ "messages": [ids[0], ids[1]] }),
        )
        .await;
    assert_eq!(manual.status, StatusCode::OK);

    // The extract needs no model: applied at once, recorded with its style, as an assistant or
    // user message by its sources (here the user's request is among them).
    let extract = app
        .post(
            &format!("/api/conversations/{conv}/squash/ai"),
            json!({ "messages": [ids[2], ids[3]], "style": "extract", "apply": true }),
        )
        .await;
    assert_eq!(extract.status, StatusCode::OK, "{}", extract.text);
    let v = extract.json();
    assert_eq!(v["result"]["style"], "extract");
    assert_eq!(v["result"]["model"], Value::Null);
    assert_eq!(v["result"]["role"], "user");
    assert_eq!(v["outcome"]["operation"]["style"], "extract");
    assert!(
        v["result"]["text"].as_str().unwrap().contains("E0308"),
        "{v}"
    );
    // An unknown style is bad input.
    app.post(
        &format!("/api/conversations/{conv}/squash/ai"),
        json!({ "messages": [ids[0], ids[1]], "style": "poetry" }),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "invalid_input");
}

#[tokio::test]
async fn chat_turn_streams_the_reply_and_stores_both() {
    let app = app();
    let conv = app.conversation("chat").await;
    let status = app.get("/api/model").await.json();
    assert_eq!(status["configured"], true);
    assert_eq!(status["model"], "fake-model");

    app.model
        .push(FakeReply::Deltas(vec!["Hel".into(), "lo!".into()]));
    let r = app
        .post_events(
            &format!("/api/conversations/{conv}/chat"),
            json!({ "text": "Hi there" }),
        )
        .await;
    let events = r.events();
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["start", "delta", "delta", "done"], "{}", r.text);
    let done = &events[3].1;
    assert_eq!(
        done["assistant"]["content"][0]["structured"]["full_text"],
        "Hello!"
    );
    let thread = app.thread_ids(&conv).await;
    assert_eq!(thread.len(), 2);
    assert_eq!(thread[1], done["assistant"]["id"].as_str().unwrap());

    app.model.push_text("Second.");
    let json_turn = app
        .post(
            &format!("/api/conversations/{conv}/chat"),
            json!({ "text": "Again", "system": "Be brief." }),
        )
        .await;
    assert_eq!(json_turn.status, StatusCode::OK, "{}", json_turn.text);
    assert_eq!(app.model.requests()[1].system.as_deref(), Some("Be brief."));
    app.post(
        &format!("/api/conversations/{conv}/chat"),
        json!({ "text": " " }),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.post(
        &format!("/api/conversations/{}/chat", uuid7()),
        json!({ "text": "hello" }),
    )
    .await
    .error(StatusCode::NOT_FOUND, "not_found");
}

#[tokio::test]
async fn storage_failures_are_generic_and_logged() {
    let app = app();
    app.conversation("x").await;
    let db = rusqlite::Connection::open(&app.db).unwrap();
    db.execute_batch("ALTER TABLE projects RENAME TO projects_gone")
        .unwrap();
    let e = app
        .get("/api/projects")
        .await
        .error(StatusCode::INTERNAL_SERVER_ERROR, "storage_error");
    let message = e["message"].as_str().unwrap();
    assert!(!message.contains("projects"), "{message}");
    assert!(!message.to_ascii_lowercase().contains("table"), "{message}");
}

#[tokio::test]
async fn cross_site_requests_are_refused() {
    let app = app();
    let post = |headers: &[(&str, &str)]| {
        let mut b = Request::builder()
            .method(Method::POST)
            .uri("/api/conversations")
            .header(header::CONTENT_TYPE, "application/json");
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        b.body(Body::from(r#"{"name":"csrf"}"#)).unwrap()
    };
    app.send(post(&[]))
        .await
        .error(StatusCode::FORBIDDEN, "forbidden");
    app.send(post(&[
        ("x-squash-csrf", "1"),
        ("sec-fetch-site", "cross-site"),
    ]))
    .await
    .error(StatusCode::FORBIDDEN, "forbidden");
    app.send(post(&[
        ("x-squash-csrf", "1"),
        ("host", "127.0.0.1:7878"),
        ("origin", "http://evil.example"),
    ]))
    .await
    .error(StatusCode::FORBIDDEN, "forbidden");
    let ok = app
        .send(post(&[
            ("x-squash-csrf", "1"),
            ("host", "127.0.0.1:7878"),
            ("origin", "http://127.0.0.1:7878"),
            ("sec-fetch-site", "same-origin"),
        ]))
        .await;
    assert_eq!(ok.status, StatusCode::CREATED, "{}", ok.text);
    // DNS rebinding: a foreign Host is refused without a token.
    let req = Request::builder()
        .uri("/api/conversations")
        .header("host", "evil.example:7878")
        .body(Body::empty())
        .unwrap();
    app.send(req)
        .await
        .error(StatusCode::FORBIDDEN, "forbidden");
}

#[tokio::test]
async fn a_token_is_required_on_every_request() {
    let app = app_with(|state, _| state.with_token(Some("s3cret".into())));
    app.get("/api/conversations")
        .await
        .error(StatusCode::UNAUTHORIZED, "unauthorized");
    let page = app.get("/").await;
    assert_eq!(page.status, StatusCode::UNAUTHORIZED);
    assert!(page.text.contains("token"), "{}", page.text);

    let bearer = |method: Method, uri: &str, token: &str| {
        Request::builder()
            .method(method)
            .uri(uri)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "application/json")
            .header("host", "0.0.0.0:7878")
    };
    let wrong = app
        .send(
            bearer(Method::GET, "/api/conversations", "nope")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    wrong.error(StatusCode::UNAUTHORIZED, "unauthorized");
    let ok = app
        .send(
            bearer(Method::GET, "/api/conversations", "s3cret")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    // A bearer-authenticated client needs no CSRF header: browsers never add that header.
    let created = app
        .send(
            bearer(Method::POST, "/api/conversations", "s3cret")
                .body(Body::from(r#"{"name":"api"}"#))
                .unwrap(),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);

    // The browser way: ?token= once sets an HttpOnly cookie and drops the token from the URL.
    let login = app.get("/c/abc?token=s3cret&x=1").await;
    assert_eq!(login.status, StatusCode::SEE_OTHER);
    assert_eq!(login.headers[header::LOCATION], "/c/abc?x=1");
    let cookie = login.headers[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().unwrap().to_owned();
    let with_cookie = Request::builder()
        .uri("/api/conversations")
        .header(header::COOKIE, pair.clone())
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.send(with_cookie).await.status, StatusCode::OK);
    // A cookie alone does not make a state-changing request same-site.
    let forged = Request::builder()
        .method(Method::POST)
        .uri("/api/conversations")
        .header(header::COOKIE, pair)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"name":"forged"}"#))
        .unwrap();
    app.send(forged)
        .await
        .error(StatusCode::FORBIDDEN, "forbidden");
    let bad_login = app.get("/?token=wrong").await;
    assert_eq!(bad_login.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn openapi_describes_every_route_and_only_routes() {
    let app = app();
    let r = app.get("/api/openapi.json").await;
    assert_eq!(r.status, StatusCode::OK);
    let spec = r.json();
    assert_eq!(spec["openapi"], "3.0.3");
    let paths = spec["paths"].as_object().unwrap();
    for (method, path) in squash_web::api::ROUTES {
        assert!(
            paths.get(*path).and_then(|p| p.get(*method)).is_some(),
            "{method} {path} is routed but not in openapi.json"
        );
    }
    let mut described = 0;
    for (path, ops) in paths {
        for method in ops.as_object().unwrap().keys() {
            described += 1;
            assert!(
                squash_web::api::ROUTES.contains(&(method.as_str(), path.as_str())),
                "{method} {path} is in openapi.json but not routed"
            );
            // And the router really answers it (not the fallback or 405).
            let uri = path.replace(['{', '}'], "");
            let m = Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap();
            let reply = app.call(m, &uri, Some(json!({}))).await;
            assert!(
                !matches!(reply.status, StatusCode::METHOD_NOT_ALLOWED)
                    && !reply.text.contains("no API route"),
                "{method} {path}: {} {}",
                reply.status,
                reply.text
            );
        }
    }
    assert_eq!(described, squash_web::api::ROUTES.len());
}

#[tokio::test]
async fn pages_render_every_content_type_and_escape_everything() {
    let app = app();
    let conv = app.conversation("<b>Bold</b> name").await;
    let xss = "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">";
    app.append(&conv, "user", xss).await;
    app.append(
        &conv,
        "assistant",
        &format!("**ok** {xss} [x](javascript:alert(1))"),
    )
    .await;
    for content in [
        json!([{ "type": "tool_call", "id": "t1", "name": "Grep<x>", "input": { "q": "</pre><script>1</script>" } }]),
        json!([{ "type": "tool_result", "tool_use_id": "t1", "tool_name": "Grep", "is_error": true,
                 "result": [{ "type": "text", "text": "<script>2</script>" }] }]),
        json!([{ "type": "thinking", "signature": "s", "thinking": "hmm <script>3</script>" },
               { "type": "system", "level": "warning", "content": "careful" },
               { "type": "image", "source": { "type": "url", "url": "javascript:alert(4)" } },
               { "type": "unknown_json", "json": { "x": "<script>5</script>" } }]),
    ] {
        let r = app
            .post(
                &format!("/api/conversations/{conv}/messages"),
                json!({ "role": "assistant", "content": content }),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let home = app.get("/").await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(
        home.text.contains("&lt;b&gt;Bold&lt;/b&gt; name"),
        "{}",
        home.text
    );
    assert!(home.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .contains("script-src 'self'"));

    let page = app.get(&format!("/c/{conv}")).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text;
    assert!(!html.contains("<script>"), "{html}");
    assert!(!html.contains("<img src=x"), "{html}");
    assert!(!html.contains("href=\"javascript"), "{html}");
    assert!(html.contains("&lt;script&gt;window.pwned=1&lt;/script&gt;"));
    assert!(html.contains("<strong>ok</strong>"), "markdown renders");
    assert!(html.contains("details class=\"tool tool-call\""));
    assert!(html.contains("tool-error"));
    assert!(html.contains("details class=\"thinking\""));
    assert!(html.contains("system level-warning"));
    assert!(html.contains("Squash ▾") && html.contains("Custom AI Squash…"));
    // The only scripts are the embedded files: the page's, the reader's, the live updates'
    // and the sidebar's.
    assert_eq!(html.matches("<script").count(), 4, "{html}");
    assert_eq!(html.matches("<script src=\"/static/").count(), 4, "{html}");
    assert!(html.contains("<script src=\"/static/app.js\" defer></script>"));
    assert!(html.contains("<script src=\"/static/reader.js\" defer></script>"));
    let live = app.get("/static/live.js").await;
    assert_eq!(live.status, StatusCode::OK);
    assert!(live.text.contains("squash:changed"));
    let sidebar_js = app.get("/static/sidebar.js").await;
    assert_eq!(sidebar_js.status, StatusCode::OK);
    assert!(sidebar_js.text.contains("squash:select"));
    assert_eq!(app.get("/static/sidebar.css").await.status, StatusCode::OK);
    let js = app.get("/static/app.js").await;
    assert_eq!(js.status, StatusCode::OK);
    assert!(js.text.contains("X-Squash-Csrf"));
    assert_eq!(app.get("/static/app.css").await.status, StatusCode::OK);
    let reader = app.get("/static/reader.js").await;
    assert_eq!(reader.status, StatusCode::OK);
    assert!(reader.text.contains("aria-expanded"));
    assert_eq!(app.get("/static/reader.css").await.status, StatusCode::OK);

    let missing = app.get(&format!("/c/{}", uuid7())).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn fragments_for_provenance_and_preview() {
    let app = app();
    let (conv, ids) = app.five().await;
    let squashed = app
        .post(
            &format!("/api/conversations/{conv}/squash/manual"),
            json!({ "messages": [ids[0], ids[2]] }),
        )
        .await
        .json();
    let result = squashed["message"]["id"].as_str().unwrap();
    let page = app.get(&format!("/c/{conv}")).await.text;
    assert!(page.contains("◆ squashed"));
    let prov = app.get(&format!("/ui/messages/{result}/provenance")).await;
    assert_eq!(prov.status, StatusCode::OK);
    assert!(prov.text.contains("Manual squash"), "{}", prov.text);
    assert!(prov.text.contains("Sources (2)"), "{}", prov.text);

    app.model
        .push_text("E0308 in src/main.rs; new term FooBar_Baz.");
    let preview = app
        .post(
            &format!("/api/conversations/{conv}/squash/ai"),
            json!({ "messages": [ids[1], ids[3]] }),
        )
        .await
        .json();
    let pid = preview["preview_id"].as_str().unwrap();
    let frag = app
        .get(&format!("/ui/conversations/{conv}/previews/{pid}"))
        .await;
    assert_eq!(frag.status, StatusCode::OK);
    assert!(frag.text.contains("Quality report"), "{}", frag.text);
    assert!(frag.text.contains("Compression"), "{}", frag.text);
    assert!(frag.text.contains("FooBar_Baz"), "{}", frag.text);
    assert!(frag.text.contains("@2, @3"), "{}", frag.text);
}

// ---- import and export --------------------------------------------------------------------

fn session_file(name: &str) -> Vec<u8> {
    let path = squash_testkit::fixtures::session_data(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

impl App {
    /// `POST /api/import` with raw bytes.
    async fn upload(&self, query: &str, data: Vec<u8>) -> Reply {
        let req = App::request(Method::POST, &format!("/api/import{query}"), None)
            .header(header::CONTENT_TYPE, "application/octet-stream")
            .body(Body::from(data))
            .expect("request");
        self.send(req).await
    }
}

/// A small Gromozeka database: one conversation, two threads (an edit), a tool call.
fn gromozeka_db(path: &std::path::Path) {
    let db = rusqlite::Connection::open(path).unwrap();
    db.execute_batch(&format!(
        r#"{GROMOZEKA_SCHEMA}
         INSERT INTO projects VALUES ('p1', '/home/dev/gromozeka-project', 'demo', 1762097000000);
         INSERT INTO conversations VALUES ('conv-1', 'p1', 'Fix the build', 't2', 'CLAUDE_CODE', 'sonnet',
             1762097521123, '2025-11-02 16:00:00.5');
         INSERT INTO threads VALUES ('t1', 'conv-1', NULL, 1762097521123, 1762097521123);
         INSERT INTO threads VALUES ('t2', 'conv-1', 't1', '2025-11-02 16:00:00.5', '2025-11-02 16:00:00.5');"#
    ))
    .unwrap();
    let tool = "com.gromozeka.shared.domain.Conversation.Message.ContentItem.ToolCall";
    let messages = [
        (
            "m1",
            json!({"id": "m1", "conversationId": "conv-1", "role": "USER",
            "content": [{"type": "Message", "text": "The build fails"}], "createdAt": "2025-11-02T15:32:01Z"}),
        ),
        (
            "m2",
            json!({"id": "m2", "conversationId": "conv-1", "role": "ASSISTANT",
            "content": [{"type": tool, "id": "toolu_1", "call": {"name": "Bash", "input": {"command": "cargo build"}}}],
            "createdAt": "2025-11-02T15:32:02.5Z"}),
        ),
        (
            "m3",
            json!({"id": "m3", "conversationId": "conv-1", "role": "USER",
            "content": [{"type": "Message", "text": "The build fails with E0308"}],
            "createdAt": "2025-11-02T15:33:00Z", "originalIds": ["m1"]}),
        ),
    ];
    for (id, doc) in &messages {
        db.execute(
            "INSERT INTO messages VALUES (?1, 'conv-1', ?2, 1762097521123)",
            rusqlite::params![id, doc.to_string()],
        )
        .unwrap();
    }
    for (thread, id, pos) in [
        ("t1", "m1", 0),
        ("t1", "m2", 1),
        ("t2", "m3", 0),
        ("t2", "m2", 1),
    ] {
        db.execute(
            "INSERT INTO thread_messages VALUES (?1, ?2, ?3)",
            rusqlite::params![thread, id, pos],
        )
        .unwrap();
    }
}

#[tokio::test]
async fn import_and_export_over_the_api() {
    let app = app();
    let data = session_file("claude-code-linear-1af7fc5e.jsonl");
    let r = app
        .upload("?name=claude-code-linear-1af7fc5e.jsonl", data.clone())
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let body = r.json();
    assert_eq!(body["totals"]["conversations"], 1, "{}", r.text);
    assert_eq!(body["totals"]["imported"], 1);
    assert_eq!(body["totals"]["counts"]["tool_calls"], 12);
    assert_eq!(body["totals"]["counts"]["tool_errors"], 1);
    assert_eq!(body["summary"]["bytes"], data.len());
    let report = &body["summary"]["conversations"][0];
    assert_eq!(report["format"], "claude-code");
    let conv = report["conversation_id"].as_str().unwrap().to_owned();
    let messages = body["totals"]["counts"]["messages"].as_u64().unwrap();
    assert_eq!(app.thread_ids(&conv).await.len() as u64, messages);

    // The same file again: nothing new.
    let again = app.upload("?format=claude-code", data).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(
        again.json()["totals"]["already_imported"],
        1,
        "{}",
        again.text
    );

    // Markdown (the default), with a file name.
    let md = app.get(&format!("/api/conversations/{conv}/export")).await;
    assert_eq!(md.status, StatusCode::OK, "{}", md.text);
    assert_eq!(
        md.headers[header::CONTENT_TYPE],
        "text/markdown; charset=utf-8"
    );
    assert_eq!(
        md.headers[header::CONTENT_DISPOSITION],
        format!("attachment; filename=\"squash-{conv}.md\"").as_str()
    );
    assert!(!md.text.is_empty());

    // Claude Code: one JSON object a line, named by its session id.
    let thread = app
        .get(&format!("/api/conversations/{conv}/thread"))
        .await
        .json()["thread"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let cc = app
        .get(&format!(
            "/api/conversations/{conv}/export?format=claude-code&thread={thread}"
        ))
        .await;
    assert_eq!(cc.status, StatusCode::OK, "{}", cc.text);
    assert_eq!(cc.headers[header::CONTENT_TYPE], "application/x-ndjson");
    let lines: Vec<Value> = cc
        .text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert!(!lines.is_empty());
    let session = lines[0]["sessionId"].as_str().unwrap();
    assert!(lines.iter().all(|l| l["sessionId"] == session));
    assert_eq!(
        cc.headers[header::CONTENT_DISPOSITION],
        format!("attachment; filename=\"{session}.jsonl\"").as_str()
    );

    // Codex: a rollout named as Codex names them, ending in the session id.
    let cx = app
        .get(&format!("/api/conversations/{conv}/export?format=codex"))
        .await;
    assert_eq!(cx.status, StatusCode::OK, "{}", cx.text);
    assert_eq!(cx.headers[header::CONTENT_TYPE], "application/x-ndjson");
    let meta: Value = serde_json::from_str(cx.text.lines().next().unwrap()).unwrap();
    assert_eq!(meta["type"], "session_meta");
    let id = meta["payload"]["id"].as_str().unwrap();
    let disposition = cx.headers[header::CONTENT_DISPOSITION].to_str().unwrap();
    assert!(
        disposition.starts_with("attachment; filename=\"rollout-")
            && disposition.ends_with(&format!("-{id}.jsonl\"")),
        "{disposition}"
    );

    // Our JSON: lossless, and it imports back (as a copy: this store holds the original).
    let js = app
        .get(&format!("/api/conversations/{conv}/export?format=json"))
        .await;
    assert_eq!(js.status, StatusCode::OK, "{}", js.text);
    assert_eq!(js.headers[header::CONTENT_TYPE], "application/json");
    assert!(js.headers[header::CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .ends_with(&format!("squash-{conv}.json\"")));
    js.json();
    let back = app
        .upload("?format=squash&name=export.json", js.text.into_bytes())
        .await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.text);
    let back = back.json();
    assert_eq!(back["totals"]["counts"]["messages"], messages);
    assert_ne!(back["summary"]["conversations"][0]["conversation_id"], conv);

    // A Gromozeka database, uploaded as its binary file, into a chosen project.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gromozeka.db");
    gromozeka_db(&db);
    let r = app
        .upload(
            "?name=gromozeka.db&project=/work/from-gromozeka",
            std::fs::read(&db).unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(
        !r.text.contains("squash-import-"),
        "no temp paths: {}",
        r.text
    );
    let body = r.json();
    assert_eq!(body["summary"]["conversations"][0]["format"], "gromozeka");
    assert_eq!(body["totals"]["imported"], 1, "{}", r.text);
    assert_eq!(body["totals"]["threads"], 2);
    assert_eq!(body["totals"]["counts"]["tool_calls"], 1);
    assert_eq!(body["totals"]["backfilled_operations"], 1, "{}", r.text);
    let listed = app
        .get("/api/conversations?project=/work/from-gromozeka")
        .await;
    assert_eq!(listed.json()["conversations"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn import_and_export_errors() {
    let app = app();
    let session = session_file("claude-code-linear-1af7fc5e.jsonl");
    let e = app
        .upload("?format=word", session.clone())
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    assert!(e["message"].as_str().unwrap().contains("claude-code"));
    app.upload("?colour=red", session.clone())
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.upload("", Vec::new())
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.upload("?name=notes.txt", b"just some words".to_vec())
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.upload("?format=openai", b"{\"messages\": [".to_vec())
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    let e = app
        .upload(
            "?format=gromozeka&name=g.db",
            b"not a database at all".repeat(100),
        )
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    let message = e["message"].as_str().unwrap();
    assert!(message.starts_with("g.db:"), "{message}");
    assert!(
        !message.contains("squash-import-") && !message.contains("/tmp"),
        "{message}"
    );
    // Over the limit by its declared length: refused before reading.
    let req = App::request(Method::POST, "/api/import", None)
        .header(header::CONTENT_LENGTH, (300u64 << 20).to_string())
        .body(Body::from("{}"))
        .unwrap();
    let e = app
        .send(req)
        .await
        .error(StatusCode::PAYLOAD_TOO_LARGE, "input_too_large");
    assert!(e["message"].as_str().unwrap().contains("256 MiB"));
    // State-changing: the CSRF header is required.
    let req = Request::builder()
        .method(Method::POST)
        .uri("/api/import")
        .body(Body::from(session.clone()))
        .unwrap();
    app.send(req)
        .await
        .error(StatusCode::FORBIDDEN, "forbidden");
    // Nothing above imported anything.
    assert_eq!(
        app.get("/api/conversations").await.json()["conversations"],
        json!([])
    );

    let (conv, _) = app.five().await;
    let other = app.conversation("other").await;
    let other_thread = app
        .get(&format!("/api/conversations/{other}/thread"))
        .await
        .json()["thread"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.get(&format!("/api/conversations/{conv}/export?format=pdf"))
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.get("/api/conversations/nope/export")
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.get(&format!("/api/conversations/{conv}/export?thread=nope"))
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.get(&format!(
        "/api/conversations/{conv}/export?thread={other_thread}"
    ))
    .await
    .error(StatusCode::BAD_REQUEST, "invalid_input");
    app.get(&format!("/api/conversations/{}/export", uuid7()))
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
    app.get(&format!(
        "/api/conversations/{conv}/export?format=claude-code&thread={}",
        uuid7()
    ))
    .await
    .error(StatusCode::NOT_FOUND, "not_found");
}

fn uuid7() -> String {
    squash_core::MessageId::new().to_string()
}

// ---- fit to budget ----------------------------------------------------------------------------

const TRIM_MARKER: &str = "[trimmed by squash:";

impl App {
    /// A coding session of `turns` turns over the API: a request, a `cargo test` call, its long
    /// log (failing with a named error in odd turns), and the agent's answer.
    async fn session(&self, turns: usize) -> (String, Vec<String>) {
        let conv = self.conversation("A long agent session").await;
        let mut ids = Vec::new();
        for t in 0..turns {
            let call = format!("toolu_{t:02}");
            let failing = t % 2 == 1;
            let log = cargo_log(t, failing, t + 3);
            ids.push(
                self.append(&conv, "user", &format!("Turn {t}: make report_{t} pass"))
                    .await,
            );
            for (role, content) in [
                (
                    "assistant",
                    json!([{ "type": "tool_call", "id": call, "name": "Bash",
                             "input": { "command": format!("cargo test report_{t}") } }]),
                ),
                (
                    "user",
                    json!([{ "type": "tool_result", "tool_use_id": call, "tool_name": "Bash",
                             "is_error": failing, "result": [{ "type": "text", "text": log.join("\n") }] }]),
                ),
            ] {
                let r = self
                    .post(
                        &format!("/api/conversations/{conv}/messages"),
                        json!({ "role": role, "content": content }),
                    )
                    .await;
                assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
                ids.push(r.json()["message"]["id"].as_str().expect("id").to_owned());
            }
            ids.push(
                self.append(&conv, "assistant", &format!("report_{t} is done."))
                    .await,
            );
        }
        (conv, ids)
    }

    /// One request, then `n` reads of the same long file: steps whose runs say once what the
    /// steps repeat, so that only runs reach the smallest budgets.
    async fn rereads(&self, n: usize) -> String {
        let conv = self.conversation("A long read run").await;
        self.append(&conv, "user", "Find where the report is built")
            .await;
        let body: String = (1..=200)
            .map(|i| format!("{i:>6}→let v_{i} = {i};\n"))
            .collect();
        for t in 0..n {
            let call = format!("toolu_read_{t:02}");
            for (role, content) in [
                (
                    "assistant",
                    json!([{ "type": "tool_call", "id": call, "name": "Read",
                             "input": { "file_path": "/work/acme/src/report.rs" } }]),
                ),
                (
                    "user",
                    json!([{ "type": "tool_result", "tool_use_id": call, "tool_name": "Read",
                             "result": [{ "type": "text", "text": body }] }]),
                ),
            ] {
                let r = self
                    .post(
                        &format!("/api/conversations/{conv}/messages"),
                        json!({ "role": role, "content": content }),
                    )
                    .await;
                assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
            }
        }
        conv
    }

    /// `POST …/fit/preview`, expected to succeed.
    async fn fit_plan(&self, conv: &str, body: Value) -> Value {
        let r = self
            .post(&format!("/api/conversations/{conv}/fit/preview"), body)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        r.json()
    }

    async fn thread_json(&self, conv: &str) -> Value {
        let r = self.get(&format!("/api/conversations/{conv}/thread")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        r.json()
    }

    async fn history_len(&self, conv: &str) -> usize {
        let r = self
            .get(&format!("/api/conversations/{conv}/history"))
            .await;
        r.json()["threads"].as_array().expect("threads").len()
    }
}

fn count(n: &Value) -> String {
    squash_core::tokens::format_count(n.as_u64().expect("a token count"))
}

#[tokio::test]
async fn fit_preview_apply_and_one_undo_restores_the_thread_exactly() {
    let app = app();
    let (conv, ids) = app.session(6).await;
    let base = format!("/api/conversations/{conv}");
    let thread = app.thread_json(&conv).await["thread"]["id"].clone();

    // A generous budget: nothing to do.
    let roomy = app.fit_plan(&conv, json!({ "budget": 10_000_000 })).await;
    assert_eq!(roomy["noop"], true);
    assert_eq!(roomy["fits"], true);
    assert_eq!(roomy["steps"], json!([]));
    let before = roomy["tokens_before"].as_u64().unwrap();

    // Half of it, by trimming: one step per tool output (the oldest first), the requests and the
    // newest steps untouched.
    let budget = before / 2;
    let plan = app
        .fit_plan(&conv, json!({ "budget": budget, "strategy": "mask" }))
        .await;
    assert_eq!(plan["fits"], true, "{plan}");
    assert_eq!(plan["noop"], false);
    assert_eq!(plan["needs_model"], false);
    assert_eq!(plan["thread_id"], thread);
    assert_eq!(
        plan["request"],
        json!({ "budget": budget, "keep_recent": null, "keep_last": 0, "strategy": "mask" })
    );
    assert_eq!(plan["messages"], 24);
    assert_eq!(plan["turns"], 6);
    assert_eq!(plan["protection"]["requests"], 6);
    assert_eq!(plan["protection"]["keep_recent"], budget / 5);
    let steps = plan["steps"].as_array().unwrap();
    assert!(!steps.is_empty());
    assert_eq!(plan["levels"][0]["action"], "trim", "{plan}");
    assert_eq!(plan["levels"][0]["steps"], steps.len());
    let mut saved = 0;
    for s in steps {
        let at = s["first_position"].as_u64().unwrap() as usize;
        assert_eq!(s["action"], "trim");
        assert_eq!(s["last_position"], at as u64);
        assert_eq!(s["sources"], json!([ids[at]]), "{s}");
        // Tool outputs only, never the newest.
        assert!(at % 4 == 2 && at < 22, "{s}");
        let (b, a) = (
            s["tokens_before"].as_u64().unwrap(),
            s["tokens_after"].as_u64().unwrap(),
        );
        assert!(a < b / 4, "{s}");
        saved += b - a;
        assert_eq!(s["estimated"], false);
        assert!(s["facts_kept"].as_u64().unwrap() <= s["facts"].as_u64().unwrap());
    }
    // What the steps save, and the note said once with the first step's recall reference.
    let note = plan["recall_note_tokens"].as_u64().unwrap();
    assert!(note > 0, "{plan}");
    assert_eq!(
        plan["tokens_after"].as_u64().unwrap(),
        before - saved + note
    );
    // A preview changes nothing.
    assert_eq!(app.thread_ids(&conv).await, ids);

    // Applied: one new thread, one operation per step, the masks in their sources' places.
    let r = app
        .post(
            &format!("{base}/fit"),
            json!({ "budget": budget, "strategy": "mask", "thread": thread }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let out = r.json();
    assert_eq!(out["fits"], true);
    assert_eq!(out["tokens_before"], before);
    assert_priced(&out, plan["tokens_after"].as_u64().unwrap());
    assert_ne!(out["thread"]["id"], thread);
    assert_eq!(out["thread"]["origin"]["kind"], "fit");
    let done = out["steps"].as_array().unwrap();
    assert_eq!(done.len(), steps.len());
    let fitted = app.thread_ids(&conv).await;
    assert_eq!(fitted.len(), ids.len());
    let mut replaced = vec![false; ids.len()];
    for d in done {
        let at = d["first_position"].as_u64().unwrap() as usize;
        replaced[at] = true;
        let result = d["result_message_id"].as_str().unwrap();
        assert_eq!(fitted[at], result);
        assert!(d["operation_id"].is_string(), "{d}");
        let message = app.get(&format!("/api/messages/{result}")).await.text;
        assert!(message.contains(TRIM_MARKER), "{message}");
        let prov = app
            .get(&format!("/api/messages/{result}/provenance"))
            .await
            .json();
        assert_eq!(prov["operation"]["source_message_ids"], json!([ids[at]]));
        assert_eq!(prov["operation"]["id"], d["operation_id"]);
    }
    for (i, id) in ids.iter().enumerate() {
        if !replaced[i] {
            assert_eq!(&fitted[i], id, "@{} was not in the plan", i + 1);
        }
    }
    assert_eq!(
        out["thread"]["origin"]["operation_ids"],
        json!(done
            .iter()
            .map(|d| d["operation_id"].clone())
            .collect::<Vec<_>>())
    );

    // One undo restores the thread exactly.
    let undo = app.post(&format!("{base}/undo"), json!({})).await;
    assert_eq!(undo.status, StatusCode::OK, "{}", undo.text);
    assert_eq!(app.thread_ids(&conv).await, ids);

    // Applied again as an event stream: start, one event per step, then the outcome.
    let r = app
        .post_events(
            &format!("{base}/fit"),
            json!({ "budget": budget, "strategy": "mask" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let events = r.events();
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    let mut expected = vec!["start"];
    expected.extend(std::iter::repeat_n("step", steps.len()));
    expected.push("applied");
    assert_eq!(names, expected, "{}", r.text);
    assert_eq!(events[0].1["steps"], steps.len());
    assert_eq!(events[0].1["model"], Value::Null);
    for (i, (_, data)) in events[1..=steps.len()].iter().enumerate() {
        assert_eq!(data["index"], i + 1);
        assert_eq!(data["of"], steps.len());
        assert_eq!(data["step"]["action"], "trim");
    }
    let applied = &events.last().unwrap().1;
    assert_priced(applied, plan["tokens_after"].as_u64().unwrap());
    assert_ne!(app.thread_ids(&conv).await, ids);

    // Applying a preview made on a thread that is no longer current is a conflict.
    let current = app.thread_ids(&conv).await;
    let history = app.history_len(&conv).await;
    app.post(
        &format!("{base}/fit"),
        json!({ "budget": budget, "strategy": "mask", "thread": thread }),
    )
    .await
    .error(StatusCode::CONFLICT, "conflict");
    assert_eq!(app.thread_ids(&conv).await, current);
    assert_eq!(app.history_len(&conv).await, history);
}

#[tokio::test]
async fn fit_out_of_reach_says_the_best_reachable_and_changes_nothing() {
    let app = app();
    let (conv, ids) = app.session(4).await;
    let base = format!("/api/conversations/{conv}");
    let plan = app
        .fit_plan(&conv, json!({ "budget": 1, "strategy": "mask" }))
        .await;
    assert_eq!(plan["fits"], false);
    let best = &plan["best_reachable"];
    assert!(best.as_u64().unwrap() >= plan["protected_tokens"].as_u64().unwrap());
    assert!(best.as_u64().unwrap() < plan["tokens_before"].as_u64().unwrap());
    assert_eq!(plan["tokens_after"], *best);

    let history = app.history_len(&conv).await;
    let e = app
        .post(
            &format!("{base}/fit"),
            json!({ "budget": 1, "strategy": "mask" }),
        )
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    assert_eq!(e["class"], "out_of_reach");
    let message = e["message"].as_str().unwrap();
    assert!(
        message.contains(&format!(
            "the smallest the mask strategy reaches is {} tokens",
            count(best)
        )),
        "{message}"
    );
    assert!(
        !message.contains('\n') && !message.contains("--"),
        "{message}"
    );
    assert!(e["hint"].as_str().unwrap().contains("best_effort"), "{e}");
    assert_eq!(app.thread_ids(&conv).await, ids);
    assert_eq!(app.history_len(&conv).await, history);

    // As a best effort: the best reachable, applied; one undo restores the thread.
    let r = app
        .post(
            &format!("{base}/fit"),
            json!({ "budget": 1, "strategy": "mask", "best_effort": true }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let out = r.json();
    assert_eq!(out["fits"], false);
    assert_priced(&out, best.as_u64().unwrap());
    app.post(&format!("{base}/undo"), json!({})).await;
    assert_eq!(app.thread_ids(&conv).await, ids);
}

#[tokio::test]
async fn fit_refuses_bad_input_and_ai_steps_without_a_model() {
    let app = app_with(|state, _| state.without_model("no model is configured"));
    let (conv, ids) = app.session(6).await;
    let base = format!("/api/conversations/{conv}");
    for (route, body) in [
        ("fit/preview", json!({})),
        ("fit/preview", json!({ "budget": 0 })),
        ("fit/preview", json!({ "budget": -5 })),
        ("fit/preview", json!({ "budget": "lots" })),
        (
            "fit/preview",
            json!({ "budget": 1000, "strategy": "poetry" }),
        ),
        (
            "fit/preview",
            json!({ "budget": 1000, "best_effort": true }),
        ),
        ("fit", json!({ "budget": 1000, "keep_last": -1 })),
        ("fit", json!({ "budget": 1000, "thread": "not-a-thread" })),
        ("fit", json!({ "budget": 1000, "colour": "blue" })),
    ] {
        app.post(&format!("{base}/{route}"), body.clone())
            .await
            .error(StatusCode::BAD_REQUEST, "invalid_input");
    }
    app.post(
        &format!("/api/conversations/{}/fit/preview", uuid7()),
        json!({ "budget": 1000 }),
    )
    .await
    .error(StatusCode::NOT_FOUND, "not_found");
    let floor = app
        .fit_plan(&conv, json!({ "budget": 1, "strategy": "mask" }))
        .await["best_reachable"]
        .as_u64()
        .unwrap();

    // The default needs no model.
    let plan = app.fit_plan(&conv, json!({ "budget": floor - 100 })).await;
    assert_eq!(plan["request"]["strategy"], "extract");
    assert_eq!(plan["needs_model"], false);

    // Down to what only runs reach, hybrid squashes them with the model: previewed without
    // one, refused when applied, nothing changed.
    let reads = app.rereads(40).await;
    let read_ids = app.thread_ids(&reads).await;
    let ai = json!({ "budget": 1, "strategy": "hybrid", "best_effort": true });
    let plan = app
        .fit_plan(&reads, json!({ "budget": 1, "strategy": "hybrid" }))
        .await;
    assert_eq!(plan["needs_model"], true, "{plan}");
    let ai_steps = plan["steps"].as_array().unwrap();
    assert!(ai_steps
        .iter()
        .any(|s| s["action"] == "ai" && s["estimated"] == true && s["facts_kept"].is_null()));
    let e = app
        .post(&format!("/api/conversations/{reads}/fit"), ai)
        .await
        .error(StatusCode::SERVICE_UNAVAILABLE, "not_configured");
    assert!(e["hint"].as_str().unwrap().contains("Manual squash"), "{e}");
    assert_eq!(app.thread_ids(&reads).await, read_ids);

    // Trims need no model; nor does hybrid when trims are enough.
    for strategy in ["mask", "extract", "hybrid"] {
        let r = app
            .post(
                &format!("{base}/fit"),
                json!({ "budget": floor + 100, "strategy": strategy }),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{strategy}: {}", r.text);
        assert_eq!(r.json()["fits"], true);
        app.post(&format!("{base}/undo"), json!({})).await;
        assert_eq!(app.thread_ids(&conv).await, ids);
    }
}

#[tokio::test]
async fn fit_with_ai_steps_streams_each_step_and_records_the_model() {
    let app = app();
    let conv = app.rereads(40).await;
    let ids = app.thread_ids(&conv).await;
    let base = format!("/api/conversations/{conv}");
    for _ in 0..10 {
        app.model
            .push_text("Read /work/acme/src/report.rs again and again; it builds the report.");
    }
    let r = app
        .post_events(
            &format!("{base}/fit"),
            json!({ "budget": 1, "strategy": "hybrid", "best_effort": true }),
        )
        .await;
    let events = r.events();
    assert_eq!(events[0].0, "start", "{}", r.text);
    assert_eq!(events[0].1["model"], "fake-model");
    assert_eq!(events[0].1["strategy"], "hybrid");
    let (last, out) = events.last().unwrap();
    assert_eq!(last, "applied", "{}", r.text);
    let step_events = events.iter().filter(|(n, _)| n == "step").count();
    assert!(step_events >= out["steps"].as_array().unwrap().len());
    let ai: Vec<&Value> = out["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["action"] == "ai")
        .collect();
    assert!(!ai.is_empty(), "{out}");
    for s in ai {
        assert_eq!(s["model"], "fake-model");
        assert_eq!(s["estimated"], false);
        assert_eq!(
            s["facts_kept"], s["facts"],
            "the ledger fills in what the answer left out"
        );
    }
    assert!(!app.model.requests().is_empty());
    app.post(&format!("{base}/undo"), json!({})).await;
    assert_eq!(app.thread_ids(&conv).await, ids);
}

#[tokio::test]
async fn the_fit_dialog_and_its_plan_fragment() {
    let app = app();
    let (conv, _) = app.session(6).await;
    let page = app.get(&format!("/c/{conv}")).await;
    assert_eq!(page.status, StatusCode::OK);
    for needle in [
        r#"id="fit-btn""#,
        r#"id="fit-dialog" aria-labelledby="fit-title""#,
        r#"<label for="fit-budget">"#,
        r#"<option value="extract" selected>"#,
        r#"id="fit-keep-recent""#,
        r#"id="fit-done""#,
    ] {
        assert!(page.text.contains(needle), "{needle}");
    }
    let before = app.fit_plan(&conv, json!({ "budget": 10_000_000 })).await["tokens_before"]
        .as_u64()
        .unwrap();
    // The default budget: half the thread (the model's window is far larger).
    assert!(
        page.text
            .contains(&format!(r#"value="{}""#, before / 2 / 100 * 100)),
        "the default budget"
    );

    let budget = before / 2;
    let plan = app
        .fit_plan(&conv, json!({ "budget": budget, "strategy": "mask" }))
        .await;
    let fragment = app
        .get(&format!(
            "/ui/conversations/{conv}/fit?budget={budget}&strategy=mask"
        ))
        .await;
    assert_eq!(fragment.status, StatusCode::OK, "{}", fragment.text);
    let html = &fragment.text;
    assert!(html.contains(r#"id="fit-steps""#), "{html}");
    assert!(html.contains(r#"id="fit-levels""#), "{html}");
    assert!(
        html.contains(r#"<tr class="fit-level" data-action="trim">"#),
        "{html}"
    );
    assert!(html.contains(r#"id="fit-kept""#), "{html}");
    assert_eq!(
        html.matches(r#"class="fit-step""#).count(),
        plan["steps"].as_array().unwrap().len()
    );
    assert!(html.contains(r#"data-can-apply="yes""#), "{html}");
    assert!(html.contains(&format!(
        r#"data-thread="{}""#,
        plan["thread_id"].as_str().unwrap()
    )));
    assert!(html.contains("Trimmed to the lines that carry facts"));

    let out_of_reach = app
        .get(&format!(
            "/ui/conversations/{conv}/fit?budget=1&strategy=mask"
        ))
        .await;
    let best = app
        .fit_plan(&conv, json!({ "budget": 1, "strategy": "mask" }))
        .await["best_reachable"]
        .clone();
    assert!(out_of_reach.text.contains(&format!(
        "Does not fit: the smallest reachable is {} tokens",
        count(&best)
    )));
    assert!(out_of_reach
        .text
        .contains(r#"data-can-apply="best-effort""#));
    assert!(out_of_reach.text.contains(r#"id="fit-best-effort""#));

    // Errors come as a fragment for the dialog, not a page.
    for query in ["budget=0", "budget=10&strategy=poetry", "strategy=mask"] {
        let r = app
            .get(&format!("/ui/conversations/{conv}/fit?{query}"))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{query}");
        assert!(
            r.text.starts_with(r#"<div class="fit-error""#),
            "{}",
            r.text
        );
    }
}

#[tokio::test]
async fn without_a_model_the_fit_dialog_offers_the_strategies_that_need_none() {
    let app = app_with(|state, _| state.without_model("no model is configured <here>"));
    let (conv, _) = app.session(6).await;
    let page = app.get(&format!("/c/{conv}")).await.text;
    assert!(
        page.contains(r#"<option value="extract" selected>"#),
        "{page}"
    );
    for s in ["ai", "hybrid"] {
        assert!(
            page.contains(&format!(
                r#"<option value="{s}" disabled title="no model is configured &lt;here&gt;">"#
            )),
            "{s}"
        );
    }
    // A plan whose runs the model would squash cannot be applied without one.
    let reads = app.rereads(40).await;
    let html = app
        .get(&format!(
            "/ui/conversations/{reads}/fit?budget=1&strategy=hybrid"
        ))
        .await
        .text;
    assert!(html.contains(r#"data-can-apply="no""#), "{html}");
    assert!(
        html.contains("no model is configured &lt;here&gt;"),
        "{html}"
    );
}

/// The positions of a page's messages, checked against the page's own `page.first`.
fn positions(page: &Value) -> Vec<u64> {
    let first = page["page"]["first"].as_u64().expect("page.first");
    let positions: Vec<u64> = page["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["position"].as_u64().expect("position"))
        .collect();
    let expected: Vec<u64> = (first..).take(positions.len()).collect();
    assert_eq!(positions, expected);
    positions
}

#[tokio::test]
async fn thread_reads_come_in_pages_with_cursors() {
    let app = app();
    let conv = app.conversation("Long").await;
    let mut ids = Vec::new();
    for i in 1..=30 {
        ids.push(app.append(&conv, "user", &format!("message {i}")).await);
    }
    let base = format!("/api/conversations/{conv}/thread");

    // Without a limit, a small thread comes whole, in one call.
    let whole = app.get(&base).await.json();
    assert_eq!(positions(&whole), (1..=30).collect::<Vec<_>>());
    assert_eq!(whole["page"]["total"], 30);
    assert_eq!(whole["page"]["has_before"], false);
    assert_eq!(whole["page"]["has_after"], false);
    let tokens = checked_tokens(&whole);

    // The last page, then the one before it: no message twice, none skipped.
    let last = app.get(&format!("{base}?limit=12")).await.json();
    assert_eq!(positions(&last), (19..=30).collect::<Vec<_>>());
    assert_eq!(last["page"]["has_before"], true);
    assert_eq!(
        last["tokens"].as_u64(),
        Some(tokens),
        "the whole thread's tokens"
    );
    let earlier = app.get(&format!("{base}?limit=12&before=19")).await.json();
    assert_eq!(positions(&earlier), (7..=18).collect::<Vec<_>>());
    let later = app.get(&format!("{base}?limit=5&after=26")).await.json();
    assert_eq!(positions(&later), (27..=30).collect::<Vec<_>>());
    assert_eq!(later["messages"][0]["id"], ids[26].as_str());

    // Around a message: the page that holds it.
    let at = app
        .get(&format!("{base}?limit=9&at={}", ids[14]))
        .await
        .json();
    assert_eq!(at["page"]["first"], 12);
    assert_eq!(at["messages"][3]["id"], ids[14].as_str());

    // The same paging on a thread by id, and on an older thread after an operation.
    let thread = last["thread"]["id"].as_str().unwrap().to_owned();
    let deleted = app
        .post(
            &format!("/api/conversations/{conv}/messages/delete"),
            json!({ "messages": [ids[0]] }),
        )
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    let old = app
        .get(&format!("/api/threads/{thread}?limit=12"))
        .await
        .json();
    assert_eq!(old["page"]["total"], 30);
    assert_eq!(positions(&old), (19..=30).collect::<Vec<_>>());
    let now = app.get(&format!("{base}?limit=12")).await.json();
    assert_eq!(now["page"]["total"], 29);
    assert_eq!(positions(&now), (18..=29).collect::<Vec<_>>());

    // Bad cursors say what is wrong and change nothing.
    for (query, needle) in [
        ("limit=2001", "at most 2000"),
        ("before=3&after=1", "at most one of"),
        ("limit=-1", ""),
        ("at=not-a-uuid", "not a message id"),
        ("colour=red", ""),
    ] {
        let r = app.get(&format!("{base}?{query}")).await;
        let error = r.error(StatusCode::BAD_REQUEST, "invalid_input");
        assert!(
            error["message"].as_str().unwrap().contains(needle),
            "{query}: {}",
            r.text
        );
    }
    // A message that is not in the thread (deleted from it above) is not found.
    let r = app.get(&format!("{base}?at={}", ids[0])).await;
    r.error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(app.get(&base).await.json()["page"]["total"], 29);
}

#[tokio::test]
async fn the_page_shows_the_last_messages_and_loads_the_rest_in_fragments() {
    let app = app();
    let conv = app.conversation("Long page").await;
    let mut ids = Vec::new();
    for i in 1..=120 {
        ids.push(
            app.append(&conv, "user", &format!("message number {i}"))
                .await,
        );
    }
    let page = app.get(&format!("/c/{conv}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.text.matches("class=\"msg ").count(), 50);
    assert!(page
        .text
        .contains("data-first=\"71\" data-last=\"120\" data-total=\"120\""));
    assert!(page.text.contains("message number 120"));
    assert!(!page.text.contains("message number 70<"));
    assert!(page
        .text
        .contains("Load earlier messages (<span id=\"load-before-count\">70</span> more)"));

    // The page around a linked message.
    let linked = app.get(&format!("/c/{conv}?at={}", ids[9])).await;
    assert!(linked.text.contains(&format!("id=\"m-{}\"", ids[9])));
    assert!(linked.text.contains("data-first=\"1\""));

    // The fragment the script loads as the reader scrolls up.
    let fragment = app
        .get(&format!("/ui/conversations/{conv}/messages?before=71"))
        .await;
    assert_eq!(fragment.status, StatusCode::OK);
    assert!(fragment.text.contains("data-first=\"21\" data-last=\"70\""));
    assert_eq!(fragment.text.matches("class=\"msg ").count(), 50);
    assert!(fragment.text.contains("message number 21<"));
    let bad = app
        .get(&format!("/ui/conversations/{conv}/messages?before=x"))
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

/// Agents' homes in a temporary folder, and a project folder that exists.
struct Homes {
    dir: tempfile::TempDir,
}

impl Homes {
    fn new() -> Homes {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("project")).unwrap();
        Homes { dir }
    }

    fn project(&self) -> String {
        self.dir
            .path()
            .join("project")
            .to_string_lossy()
            .into_owned()
    }

    fn agent_homes(&self) -> squash_app::resume::AgentHomes {
        squash_testkit::fixtures::agent_homes_under(self.dir.path())
    }
}

/// `POST …/resume` for each agent: the fitted thread lands where the agent looks for it, as a
/// session its reader in squash-formats reads back whole, and the answer carries the command
/// that resumes it in the project's folder.
#[tokio::test]
async fn resume_writes_a_session_each_agent_reads_and_says_how_to_start_it() {
    let homes = Homes::new();
    let project = homes.project();
    let app = app_with(|state, _| {
        state
            .with_default_project(project.clone())
            .with_agent_homes(homes.agent_homes())
    });
    let (conv, ids) = app.session(6).await;
    let before = app.fit_plan(&conv, json!({ "budget": 10_000_000 })).await["tokens_before"]
        .as_u64()
        .unwrap();
    let agents = [
        ("claude", squash_core::SourceFormat::ClaudeCode, "--resume"),
        ("codex", squash_core::SourceFormat::Codex, "resume"),
        ("gemini", squash_core::SourceFormat::Gemini, "--resume"),
        ("opencode", squash_core::SourceFormat::Opencode, "--session"),
    ];
    for (n, (agent, format, resume_arg)) in agents.into_iter().enumerate() {
        let r = app
            .post(
                &format!("/api/conversations/{conv}/resume"),
                json!({ "agent": agent, "budget": before / 2, "strategy": "mask" }),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{agent}: {}", r.text);
        let out = r.json();
        assert_eq!(out["agent"], agent, "{out}");
        let written = &out["written"];
        let path = std::path::PathBuf::from(written["path"].as_str().expect("a path"));
        // opencode keeps its sessions in its own store: what is written for it is a document
        // for `opencode import`, in a folder of its own; the others land in the agent's home.
        assert!(
            agent == "opencode" || path.starts_with(homes.dir.path()),
            "{agent}: {}",
            path.display()
        );
        assert!(path.is_file(), "{agent}: {}", path.display());
        let id = written["session_id"].as_str().unwrap();
        assert_eq!(out["launch"]["args"], json!([resume_arg, id]), "{out}");
        assert_eq!(out["launch"]["cwd"], json!(project), "{out}");
        let command = out["command"].as_str().unwrap();
        assert!(
            command.starts_with(&format!("cd {project} && ")),
            "{command}"
        );
        assert!(
            command.ends_with(&format!("{agent} {resume_arg} {id}")),
            "{command}"
        );
        // The first resume fits the thread; the later ones find it within the budget.
        assert_eq!(out["fits"], true, "{out}");
        assert_eq!(out["fit"]["thread"].is_null(), n > 0, "{agent}: {out}");
        let parsed = squash_formats::read::read_file(
            &path,
            &path.display().to_string(),
            format,
            chrono::Utc::now(),
            &mut |_| {},
        )
        .unwrap_or_else(|e| panic!("{agent}: {e}"));
        let main = parsed
            .conversations
            .iter()
            .find(|c| !c.sidechain)
            .expect("a conversation");
        assert!(
            main.messages.len() >= ids.len() / 2,
            "{agent}: {} messages of {}",
            main.messages.len(),
            ids.len()
        );
    }
    // One fit, then the same thread for every agent.
    let thread = app.thread_ids(&conv).await;
    assert_ne!(thread, ids);
    assert_eq!(thread.len(), ids.len());
}

#[tokio::test]
async fn resume_refuses_what_it_cannot_do_and_writes_nothing() {
    let homes = Homes::new();
    let app = app_with(|state, _| {
        state
            .with_default_project(homes.project())
            .with_agent_homes(homes.agent_homes())
            .without_model("no model is configured")
    });
    let (conv, ids) = app.session(4).await;
    let base = format!("/api/conversations/{conv}/resume");
    for body in [
        json!({}),
        json!({ "agent": "vim" }),
        json!({ "agent": "claude", "budget": 0 }),
        json!({ "agent": "claude", "surprise": 1 }),
        json!({ "agent": "claude", "history": "everything" }),
    ] {
        app.post(&base, body.clone())
            .await
            .error(StatusCode::BAD_REQUEST, "invalid_input");
    }
    let e = app
        .post(&base, json!({ "agent": "claude", "budget": 1 }))
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    assert_eq!(e["class"], "out_of_reach", "{e}");
    let message = e["message"].as_str().unwrap();
    assert!(!message.contains("--"), "{message}");
    let before = app.fit_plan(&conv, json!({ "budget": 10_000_000 })).await["tokens_before"]
        .as_u64()
        .unwrap();
    app.post(
        &base,
        json!({ "agent": "claude", "strategy": "ai", "budget": before / 2 }),
    )
    .await
    .error(StatusCode::SERVICE_UNAVAILABLE, "not_configured");
    app.post(
        "/api/conversations/00000000-0000-7000-8000-000000000000/resume",
        json!({ "agent": "codex" }),
    )
    .await
    .error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(app.thread_ids(&conv).await, ids);
    let left: Vec<_> = crate::files_under(homes.dir.path())
        .into_iter()
        .filter(|p| !p.ends_with("project"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// `history: "whole"` resumes a compacted session's whole history (the compactions undone),
/// and the conversation page offers it only where there is one.
#[tokio::test]
async fn resume_fits_the_whole_history_when_asked() {
    let homes = Homes::new();
    let app = app_with(|state, _| {
        state
            .with_default_project(homes.project())
            .with_agent_homes(homes.agent_homes())
    });
    let r = app
        .upload(
            "?name=codex-compacted.jsonl",
            session_file("codex-compacted.jsonl"),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let conv = r.json()["summary"]["conversations"][0]["conversation_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let page = app.get(&format!("/c/{conv}")).await;
    assert!(
        page.text.contains("id=\"resume-whole-history\""),
        "{}",
        page.text
    );
    let current = app.thread_ids(&conv).await;
    let base = format!("/api/conversations/{conv}/resume");
    let whole = app
        .post(
            &base,
            json!({ "agent": "claude", "history": "whole", "budget": 1_000_000 }),
        )
        .await;
    assert_eq!(whole.status, StatusCode::OK, "{}", whole.text);
    let out = whole.json();
    assert_eq!(
        out["fit"]["fitted"]["origin"]["branch"], "whole_history",
        "{out}"
    );
    let fitted = app.thread_ids(&conv).await;
    assert!(
        fitted.len() > current.len(),
        "{} against {}",
        fitted.len(),
        current.len()
    );

    // A conversation that never compacted has no such choice.
    let (plain, _) = app.session(4).await;
    let page = app.get(&format!("/c/{plain}")).await;
    assert!(!page.text.contains("resume-whole-history"));
}

/// A fit as applied costs what its plan said, but for the recall references: the plan prices
/// each six digits wide, and the conversation's first ones are up to a token shorter.
fn assert_priced(applied: &Value, planned: u64) {
    let tokens = applied["tokens_after"].as_u64().unwrap();
    let steps = applied["steps"].as_array().unwrap().len() as u64;
    assert!(
        tokens <= planned && planned - tokens <= steps + 1,
        "applied {tokens} against {planned} planned"
    );
}
