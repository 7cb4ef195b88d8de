//! "Fit to budget…" on the conversation page: the button, the dialog (budget, what to keep,
//! strategy), the plan fragment the dialog loads (per level: steps, tokens, the facts that
//! would leave; then every step), and the card that offers undo after a fit. Applying goes
//! through the JSON API (`POST …/fit`, streamed step by step).

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use maud::{html, Markup};
use serde::Deserialize;
use squash_app::fit::{FitStep, FitStrategy, PlannedFit, StepAction};
use squash_app::ThreadView;
use squash_core::fit::{LevelReport, DEFAULT_KEEP_LAST};
use squash_core::tokens::format_count;
use squash_core::ConversationId;

use super::dialog;
use crate::api::fit::{fit_request, plan};
use crate::api::{parse_id, Query};
use crate::error::ApiError;
use crate::state::{AppState, ModelChoice};

/// The toolbar button, next to the Squash menu.
pub fn button() -> Markup {
    html! {
        button #fit-btn type="button" aria-haspopup="dialog" aria-controls="fit-dialog"
            title="Plan squashes that bring this thread under a token budget, preview them, apply them as one undoable step" {
            "Fit to budget…"
        }
    }
}

/// Where the page says what a fit did, with its undo.
pub fn done_card() -> Markup {
    html! {
        section #fit-done.card.fit-done hidden aria-live="polite" {
            span #fit-done-text {}
            button #fit-undo type="button" { "↶ Undo fit" }
            button #fit-done-close.flash-close type="button" aria-label="Dismiss" { "✕" }
        }
    }
}

/// The default budget: half the model's context window when the thread is larger than that
/// (what `squash resume` aims for), otherwise half the thread; a round number either way.
fn default_budget(thread_tokens: u64, window: Option<u64>) -> u64 {
    let half_window = window.map(|w| w / 2);
    let budget = match half_window {
        Some(half) if thread_tokens > half => half,
        _ => thread_tokens / 2,
    };
    if budget >= 1_000 {
        budget / 100 * 100
    } else {
        budget.max(1)
    }
}

/// The dialog: what to fit into, how, and the plan once previewed.
pub fn dialog(model: &ModelChoice, view: &ThreadView) -> Markup {
    // The whole thread's, not the page's: the store sums the same per-message estimate.
    let tokens = view.tokens;
    let (window, missing) = match model {
        ModelChoice::Ready(m) => (Some(u64::from(m.info().context_window_tokens)), None),
        ModelChoice::Missing(reason) => (None, Some(reason.as_str())),
    };
    // The levels need no model; the model's squashes are there to choose.
    let default = FitStrategy::Extract;
    dialog::with_form(
        "fit",
        "Fit to budget",
        html! {
            "Plan what brings this thread under a token budget: the oldest steps first, one level at a time — tool outputs trimmed to the lines that carry facts, then each step's one-line extract, then runs' extracts — until it fits. "
            "What you typed and the newest steps stay as they are. Applied, the whole plan is one new thread: one undo restores it."
        },
        html! {
            p.small #fit-sizes {
                "This thread: ~" (format_count(tokens)) " tokens"
                @if let Some(w) = window { "; the model's context window: " (format_count(w)) " tokens" }
                "."
            }
            div.fit-fields {
                label for="fit-budget" { "Budget (tokens)" }
                input #fit-budget name="budget" type="number" min="1" step="1" inputmode="numeric" required value=(default_budget(tokens, window));
                label for="fit-keep-recent" { "Keep the newest steps (tokens)" }
                input #fit-keep-recent name="keep_recent" type="number" min="0" step="1" inputmode="numeric" placeholder="a fifth of the budget";
                label for="fit-keep" { "Also keep the last turns" }
                input #fit-keep name="keep_last" type="number" min="0" step="1" inputmode="numeric" required value=(DEFAULT_KEEP_LAST);
                label for="fit-strategy" { "Strategy" }
                select #fit-strategy name="strategy" {
                    @for s in FitStrategy::ALL {
                        (strategy_option(s, s == default, missing))
                    }
                }
            }
            @if let Some(reason) = missing {
                p #fit-model-note.muted.small { "AI and hybrid need a model: " (reason) }
            }
            div.dialog-actions {
                button #fit-preview.primary type="submit" { "Preview" }
                button #fit-close type="button" { "Cancel" }
            }
        },
        html! {
            div #fit-plan aria-live="polite" {}
            div #fit-message.fit-error role="alert" hidden {}
            div #fit-progress.fit-progress hidden aria-live="polite" {
                span.spinner aria-hidden="true" {}
                span #fit-progress-text { "Applying…" }
                button #fit-cancel type="button" { "Cancel" }
            }
            div.dialog-actions {
                button #fit-apply.primary type="button" disabled title="Preview a plan first" { "Apply" }
            }
        },
    )
}

