//! The current thread, any thread, the history tree, undo, redo and switching.

use axum::extract::{RawQuery, State};
use axum::http::header::IF_NONE_MATCH;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use squash_core::{Conversation, ConversationId, ThreadId};

use squash_app::{ErrorCode, StoredMessage, ThreadRef, ThreadView, MAX_PAGE};

use super::paging::PageQuery;
use super::{parse_id, Body, IdPath, Query};
use crate::error::ApiError;
use crate::etag::Tag;
use crate::state::AppState;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchBody {
    thread: String,
}

/// The current thread, or a page of it (see [`PageQuery`]).
pub async fn current(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    Query(page): Query<PageQuery>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    paged(&state, ThreadRef::Current(id), &page, query, &headers).await
}

/// Any thread, or a page of it.
pub async fn get(
    State(state): State<AppState>,
    IdPath(id): IdPath<ThreadId>,
    Query(page): Query<PageQuery>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    paged(&state, ThreadRef::Thread(id), &page, query, &headers).await
}

/// A page of `thread` as JSON, or 304 when the client holds it. A request that names a tag it
/// holds is first answered from two one-row reads, before the page is read or serialized; any
/// other reads the page with its conversation at once (one read, one statement or two on
/// PostgreSQL) and takes the tag from what it read. The messages go out as stored, unparsed
/// (the same JSON as the parsed page's, at a fraction of the cost).
async fn paged(
    state: &AppState,
    thread: ThreadRef,
    page: &PageQuery,
    query: Option<String>,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let window = page.window(MAX_PAGE)?;
    let _turn = state.read_turn().await?;
    let service = state.service();
    let route = match thread {
        ThreadRef::Current(_) => "api-current",
        ThreadRef::Thread(_) => "api-thread",
    };
    let conditional = headers.contains_key(IF_NONE_MATCH);
    if conditional {
        let (conversation, header) = match thread {
            ThreadRef::Current(id) => service.current_thread_header(id).await?,
            ThreadRef::Thread(id) => service.thread_header(id).await?,
        };
        let tag = Tag::of(route, &conversation, &header, query.as_deref(), "");
        if tag.matches(headers) {
            return Ok(tag.not_modified());
        }
    }
    let view = service.thread_page_stored(thread, window).await?;
    let tag = Tag::of(
        route,
        &view.conversation,
        &view.thread,
        query.as_deref(),
        "",
    );
    // The thread may have become what the client holds since the check above.
    if conditional && tag.matches(headers) {
        return Ok(tag.not_modified());
    }
    Ok(tag.stamp(page_json(&view)?))
}

/// The page as JSON, written into a buffer sized for it up front: a page is mostly its
/// messages' stored content, which growing the buffer by doubling would copy again and again.
fn page_json(view: &ThreadView<StoredMessage>) -> Result<Response, ApiError> {
    // What a message's ids, role, time, position and tokens take, with room to spare.
    const PER_MESSAGE: usize = 512;
    let stored: usize = view
        .messages
        .iter()
        .map(|m| {
            m.content.get().len()
                + m.instructions.as_ref().map_or(0, |i| i.get().len())
                + m.metadata.as_ref().map_or(0, |d| d.get().len())
        })
        .sum();
    let mut body = Vec::with_capacity(stored + PER_MESSAGE * (view.messages.len() + 2));
    serde_json::to_writer(&mut body, view).map_err(|e| {
        ApiError::new(
            ErrorCode::StorageError,
            format!("cannot write the page: {e}"),
        )
    })?;
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response())
}

pub async fn history(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
) -> Result<Json<Value>, ApiError> {
    let history = state.service().history(id).await?;
    Ok(Json(json!({ "threads": history })))
}

pub async fn undo(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
) -> Result<Json<Value>, ApiError> {
    let conversation = state.service().undo(id).await?;
    switched(&state, conversation).await
}

pub async fn redo(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
) -> Result<Json<Value>, ApiError> {
    let conversation = state.service().redo(id).await?;
    switched(&state, conversation).await
}

pub async fn switch(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    Body(body): Body<SwitchBody>,
) -> Result<Json<Value>, ApiError> {
    let thread: ThreadId = parse_id(&body.thread, "thread")?;
    let conversation = state.service().switch_thread(id, thread).await?;
    switched(&state, conversation).await
}

/// The thread a switch made current, by its header: the answer costs the same at any length
/// (the thread's messages are read a page at a time, `GET …/thread`).
async fn switched(state: &AppState, conversation: Conversation) -> Result<Json<Value>, ApiError> {
    let (conversation, thread) = state
        .service()
        .current_thread_header(conversation.id)
        .await?;
    Ok(Json(json!({
        "conversation": conversation,
        "thread": thread,
    })))
}
