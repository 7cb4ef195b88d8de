//! Pending AI squash results: read, apply (as computed or edited), retry, discard.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::Value;
use squash_core::ConversationId;
use uuid::Uuid;

use super::squash::{compute, preview_json, AiRequest};
use super::{outcome_json, parse_id};
use crate::error::ApiError;
use crate::previews::Preview;
use crate::sse;
use crate::state::AppState;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ApplyBody {
    /// The person's edited text, applied instead of the model's.
    text: Option<String>,
}

fn ids(id: &str, preview: &str) -> Result<(ConversationId, Uuid), ApiError> {
    Ok((parse_id(id, "conversation")?, parse_id(preview, "preview")?))
}

fn missing(preview: Uuid) -> ApiError {
    ApiError::not_found(format!(
        "preview {preview} not found (applied, discarded, or the server restarted); run the \
         AI squash again"
    ))
}

fn find(state: &AppState, id: ConversationId, preview: Uuid) -> Result<Preview, ApiError> {
    state
        .previews()
        .get(id, preview)
        .ok_or_else(|| missing(preview))
}

pub async fn get(
    State(state): State<AppState>,
    Path((id, preview)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let (id, preview) = ids(&id, &preview)?;
    Ok(Json(preview_json(&find(&state, id, preview)?)))
}

pub async fn apply(
    State(state): State<AppState>,
    Path((id, preview)): Path<(String, String)>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let (id, preview_id) = ids(&id, &preview)?;
    // The body is optional: none applies the text as computed.
    let body: ApplyBody = if body.iter().all(u8::is_ascii_whitespace) {
        ApplyBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::invalid(format!("the request body is not valid: {e}")))?
    };
    let edited = body.text;
    if edited.as_ref().is_some_and(|t| t.trim().is_empty()) {
        return Err(ApiError::invalid("the edited text is empty"));
    }
    let preview = state
        .previews()
        .take(id, preview_id)
        .ok_or_else(|| missing(preview_id))?;
    let mut result = preview.result.clone();
    let was_edited = edited.as_ref().is_some_and(|t| *t != result.text);
    if let Some(text) = edited {
        result.text = text;
    }
    match state.service().apply_ai_squash(&result).await {
        Ok(outcome) => {
            let mut value = outcome_json(&outcome);
            value["edited"] = Value::Bool(was_edited);
            Ok(Json(value))
        }
        Err(e) => {
            // The proposal stays available: the person may undo something and apply again.
            state.previews().restore(preview);
            Err(e.into())
        }
    }
}

pub async fn retry(
    State(state): State<AppState>,
    Path((id, preview)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (id, preview_id) = ids(&id, &preview)?;
    let old = find(&state, id, preview_id)?;
    let model = if old.result.requested_style.needs_model() {
        Some(state.model()?)
    } else {
        None
    };
    Ok(
        sse::run(&headers, "preview", move |events, cancel| async move {
            let request = AiRequest {
                conversation: id,
                selection: old.selection.clone(),
                instructions: old.result.custom_instructions.clone(),
                strict: old.strict,
                style: old.result.requested_style,
                role: Some(old.result.role),
            };
            let result = compute(&state, model, &request, &events, cancel).await?;
            state.previews().take(id, old.id);
            let preview = state
                .previews()
                .insert(result, request.selection, request.strict);
            Ok(preview_json(&preview))
        })
        .await,
    )
}

pub async fn discard(
    State(state): State<AppState>,
    Path((id, preview)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let (id, preview_id) = ids(&id, &preview)?;
    state
        .previews()
        .take(id, preview_id)
        .ok_or_else(|| missing(preview_id))?;
    Ok(StatusCode::NO_CONTENT)
}
