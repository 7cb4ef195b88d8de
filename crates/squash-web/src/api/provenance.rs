//! How a message came to be: its operation and its sources, recursively.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};
use squash_core::MessageId;

use super::IdPath;
use crate::error::ApiError;
use crate::state::AppState;

pub async fn get(
    State(state): State<AppState>,
    IdPath(id): IdPath<MessageId>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(state.service().provenance(id).await?)))
}
