//! `squash fit`: bring a conversation's current thread under a token budget, as one new thread.

use anyhow::anyhow;
use clap::{Args, ValueEnum};
use squash_app::fit::{
    FitOutcome, FitProgress, FitService, FitStep, FitStrategy, PlannedFit, StepAction,
    DEFAULT_KEEP_LAST,
};
use squash_app::{origin_words, ConversationService, SquashOptions};
use squash_core::fit::{FitPlan, FitRequest, LevelReport};
use squash_core::tokens::format_count;
use squash_core::ConversationId;

use super::ai::{engine, ModelArgs};
use crate::output::Output;
use crate::remedy::failure;

#[derive(Args, Debug)]
pub struct FitArgs {
    /// Conversation id, unique id prefix, or exact name.
    pub conversation: String,
    #[command(flatten)]
    pub fit: FitOptionArgs,
    /// Print the plan (per level: steps, tokens before → after, the facts that would leave
    /// the thread) without applying it.
    #[arg(long)]
    pub preview: bool,
}

/// The options `fit` and `resume` share.
#[derive(Args, Debug, Clone)]
pub struct FitOptionArgs {
    /// The most tokens the thread may have afterwards: 50000, 50k or 1.5m.
    #[arg(long, value_name = "TOKENS", value_parser = parse_tokens)]
    pub budget: Option<u64>,
    /// Tokens of the newest steps kept as they are (default: a fifth of the budget); 0 keeps
    /// none.
    #[arg(long, value_name = "TOKENS", value_parser = parse_tokens_or_zero)]
    pub keep_recent: Option<u64>,
    /// Also keep the last N user turns whole, with everything after them (default: none).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_KEEP_LAST)]
    pub keep_last: usize,
    /// extract (default, no model): oldest steps first, trimmed, then one-line extracts, then
    /// runs' extracts, then digests of each request's work; mask: only trim old tool outputs
    /// (no model); hybrid: as extract, with the oldest runs squashed by the model and each
    /// digest headed by the model's gist of its work (checked; left out when not faithful);
    /// ai: runs squashed by the model, oldest first.
    #[arg(long, value_enum, default_value_t = StrategyArg::Extract)]
    pub strategy: StrategyArg,
    /// When the budget cannot be met even with the newest steps and the oldest requests given
    /// way (what comes before the first request and your newest request always stay), apply
    /// the best reachable instead of refusing.
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

/// A token count with an optional k or m suffix, or 0.
fn parse_tokens_or_zero(s: &str) -> Result<u64, String> {
    if s.trim() == "0" {
        return Ok(0);
    }
    parse_tokens(s)
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
        .map_err(failure)
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
    // A plan out of reach without --best-effort is refused before any step: no model then.
    let needed = planned.plan.needs_model() && (planned.plan.fits() || args.best_effort);
    let model = args.model.model_if(needed).await?;
    let mut options = SquashOptions::from_env().map_err(failure)?;
    options.context_window = args.model.context_window.or(options.context_window);
    // The engine streams nothing here: a fit reports its steps, not the model's text.
    let fitter = FitService::new(engine(service, model, options, true));
    // Trims, lines and extracts take microseconds; a step that asks the model takes seconds
    // and says so.
    let report = |p: FitProgress<'_>| {
        if !json && p.step.asks_model() {
            eprintln!("step {} of {}: {}", p.index, p.of, step_label(p.step));
        }
    };
    fitter
        .apply(planned, args.best_effort, &report)
        .await
        .map_err(failure)
}

pub fn request(budget: u64, args: &FitOptionArgs) -> FitRequest {
    FitRequest {
        budget,
        keep_recent: args.keep_recent,
        keep_last: args.keep_last,
        strategy: args.strategy.into(),
    }
}

fn action_label(action: StepAction) -> &'static str {
    match action {
        StepAction::Trim => "trimmed to the lines that carry facts",
        StepAction::Line => "one-line extracts",
        StepAction::Extract => "runs' extracts",
        StepAction::Ai => "runs squashed by the model",
        StepAction::Digest => "digests of a request's work",
    }
}

pub fn step_label(step: &FitStep) -> String {
    let what = match step.action {
        StepAction::Trim => "trim",
        StepAction::Line => "one-line extract of",
        StepAction::Extract => "extract the facts of",
        StepAction::Ai => "AI-squash",
        StepAction::Digest if step.gist_room.is_some() => {
            "digest, with the model's gist, the work of"
        }
        StepAction::Digest => "digest the work of",
    };
    format!("{what} {}", step.positions())
}

