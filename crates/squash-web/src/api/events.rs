//! Live updates of one conversation as server-sent events: the page of every tab, on every
//! server sharing the database, learns that the thread it shows changed (see openapi.json).

use std::convert::Infallible;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use serde_json::{json, Value};
use squash_core::{ConversationId, Thread};
use tokio::sync::broadcast::{self, error::RecvError};

use super::IdPath;
use crate::error::ApiError;
use crate::state::AppState;

pub async fn stream(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
) -> Result<Response, ApiError> {
    // Subscribed before the current thread is read: no write after that read is missed.
    let changes = state.service().subscribe().await?;
    let (_, thread) = state.service().current_thread_header(id).await?;
    let first = event("current", &describe(&thread));
    // The server shutting down ends the stream (the browser reconnects, elsewhere if need be).
    let closing = state.closing().clone().cancelled_owned();
    let watch = Watch {
        state,
        id,
        changes,
        last: (thread.id.to_string(), thread.revision),
        ended: false,
    };
    let rest = futures::stream::unfold(watch, |mut watch| async move {
        let event = watch.next().await?;
        Some((event, watch))
    });
    let events = futures::stream::once(async move { first })
        .chain(rest)
        .take_until(closing)
        .map(Ok::<_, Infallible>);
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// One subscriber's view: which conversation, and what it was last told.
struct Watch {
    state: AppState,
    id: ConversationId,
    changes: broadcast::Receiver<ConversationId>,
    last: (String, u64),
    ended: bool,
}

impl Watch {
    /// The next event, `None` when the stream ends.
    async fn next(&mut self) -> Option<Event> {
        if self.ended {
            return None;
        }
        loop {
            match self.changes.recv().await {
                Ok(changed) if changed != self.id => continue,
                // Lagged: some changes were skipped; this one may be among them, so look.
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return None,
            }
            // Changes that came together are read as one: the thread as it is now.
            while self.changes.try_recv().is_ok() {}
            match self.state.service().current_thread_header(self.id).await {
                Ok((_, thread)) => {
                    let now = (thread.id.to_string(), thread.revision);
                    if now == self.last {
                        continue;
                    }
                    self.last = now;
                    return Some(event("changed", &describe(&thread)));
                }
                Err(e) => {
                    // Deleted, or the database failed: say so and end.
                    self.ended = true;
                    return Some(event("error", &ApiError::from(e).body()));
                }
            }
        }
    }
}

fn describe(thread: &Thread) -> Value {
    json!({
        "conversation": thread.conversation_id,
        "thread": thread.id,
        "revision": thread.revision,
        "message_count": thread.message_count,
    })
}

fn event(name: &str, data: &Value) -> Event {
    Event::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|_| Event::default().event(name))
}