fn strategy_option(s: FitStrategy, selected: bool, missing_model: Option<&str>) -> Markup {
    let label = match s {
        FitStrategy::Mask => "mask: only trim old tool outputs (no model)",
        FitStrategy::Extract => "extract: trim, then one-line and run extracts (no model)",
        FitStrategy::Ai => "ai: the model squashes runs of old steps",
        FitStrategy::Hybrid => {
            "hybrid: as extract, the oldest runs squashed and each digest headed by the model"
        }
    };
    let disabled = s.needs_model() && missing_model.is_some();
    html! {
        option value=(s.as_str()) selected[selected] disabled[disabled] title=[missing_model.filter(|_| disabled)] {
            (label) @if disabled { " — needs a model" }
        }
    }
}

/// The preview's query: the fields of `POST …/fit/preview`.
#[derive(Deserialize)]
pub struct FitQuery {
    budget: u64,
    keep_recent: Option<u64>,
    keep_last: Option<usize>,
    strategy: Option<FitStrategy>,
}

/// A failure shown inside the dialog: a fragment, not a page.
pub struct FragmentError(ApiError);

impl<E: Into<ApiError>> From<E> for FragmentError {
    fn from(e: E) -> FragmentError {
        FragmentError(e.into())
    }
}

impl IntoResponse for FragmentError {
    fn into_response(self) -> Response {
        let e = self.0;
        let body = html! {
            div.fit-error role="alert" data-can-apply="no" {
                p { (e.message) }
                @if let Some(hint) = &e.hint { p.small { (hint) } }
            }
        };
        (e.status(), body).into_response()
    }
}

/// The plan for the dialog.
pub async fn fragment(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<FitQuery>, ApiError>,
) -> Result<Markup, FragmentError> {
    let id: ConversationId = parse_id(&id, "conversation")?;
    let Query(q) = query?;
    let request = fit_request(q.budget, q.keep_recent, q.keep_last, q.strategy)?;
    let planned = plan(&state, id, request).await?;
    let missing = match state.model_choice() {
        ModelChoice::Ready(_) => None,
        ModelChoice::Missing(reason) => Some(reason.as_str()),
    };
    Ok(plan_markup(&planned, missing))
}

/// Whether the plan can be applied as it is (`yes`), only as a best effort, or not at all.
fn can_apply(planned: &PlannedFit, model_missing: bool) -> &'static str {
    let plan = &planned.plan;
    if plan.is_noop() || (plan.needs_model() && model_missing) {
        "no"
    } else if plan.fits() {
        "yes"
    } else {
        "best-effort"
    }
}

fn plan_markup(planned: &PlannedFit, missing: Option<&str>) -> Markup {
    let plan = &planned.plan;
    let r = &plan.request;
    let p = &plan.protection;
    let estimated = plan.steps.iter().any(|s| s.estimated);
    html! {
        div.fit-plan data-thread=(planned.computed_on().0) data-budget=(r.budget)
            data-keep-recent=[r.keep_recent] data-keep-last=(r.keep_last) data-strategy=(r.strategy.as_str())
            data-can-apply=(can_apply(planned, missing.is_some())) {
            p.small {
                "Now " (format_count(plan.tokens_before)) " tokens in " (plan.messages) " messages: "
                (plan.turns) " request" @if plan.turns != 1 { "s" } ", " (plan.steps_total) " steps of the agent."
            }
            p.small #fit-kept {
                "Kept as they are: " (format_count(p.tokens)) " tokens — what comes before the first request, the "
                (p.requests) " request" @if p.requests != 1 { "s" } " you typed, and "
                @if p.keep_recent == 0 {
                    "none of the newest steps"
                } @else {
                    "the newest " (p.recent_steps) " step" @if p.recent_steps != 1 { "s" }
                    " (" (format_count(p.recent_tokens)) " of the " (format_count(p.keep_recent))
                    " tokens allowed)"
                }
                @if p.keep_last > 0 { ", and the last " (p.keep_last) " turn" @if p.keep_last != 1 { "s" } }
                "."
                @if p.requests_folded > 0 {
                    " The oldest " (p.requests_folded) " request" @if p.requests_folded != 1 { "s" }
                    " went into the digests of their work: the budget could not be reached otherwise."
                }
            }
            @if plan.is_noop() {
                p.fit-ok { "The thread is within the budget already: nothing to do." }
            } @else {
                (levels_table(&plan.levels, estimated))
                p.fit-after {
                    "After: " @if estimated { "~" } (format_count(plan.tokens_after)) " tokens (budget "
                    (format_count(r.budget)) ")"
                    @if plan.fits() { " — " span.fit-fits { "fits" } }
                }
                @if !plan.fits() {
                    div.fit-out-of-reach role="alert" {
                        p {
                            "Does not fit: the smallest reachable is " (format_count(plan.best_reachable))
                            " tokens without touching what is kept. Raise the budget, keep fewer of the newest steps, or apply the smallest reachable."
                        }
                        label.small {
                            input #fit-best-effort type="checkbox";
                            " Apply the smallest reachable anyway (best effort)"
                        }
                    }
                }
                @if let (true, Some(reason)) = (plan.needs_model(), missing) {
                    p.warning role="alert" { "This plan has AI steps and no model is configured: " (reason) }
                }
                details.fit-all-steps {
                    summary.small { "Every step (" (plan.steps.len()) ")" }
                    (steps_table(&plan.steps))
                }
            }
        }
    }
}

