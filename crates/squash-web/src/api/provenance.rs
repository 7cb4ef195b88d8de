//! How a message came to be: its operation and its sources, recursively.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::{json, Value};
use squash_core::MessageId;

use super::parse_id;
use crate::error::ApiError;
use crate::state::AppState;

pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id: MessageId = parse_id(&id, "message")?;
    Ok(Json(json!(state.service().provenance(id).await?)))
}
