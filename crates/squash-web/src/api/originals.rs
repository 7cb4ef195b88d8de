//! What a fit or squash took out, read back: an operation's sources a page at a time, and the
//! sub-agent runs of a conversation with the calls that started them.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};
use squash_core::{ConversationId, SquashOperationId};

use super::paging::OffsetQuery;
use super::{IdPath, Query};
use crate::error::ApiError;
use crate::state::AppState;

/// Sources a page holds when the query names no `limit`.
pub const SOURCES_PAGE: u32 = 50;

pub async fn sources(
    State(state): State<AppState>,
    IdPath(id): IdPath<SquashOperationId>,
    Query(query): Query<OffsetQuery>,
) -> Result<Json<Value>, ApiError> {
    let (offset, limit) = query.get(SOURCES_PAGE);
    let _turn = state.read_turn().await?;
    let sources = state.service().operation_sources(id, offset, limit).await?;
    Ok(Json(json!(sources)))
}

pub async fn subagents(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
) -> Result<Json<Value>, ApiError> {
    let runs = state.service().subagent_runs(id).await?;
    Ok(Json(json!({ "runs": runs })))
}
