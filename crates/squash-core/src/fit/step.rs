//! One change of a plan, and how the steps of a plan apply: the higher levels cover the lower
//! ones, and each step's result takes its first source's place in one new thread.

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
}

impl FitStep {
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
/// its line, a line inside a run that became its extract).
pub fn settle(steps: Vec<FitStep>) -> Vec<FitStep> {
    let mut cover: HashMap<MessageId, u8> = HashMap::new();
    for step in steps.iter().filter(|s| s.action.level() >= 2) {
        for id in &step.sources {
            let level = cover.entry(*id).or_insert(0);
            *level = (*level).max(step.action.level());
        }
    }
    steps
        .into_iter()
        .filter(|s| {
            s.sources
                .iter()
                .all(|id| cover.get(id).is_none_or(|&l| l <= s.action.level()))
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
