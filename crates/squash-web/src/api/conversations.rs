//! Conversations (grouped by project): list, create, read, rename, delete.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use squash_core::ConversationId;

use super::{Body, IdPath, Query};
use crate::error::ApiError;
use crate::state::AppState;

#[derive(Deserialize)]
pub struct ListQuery {
    /// Only the conversations of the project with this path.
    project: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    name: String,
    /// The project's path; the server's working directory when absent.
    project: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenameBody {
    name: String,
}

pub async fn projects(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let projects = state.service().projects().await?;
    Ok(Json(json!({ "projects": projects })))
}

pub async fn list(
    State(state): State<AppState>,
    Query(q): Query<ListQuery>,
) -> Result<Json<Value>, ApiError> {
    let service = state.service();
    let conversations = service.conversation_summaries(q.project.as_deref()).await?;
    let paths = service.project_paths().await?;
    // Each with its current thread's `message_count` and `tokens`.
    let list: Vec<Value> = conversations
        .iter()
        .map(|s| {
            let path = paths.get(&s.conversation.project_id).map(String::as_str);
            with_project(s, path)
        })
        .collect();
    Ok(Json(json!({ "conversations": list })))
}

pub async fn create(
    State(state): State<AppState>,
    Body(body): Body<CreateBody>,
) -> Result<Response, ApiError> {
    let project = body
        .project
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| state.default_project().to_owned());
    let conversation = state
        .service()
        .create_conversation(&project, &body.name)
        .await?;
    let value = with_project(&conversation, Some(project.trim()));
    Ok((StatusCode::CREATED, Json(value)).into_response())
}

pub async fn get(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
) -> Result<Json<Value>, ApiError> {
    let service = state.service();
    let conversation = service.conversation(id).await?;
    let project = service.project(conversation.project_id).await?;
    Ok(Json(with_project(&conversation, Some(&project.path))))
}

pub async fn rename(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    Body(body): Body<RenameBody>,
) -> Result<Json<Value>, ApiError> {
    let conversation = state.service().rename_conversation(id, &body.name).await?;
    Ok(Json(json!(conversation)))
}

pub async fn delete(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
) -> Result<StatusCode, ApiError> {
    state.service().delete_conversation(id).await?;
    Ok(StatusCode::NO_CONTENT)
}

fn with_project(conversation: &impl serde::Serialize, path: Option<&str>) -> Value {
    let mut value = json!(conversation);
    value["project_path"] = json!(path);
    value
}
