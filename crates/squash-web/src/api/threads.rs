//! The current thread, any thread, the history tree, undo, redo and switching.

use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use squash_core::{Conversation, ConversationId, ThreadId};

use super::{parse_id, view_json, Body};
use crate::error::ApiError;
use crate::etag::Tag;
use crate::state::AppState;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchBody {
    thread: String,
}

pub async fn current(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id: ConversationId = parse_id(&id, "conversation")?;
    let (conversation, thread) = state.service().current_thread_header(id).await?;
    let tag = Tag::of("api-current", &conversation, &thread, query.as_deref(), "");
    if tag.matches(&headers) {
        return Ok(tag.not_modified());
    }
    let view = state.service().current_thread(id).await?;
    Ok(tag.stamp(Json(view_json(&view)).into_response()))
}

pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id: ThreadId = parse_id(&id, "thread")?;
    let (conversation, thread) = state.service().thread_header(id).await?;
    let tag = Tag::of("api-thread", &conversation, &thread, query.as_deref(), "");
    if tag.matches(&headers) {
        return Ok(tag.not_modified());
    }
    let view = state.service().thread_view(id).await?;
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
