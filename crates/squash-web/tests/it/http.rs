//! HTTP hygiene over a real loopback socket: compression (and none for event streams, which
//! still arrive one by one), ETags with 304 on thread reads and the page, the body limit
//! answered with a JSON 413 before the body is read, the `Bearer` scheme in any case, and AI
//! actions switched off (with the reason) when no model is configured.

use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{header, HeaderMap, Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::{json, Value};
use squash_app::ConversationService;
use squash_llm::FakeModel;
use squash_store::sqlite::SqliteStore;
use squash_web::AppState;

type HttpClient = Client<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>>;

/// A server on 127.0.0.1 with a fresh SQLite file; stops when dropped.
struct Server {
    base: String,
    client: HttpClient,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    _dir: tempfile::TempDir,
}

struct Reply {
    status: StatusCode,
    headers: HeaderMap,
    body: Vec<u8>,
}

impl Reply {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The body as sent, decoded per `Content-Encoding`.
    fn decoded(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self.header("content-encoding") {
            None => out.extend_from_slice(&self.body),
            Some("gzip") => {
                flate2::read::GzDecoder::new(&self.body[..])
                    .read_to_end(&mut out)
                    .expect("gzip");
            }
            Some("br") => {
                brotli::Decompressor::new(&self.body[..], 4096)
                    .read_to_end(&mut out)
                    .expect("brotli");
            }
            Some(other) => panic!("unexpected encoding {other}"),
        }
        out
    }

    fn error(&self, status: StatusCode, code: &str) -> Value {
        assert_eq!(self.status, status, "{}", self.text());
        let body = self.json();
        assert_eq!(body["error"]["code"], code, "{}", self.text());
        body["error"].clone()
    }
}

async fn start(configure: impl FnOnce(AppState) -> AppState) -> Server {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("open sqlite");
    let service = ConversationService::new(Arc::new(store));
    let state = configure(AppState::new(service).with_default_project("/work/demo"));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(squash_web::serve(listener, state, async move {
        let _ = stopped.await;
    }));
    Server {
        base: format!("http://{addr}"),
        client: Client::builder(TokioExecutor::new()).build_http(),
        stop: Some(stop),
        task,
        _dir: dir,
    }
}

impl Server {
    async fn send(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: impl Into<Bytes>,
    ) -> Reply {
        let mut req = Request::builder()
            .method(method.clone())
            .uri(format!("{}{path}", self.base));
        if method != Method::GET {
            req = req
                .header("x-squash-csrf", "1")
                .header(header::CONTENT_TYPE, "application/json");
        }
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        let req = req.body(Full::new(body.into())).expect("request");
        let response = self.client.request(req).await.expect("response");
        let status = response.status();
        let headers = response.headers().clone();
        let body = crate::body_bytes(response).await.to_vec();
        Reply {
            status,
            headers,
            body,
        }
    }

    async fn get(&self, path: &str, headers: &[(&str, &str)]) -> Reply {
        self.send(Method::GET, path, headers, Bytes::new()).await
    }

    async fn post(&self, path: &str, body: Value) -> Reply {
        self.send(Method::POST, path, &[], body.to_string()).await
    }

    async fn conversation(&self) -> String {
        let r = self
            .post("/api/conversations", json!({"name": "Hygiene"}))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text());
        r.json()["id"].as_str().expect("id").to_owned()
    }

    async fn append(&self, conv: &str, text: &str) {
        let r = self
            .post(
                &format!("/api/conversations/{conv}/messages"),
                json!({"role": "user", "text": text}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text());
    }
}

#[tokio::test]
async fn responses_are_compressed_as_the_client_accepts() {
    let server = start(|s| s).await;
    let conv = server.conversation().await;
    for i in 0..20 {
        server
            .append(
                &conv,
                &format!("Message {i}: the build fails in src/main.rs."),
            )
            .await;
    }
    let plain = server.get("/static/app.js", &[]).await;
    assert_eq!(plain.status, StatusCode::OK);
    assert_eq!(plain.header("content-encoding"), None);
    for path in [
        "/static/app.js".to_owned(),
        format!("/c/{conv}"),
        format!("/api/conversations/{conv}/thread"),
    ] {
        let identity = server.get(&path, &[]).await;
        assert_eq!(identity.status, StatusCode::OK, "{path}");
        for encoding in ["gzip", "br"] {
            let r = server.get(&path, &[("accept-encoding", encoding)]).await;
            assert_eq!(r.status, StatusCode::OK, "{path}");
            assert_eq!(r.header("content-encoding"), Some(encoding), "{path}");
            assert!(
                r.header("vary")
                    .is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")),
                "{path}: {:?}",
                r.headers
            );
            assert!(
                r.body.len() < identity.body.len() / 2,
                "{path} {encoding}: {} of {} bytes",
                r.body.len(),
                identity.body.len()
            );
            assert_eq!(r.decoded(), identity.body, "{path} {encoding}");
        }
    }
}

#[tokio::test]
async fn thread_reads_and_the_page_answer_304_while_nothing_changed() {
    let server = start(|s| s).await;
    let conv = server.conversation().await;
    server.append(&conv, "first").await;
    let current = format!("/api/conversations/{conv}/thread");
    let page = format!("/c/{conv}");

    let first = server.get(&current, &[]).await;
    let tag = first.header("etag").expect("etag").to_owned();
    assert_eq!(first.header("cache-control"), Some("private, no-cache"));
    let thread = first.json()["thread"]["id"]
        .as_str()
        .expect("thread id")
        .to_owned();
    let by_id = format!("/api/threads/{thread}");

    // Unchanged: 304, no body, the same tag.
    let again = server.get(&current, &[("if-none-match", &tag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), Some(tag.as_str()));
    // A list of tags, a strong form of the weak tag, and `*` match too.
    let listed = format!("\"nope\", {tag}");
    assert_eq!(
        server
            .get(&current, &[("if-none-match", &listed)])
            .await
            .status,
        StatusCode::NOT_MODIFIED
    );
    let strong = tag.trim_start_matches("W/").to_owned();
    assert_eq!(
        server
            .get(&current, &[("if-none-match", &strong)])
            .await
            .status,
        StatusCode::NOT_MODIFIED
    );
    assert_eq!(
        server.get(&current, &[("if-none-match", "*")]).await.status,
        StatusCode::NOT_MODIFIED
    );
    // Another query string is another answer (a page of the thread, say).
    let paged = server
        .get(&format!("{current}?limit=1"), &[("if-none-match", &tag)])
        .await;
    assert_eq!(paged.status, StatusCode::OK);
    assert_ne!(paged.header("etag"), Some(tag.as_str()));

    let by_id_first = server.get(&by_id, &[]).await;
    let by_id_tag = by_id_first.header("etag").expect("etag").to_owned();
    assert_eq!(
        server
            .get(&by_id, &[("if-none-match", &by_id_tag)])
            .await
            .status,
        StatusCode::NOT_MODIFIED
    );
    let page_first = server.get(&page, &[]).await;
    assert_eq!(page_first.status, StatusCode::OK);
    let page_tag = page_first.header("etag").expect("etag").to_owned();
    let page_again = server.get(&page, &[("if-none-match", &page_tag)]).await;
    assert_eq!(page_again.status, StatusCode::NOT_MODIFIED);
    assert!(page_again.body.is_empty());

    // An append changes all three.
    server.append(&conv, "second").await;
    for (path, old) in [(&current, &tag), (&by_id, &by_id_tag), (&page, &page_tag)] {
        let r = server.get(path, &[("if-none-match", old)]).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        assert_ne!(r.header("etag"), Some(old.as_str()), "{path}");
    }
    let after_append = server.get(&page, &[]).await;
    let after_append_tag = after_append.header("etag").expect("etag").to_owned();
    assert!(after_append.text().contains("second"));

    // So does a squash (a new current thread, the history grows) and its undo (the history and
    // redo change though the thread is the old one again).
    let messages: Vec<String> = server.get(&current, &[]).await.json()["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["id"].as_str().expect("id").to_owned())
        .collect();
    let squashed = server
        .post(
            &format!("/api/conversations/{conv}/squash/manual"),
            json!({"messages": messages}),
        )
        .await;
    assert_eq!(squashed.status, StatusCode::OK, "{}", squashed.text());
    let after_squash = server
        .get(&page, &[("if-none-match", &after_append_tag)])
        .await;
    assert_eq!(after_squash.status, StatusCode::OK);
    let after_squash_tag = after_squash.header("etag").expect("etag").to_owned();
    let undone = server
        .post(&format!("/api/conversations/{conv}/undo"), json!({}))
        .await;
    assert_eq!(undone.status, StatusCode::OK, "{}", undone.text());
    let after_undo = server
        .get(&page, &[("if-none-match", &after_append_tag)])
        .await;
    assert_eq!(
        after_undo.status,
        StatusCode::OK,
        "the redo button is on now"
    );
    assert_ne!(after_undo.header("etag"), Some(after_squash_tag.as_str()));
    assert!(after_undo
        .text()
        .contains("id=\"redo-btn\" type=\"button\" title="));
    // A missing conversation is still a 404, whatever the client holds.
    let missing = server
        .get(
            "/api/conversations/0190c2d2-0000-7000-8000-000000000000/thread",
            &[("if-none-match", "*")],
        )
        .await;
    missing.error(StatusCode::NOT_FOUND, "not_found");
}

#[tokio::test]
async fn the_page_tag_covers_the_sidebar_of_every_conversation() {
    let server = start(|s| s).await;
    let shown = server.conversation().await;
    let page = server.get(&format!("/c/{shown}"), &[]).await;
    let tag = page.header("etag").expect("etag").to_owned();
    // Another conversation appears in the sidebar: the page is not the one the client holds.
    let other = server.conversation().await;
    server.append(&other, "a message elsewhere").await;
    let r = server
        .get(&format!("/c/{shown}"), &[("if-none-match", &tag)])
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(
        r.text().contains(&other),
        "the new conversation is in the sidebar"
    );
}

#[tokio::test]
async fn the_page_tag_covers_the_model_the_page_shows() {
    let without = start(|s| s).await;
    let with = start(|s| s.with_model(Arc::new(FakeModel::new()))).await;
    let a = without.conversation().await;
    let b = with.conversation().await;
    let tag_without = without.get(&format!("/c/{a}"), &[]).await;
    let tag_without = tag_without.header("etag").expect("etag").to_owned();
    // The same conversation state on a server with a model renders other buttons: asked with
    // the tag of the other server's page, it answers in full.
    let r = with
        .get(&format!("/c/{b}"), &[("if-none-match", &tag_without)])
        .await;
    assert_eq!(r.status, StatusCode::OK);
}

#[tokio::test]
async fn bodies_over_the_limit_get_a_json_413_before_being_read() {
    let server = start(|s| s).await;
    let limit = squash_web::API_BODY_LIMIT;
    // 10 MB: answered (not reset) with the API's error shape.
    let huge = format!("{{\"name\": \"{}\"}}", "x".repeat(10 * 1024 * 1024));
    let r = server
        .send(Method::POST, "/api/conversations", &[], huge)
        .await;
    let error = r.error(StatusCode::PAYLOAD_TOO_LARGE, "input_too_large");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("2 MiB")),
        "{error}"
    );
    // Just over: the same; just under (but not JSON): the body was read, it is bad input.
    let over = vec![b' '; limit + 1];
    server
        .send(Method::POST, "/api/conversations", &[], over)
        .await
        .error(StatusCode::PAYLOAD_TOO_LARGE, "input_too_large");
    let under = vec![b'x'; limit];
    server
        .send(Method::POST, "/api/conversations", &[], under)
        .await
        .error(StatusCode::BAD_REQUEST, "invalid_input");
    // Every route has the limit, whatever its method or body.
    let conv = server.conversation().await;
    server
        .send(
            Method::PUT,
            &format!("/api/conversations/{conv}/messages/x"),
            &[],
            vec![b' '; 3 * 1024 * 1024],
        )
        .await
        .error(StatusCode::PAYLOAD_TOO_LARGE, "input_too_large");
    // The import has its own, larger limit: 3 MB of garbage is read and refused as such.
    let r = server
        .send(
            Method::POST,
            "/api/import?name=big.jsonl",
            &[],
            vec![b'x'; 3 * 1024 * 1024],
        )
        .await;
    assert_ne!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.text());
    assert!(r.status.is_client_error(), "{}", r.text());
    // Nothing was created by the refused requests.
    let list = server.get("/api/conversations", &[]).await.json();
    assert_eq!(
        list["conversations"].as_array().map(Vec::len),
        Some(1),
        "{list}"
    );
}

