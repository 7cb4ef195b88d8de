//! The preview's report of a plan, per level: how many steps go down to it, their tokens
//! before and after, and which facts would leave the thread (they stay reachable through
//! provenance and undo).

use serde::Serialize;

use super::levels::StepAction;
use super::step::FitStep;

/// Facts listed per level: enough to read, bounded for a plan of thousands of steps.
const LISTED_FACTS: usize = 50;

/// One level of a plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LevelReport {
    pub action: StepAction,
    pub steps: usize,
    /// Messages the steps replace.
    pub messages: usize,
    pub tokens_before: u64,
    pub tokens_after: u64,
    /// How many facts leave the thread at this level, and the first of them.
    pub facts_lost: usize,
    pub lost: Vec<LostFact>,
}

/// A fact that leaves the thread, and where it was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LostFact {
    pub text: String,
    /// 0-based position of the step's first message.
    pub position: usize,
}

/// One report per level the steps use, in level order.
pub fn level_reports(steps: &[FitStep]) -> Vec<LevelReport> {
    StepAction::ALL
        .into_iter()
        .filter_map(|action| {
            let of: Vec<&FitStep> = steps.iter().filter(|s| s.action == action).collect();
            if of.is_empty() {
                return None;
            }
            let lost: Vec<LostFact> = of
                .iter()
                .flat_map(|s| {
                    s.facts_lost.iter().map(|text| LostFact {
                        text: text.clone(),
                        position: s.first_position,
                    })
                })
                .collect();
            Some(LevelReport {
                action,
                steps: of.len(),
                messages: of.iter().map(|s| s.sources.len()).sum(),
                tokens_before: of.iter().map(|s| s.tokens_before).sum(),
                tokens_after: of.iter().map(|s| s.tokens_after).sum(),
                facts_lost: lost.len(),
                lost: lost.into_iter().take(LISTED_FACTS).collect(),
            })
        })
        .collect()
}
