//! One change of a plan, and how the steps of a plan apply: the higher levels cover the lower
//! ones, and each step's result takes its first source's place in one new thread.

use std::cmp::Reverse;
use std::collections::HashMap;

use serde::Serialize;

use super::levels::StepAction;
use super::trim::TrimChoices;
use crate::ids::MessageId;

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
    /// For a trim: the lines its plan chose, which its apply writes again with the recall mark.
    #[serde(skip)]
    pub trim: Option<TrimChoices>,
    /// For a digest of a hybrid fit: the tokens its plan left for the model's gist above the
    /// facts (in `tokens_after`, [`super::gist_room`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gist_room: Option<u64>,
}

impl FitStep {
    /// Whether carrying the step out asks the model: an AI squash, or a digest's gist.
    pub fn asks_model(&self) -> bool {
        self.action == StepAction::Ai || self.gist_room.is_some()
    }

    pub fn saved(&self) -> u64 {
        self.tokens_before.saturating_sub(self.tokens_after)
    }

    /// The sources as `@N` references (1-based, as a page and the CLI number messages):
    /// `@3`, or `@3–@5 (3 messages)`.
    pub fn positions(&self) -> String {
        if self.first_position == self.last_position {
            format!("@{}", self.first_position + 1)
        } else {
            format!(
                "@{}–@{} ({} messages)",
                self.first_position + 1,
                self.last_position + 1,
                self.sources.len()
            )
        }
    }
}

/// `steps` without those a higher level among them covers (a trim inside a step that became
/// its line, a line inside a run that became its extract), nor those a larger step of their
/// level covers (a run's squash inside its group's, which an apply draws from its reserve
/// when the squashes came out larger than planned); of two steps of the same sources, the
/// first.
pub fn settle(steps: Vec<FitStep>) -> Vec<FitStep> {
    let stays = settled(&steps);
    steps
        .into_iter()
        .zip(stays)
        .filter_map(|(s, stays)| stays.then_some(s))
        .collect()
}

/// Per step of `steps`, whether it stays when they settle ([`settle`]).
pub fn settled(steps: &[FitStep]) -> Vec<bool> {
    // Per message, the step that replaces it: the highest level, then the most sources, then
    // the first.
    let rank = |k: usize, s: &FitStep| (s.action.level(), s.sources.len(), Reverse(k));
    let mut cover: HashMap<MessageId, (u8, usize, Reverse<usize>)> = HashMap::new();
    for (k, step) in steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.action.level() >= 2)
    {
        for id in &step.sources {
            let best = cover.entry(*id).or_insert((0, 0, Reverse(usize::MAX)));
            *best = (*best).max(rank(k, step));
        }
    }
    steps
        .iter()
        .enumerate()
        .map(|(k, s)| {
            s.sources.iter().all(|id| match cover.get(id) {
                None => true,
                Some(best) if s.action.level() < 2 => best.0 <= s.action.level(),
                Some(best) => *best == rank(k, s),
            })
        })
        .collect()
}

/// The new thread's links: `base` with each step's first source replaced by the step's result
/// and its other sources left out. `results` pairs each applied step with its new message.
pub fn fitted_links(base: &[MessageId], results: &[(&FitStep, MessageId)]) -> Vec<MessageId> {
    let mut replaced: HashMap<MessageId, Option<MessageId>> = HashMap::new();
    for (step, result) in results {
        for (i, source) in step.sources.iter().enumerate() {
            replaced.insert(*source, (i == 0).then_some(*result));
        }
    }
    base.iter()
        .filter_map(|id| match replaced.get(id) {
            Some(r) => *r,
            None => Some(*id),
        })
        .collect()
}
