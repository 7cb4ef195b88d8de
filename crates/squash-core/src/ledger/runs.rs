//! How each command run of a selection ended, as its tool result says: what a sentence about
//! the runs ("the tests passed", "it was not successful") is held against.

use super::commands::Status;
use super::observe::{observe_all, Observation, Observed};
use crate::message::Message;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    Passed,
    Failed,
}

/// One command run and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunEnd {
    /// The command without output plumbing (`2>&1`, `| tail -20`), as the ledger keys it.
    pub command: String,
    pub ended: Ended,
}

/// The runs of `messages` (in thread order) whose result the selection holds, in the order
/// they were run.
pub fn run_ends(messages: &[&Message]) -> Vec<RunEnd> {
    ends_of(&observe_all(messages))
}

/// The runs that `observations` (of a selection, in thread order) hold a result of.
pub(super) fn ends_of(observations: &[Observation]) -> Vec<RunEnd> {
    let mut runs: Vec<(usize, RunEnd)> = observations
        .iter()
        .filter_map(|o| {
            let Observed::Command(run) = &o.what else {
                return None;
            };
            let ended = match run.status {
                Status::Ok => Ended::Passed,
                Status::Failed(_) => Ended::Failed,
                Status::Unknown | Status::Running => return None,
            };
            Some((
                o.index,
                RunEnd {
                    command: run.key.clone(),
                    ended,
                },
            ))
        })
        .collect();
    // Calls are observed when their result arrives; their place is where they were made.
    runs.sort_by_key(|(index, _)| *index);
    runs.into_iter().map(|(_, run)| run).collect()
}
