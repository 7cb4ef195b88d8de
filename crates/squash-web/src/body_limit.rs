//! One request body limit for the whole API, answered as a 413 in the API's error shape.
//!
//! A body whose `Content-Length` declares more than the route's limit is refused before any
//! of it is read; a body that does not declare its length (chunked) is stopped by axum's
//! limit while it is read, and that rejection is answered the same way (see `api::Body`).
//! `POST /api/import` has a larger limit of its own.

use std::time::Duration;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::header::CONTENT_LENGTH;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use futures::StreamExt;

use crate::error::ApiError;

/// The largest JSON body an API route accepts: a message, a selection or instructions are far
/// smaller; whole sessions go through `/api/import`.
pub const API_BODY_LIMIT: usize = 2 * 1024 * 1024;

/// How much of a refused body is read and thrown away before the answer, so that the client,
/// still sending, reads the 413 instead of a connection reset (a socket closed with unread
/// data resets). Beyond this, or after [`DRAIN_TIME`], the connection is simply closed.
const DRAIN_LIMIT: u64 = 64 * 1024 * 1024;
const DRAIN_TIME: Duration = Duration::from_secs(5);

/// `route` with a body limit of `limit` bytes, enforced both ways described above.
pub fn limited<S: Clone + Send + Sync + 'static>(
    route: MethodRouter<S>,
    limit: usize,
) -> MethodRouter<S> {
    route
        .layer(DefaultBodyLimit::max(limit))
        .layer(middleware::from_fn_with_state(limit, up_front))
}

/// Refuses a declared length over the limit before the handler runs.
async fn up_front(State(limit): State<usize>, req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    match declared {
        Some(n) if n > limit as u64 => {
            if n <= DRAIN_LIMIT {
                drain(req.into_body()).await;
            }
            ApiError::too_large(limit).into_response()
        }
        _ => next.run(req).await,
    }
}

/// Reads and discards the body (a chunk at a time: memory stays flat), up to [`DRAIN_LIMIT`]
/// bytes or [`DRAIN_TIME`], whichever comes first.
async fn drain(body: Body) {
    let mut stream = body.into_data_stream();
    let mut seen = 0u64;
    let _ = tokio::time::timeout(DRAIN_TIME, async {
        while let Some(Ok(chunk)) = stream.next().await {
            seen += chunk.len() as u64;
            if seen > DRAIN_LIMIT {
                break;
            }
        }
    })
    .await;
}