#[tokio::test]
async fn a_client_that_sends_everything_before_reading_still_reads_the_413() {
    // The simplest client: write the whole request, then read. Answered and closed after the
    // headers alone, it would fail writing (broken pipe, connection reset) before reading.
    let server = start(|s| s).await;
    let addr = server.base.trim_start_matches("http://").to_owned();
    let answer = tokio::task::spawn_blocking(move || {
        use std::io::Write;
        let body = vec![b'x'; 10 * 1024 * 1024];
        let mut stream = std::net::TcpStream::connect(&addr).expect("connect");
        let head = format!(
            "POST /api/conversations HTTP/1.1\r\nHost: {addr}\r\nContent-Type: \
             application/json\r\nX-Squash-Csrf: 1\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).expect("send the head");
        stream.write_all(&body).expect("send the whole body");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("read the answer");
        answer
    })
    .await
    .expect("client");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"code\":\"input_too_large\""), "{answer}");
}

#[tokio::test]
async fn a_body_without_a_length_is_stopped_at_the_limit_with_413() {
    // Chunked: no Content-Length to refuse up front; axum's limit stops it while reading.
    let server = start(|s| s).await;
    let limit = squash_web::API_BODY_LIMIT;
    let chunks: Vec<Result<hyper::body::Frame<Bytes>, std::convert::Infallible>> =
        (0..(limit / 65536 + 2))
            .map(|_| Ok(hyper::body::Frame::data(Bytes::from(vec![b' '; 65536]))))
            .collect();
    let body = http_body_util::StreamBody::new(futures::stream::iter(chunks));
    let client: Client<_, http_body_util::StreamBody<_>> =
        Client::builder(TokioExecutor::new()).build_http();
    let req = Request::builder()
        .method(Method::POST)
        .uri(format!("{}/api/conversations", server.base))
        .header("x-squash-csrf", "1")
        .header(header::CONTENT_TYPE, "application/json")
        .body(body)
        .expect("request");
    let response = client.request(req).await.expect("response");
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let bytes = crate::body_bytes(response).await;
    let body: Value = serde_json::from_slice(&bytes).expect("JSON");
    assert_eq!(body["error"]["code"], "input_too_large", "{body}");
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let server = start(|s| s.with_token(Some("s3cret-token".into()))).await;
    for scheme in ["Bearer", "bearer", "BEARER"] {
        let auth = format!("{scheme} s3cret-token");
        let r = server
            .get("/api/conversations", &[("authorization", &auth)])
            .await;
        assert_eq!(r.status, StatusCode::OK, "{scheme}: {}", r.text());
    }
    server
        .get("/api/conversations", &[("authorization", "bearer wrong")])
        .await
        .error(StatusCode::UNAUTHORIZED, "unauthorized");
    server
        .get(
            "/api/conversations",
            &[("authorization", "Basic s3cret-token")],
        )
        .await
        .error(StatusCode::UNAUTHORIZED, "unauthorized");
}

