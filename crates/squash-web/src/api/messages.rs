//! Messages: append (the fast path, in place), read, edit and delete (each a new thread).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use squash_app::{EditRequest, PartnerPolicy};
use squash_core::{ContentItem, ConversationId, MessageId, Role};

use super::{outcome_json, parse_id, Body, IdPath, IdPaths, Query};
use crate::error::ApiError;
use crate::state::AppState;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppendBody {
    /// Defaults to `user`.
    role: Option<Role>,
    /// Plain text, as the role's natural content item.
    text: Option<String>,
    /// Content items, for anything but plain text (tool calls, results, thinking, ...).
    content: Option<Vec<ContentItem>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditBody {
    text: Option<String>,
    content: Option<Vec<ContentItem>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeleteBody {
    messages: Vec<String>,
    /// Refuse instead of also removing a tool call's partner.
    #[serde(default)]
    strict: bool,
}

#[derive(Deserialize)]
pub struct StrictQuery {
    #[serde(default)]
    strict: bool,
}

pub async fn append(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    Body(body): Body<AppendBody>,
) -> Result<Response, ApiError> {
    let role = body.role.unwrap_or(Role::User);
    let content = content_of(role, body.text, body.content)?;
    let (message, appended) = state.service().append(id, role, content).await?;
    let value = json!({
        "message": message,
        "thread_id": appended.thread_id,
        "position": appended.position,
        "revision": appended.revision,
    });
    Ok((StatusCode::CREATED, Json(value)).into_response())
}

pub async fn get(
    State(state): State<AppState>,
    IdPath(id): IdPath<MessageId>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(state.service().message(id).await?)))
}

pub async fn edit(
    State(state): State<AppState>,
    IdPaths(id, message): IdPaths<ConversationId, MessageId>,
    Body(body): Body<EditBody>,
) -> Result<Json<Value>, ApiError> {
    let service = state.service();
    let content = match (body.text, body.content) {
        (None, Some(content)) => content,
        (text, content) => {
            let original = service.message(message).await?;
            content_of(original.role, text, content)?
        }
    };
    let outcome = service.edit(id, EditRequest { message, content }).await?;
    Ok(Json(outcome_json(&outcome)))
}

pub async fn delete_one(
    State(state): State<AppState>,
    IdPaths(id, message): IdPaths<ConversationId, MessageId>,
    Query(q): Query<StrictQuery>,
) -> Result<Json<Value>, ApiError> {
    let outcome = state
        .service()
        .delete(id, &[message], PartnerPolicy::strict(q.strict))
        .await?;
    Ok(Json(outcome_json(&outcome)))
}

pub async fn delete_many(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    Body(body): Body<DeleteBody>,
) -> Result<Json<Value>, ApiError> {
    let messages = message_ids(&body.messages)?;
    let outcome = state
        .service()
        .delete(id, &messages, PartnerPolicy::strict(body.strict))
        .await?;
    Ok(Json(outcome_json(&outcome)))
}

pub fn message_ids(raw: &[String]) -> Result<Vec<MessageId>, ApiError> {
    if raw.is_empty() {
        return Err(ApiError::invalid("no message selected"));
    }
    raw.iter().map(|m| parse_id(m, "message")).collect()
}

/// Exactly one of `text` and `content`.
fn content_of(
    role: Role,
    text: Option<String>,
    content: Option<Vec<ContentItem>>,
) -> Result<Vec<ContentItem>, ApiError> {
    match (text, content) {
        (Some(text), None) => Ok(vec![ContentItem::text_for(role, text)]),
        (None, Some(content)) => Ok(content),
        (Some(_), Some(_)) => Err(ApiError::invalid(
            "give either `text` or `content`, not both",
        )),
        (None, None) => Err(ApiError::invalid("give `text` or `content`")),
    }
}
