//! A real HTTP server on 127.0.0.1 that answers from a script and records every request, so the
//! HTTP providers are tested over the wire they use in production.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Response;
use axum::Router;
use futures::StreamExt;
use serde_json::Value;
use squash_llm::{CancellationToken, ChatModel, ChatRequest, ChatResponse, LlmError};

/// One scripted answer.
#[derive(Clone, Debug)]
pub struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    /// Sent one after another, each after its pause.
    chunks: Vec<(Duration, String)>,
    delay: Duration,
}

impl Reply {
    pub fn json(status: u16, body: Value) -> Reply {
        Reply::text(status, &body.to_string()).header("content-type", "application/json")
    }

    pub fn text(status: u16, body: &str) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            chunks: vec![(Duration::ZERO, body.to_string())],
            delay: Duration::ZERO,
        }
    }

    /// A server-sent event stream; each item is one whole event (`event:`/`data:` lines).
    pub fn sse(events: &[String], pause: Duration) -> Reply {
        Reply {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            chunks: events.iter().map(|e| (pause, format!("{e}\n\n"))).collect(),
            delay: Duration::ZERO,
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Waits this long before sending the status line.
    pub fn delay(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

/// What the server received.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub path: String,
    pub headers: HashMap<String, String>,
    pub body: Value,
}

#[derive(Default)]
struct Script {
    replies: Mutex<VecDeque<Reply>>,
    /// Answers every request once the queue is empty.
    fallback: Mutex<Option<Reply>>,
    requests: Mutex<Vec<Recorded>>,
}

pub struct MockServer {
    pub url: String,
    script: Arc<Script>,
}

impl MockServer {
    /// A server answering with `replies` in order, then with 500s.
    pub async fn start(replies: Vec<Reply>) -> MockServer {
        MockServer::build(replies, None).await
    }

    /// A server answering every request with `reply`.
    pub async fn always(reply: Reply) -> MockServer {
        MockServer::build(Vec::new(), Some(reply)).await
    }

    async fn build(replies: Vec<Reply>, fallback: Option<Reply>) -> MockServer {
        let script = Arc::new(Script {
            replies: Mutex::new(replies.into()),
            fallback: Mutex::new(fallback),
            requests: Mutex::new(Vec::new()),
        });
        let app = Router::new()
            .fallback(answer)
            .with_state(Arc::clone(&script));
        let addr = serve(app).await;
        MockServer {
            url: format!("http://{addr}"),
            script,
        }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.script.requests.lock().expect("requests lock").clone()
    }

    /// The one request the test expected.
    pub fn only_request(&self) -> Recorded {
        let requests = self.requests();
        assert_eq!(requests.len(), 1, "expected exactly one request");
        requests.into_iter().next().expect("one request")
    }
}

async fn answer(
    State(script): State<Arc<Script>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let recorded = Recorded {
        path: uri.path().to_string(),
        headers: headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    v.to_str().unwrap_or_default().to_string(),
                )
            })
            .collect(),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    };
    script
        .requests
        .lock()
        .expect("requests lock")
        .push(recorded);
    let next = script.replies.lock().expect("replies lock").pop_front();
    let reply = next
        .or_else(|| script.fallback.lock().expect("fallback lock").clone())
        .unwrap_or_else(|| Reply::text(500, "no scripted reply left"));

    tokio::time::sleep(reply.delay).await;
    let chunks = futures::stream::iter(reply.chunks).then(|(pause, chunk)| async move {
        tokio::time::sleep(pause).await;
        Ok::<_, Infallible>(Bytes::from(chunk))
    });
    let mut response = Response::new(Body::from_stream(chunks));
    *response.status_mut() = StatusCode::from_u16(reply.status).expect("valid status");
    for (name, value) in reply.headers {
        response.headers_mut().insert(
            axum::http::HeaderName::from_bytes(name.as_bytes()).expect("header name"),
            value.parse().expect("header value"),
        );
    }
    response
}

/// Serves `app` on an ephemeral loopback port for the rest of the test; its address.
pub async fn serve(app: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a loopback port");
    let addr = listener.local_addr().expect("local address");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    addr
}

/// A token that cancels itself after `delay`.
pub fn cancel_after(delay: Duration) -> squash_llm::CancellationToken {
    let cancel = squash_llm::CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(delay).await;
        trigger.cancel();
    });
    cancel
}

/// The error a call that must fail fails with (never cancelled).
pub async fn complete_err<M: squash_llm::ChatModel + ?Sized>(
    model: &M,
    request: &squash_llm::ChatRequest,
) -> squash_llm::LlmError {
    model
        .complete(request, &squash_llm::CancellationToken::new())
        .await
        .expect_err("the call fails")
}

/// The answer of a call that must succeed (never cancelled).
pub async fn complete_ok(model: &impl ChatModel, request: &ChatRequest) -> ChatResponse {
    let cancel = CancellationToken::new();
    model.complete(request, &cancel).await.expect("answer")
}

/// The error a streamed call that must fail fails with (never cancelled, deltas dropped).
pub async fn stream_err(model: &impl ChatModel, request: &ChatRequest) -> LlmError {
    let outcome = model
        .stream(request, &CancellationToken::new(), &|_| {})
        .await;
    outcome.expect_err("the streamed call fails")
}

/// A fast retry policy for tests: `attempts` tries, millisecond backoff.
pub fn fast_retry(attempts: u32) -> squash_llm::RetryPolicy {
    squash_llm::RetryPolicy {
        max_attempts: attempts,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_secs(5),
    }
}

/// Collects streamed deltas.
#[derive(Default)]
pub struct Deltas(Mutex<Vec<String>>);

impl Deltas {
    pub fn push(&self, delta: &str) {
        self.0.lock().expect("deltas lock").push(delta.to_string());
    }

    pub fn all(&self) -> Vec<String> {
        self.0.lock().expect("deltas lock").clone()
    }
}

/// A URL nothing listens on: bound, then released.
pub async fn closed_port_url() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a local port");
    let addr = listener.local_addr().expect("local address");
    drop(listener);
    format!("http://{addr}")
}
