//! `squash fit`: bring a conversation's current thread under a token budget, as one new thread.

use anyhow::anyhow;
use clap::{Args, ValueEnum};
use squash_app::fit::{
    FitError, FitOutcome, FitProgress, FitService, FitStep, FitStrategy, PlannedFit, StepAction,
    DEFAULT_KEEP_LAST,
};
use squash_app::providers;
use squash_app::{ConversationService, SquashOptions};
use squash_core::fit::{FitPlan, FitRequest};
use squash_core::tokens::format_count;
use squash_core::ConversationId;

use super::ai::{engine, provider_error, squash_error, ModelArgs};
use crate::output::Output;

#[derive(Args, Debug)]
pub struct FitArgs {
    /// Conversation id, unique id prefix, or exact name.
    pub conversation: String,
    #[command(flatten)]
    pub fit: FitOptionArgs,
    /// Print the plan (each step: what, tokens before → after, facts kept) without applying it.
    #[arg(long)]
    pub preview: bool,
}

/// The options `fit` and `resume` share.
#[derive(Args, Debug, Clone)]
pub struct FitOptionArgs {
    /// The most tokens the thread may have afterwards: 50000, 50k or 1.5m.
    #[arg(long, value_name = "TOKENS", value_parser = parse_tokens)]
    pub budget: Option<u64>,
    /// How many of the last user turns stay untouched, with everything after them.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_KEEP_LAST)]
    pub keep_last: usize,
    /// mask: old tool outputs become placeholders (no model); extract: old turns become their
    /// fact ledger (no model); ai: old turns are squashed by the model; hybrid: mask first,
    /// then AI-squash old turns, oldest first, until the budget holds.
    #[arg(long, value_enum, default_value_t = StrategyArg::Hybrid)]
    pub strategy: StrategyArg,
    /// When the budget cannot be met without touching the protected part (the first request,
    /// what you typed, the last turns), apply the best reachable instead of refusing.
    #[arg(long)]
    pub best_effort: bool,
    #[command(flatten)]
    pub model: ModelArgs,
}

/// `--strategy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    Mask,
    Extract,
    Ai,
    Hybrid,
}

impl From<StrategyArg> for FitStrategy {
    fn from(s: StrategyArg) -> FitStrategy {
        match s {
            StrategyArg::Mask => FitStrategy::Mask,
            StrategyArg::Extract => FitStrategy::Extract,
            StrategyArg::Ai => FitStrategy::Ai,
            StrategyArg::Hybrid => FitStrategy::Hybrid,
        }
    }
}

/// A token count with an optional k or m suffix.
pub fn parse_tokens(s: &str) -> Result<u64, String> {
    let t = s.trim().to_ascii_lowercase();
    let (number, scale) = match t.strip_suffix('k') {
        Some(n) => (n, 1_000.0),
        None => match t.strip_suffix('m') {
            Some(n) => (n, 1_000_000.0),
            None => (t.as_str(), 1.0),
        },
    };
    let value: f64 = number
        .replace(['_', ','], "")
        .parse()
        .map_err(|_| format!("{s:?} is not a token count (e.g. 50000, 50k, 1.5m)"))?;
    if !(value.is_finite() && value >= 1.0) {
        return Err(format!("{s:?} is not a positive token count"));
    }
    Ok((value * scale).round() as u64)
}

pub async fn run(service: &ConversationService, out: &Output, args: FitArgs) -> anyhow::Result<()> {
    let conv = service.resolve_conversation(&args.conversation).await?;
    let budget = args
        .fit
        .budget
        .ok_or_else(|| anyhow!("--budget TOKENS is required (e.g. --budget 50k)"))?;
    if args.preview {
        let planned = plan(service, conv, budget, &args.fit).await?;
        return out.emit(&planned.plan, || {
            format!(
                "{}\nnot applied (preview); run again without --preview to apply it",
                plan_text(&planned.plan)
            )
        });
    }
    let outcome = fit(service, conv, budget, &args.fit, out.is_json()).await?;
    out.emit(&outcome, || outcome_text(&outcome, &args.conversation))
}

/// Plans the fit of `conv` without a model (a plan never asks one).
pub async fn plan(
    service: &ConversationService,
    conv: ConversationId,
    budget: u64,
    args: &FitOptionArgs,
) -> anyhow::Result<PlannedFit> {
    let offline = squash_app::SquashEngine::offline(service.clone());
    FitService::new(offline)
        .plan(conv, request(budget, args))
        .await
        .map_err(fit_error)
}

