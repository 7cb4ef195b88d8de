//! The plan that brings a thread under a budget: its steps, what it protects, and its figures
//! per level.

use serde::Serialize;

use super::level_report::LevelReport;
use super::request::FitRequest;
use super::step::FitStep;

/// What the plan keeps as it is, and why.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Protection {
    /// Tokens of everything kept: the prelude, requests, instructions, earlier squashes, the
    /// newest steps and the last turns.
    pub tokens: u64,
    /// Requests a person typed that are kept (their words), and the oldest that a digest took
    /// in because the budget could not be reached otherwise.
    pub requests: usize,
    pub requests_folded: usize,
    /// The newest steps kept, and the tokens they were allowed.
    pub recent_steps: usize,
    pub recent_tokens: u64,
    /// The tokens the newest steps were allowed: the request's share, or less when the budget
    /// could not be reached with it (see [`super::plan_summaries`]).
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
    /// Tokens of the note, said once with the first step's reference, on how to recall what
    /// the steps take out (0 when there are no steps); part of `tokens_after`.
    pub recall_note_tokens: u64,
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

    /// Whether carrying the plan out asks a model: an AI step or a digest's gist among the
    /// steps, or in the reserve that is drawn on when the thread is still over the budget
    /// after them.
    pub fn needs_model(&self) -> bool {
        let ai = |steps: &[FitStep]| steps.iter().any(FitStep::asks_model);
        ai(&self.steps) || (!self.fits() && ai(&self.reserve))
    }
}