/// What the plan keeps as it is, in words.
pub fn kept_text(plan: &FitPlan) -> String {
    let p = &plan.protection;
    let recent = if p.keep_recent == 0 {
        "none of the newest steps".to_owned()
    } else {
        format!(
            "the newest {} step{} ({} of the {} tokens allowed by --keep-recent)",
            p.recent_steps,
            if p.recent_steps == 1 { "" } else { "s" },
            format_count(p.recent_tokens),
            format_count(p.keep_recent),
        )
    };
    let mut s = format!(
        "kept as they are: {} tokens — what comes before the first request, {} request{} you typed, and {recent}",
        format_count(p.tokens),
        p.requests,
        if p.requests == 1 { "" } else { "s" },
    );
    if p.keep_last > 0 {
        s.push_str(&format!(", and the last {} turn(s)", p.keep_last));
    }
    if p.requests_folded > 0 {
        s.push_str(&format!(
            "; the oldest {} request{} went into the digests of their work, as the budget could not be reached otherwise",
            p.requests_folded,
            if p.requests_folded == 1 { "" } else { "s" }
        ));
    }
    s
}

/// Per level: steps, tokens before → after, facts leaving (the first few named).
fn levels_text(levels: &[LevelReport], estimated: bool) -> String {
    let mut s = String::new();
    for level in levels {
        let tilde = if estimated && level.action == StepAction::Ai {
            "~"
        } else {
            ""
        };
        s.push_str(&format!(
            "  {:<38} {:>5} step{} ({} messages): {:>9} → {tilde}{} tokens; {}\n",
            action_label(level.action),
            level.steps,
            if level.steps == 1 { " " } else { "s" },
            format_count(level.messages as u64),
            format_count(level.tokens_before),
            format_count(level.tokens_after),
            match (level.action, level.facts_lost) {
                (StepAction::Ai, _) => "facts checked when applied".to_owned(),
                (_, 0) => "no fact leaves the thread".to_owned(),
                (_, 1) => "1 fact leaves the thread".to_owned(),
                (_, n) => format!("{n} facts leave the thread"),
            }
        ));
        for lost in level.lost.iter().take(LISTED_LOST) {
            s.push_str(&format!("      - @{}: {}\n", lost.position + 1, lost.text));
        }
        if level.facts_lost > LISTED_LOST {
            s.push_str(&format!(
                "      … and {} more (--json lists them)\n",
                level.facts_lost - LISTED_LOST
            ));
        }
    }
    s
}

/// Facts named per level in the text output.
const LISTED_LOST: usize = 5;

pub fn plan_text(plan: &FitPlan) -> String {
    let r = &plan.request;
    let mut s = format!(
        "fit to {} tokens ({} strategy)\n  now: {} tokens in {} messages: {} request{}, {} steps of the agent\n  {}\n",
        format_count(r.budget),
        r.strategy,
        format_count(plan.tokens_before),
        format_count(plan.messages as u64),
        plan.turns,
        if plan.turns == 1 { "" } else { "s" },
        format_count(plan.steps_total as u64),
        kept_text(plan),
    );
    if plan.is_noop() {
        s.push_str("  the thread is within the budget already: nothing to do\n");
        return s;
    }
    let estimated = plan.steps.iter().any(|st| st.estimated);
    s.push_str(&levels_text(&plan.levels, estimated));
    s.push_str(&format!(
        "  after: {}{} tokens ({} of the budget)",
        if estimated { "~" } else { "" },
        format_count(plan.tokens_after),
        percent(plan.tokens_after, r.budget)
    ));
    if plan.fits() {
        s.push_str(", fits\n");
    } else {
        s.push_str(&format!(
            " — does not fit: the smallest this strategy reaches is {} tokens without touching what is kept\n",
            format_count(plan.best_reachable)
        ));
    }
    s
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "–".into();
    }
    format!("{:.0}%", part as f64 * 100.0 / whole as f64)
}

pub fn outcome_text(outcome: &FitOutcome, conversation: &str) -> String {
    let Some(thread) = &outcome.thread else {
        return format!(
            "{} tokens: within the budget of {} already; nothing changed",
            format_count(outcome.tokens_before),
            format_count(outcome.budget)
        );
    };
    let steps: Vec<FitStep> = outcome.steps.iter().map(|d| d.step.clone()).collect();
    let mut s = levels_text(&squash_core::fit::level_reports(&steps), false);
    s.push_str(&format!(
        "fitted: {} → {} tokens (budget {}{}) in {} step{}, as thread {}\n\
         of thread {} ({}, {} messages)\nundo with: squash undo {conversation}",
        format_count(outcome.tokens_before),
        format_count(outcome.tokens_after),
        format_count(outcome.budget),
        if outcome.fits() {
            ""
        } else {
            ", not reached: best effort"
        },
        outcome.steps.len(),
        if outcome.steps.len() == 1 { "" } else { "s" },
        thread.id,
        outcome.fitted.id,
        origin_words(&outcome.fitted.origin, None),
        outcome.fitted.message_count,
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
