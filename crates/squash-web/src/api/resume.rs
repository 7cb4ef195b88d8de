//! Resuming a conversation in an agent (a handoff when it came from another one): the fitted
//! thread written as a new session where the agent looks for it, and the command that starts
//! the agent on it, for the person to run in a terminal.

use axum::extract::{Path, State};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use squash_app::fit::FitStrategy;
use squash_app::resume::{
    Agent, ModelSource, ResumeFit, ResumeFrom, ResumeHistory, ResumeRequest, ResumeService, Resumed,
};
use squash_core::fit::DEFAULT_KEEP_LAST;
use squash_core::ConversationId;

use super::{parse_id, Body};
use crate::error::ApiError;
use crate::state::{AppState, ModelChoice};

/// The agent to resume in, and how to fit the thread first.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResumeBody {
    agent: Agent,
    /// Default: half the agent's context window.
    budget: Option<u64>,
    keep_recent: Option<u64>,
    keep_last: Option<usize>,
    strategy: Option<FitStrategy>,
    #[serde(default)]
    best_effort: bool,
    /// What of a session that went through compactions is fitted: the thread the agent goes
    /// on from (default), or its whole history, the compactions undone.
    #[serde(default)]
    history: ResumeHistory,
}

pub async fn resume(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Body(body): Body<ResumeBody>,
) -> Result<Json<Value>, ApiError> {
    let id: ConversationId = parse_id(&id, "conversation")?;
    if body.budget == Some(0) {
        return Err(ApiError::invalid("`budget` must be at least 1 token"));
    }
    let model = match state.model_choice() {
        ModelChoice::Ready(model) => Ok(model.clone()),
        ModelChoice::Missing(reason) => Err(reason.clone()),
    };
    let resumer = ResumeService::new(state.service().clone(), state.agent_homes().clone())
        .with_model(ModelSource::Ready(model))
        .with_options(state.squash_options().clone());
    let request = ResumeRequest {
        from: ResumeFrom::Conversation(id),
        agent: Some(body.agent),
        fit: ResumeFit {
            budget: body.budget,
            keep_recent: body.keep_recent,
            keep_last: body.keep_last.unwrap_or(DEFAULT_KEEP_LAST),
            strategy: body.strategy.unwrap_or_default(),
            best_effort: body.best_effort,
            history: body.history,
        },
        agent_args: Vec::new(),
        // The person starts the agent, in a terminal of their own.
        start_agent: false,
        recall: state.recall_server().cloned(),
    };
    let resumed = resumer.resume(request).await?;
    Ok(Json(resumed_json(&resumed)))
}

/// What a resume did, as the API shows it: the use case's answer, plus the command as one
/// line to paste into a shell.
pub fn resumed_json(resumed: &Resumed) -> Value {
    let mut value = json!(resumed);
    value["command"] = json!(shell_line(resumed));
    value["fits"] = json!(resumed.fit.fits());
    let warnings: Vec<String> = resumed
        .written
        .iter()
        .flat_map(|w| {
            let handoff = w.report.handoff.iter().flat_map(|h| h.warnings());
            handoff.chain(w.report.warnings.iter().cloned())
        })
        .collect();
    value["warnings"] = json!(warnings);
    value
}

/// The command a person runs to start the agent on the written session.
pub fn shell_line(resumed: &Resumed) -> String {
    let import = resumed
        .written
        .as_ref()
        .and_then(|w| w.import_command.as_deref());
    squash_app::resume::shell_line(&resumed.launch, import)
}
