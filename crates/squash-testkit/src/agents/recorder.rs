//! What a loopback server received: every request, in order, with its headers and JSON body.

use std::collections::VecDeque;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::{to_bytes, Body};
use axum::http::{header, Request, StatusCode};
use axum::response::Response;
use axum::Router;
use serde_json::Value;

#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    /// Path and query, as sent (`/v1/messages?beta=true`).
    pub path: String,
    pub headers: Vec<(String, String)>,
    /// The body as JSON; a body that is not JSON is kept as a JSON string, an empty one as null.
    pub body: Value,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The path without the query string.
    pub fn route(&self) -> &str {
        self.path.split('?').next().unwrap_or(&self.path)
    }
}

/// The requests a server received, shared between its handler and the test.
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<Recorded>>>);

impl Log {
    pub fn all(&self) -> Vec<Recorded> {
        self.0.lock().expect("request log").clone()
    }

    pub fn push(&self, request: Recorded) {
        self.0.lock().expect("request log").push(request);
    }
}

/// What a scripted loopback server answers with, turn by turn, and every request it received.
pub struct Script<T> {
    turns: Mutex<VecDeque<T>>,
    pub log: Log,
}

impl<T> Script<T> {
    /// The next scripted turn, if any is left.
    pub fn next(&self) -> Option<T> {
        self.turns.lock().expect("script").pop_front()
    }

    /// Scripted turns not served yet.
    pub fn unserved(&self) -> usize {
        self.turns.lock().expect("script").len()
    }
}

/// A scripted loopback server (each agent's is a `Scripted` of its own turns).
pub struct Scripted<T> {
    pub addr: SocketAddr,
    script: Arc<Script<T>>,
}

impl<T> Scripted<T> {
    /// Every request received, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.script.log.all()
    }

    /// The bodies of the POST requests to `route`, in order.
    pub fn posted_to(&self, route: &str) -> Vec<Value> {
        self.requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.route() == route)
            .map(|r| r.body)
            .collect()
    }

    /// Scripted turns not served yet.
    pub fn unserved(&self) -> usize {
        self.script.unserved()
    }

    /// `http://ADDR` and `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

/// Starts a loopback server that records every request, then lets `answer` answer it from
/// the script `turns`.
pub async fn serve_script<T, F, Fut>(turns: Vec<T>, answer: F) -> Scripted<T>
where
    T: Send + 'static,
    F: Fn(Arc<Script<T>>, Recorded) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response> + Send + 'static,
{
    let script = Arc::new(Script {
        turns: Mutex::new(turns.into()),
        log: Log::default(),
    });
    let shared = script.clone();
    let app = Router::new().fallback(move |request: Request<Body>| {
        let script = shared.clone();
        let answer = answer.clone();
        async move {
            let recorded = record(request).await;
            script.log.push(recorded.clone());
            answer(script, recorded).await
        }
    });
    Scripted {
        addr: serve(app).await,
        script,
    }
}

pub fn respond(status: StatusCode, content_type: &str, body: String) -> Response {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .expect("a valid response")
}

/// Reads a request whole (the agents send bodies of a few hundred kB at most).
pub async fn record(request: Request<Body>) -> Recorded {
    let (parts, body) = request.into_parts();
    let bytes = to_bytes(body, 64 << 20).await.expect("request body");
    let body = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()))
    };
    Recorded {
        method: parts.method.to_string(),
        path: parts
            .uri
            .path_and_query()
            .map(|p| p.as_str().to_owned())
            .unwrap_or_else(|| parts.uri.path().to_owned()),
        headers: parts
            .headers
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body,
    }
}

pub use crate::model_server::serve;

/// One server-sent event.
pub fn sse(event: &str, data: &Value) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}
