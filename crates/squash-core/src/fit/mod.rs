//! Fitting a thread into a token budget: which messages to mask or squash, oldest first, so
//! that the thread holds the budget with the least loss. The plan is pure; carrying it out
//! (asking a model for the AI steps, storing the whole plan as one new thread) is the
//! services' job.

pub mod mask;
mod plan;
pub mod turns;

#[cfg(test)]
mod tests;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ids::MessageId;
use crate::message::ContentItem;

pub use mask::{mask_result, CallInfo, MASK_MARKER};
pub use plan::{fitted_links, plan_fit, settle};

/// How many of the last user turns a fit leaves untouched unless told otherwise.
pub const DEFAULT_KEEP_LAST: usize = 2;

/// What a fit may do to the old part of a thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FitStrategy {
    /// Replace large old tool outputs by placeholders; no model.
    Mask,
    /// Squash old turns' agent runs into their fact ledger; no model.
    Extract,
    /// Squash old turns' agent runs with the model (checked against the ledger).
    Ai,
    /// Mask first; if that is not enough, AI-squash old turns, oldest first.
    #[default]
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

    fn masks(self) -> bool {
        matches!(self, FitStrategy::Mask | FitStrategy::Hybrid)
    }

    /// How this strategy squashes whole runs, if it does.
    fn squashes(self) -> Option<StepAction> {
        match self {
            FitStrategy::Mask => None,
            FitStrategy::Extract => Some(StepAction::Extract),
            FitStrategy::Ai | FitStrategy::Hybrid => Some(StepAction::Ai),
        }
    }

    /// Whether carrying out a plan of this strategy may ask a model.
    pub fn needs_model(self) -> bool {
        self.squashes() == Some(StepAction::Ai)
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
    /// How many of the last user turns stay untouched, with everything after them.
    pub keep_last: usize,
    pub strategy: FitStrategy,
}

/// What one step does to its sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepAction {
    /// One message's large tool outputs become placeholders (same ids, same pairing).
    Mask,
    /// The run becomes its fact ledger.
    Extract,
    /// The run becomes a model's summary, checked against the ledger and repaired.
    Ai,
}

impl StepAction {
    pub fn as_str(self) -> &'static str {
        match self {
            StepAction::Mask => "mask",
            StepAction::Extract => "extract",
            StepAction::Ai => "ai",
        }
    }
}

/// One change of a plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitStep {
    pub action: StepAction,
    /// The messages the step replaces, in thread order: one for a mask, a whole run otherwise.
    pub sources: Vec<MessageId>,
    /// Thread positions of the first and last source (0-based).
    pub first_position: usize,
    pub last_position: usize,
    /// Which run of the thread's old turns the sources are in (see [`turns::Turns::runs`]).
    pub run: usize,
    /// Tokens of the sources as the thread holds them when the step runs.
    pub tokens_before: u64,
    /// Tokens of the result: exact for a mask or an extract, an estimate for an AI squash
    /// until the model has answered.
    pub tokens_after: u64,
    pub estimated: bool,
    /// Facts the sources hold (the ledger), and how many the result states; `None` until an
    /// AI step has been computed.
    pub facts: usize,
    pub facts_kept: Option<usize>,
    /// A mask's new content (the placeholders, every other item as it was).
    #[serde(skip)]
    pub content: Option<Vec<ContentItem>>,
}

impl FitStep {
    pub fn saved(&self) -> u64 {
        self.tokens_before.saturating_sub(self.tokens_after)
    }
}

/// The plan that brings a thread under a budget.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitPlan {
    pub request: FitRequest,
    pub messages: usize,
    pub turns: usize,
    pub tokens_before: u64,
    /// Tokens of what no step may touch.
    pub protected_tokens: u64,
    /// The steps that reach the budget, in the order they apply.
    pub steps: Vec<FitStep>,
    /// Further squash steps, in order, for when the AI steps come out larger than estimated.
    pub reserve: Vec<FitStep>,
    /// Tokens after `steps` (an estimate when an AI step is among them).
    pub tokens_after: u64,
    /// The fewest tokens any plan of this strategy reaches without touching the protected part.
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
}
