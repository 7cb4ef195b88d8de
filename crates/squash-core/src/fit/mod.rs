//! Fitting a thread into a token budget without losing what it holds. The unit is the agent's
//! step (a message, or a tool call with its result); each step can be degraded level by level —
//! verbatim, then trimmed to the lines that carry facts ([`trim`]), then its one-line extract,
//! then merged into its run's extract — and the planner degrades the oldest steps first, one
//! level at a time, stopping as soon as the thread fits, so the budget is used rather than
//! over-compressed. The plan is pure and works from per-message summaries ([`summary`]);
//! carrying it out (asking a model for AI steps, storing the plan as one new thread) is the
//! services' job.

mod levels;
mod plan;
mod planner;
mod render;
pub mod summary;
pub mod trim;
pub mod turns;

#[cfg(test)]
mod tests;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ids::MessageId;

pub use levels::{reports as level_reports, LevelReport, LostFact};
pub use plan::{fitted_links, plan_fit, plan_summaries, settle};
pub use summary::{summarize, MessageKind, MessageSummary, Summarizer};
pub use trim::{trim_message, TRIM_MARKER};
pub use turns::Keep;

/// How many of the last user turns a fit keeps whole unless told otherwise: none — the newest
/// steps are kept by tokens instead (`keep_recent`).
pub const DEFAULT_KEEP_LAST: usize = 0;

/// The share of the budget the newest steps keep verbatim unless told otherwise: a fifth.
pub const DEFAULT_KEEP_RECENT_SHARE: u64 = 5;

/// What a fit may do to the steps it does not keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FitStrategy {
    /// Only trim: old tool outputs keep the lines that carry facts; no model.
    Mask,
    /// Every level, no model: trim, then one-line extracts, then runs' extracts.
    #[default]
    Extract,
    /// Runs squashed by the model (checked against the ledger), oldest first.
    Ai,
    /// Every level, with the runs' extracts of the oldest runs replaced by the model's
    /// faithful squashes.
    Hybrid,
}

impl FitStrategy {
    pub const ALL: [FitStrategy; 4] = [
        FitStrategy::Mask,
        FitStrategy::Extract,
        FitStrategy::Ai,
        FitStrategy::Hybrid,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FitStrategy::Mask => "mask",
            FitStrategy::Extract => "extract",
            FitStrategy::Ai => "ai",
            FitStrategy::Hybrid => "hybrid",
        }
    }

    pub fn parse(s: &str) -> Option<FitStrategy> {
        FitStrategy::ALL.into_iter().find(|f| f.as_str() == s)
    }

    /// The levels this strategy degrades steps through, in order.
    pub(crate) fn levels(self) -> &'static [StepAction] {
        match self {
            FitStrategy::Mask => &[StepAction::Trim],
            FitStrategy::Extract => &[StepAction::Trim, StepAction::Line, StepAction::Extract],
            FitStrategy::Ai => &[StepAction::Ai],
            FitStrategy::Hybrid => &[StepAction::Trim, StepAction::Line, StepAction::Ai],
        }
    }

    /// Whether carrying out a plan of this strategy may ask a model.
    pub fn needs_model(self) -> bool {
        self.levels().contains(&StepAction::Ai)
    }
}

impl fmt::Display for FitStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What to fit, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FitRequest {
    /// The most tokens the thread may have afterwards (estimated, see [`crate::tokens`]).
    pub budget: u64,
    /// Tokens of the newest steps kept verbatim; `None`: a fifth of the budget.
    #[serde(default)]
    pub keep_recent: Option<u64>,
    /// How many of the last user turns stay whole (0: none).
    #[serde(default)]
    pub keep_last: usize,
    pub strategy: FitStrategy,
}

impl FitRequest {
    /// A request with the default protection.
    pub fn new(budget: u64, strategy: FitStrategy) -> FitRequest {
        FitRequest {
            budget,
            keep_recent: None,
            keep_last: DEFAULT_KEEP_LAST,
            strategy,
        }
    }

    /// The tokens of newest steps kept, with the default applied.
    pub fn keep_recent_tokens(&self) -> u64 {
        self.keep_recent
            .unwrap_or(self.budget / DEFAULT_KEEP_RECENT_SHARE)
    }
}

