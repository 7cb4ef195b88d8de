//! Reaching a budget: the plan of a thread (the planner, [`super::planner`], run over its
//! summaries), and when the budget is out of reach with what is kept, what gives way — the
//! least that reaches it.

use super::brief::BRIEF_DEPTHS;
use super::extracts::Renders;
use super::level_report::level_reports;
use super::levels::Unit;
use super::plan::{FitPlan, Protection};
use super::planner::Planner;
use super::request::FitRequest;
use super::summary::{summarize, MessageSummary};
use super::turns::{layout, Keep};
use crate::message::Message;

/// AI plans keep at most this many further steps in reserve.
const RESERVE_MAX: usize = 256;

/// Plans the fit of `messages` (a thread, in order).
pub fn plan_fit(messages: &[&Message], request: FitRequest) -> FitPlan {
    plan_summaries(&summarize(messages), request, 1)
}

/// How many times the newest steps' share is halved, before none is kept, when a plan cannot
/// reach its budget otherwise.
const RECENT_HALVINGS: u32 = 3;

/// Plans the fit of a thread from its summaries (one per message, in order). When the budget
/// is out of reach with what is kept, what is kept gives way, the least that reaches it: the
/// newest steps kept by default — half, a quarter, an eighth, none (a share the person asked
/// for stays as asked) — then the oldest requests, which join the digest of the work that
/// answered them (the newest request always stays as typed). Only when even that does not
/// reach it do the digests go brief ([`super::brief`]), with every request but the newest
/// folded: a folded request is a line of its digest, the last kind of fact a brief digest lets
/// go, where a request kept as typed would take the room of the facts it drops. Each plan's
/// extracts are rendered on up to `workers` threads; the plan is the same on any number.
pub fn plan_summaries(s: &[MessageSummary], request: FitRequest, workers: usize) -> FitPlan {
    // Of the plans tried on the way, only one that fits is ever returned, so a layout whose
    // kept messages alone are over the budget is not rendered at all: on a session of
    // thousands of requests, every plan that keeps them all is such a layout.
    let mut renders = Renders::default();
    let mut fitting = |keep, folded| {
        (kept_floor(s, request, keep, folded) <= request.budget)
            .then(|| plan_keeping(s, request, (keep, folded, 0), workers, &mut renders))
            .filter(FitPlan::fits)
    };
    let default = request.keep_recent_tokens();
    let mut shares = vec![default];
    if request.keep_recent.is_none() {
        shares.extend((1..=RECENT_HALVINGS).map(|h| default >> h).chain([0]));
    }
    shares.dedup();
    for &keep in &shares {
        if let Some(plan) = fitting(keep, 0) {
            return plan;
        }
    }
    let keep = shares.last().copied().unwrap_or(default);
    let requests = layout(s, keep, request.keep_last, 0).requests;
    if let Some(plan) = fold_fewest(&mut |folded| fitting(keep, folded), requests) {
        return plan;
    }
    let folded = requests.saturating_sub(1);
    plan_keeping(
        s,
        request,
        (keep, folded, BRIEF_DEPTHS),
        workers,
        &mut renders,
    )
}

/// The plan that folds the fewest oldest requests into digests (none brief) and fits, of a
/// thread of `requests`; `None` when even all but the newest folded does not fit.
fn fold_fewest(
    fitting: &mut dyn FnMut(usize) -> Option<FitPlan>,
    requests: usize,
) -> Option<FitPlan> {
    if requests < 2 {
        return None;
    }
    // More folded never costs more: the fewest that reach the budget are found by halving.
    let mut found = fitting(requests - 1)?;
    let (mut lo, mut hi) = (1, requests - 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match fitting(mid) {
            Some(plan) => {
                hi = mid;
                found = plan;
            }
            None => lo = mid + 1,
        }
    }
    Some(found)
}

/// The tokens no plan of this layout goes below (a plan that fits has at most its budget,
/// recall line included): what it keeps as it is, each typed request with its long pastes
/// trimmed. Every unit a plan takes is made of removable steps, whose messages are all
/// unkept, or trims a message to its trimmed form.
pub(super) fn kept_floor(
    s: &[MessageSummary],
    request: FitRequest,
    keep_recent: u64,
    folded: usize,
) -> u64 {
    let layout = layout(s, keep_recent, request.keep_last, folded);
    s.iter()
        .zip(&layout.keep)
        .map(|(m, keep)| match keep {
            Keep::No => 0,
            Keep::Request => m.trimmed_cost,
            _ => m.cost,
        })
        .sum()
}

/// The plan that keeps the newest steps up to `keep_recent` tokens and the requests but the
/// oldest `folded`, its digests going at most `deepest` below lean; its extracts taken from
/// `renders` when another plan of the thread rendered them.
pub(super) fn plan_keeping(
    s: &[MessageSummary],
    request: FitRequest,
    (keep_recent, folded, deepest): (u64, usize, u8),
    workers: usize,
    renders: &mut Renders,
) -> FitPlan {
    let layout = layout(s, keep_recent, request.keep_last, folded);
    let mut planner = Planner::new(s, &layout, request.strategy, deepest, renders);
    planner.render_all(workers);
    let tokens_before = planner.total;
    // A fitted thread says once how to recall what its steps took out.
    let how = crate::recall::how_tokens();
    let budget = request.budget.saturating_sub(how);
    planner.degrade(budget);
    let taken = planner.taken().len();
    let fits = planner.total <= budget;
    // A plan that misses its budget has taken every unit: it is the smallest reachable. One
    // that fits goes on to find it, then takes its own units again (rendered once, kept).
    if fits {
        planner.degrade(0);
    }
    let best_reachable = planner.total + how;
    let all: Vec<Unit> = planner.taken();
    if fits {
        planner.reset(tokens_before);
        planner.degrade(budget);
        planner.give_back(budget);
        planner.fill(budget);
    }
    let steps = planner.steps();
    let recall_note_tokens = if steps.is_empty() { 0 } else { how };
    let tokens_after = planner.total + recall_note_tokens;
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
            requests: layout.requests - layout.folded,
            requests_folded: layout.folded,
            recent_steps: layout.recent_steps,
            recent_tokens: layout.recent_tokens,
            keep_recent,
            keep_last: request.keep_last,
        },
        levels: level_reports(&steps),
        steps,
        reserve,
        recall_note_tokens,
        tokens_after,
        best_reachable: best_reachable.min(tokens_after),
    }
}