#[tokio::test]
async fn without_a_model_ai_actions_are_off_and_say_why() {
    let reason = "no model is configured: set OPENAI_BASE_URL";
    let server = start(|s| s.without_model(reason)).await;
    let conv = server.conversation().await;
    let page = server.get(&format!("/c/{conv}"), &[]).await.text();
    for marker in [
        "data-squash=\"ai\"",
        "data-squash=\"structured\"",
        "data-squash=\"custom\"",
        "id=\"chat-send\"",
    ] {
        let tag = tag_of(&page, marker);
        assert!(tag.contains(" disabled"), "{tag}");
        assert!(tag.contains(&format!("title=\"{reason}\"")), "{tag}");
        assert!(
            tag.contains("aria-describedby=\"ai-missing-reason\""),
            "{tag}"
        );
    }
    for marker in [
        "data-squash=\"manual\"",
        "data-squash=\"extract\"",
        "id=\"append-btn\"",
    ] {
        assert!(
            !tag_of(&page, marker).contains(" disabled"),
            "{marker} stays on"
        );
    }
    assert!(page.contains(&format!(
        "id=\"ai-missing-reason\" hidden>Needs a model: {reason}"
    )));
    // The API says the same, with a hint, and changes nothing.
    server.append(&conv, "hello").await;
    let r = server
        .post(
            &format!("/api/conversations/{conv}/chat"),
            json!({"text": "hi"}),
        )
        .await;
    let error = r.error(StatusCode::SERVICE_UNAVAILABLE, "not_configured");
    assert_eq!(error["message"], reason);
    assert!(error["hint"].as_str().is_some_and(|h| !h.is_empty()));
    let thread = server
        .get(&format!("/api/conversations/{conv}/thread"), &[])
        .await
        .json();
    assert_eq!(thread["messages"].as_array().map(Vec::len), Some(1));

    // With a model they are on.
    let server = start(|s| s.with_model(Arc::new(FakeModel::new()))).await;
    let conv = server.conversation().await;
    let page = server.get(&format!("/c/{conv}"), &[]).await.text();
    for marker in ["data-squash=\"ai\"", "id=\"chat-send\""] {
        assert!(!tag_of(&page, marker).contains(" disabled"), "{marker}");
    }
    assert!(!page.contains("ai-missing-reason"));
}