/// What one step does to its sources: the levels a step goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepAction {
    /// One message trimmed to the lines that carry facts (same ids, same pairing).
    Trim,
    /// One step (a message, or a call with its result) becomes its one-line extract.
    Line,
    /// A run of steps becomes its fact ledger.
    Extract,
    /// A run of steps becomes a model's summary, checked against the ledger and repaired.
    Ai,
}

impl StepAction {
    pub const ALL: [StepAction; 4] = [
        StepAction::Trim,
        StepAction::Line,
        StepAction::Extract,
        StepAction::Ai,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            StepAction::Trim => "trim",
            StepAction::Line => "line",
            StepAction::Extract => "extract",
            StepAction::Ai => "ai",
        }
    }

    /// How far down the levels: a step replaces the steps of lower levels it covers.
    pub(crate) fn level(self) -> u8 {
        match self {
            StepAction::Trim => 1,
            StepAction::Line => 2,
            StepAction::Extract | StepAction::Ai => 3,
        }
    }
}

/// One change of a plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitStep {
    pub action: StepAction,
    /// The messages the step replaces, in thread order: one for a trim, a step or a run
    /// otherwise.
    pub sources: Vec<MessageId>,
    /// Thread positions of the first and last source (0-based).
    pub first_position: usize,
    pub last_position: usize,
    /// Tokens of the sources as the thread holds them.
    pub tokens_before: u64,
    /// Tokens of the result: exact for a trim, a line or an extract; an estimate for an AI
    /// squash until the model has answered.
    pub tokens_after: u64,
    pub estimated: bool,
    /// Facts the sources hold (the ledger), and how many the result states; `None` until an
    /// AI step has been computed.
    pub facts: usize,
    pub facts_kept: Option<usize>,
    /// The facts the result no longer states: they leave the thread (and stay reachable
    /// through provenance and undo).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub facts_lost: Vec<String>,
    /// The new message's text, for a line or an extract.
    #[serde(skip)]
    pub text: Option<String>,
}

impl FitStep {
    pub fn saved(&self) -> u64 {
        self.tokens_before.saturating_sub(self.tokens_after)
    }
}

/// What the plan keeps as it is, and why.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Protection {
    /// Tokens of everything kept: the prelude, requests, instructions, earlier squashes, the
    /// newest steps and the last turns.
    pub tokens: u64,
    /// Requests a person typed (their words are kept).
    pub requests: usize,
    /// The newest steps kept, and the tokens they were allowed.
    pub recent_steps: usize,
    pub recent_tokens: u64,
    pub keep_recent: u64,
    pub keep_last: usize,
}

/// The plan that brings a thread under a budget.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitPlan {
    pub request: FitRequest,
    pub messages: usize,
    /// The agent's steps, and the requests a person typed.
    pub steps_total: usize,
    pub turns: usize,
    pub tokens_before: u64,
    /// Tokens of what no step may touch.
    pub protected_tokens: u64,
    pub protection: Protection,
    /// The steps that reach the budget, in thread order.
    pub steps: Vec<FitStep>,
    /// Per level: how many steps, their tokens before and after, which facts leave.
    pub levels: Vec<LevelReport>,
    /// Further steps, in order, for when AI steps come out larger than estimated.
    pub reserve: Vec<FitStep>,
    /// Tokens after `steps` (an estimate when an AI step is among them).
    pub tokens_after: u64,
    /// The fewest tokens any plan of this strategy reaches without touching what is kept.
    pub best_reachable: u64,
}

impl FitPlan {
    /// Whether the plan holds the budget (as estimated).
    pub fn fits(&self) -> bool {
        self.tokens_after <= self.request.budget
    }

    /// Whether nothing needs doing: the thread is within the budget already.
    pub fn is_noop(&self) -> bool {
        self.steps.is_empty() && self.fits()
    }

    /// Whether carrying the plan out asks a model: an AI step among the steps, or in the reserve
    /// that is drawn on when the thread is still over the budget after them.
    pub fn needs_model(&self) -> bool {
        let ai = |steps: &[FitStep]| steps.iter().any(|s| s.action == StepAction::Ai);
        ai(&self.steps) || (!self.fits() && ai(&self.reserve))
    }
}
