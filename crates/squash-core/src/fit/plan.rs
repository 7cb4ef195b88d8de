//! The plan: the oldest steps degrade first, one level at a time — every message trimmed, then
//! steps become their one-line extracts, then runs of steps their extracts, then runs merge —
//! and it stops as soon as the thread fits; then, newest first, it gives back what the budget
//! still has room for, so the result lands just under the budget. Linear in the thread: each
//! step's line and each run's extract is rendered once, from the summaries alone.

use std::collections::HashMap;

use super::levels;
use super::planner::{Planner, Unit};
use super::summary::{summarize, MessageSummary};
use super::turns::{layout, Keep};
use super::{FitPlan, FitRequest, FitStep, Protection};
use crate::ids::MessageId;
use crate::message::Message;

/// AI plans keep at most this many further steps in reserve.
const RESERVE_MAX: usize = 256;

/// Plans the fit of `messages` (a thread, in order).
pub fn plan_fit(messages: &[&Message], request: FitRequest) -> FitPlan {
    plan_summaries(&summarize(messages), request)
}

/// Plans the fit of a thread from its summaries (one per message, in order).
pub fn plan_summaries(s: &[MessageSummary], request: FitRequest) -> FitPlan {
    let layout = layout(s, request.keep_recent_tokens(), request.keep_last);
    let mut planner = Planner::new(s, &layout, request.strategy);
    let tokens_before = planner.total;
    planner.degrade(0);
    let best_reachable = planner.total;
    let all: Vec<Unit> = planner.taken();
    planner.reset(tokens_before);
    planner.degrade(request.budget);
    let taken = planner.taken().len();
    if planner.total <= request.budget {
        planner.give_back(request.budget);
    }
    let steps = planner.steps();
    let reserve = if request.strategy.needs_model() {
        all[taken..]
            .iter()
            .take(RESERVE_MAX)
            .filter_map(|u| planner.unit_step(*u))
            .collect()
    } else {
        Vec::new()
    };
    let protected_tokens = (0..s.len())
        .filter(|&i| layout.keep[i] != Keep::No)
        .map(|i| s[i].cost)
        .sum();
    FitPlan {
        request,
        messages: s.len(),
        steps_total: layout.steps.len(),
        turns: layout.requests,
        tokens_before,
        protected_tokens,
        protection: Protection {
            tokens: protected_tokens,
            requests: layout.requests,
            recent_steps: layout.recent_steps,
            recent_tokens: layout.recent_tokens,
            keep_recent: request.keep_recent_tokens(),
            keep_last: request.keep_last,
        },
        levels: levels::reports(&steps),
        steps,
        reserve,
        tokens_after: planner.total,
        best_reachable: best_reachable.min(planner.total),
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
