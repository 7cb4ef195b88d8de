//! The current thread, any thread, the history tree, undo, redo and switching.

use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use squash_core::{Conversation, ConversationId, ThreadId};

use squash_app::{ThreadRef, MAX_PAGE};

use super::paging::PageQuery;
use super::{parse_id, view_json, Body, Query};
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
    Path(id): Path<String>,
    Query(page): Query<PageQuery>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id: ConversationId = parse_id(&id, "conversation")?;
    let window = page.window(MAX_PAGE)?;
    let _turn = state.read_turn().await?;
    let (conversation, thread) = state.service().current_thread_header(id).await?;
    let tag = Tag::of("api-current", &conversation, &thread, query.as_deref(), "");
    if tag.matches(&headers) {
        return Ok(tag.not_modified());
    }
    let view = state
        .service()
        .thread_page(ThreadRef::Current(id), window)
        .await?;
    Ok(tag.stamp(Json(view_json(&view)).into_response()))
}

/// Any thread, or a page of it.
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(page): Query<PageQuery>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id: ThreadId = parse_id(&id, "thread")?;
    let window = page.window(MAX_PAGE)?;
    let _turn = state.read_turn().await?;
    let (conversation, thread) = state.service().thread_header(id).await?;
    let tag = Tag::of("api-thread", &conversation, &thread, query.as_deref(), "");
    if tag.matches(&headers) {
        return Ok(tag.not_modified());
    }
    let view = state
        .service()
        .thread_page(ThreadRef::Thread(id), window)
        .await?;
    Ok(tag.stamp(Json(view_json(&view)).into_response()))
}

pub async fn history(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id: ConversationId = parse_id(&id, "conversation")?;
    let history = state.service().history(id).await?;
    Ok(Json(json!({ "threads": history })))
}

pub async fn undo(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id: ConversationId = parse_id(&id, "conversation")?;
    let conversation = state.service().undo(id).await?;
    switched(&state, conversation).await
}

pub async fn redo(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id: ConversationId = parse_id(&id, "conversation")?;
    let conversation = state.service().redo(id).await?;
    switched(&state, conversation).await
}

pub async fn switch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Body(body): Body<SwitchBody>,
) -> Result<Json<Value>, ApiError> {
    let id: ConversationId = parse_id(&id, "conversation")?;
    let thread: ThreadId = parse_id(&body.thread, "thread")?;
    let conversation = state.service().switch_thread(id, thread).await?;
    switched(&state, conversation).await
}

async fn switched(state: &AppState, conversation: Conversation) -> Result<Json<Value>, ApiError> {
    let snap = state.service().current_links(conversation.id).await?;
    Ok(Json(json!({
        "conversation": conversation,
        "thread": snap.thread,
        "message_ids": snap.links,
    })))
}
