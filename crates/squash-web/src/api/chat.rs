//! A chat turn: the user's text appended, the model's reply streamed and appended after it.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use serde_json::json;
use squash_core::ConversationId;

use super::{Body, IdPath};
use crate::error::ApiError;
use crate::sse;
use crate::state::AppState;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatBody {
    text: String,
    /// A system prompt for this turn.
    system: Option<String>,
}

pub async fn turn(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    headers: HeaderMap,
    Body(body): Body<ChatBody>,
) -> Result<Response, ApiError> {
    if body.text.trim().is_empty() {
        return Err(ApiError::invalid("the message is empty"));
    }
    let model = state.model()?;
    state.service().conversation(id).await?;
    Ok(
        sse::run(&headers, "done", move |events, cancel| async move {
            let info = model.info();
            events.send(
                "start",
                &json!({ "provider": info.provider, "model": info.model }),
            );
            let mut options = state.chat_options().clone();
            if body.system.is_some() {
                options.system = body.system;
            }
            let on_delta = |d: &str| events.delta(d);
            let turn = state
                .service()
                .chat_turn(model.as_ref(), id, &body.text, &options, &cancel, &on_delta)
                .await?;
            Ok(json!(turn))
        })
        .await,
    )
}
