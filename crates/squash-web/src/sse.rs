//! Long operations (AI squash, re-run, chat): one handler shape, two ways to answer.
//!
//! A request that accepts `text/event-stream` gets server-sent events while the work runs:
//! `start` (what is being asked of which model), `delta` (`{"text": …}`, the model's answer
//! as it streams in), then exactly one of the final event (`preview`, `applied`, `done`) or
//! `error` (the usual error body). Any other request waits and gets the final JSON (or the
//! error with its status). When an event stream's client goes away, the model call is
//! cancelled and nothing changes.

use std::convert::Infallible;
use std::future::Future;

use axum::http::header::ACCEPT;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use squash_llm::CancellationToken;
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};

use crate::error::ApiError;

/// Where a long operation reports progress. Silent when the client asked for plain JSON.
#[derive(Clone)]
pub struct Events {
    tx: Option<UnboundedSender<Event>>,
}

impl Events {
    fn silent() -> Events {
        Events { tx: None }
    }

    /// Sends a named event with JSON data.
    pub fn send(&self, name: &str, data: &Value) {
        if let Some(tx) = &self.tx {
            if let Ok(event) = Event::default().event(name).json_data(data) {
                // A closed channel means the client left; the cancellation handles that.
                let _ = tx.send(event);
            }
        }
    }

    /// A piece of the model's answer.
    pub fn delta(&self, text: &str) {
        self.send("delta", &json!({ "text": text }));
    }
}

/// Whether the client asked for an event stream.
pub fn wants_events(headers: &HeaderMap) -> bool {
    headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("text/event-stream"))
}

/// Runs `work` and answers as the client asked (see the module docs). `final_event` names the
/// event that carries the successful result.
pub async fn run<F, Fut>(headers: &HeaderMap, final_event: &'static str, work: F) -> Response
where
    F: FnOnce(Events, CancellationToken) -> Fut + Send + 'static,
    Fut: Future<Output = Result<Value, ApiError>> + Send + 'static,
{
    let cancel = CancellationToken::new();
    if !wants_events(headers) {
        return match work(Events::silent(), cancel).await {
            Ok(value) => Json(value).into_response(),
            Err(e) => e.into_response(),
        };
    }
    let (tx, rx) = unbounded_channel();
    let events = Events {
        tx: Some(tx.clone()),
    };
    // Dropped with the response stream, i.e. when the client disconnects.
    let guard = cancel.clone().drop_guard();
    tokio::spawn(async move {
        let (name, data) = match work(events, cancel).await {
            Ok(value) => (final_event, value),
            Err(e) => ("error", e.body()),
        };
        if let Ok(event) = Event::default().event(name).json_data(data) {
            let _ = tx.send(event);
        }
    });
    // The guard travels with the stream; the stream ends when the task's sender is gone.
    let stream = futures::stream::unfold((rx, guard), |(mut rx, guard)| async move {
        rx.recv()
            .await
            .map(|event| (Ok::<_, Infallible>(event), (rx, guard)))
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}