/// Plans and applies the fit of `conv`, asking the configured model only when the plan has
/// AI steps.
pub async fn fit(
    service: &ConversationService,
    conv: ConversationId,
    budget: u64,
    args: &FitOptionArgs,
    json: bool,
) -> anyhow::Result<FitOutcome> {
    let planned = plan(service, conv, budget, args).await?;
    let asks_model = planned
        .plan
        .steps
        .iter()
        .chain(&planned.plan.reserve)
        .any(|s| s.action == StepAction::Ai);
    let model = if asks_model && (planned.plan.fits() || args.best_effort) {
        Some(
            providers::model_from_env(args.model.provider, args.model.model.as_deref())
                .await
                .map_err(provider_error)?,
        )
    } else {
        None
    };
    let mut options = SquashOptions::from_env().map_err(squash_error)?;
    options.context_window = args.model.context_window.or(options.context_window);
    // The engine streams nothing here: a fit reports its steps, not the model's text.
    let fitter = FitService::new(engine(service, model, options, true));
    let report = |p: FitProgress<'_>| {
        if !json {
            eprintln!("step {} of {}: {}", p.index, p.of, step_label(p.step));
        }
    };
    fitter
        .apply(planned, args.best_effort, &report)
        .await
        .map_err(fit_error)
}

fn request(budget: u64, args: &FitOptionArgs) -> FitRequest {
    FitRequest {
        budget,
        keep_last: args.keep_last,
        strategy: args.strategy.into(),
    }
}

pub fn fit_error(e: FitError) -> anyhow::Error {
    match e {
        FitError::Squash(e) => squash_error(e),
        other => anyhow!(other),
    }
}

fn positions(step: &FitStep) -> String {
    if step.first_position == step.last_position {
        format!("@{}", step.first_position + 1)
    } else {
        format!(
            "@{}–@{} ({} messages)",
            step.first_position + 1,
            step.last_position + 1,
            step.sources.len()
        )
    }
}

fn step_label(step: &FitStep) -> String {
    let what = match step.action {
        StepAction::Mask => "mask the tool output of",
        StepAction::Extract => "extract the facts of",
        StepAction::Ai => "AI-squash",
    };
    format!("{what} {}", positions(step))
}

fn step_line(i: usize, step: &FitStep) -> String {
    let tilde = if step.estimated { "~" } else { "" };
    let facts = match step.facts_kept {
        Some(kept) => format!("facts {kept}/{}", step.facts),
        None => format!("{} facts to keep, checked when applied", step.facts),
    };
    format!(
        "  {:>3}. {:<7} {:<28} {:>9} → {tilde}{} tokens   {facts}",
        i + 1,
        step.action.as_str(),
        positions(step),
        format_count(step.tokens_before),
        format_count(step.tokens_after),
    )
}

pub fn plan_text(plan: &FitPlan) -> String {
    let r = &plan.request;
    let mut s = format!(
        "fit to {} tokens ({} strategy, the last {} turn{} kept)\n  now: {} tokens in {} messages, {} turns; protected: {} tokens\n",
        format_count(r.budget),
        r.strategy,
        r.keep_last,
        if r.keep_last == 1 { "" } else { "s" },
        format_count(plan.tokens_before),
        format_count(plan.messages as u64),
        plan.turns,
        format_count(plan.protected_tokens),
    );
    if plan.is_noop() {
        s.push_str("  the thread is within the budget already: nothing to do\n");
        return s;
    }
    for (i, step) in plan.steps.iter().enumerate() {
        s.push_str(&step_line(i, step));
        s.push('\n');
    }
    let estimated = plan.steps.iter().any(|st| st.estimated);
    s.push_str(&format!(
        "  after: {}{} tokens",
        if estimated { "~" } else { "" },
        format_count(plan.tokens_after)
    ));
    if plan.fits() {
        s.push_str(" (fits)\n");
    } else {
        s.push_str(&format!(
            " — does not fit: the best this strategy reaches is {} tokens without touching the protected part\n",
            format_count(plan.best_reachable)
        ));
    }
    s
}

pub fn outcome_text(outcome: &FitOutcome, conversation: &str) -> String {
    let Some(thread) = &outcome.thread else {
        return format!(
            "{} tokens: within the budget of {} already; nothing changed",
            format_count(outcome.tokens_before),
            format_count(outcome.budget)
        );
    };
    let mut s = String::new();
    for (i, done) in outcome.steps.iter().enumerate() {
        s.push_str(&step_line(i, &done.step));
        s.push('\n');
    }
    s.push_str(&format!(
        "fitted: {} → {} tokens (budget {}{}) in {} step{}, as thread {}\nundo with: squash undo {conversation}",
        format_count(outcome.tokens_before),
        format_count(outcome.tokens_after),
        format_count(outcome.budget),
        if outcome.fits() { "" } else { ", not reached: best effort" },
        outcome.steps.len(),
        if outcome.steps.len() == 1 { "" } else { "s" },
        thread.id
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::parse_tokens;

    #[test]
    fn budgets_take_suffixes_and_refuse_nonsense() {
        assert_eq!(parse_tokens("50000"), Ok(50_000));
        assert_eq!(parse_tokens("50k"), Ok(50_000));
        assert_eq!(parse_tokens("1.5M"), Ok(1_500_000));
        assert_eq!(parse_tokens("12,000"), Ok(12_000));
        assert!(parse_tokens("0").is_err());
        assert!(parse_tokens("-5k").is_err());
        assert!(parse_tokens("lots").is_err());
    }
}
