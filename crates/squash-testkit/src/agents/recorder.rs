//! What a loopback server received: every request, in order, with its headers and JSON body.

use std::sync::{Arc, Mutex};

use axum::body::{to_bytes, Body};
use axum::http::Request;
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

/// Serves `app` on an ephemeral loopback port; the task ends with the runtime.
pub async fn serve(app: axum::Router) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a loopback port");
    let addr = listener.local_addr().expect("local address");
    tokio::spawn(async move {
        axum::serve(listener, app).await.expect("loopback server");
    });
    addr
}

/// One server-sent event.
pub fn sse(event: &str, data: &Value) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}
