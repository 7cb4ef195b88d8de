//! Squashes: manual (concatenation or the caller's text) and AI (a preview to review, or
//! applied at once).

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use squash_app::{ManualSquashRequest, PartnerPolicy, SquashEngine, SquashResult, SquashStage};
use squash_core::prompt::SquashStyle;
use squash_core::{ConversationId, MessageId, Role};
use squash_llm::{CancellationToken, ChatModel};

use super::messages::message_ids;
use super::{outcome_json, Body, IdPath};
use crate::error::ApiError;
use crate::previews::Preview;
use crate::sse::{self, Events};
use crate::state::AppState;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManualBody {
    messages: Vec<String>,
    /// The result's text; a readable concatenation of the sources when absent.
    text: Option<String>,
    /// The result's role; `user` when absent.
    role: Option<Role>,
    #[serde(default)]
    strict: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AiBody {
    messages: Vec<String>,
    /// Custom instructions for the model ("keep every file path", ...).
    instructions: Option<String>,
    /// Apply the result at once instead of returning a preview.
    #[serde(default)]
    apply: bool,
    #[serde(default)]
    strict: bool,
    /// `prose` (default), `structured`, or `extract` (the fact ledger, no model needed).
    style: Option<SquashStyle>,
    /// The result's role; from its sources when absent (the agent's run → assistant).
    role: Option<Role>,
}

pub async fn manual(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    Body(body): Body<ManualBody>,
) -> Result<Json<Value>, ApiError> {
    let messages = message_ids(&body.messages)?;
    let outcome = state
        .service()
        .squash_manual(
            id,
            ManualSquashRequest {
                messages,
                text: body.text,
                content: None,
                role: body.role,
                policy: PartnerPolicy::strict(body.strict),
            },
        )
        .await?;
    Ok(Json(outcome_json(&outcome)))
}

pub async fn ai(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    headers: HeaderMap,
    Body(body): Body<AiBody>,
) -> Result<Response, ApiError> {
    let selection = message_ids(&body.messages)?;
    let style = body.style.unwrap_or_default();
    let model = if style.needs_model() {
        Some(state.model()?)
    } else {
        None
    };
    // Refuse what cannot work with a proper status before any event stream starts.
    state.service().conversation(id).await?;
    let final_event = if body.apply { "applied" } else { "preview" };
    let response = sse::run(&headers, final_event, move |events, cancel| async move {
        let request = AiRequest {
            conversation: id,
            selection,
            instructions: body.instructions,
            strict: body.strict,
            style,
            role: body.role,
        };
        let result = compute(&state, model.clone(), &request, &events, cancel).await?;
        if body.apply {
            let outcome = state.service().apply_ai_squash(&result).await?;
            Ok(json!({ "result": result_json(&result), "outcome": outcome_json(&outcome) }))
        } else {
            let preview = state
                .previews()
                .insert(result, request.selection, request.strict);
            Ok(preview_json(&preview))
        }
    })
    .await;
    Ok(response)
}

/// What an AI squash was asked for; kept with a preview so that a retry asks the same.
pub struct AiRequest {
    pub conversation: ConversationId,
    pub selection: Vec<MessageId>,
    pub instructions: Option<String>,
    pub strict: bool,
    pub style: SquashStyle,
    pub role: Option<Role>,
}

/// Computes an AI squash, streaming the answer to `events`. Stores nothing.
pub async fn compute(
    state: &AppState,
    model: Option<Arc<dyn ChatModel>>,
    request: &AiRequest,
    events: &Events,
    cancel: CancellationToken,
) -> Result<SquashResult, ApiError> {
    let info = model.as_ref().map(|m| m.info());
    events.send(
        "start",
        &json!({
            "provider": info.as_ref().map(|i| i.provider.as_str()),
            "model": info.as_ref().map(|i| i.model.clone()),
            "messages": request.selection.len(),
            "instructions": request.instructions,
            "style": request.style,
        }),
    );
    let mut options = state.squash_options().clone();
    options.partner_policy = PartnerPolicy::strict(request.strict);
    options.style = request.style;
    options.role = request.role;
    let sink = events.clone();
    let stages = events.clone();
    let engine = match model {
        Some(model) => SquashEngine::new(state.service().clone(), model),
        None => SquashEngine::offline(state.service().clone()),
    }
    .with_options(options)
    .with_cancel(cancel)
    .with_progress(Arc::new(move |delta: &str| sink.delta(delta)))
    .with_stages(Arc::new(move |stage: SquashStage| {
        stages.send("stage", &json!(stage))
    }));
    Ok(engine
        .squash_messages(
            request.conversation,
            &request.selection,
            request.instructions.as_deref(),
        )
        .await?)
}

/// A computed result as the API shows it.
pub fn result_json(result: &SquashResult) -> Value {
    json!(result)
}

/// A preview as the API shows it: the computed result plus its id and the selection.
pub fn preview_json(preview: &Preview) -> Value {
    let mut value = result_json(&preview.result);
    value["preview_id"] = json!(preview.id);
    value["selection"] = json!(preview.selection);
    value
}