/// The whole start tag of the element whose attributes hold `marker`.
fn tag_of<'a>(page: &'a str, marker: &str) -> &'a str {
    let at = page
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} not in the page"));
    let start = page[..at].rfind('<').expect("tag start");
    let end = at + page[at..].find('>').expect("tag end");
    &page[start..=end]
}

/// Reads server-sent events from a streaming body, one at a time.
struct Events {
    body: hyper::body::Incoming,
    buffer: String,
}

impl Events {
    async fn next(&mut self) -> (String, Value) {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let raw: String = self.buffer.drain(..end + 2).collect();
                let (name, data) = crate::parse_event(&raw);
                if data.is_empty() {
                    continue; // a keep-alive comment
                }
                return (name, serde_json::from_str(&data).expect("event JSON"));
            }
            let frame = tokio::time::timeout(Duration::from_secs(10), self.body.frame())
                .await
                .expect("an event within 10 s")
                .expect("the stream is open")
                .expect("a frame");
            if let Ok(data) = frame.into_data() {
                self.buffer
                    .push_str(&String::from_utf8_lossy(&data).replace("\r\n", "\n"));
            }
        }
    }
}

#[tokio::test]
async fn live_events_are_not_compressed_and_arrive_one_by_one() {
    let mut server = start(|s| s).await;
    let conv = server.conversation().await;
    let other = server.conversation().await;
    let req = Request::builder()
        .uri(format!("{}/api/conversations/{conv}/events", server.base))
        .header("accept-encoding", "gzip, br")
        .body(Full::new(Bytes::new()))
        .expect("request");
    let response = server.client.request(req).await.expect("response");
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("text/event-stream")
    );
    assert!(response.headers().get("content-encoding").is_none());
    let mut events = Events {
        body: response.into_body(),
        buffer: String::new(),
    };
    let (name, current) = events.next().await;
    assert_eq!(name, "current");
    assert_eq!(current["revision"], 0);
    let thread = current["thread"].clone();

    // Each change arrives while the stream stays open: nothing waits for the end to compress.
    for n in 1..=3u64 {
        // A change to another conversation is not this stream's business.
        server.append(&other, "elsewhere").await;
        server.append(&conv, &format!("message {n}")).await;
        let (name, changed) = events.next().await;
        assert_eq!(name, "changed", "{changed}");
        assert_eq!(changed["conversation"], json!(conv));
        assert_eq!(changed["thread"], thread);
        assert_eq!(changed["revision"], n);
        assert_eq!(changed["message_count"], n);
    }
    // An undo is a change too: another thread is current.
    let ids: Vec<Value> = server
        .get(&format!("/api/conversations/{conv}/thread"), &[])
        .await
        .json()["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["id"].clone())
        .collect();
    let r = server
        .post(
            &format!("/api/conversations/{conv}/squash/manual"),
            json!({"messages": ids}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let (_, squashed) = events.next().await;
    assert_ne!(squashed["thread"], thread);
    assert_eq!(squashed["message_count"], 1);
    server
        .post(&format!("/api/conversations/{conv}/undo"), json!({}))
        .await;
    let (_, undone) = events.next().await;
    assert_eq!(undone["thread"], thread);
    assert_eq!(undone["revision"], 3);

    // Shutting down ends the stream, so the graceful shutdown does not wait for the page.
    if let Some(stop) = server.stop.take() {
        let _ = stop.send(());
    }
    let end = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(frame) = events.body.frame().await {
            if frame.is_err() {
                break;
            }
        }
    })
    .await;
    assert!(end.is_ok(), "the event stream ended at shutdown");
    let served = tokio::time::timeout(Duration::from_secs(10), &mut server.task).await;
    assert!(
        matches!(served, Ok(Ok(Ok(())))),
        "the server stopped: {served:?}"
    );
}

#[tokio::test]
async fn live_events_of_a_missing_conversation_are_a_404() {
    let server = start(|s| s).await;
    server
        .get(
            "/api/conversations/0190c2d2-0000-7000-8000-000000000000/events",
            &[],
        )
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
}