/// Per level: how many steps, tokens before → after, and the facts that would leave.
fn levels_table(levels: &[LevelReport], estimated: bool) -> Markup {
    let caption = html! { "What the plan does, level by level (oldest steps first)" };
    let columns = [
        "Level",
        "Steps",
        "Tokens before → after",
        "Facts that leave the thread",
    ];
    let rows = html! {
        @for level in levels {
            tr.fit-level data-action=(level.action.as_str()) {
                td { (action_label(level.action)) }
                td.num { (level.steps) " (" (level.messages) " messages)" }
                td.num {
                    (format_count(level.tokens_before)) " → "
                    @if estimated && level.action == StepAction::Ai { "~" }
                    (format_count(level.tokens_after))
                }
                td.fit-lost {
                    @if level.action == StepAction::Ai {
                        "checked against the facts when applied"
                    } @else if level.facts_lost == 0 {
                        "none"
                    } @else {
                        details {
                            summary { (level.facts_lost) " fact" @if level.facts_lost != 1 { "s" } " (reachable through provenance and undo)" }
                            ul {
                                @for lost in &level.lost {
                                    li { "@" (lost.position + 1) ": " (lost.text) }
                                }
                                @if level.facts_lost > level.lost.len() {
                                    li { "… and " (level.facts_lost - level.lost.len()) " more" }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    plan_table("fit-levels", caption, &columns, rows)
}

/// Steps shown in the table at most: a plan of a long session has thousands.
const SHOWN_STEPS: usize = 300;

fn steps_table(steps: &[FitStep]) -> Markup {
    let caption = html! { (steps.len()) " step" @if steps.len() != 1 { "s" } ", in thread order" };
    let columns = ["Step", "What", "Messages", "Tokens before → after", "Facts"];
    let rows = html! {
        @for (i, step) in steps.iter().enumerate().take(SHOWN_STEPS) {
            tr.fit-step data-action=(step.action.as_str()) {
                td { (i + 1) }
                td { (action_label(step.action)) }
                td { (step.positions()) }
                td.num {
                    (format_count(step.tokens_before)) " → "
                    @if step.estimated { "~" } (format_count(step.tokens_after))
                }
                td {
                    @match step.facts_kept {
                        Some(kept) => { (kept) " of " (step.facts) " kept" }
                        None => { (step.facts) " to keep, checked when applied" }
                    }
                }
            }
        }
        @if steps.len() > SHOWN_STEPS {
            tr { td colspan="5" { "… and " (steps.len() - SHOWN_STEPS) " more (the API's preview lists them all)" } }
        }
    };
    plan_table("fit-steps", caption, &columns, rows)
}

/// A table of the plan: its caption, a header row of `columns`, then `rows`.
fn plan_table(id: &str, caption: Markup, columns: &[&str], rows: Markup) -> Markup {
    html! {
        div.fit-table-wrap {
            table.fit-steps id=(id) {
                caption.small { (caption) }
                thead {
                    tr {
                        @for column in columns {
                            th scope="col" { (column) }
                        }
                    }
                }
                tbody { (rows) }
            }
        }
    }
}

fn action_label(action: StepAction) -> &'static str {
    match action {
        StepAction::Trim => "Trimmed to the lines that carry facts",
        StepAction::Line => "One-line extract",
        StepAction::Extract => "Run's extract",
        StepAction::Ai => "Squashed by the model",
        StepAction::Digest => "Digest of a request's work",
    }
}

#[cfg(test)]
mod tests {
    use super::default_budget;

    #[test]
    fn the_default_budget_is_half_the_window_or_half_the_thread() {
        // Larger than half the window: half the window.
        assert_eq!(default_budget(150_000, Some(200_000)), 100_000);
        // Smaller: half the thread, rounded down to hundreds.
        assert_eq!(default_budget(12_345, Some(200_000)), 6_100);
        assert_eq!(default_budget(12_345, None), 6_100);
        // Small threads keep their exact half; never zero.
        assert_eq!(default_budget(901, None), 450);
        assert_eq!(default_budget(0, None), 1);
    }
}
