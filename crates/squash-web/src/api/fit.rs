//! Fitting the current thread into a token budget: a preview of the plan (pure, no model), and
//! applying it as one new thread (streamed step by step when the client asks for events, as AI
//! squashes are: an AI step takes seconds).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use squash_app::fit::{FitOutcome, FitProgress, FitService, FitStrategy, PlannedFit};
use squash_app::{ServiceError, SquashEngine};
use squash_core::fit::{FitPlan, FitRequest, DEFAULT_KEEP_LAST};
use squash_core::{ConversationId, ThreadId};
use squash_llm::CancellationToken;

use super::{parse_id, Body, IdPath};
use crate::error::ApiError;
use crate::sse::{self, Events};
use crate::state::AppState;

/// What to fit the thread into, and how (the preview's body).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanBody {
    budget: u64,
    keep_recent: Option<u64>,
    keep_last: Option<usize>,
    strategy: Option<FitStrategy>,
}

/// The preview's body plus how to apply.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApplyBody {
    budget: u64,
    keep_recent: Option<u64>,
    keep_last: Option<usize>,
    strategy: Option<FitStrategy>,
    /// Apply the best reachable when the budget cannot be met without touching the protected
    /// part, instead of refusing.
    #[serde(default)]
    best_effort: bool,
    /// The thread the preview was made on: when the conversation has moved on since, the fit
    /// is refused (409) instead of applying a plan the person has not seen.
    thread: Option<String>,
}

/// The request of a fit, checked.
pub fn fit_request(
    budget: u64,
    keep_recent: Option<u64>,
    keep_last: Option<usize>,
    strategy: Option<FitStrategy>,
) -> Result<FitRequest, ApiError> {
    if budget == 0 {
        return Err(ApiError::invalid("`budget` must be at least 1 token"));
    }
    Ok(FitRequest {
        budget,
        keep_recent,
        keep_last: keep_last.unwrap_or(DEFAULT_KEEP_LAST),
        strategy: strategy.unwrap_or_default(),
    })
}

/// Plans the fit of the conversation's current thread, without a model (a plan never asks one).
pub async fn plan(
    state: &AppState,
    id: ConversationId,
    request: FitRequest,
) -> Result<PlannedFit, ApiError> {
    Ok(
        FitService::new(SquashEngine::offline(state.service().clone()))
            .plan(id, request)
            .await?,
    )
}

/// A plan as the API shows it: the plan as the domain has it, plus what a client decides on.
pub fn plan_json(planned: &PlannedFit) -> Value {
    let plan = &planned.plan;
    let mut value = json!(plan);
    value["conversation_id"] = json!(planned.conversation_id);
    value["thread_id"] = json!(planned.computed_on().0);
    value["fits"] = json!(plan.fits());
    value["noop"] = json!(plan.is_noop());
    value["needs_model"] = json!(plan.needs_model());
    value
}

pub async fn preview(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    Body(body): Body<PlanBody>,
) -> Result<Json<Value>, ApiError> {
    let request = fit_request(body.budget, body.keep_recent, body.keep_last, body.strategy)?;
    Ok(Json(plan_json(&plan(&state, id, request).await?)))
}

pub async fn apply(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    headers: HeaderMap,
    Body(body): Body<ApplyBody>,
) -> Result<Response, ApiError> {
    let request = fit_request(body.budget, body.keep_recent, body.keep_last, body.strategy)?;
    let expected: Option<ThreadId> = body
        .thread
        .as_deref()
        .map(|t| parse_id(t, "thread"))
        .transpose()?;
    // Everything that can be refused is refused before an event stream starts, with its status.
    let planned = plan(&state, id, request).await?;
    check_thread(&planned, expected)?;
    if !planned.plan.fits() && !body.best_effort {
        return Err(out_of_reach(&planned.plan));
    }
    // A model only when the plan asks one: masks and extracts work without.
    let engine = if planned.plan.needs_model() {
        SquashEngine::new(state.service().clone(), state.model()?)
    } else {
        SquashEngine::offline(state.service().clone())
    }
    .with_options(state.squash_options().clone());
    let best_effort = body.best_effort;
    Ok(
        sse::run(&headers, "applied", move |events, cancel| async move {
            let outcome = run_fit(engine, planned, best_effort, &events, cancel).await?;
            Ok(outcome_json(&outcome))
        })
        .await,
    )
}

fn check_thread(planned: &PlannedFit, expected: Option<ThreadId>) -> Result<(), ApiError> {
    match expected {
        Some(thread) if thread != planned.computed_on().0 => Err(ServiceError::Conflict(format!(
            "the conversation moved on since the preview (thread {thread} is no longer current); \
             preview the fit again"
        ))
        .into()),
        _ => Ok(()),
    }
}

/// Carries out the plan, reporting each step as it starts.
async fn run_fit(
    engine: SquashEngine,
    planned: PlannedFit,
    best_effort: bool,
    events: &Events,
    cancel: CancellationToken,
) -> Result<FitOutcome, ApiError> {
    let plan = &planned.plan;
    let model = engine.model().map(|m| m.info());
    events.send(
        "start",
        &json!({
            "budget": plan.request.budget,
            "strategy": plan.request.strategy,
            "steps": plan.steps.len(),
            "tokens_before": plan.tokens_before,
            "provider": model.as_ref().map(|i| i.provider.as_str()),
            "model": model.as_ref().map(|i| i.model.clone()),
        }),
    );
    let progress = |p: FitProgress<'_>| {
        events.send(
            "step",
            &json!({ "index": p.index, "of": p.of, "step": p.step }),
        )
    };
    let fitter = FitService::new(engine.with_cancel(cancel));
    Ok(fitter.apply(planned, best_effort, &progress).await?)
}

/// What a fit did, as the API shows it.
pub fn outcome_json(outcome: &FitOutcome) -> Value {
    let mut value = json!(outcome);
    value["fits"] = json!(outcome.fits());
    value
}

/// The refusal of a plan that cannot reach its budget, in the API's words (the service's
/// message names the CLI's flags).
pub fn out_of_reach(plan: &FitPlan) -> ApiError {
    squash_app::fit::FitError::out_of_reach(plan).into()
}
