//! Squash and edit records: list, read, and re-run an AI squash.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use serde_json::{json, Value};
use squash_app::SquashEngine;
use squash_core::{ConversationId, SquashOperationId};

use super::squash::result_json;
use super::{outcome_json, IdPath};
use crate::error::ApiError;
use crate::sse;
use crate::state::AppState;

pub async fn list(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
) -> Result<Json<Value>, ApiError> {
    let service = state.service();
    service.conversation(id).await?;
    Ok(Json(json!({ "operations": service.operations(id).await? })))
}

pub async fn get(
    State(state): State<AppState>,
    IdPath(id): IdPath<SquashOperationId>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(state.service().operation(id).await?)))
}

/// Sends a recorded AI squash's prompt again and applies the new answer as a further thread.
pub async fn rerun(
    State(state): State<AppState>,
    IdPath(id): IdPath<SquashOperationId>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let model = state.model()?;
    let operation = state.service().operation(id).await?;
    Ok(
        sse::run(&headers, "applied", move |events, cancel| async move {
            let info = model.info();
            events.send(
                "start",
                &json!({
                    "provider": info.provider,
                    "model": info.model,
                    "messages": operation.source_message_ids.len(),
                    "rerun_of": operation.id,
                }),
            );
            let sink = events.clone();
            let engine = SquashEngine::new(state.service().clone(), model)
                .with_options(state.squash_options().clone())
                .with_cancel(cancel)
                .with_progress(std::sync::Arc::new(move |d: &str| sink.delta(d)));
            let done = engine.rerun(id).await?;
            Ok(json!({
                "result": result_json(&done.result),
                "outcome": outcome_json(&done.outcome),
            }))
        })
        .await,
    )
}
