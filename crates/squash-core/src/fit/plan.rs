//! The planner: every step a strategy could take, then the fewest of them, oldest first, that
//! hold the budget. Linear in the thread: each message is priced once, each run's ledger is
//! built once.

use std::collections::{HashMap, HashSet};

use super::mask::{mask_result, CallInfo};
use super::turns::{self, Turns};
use super::{FitPlan, FitRequest, FitStep, StepAction};
use crate::ids::MessageId;
use crate::ledger::{build_ledger, check_facts, extract_text};
use crate::message::{ContentItem, Message, Role};
use crate::render::message_text;

/// Plans the fit of `messages` (a thread, in order). `cost` prices one message in tokens; the
/// caller passes the same rule it counts the thread with.
pub fn plan_fit(
    messages: &[&Message],
    request: FitRequest,
    cost: &dyn Fn(&Message) -> u64,
) -> FitPlan {
    let costs: Vec<u64> = messages.iter().map(|m| cost(m)).collect();
    let tokens_before: u64 = costs.iter().sum();
    let turns = turns::split(messages, request.keep_last);
    let protected_tokens = costs
        .iter()
        .zip(&turns.protected)
        .filter(|(_, p)| **p)
        .map(|(c, _)| c)
        .sum();
    let masks = if request.strategy.masks() {
        mask_steps(messages, &turns, &costs, cost)
    } else {
        Vec::new()
    };
    let squashes = match request.strategy.squashes() {
        Some(action) => squash_steps(messages, &turns, &costs, action, cost),
        None => Vec::new(),
    };
    let mut plan = FitPlan {
        request,
        messages: messages.len(),
        turns: turns.turns,
        tokens_before,
        protected_tokens,
        steps: Vec::new(),
        reserve: Vec::new(),
        tokens_after: tokens_before,
        best_reachable: tokens_before,
    };
    choose(&mut plan, masks, squashes);
    plan
}

/// Takes masks, then squashes, until the budget holds; what is left becomes the reserve. A
/// squash of a run saves what the run still costs after its masks, and replaces them.
fn choose(plan: &mut FitPlan, masks: Vec<FitStep>, squashes: Vec<FitStep>) {
    let budget = plan.request.budget;
    let mut total = plan.tokens_before;
    // Per run, what every mask saves (for the best reachable size) and what the masks taken
    // so far save (for the running total).
    let all_masked = saved_per_run(&masks);
    let mut best = total.saturating_sub(all_masked.values().sum());
    for step in masks {
        if total > budget {
            total = total.saturating_sub(step.saved());
            plan.steps.push(step);
        }
    }
    let taken_masked = saved_per_run(&plan.steps);
    for step in squashes {
        best = best.saturating_sub(delta(&step, all_masked.get(&step.run)));
        if total > budget {
            total = total.saturating_sub(delta(&step, taken_masked.get(&step.run)));
            plan.steps.push(step);
        } else {
            plan.reserve.push(step);
        }
    }
    plan.steps = settle(std::mem::take(&mut plan.steps));
    plan.tokens_after = total;
    plan.best_reachable = best.min(total);
}

fn saved_per_run(steps: &[FitStep]) -> HashMap<usize, u64> {
    let mut saved = HashMap::new();
    for step in steps {
        *saved.entry(step.run).or_default() += step.saved();
    }
    saved
}

/// What a squash of a run saves when `masked` tokens of the run were masked away already.
fn delta(step: &FitStep, masked: Option<&u64>) -> u64 {
    step.tokens_before
        .saturating_sub(masked.copied().unwrap_or(0))
        .saturating_sub(step.tokens_after)
}

/// `steps` without the masks of runs that a squash among them replaces whole.
pub fn settle(steps: Vec<FitStep>) -> Vec<FitStep> {
    let squashed: HashSet<usize> = steps
        .iter()
        .filter(|s| s.action != StepAction::Mask)
        .map(|s| s.run)
        .collect();
    steps
        .into_iter()
        .filter(|s| s.action != StepAction::Mask || !squashed.contains(&s.run))
        .collect()
}

/// One mask step per message of an old run whose tool outputs are worth masking; by turn,
/// oldest first, and within a run the largest first.
fn mask_steps(
    messages: &[&Message],
    turns: &Turns,
    costs: &[u64],
    cost: &dyn Fn(&Message) -> u64,
) -> Vec<FitStep> {
    let calls = calls_by_id(messages);
    let mut steps = Vec::new();
    for (run_index, run) in turns.runs.iter().enumerate() {
        let mut in_run: Vec<FitStep> = run
            .iter()
            .filter_map(|&i| mask_step(messages, i, run_index, costs[i], &calls, cost))
            .collect();
        in_run.sort_by_key(|s| std::cmp::Reverse(s.saved()));
        steps.extend(in_run);
    }
    steps
}

fn mask_step(
    messages: &[&Message],
    position: usize,
    run: usize,
    before: u64,
    calls: &HashMap<&str, (usize, CallInfo<'_>)>,
    cost: &dyn Fn(&Message) -> u64,
) -> Option<FitStep> {
    let message = messages[position];
    let mut changed = false;
    let mut call_positions = Vec::new();
    let content: Vec<ContentItem> = message
        .content
        .iter()
        .map(|item| {
            let call = match item {
                ContentItem::ToolResult { tool_use_id, .. } => calls.get(tool_use_id.as_str()),
                _ => None,
            };
            match mask_result(item, call.map(|(_, c)| *c)) {
                Some(masked) => {
                    changed = true;
                    call_positions.extend(call.map(|(p, _)| *p));
                    masked
                }
                None => item.clone(),
            }
        })
        .collect();
    if !changed {
        return None;
    }
    let masked = Message {
        content: content.clone(),
        ..message.clone()
    };
    let after = cost(&masked);
    if after >= before {
        return None;
    }
    // The facts of the tool use (call and output), and how many the call and placeholder keep.
    let mut sources: Vec<&Message> = call_positions.iter().map(|&p| messages[p]).collect();
    let kept_text: String = sources.iter().map(|m| message_text(m) + "\n").collect();
    sources.push(message);
    let ledger = build_ledger(&sources);
    let kept = check_facts(&ledger, &(kept_text + &message_text(&masked)));
    Some(FitStep {
        action: StepAction::Mask,
        sources: vec![message.id],
        first_position: position,
        last_position: position,
        run,
        tokens_before: before,
        tokens_after: after,
        estimated: false,
        facts: ledger.len(),
        facts_kept: Some(kept.kept.len()),
        content: Some(content),
    })
}

fn calls_by_id<'a>(messages: &[&'a Message]) -> HashMap<&'a str, (usize, CallInfo<'a>)> {
    let mut calls = HashMap::new();
    for (position, m) in messages.iter().enumerate() {
        for item in &m.content {
            if let ContentItem::ToolCall { id, name, input } = item {
                calls.insert(id.as_str(), (position, CallInfo { name, input }));
            }
        }
    }
    calls
}

/// One squash step per old run of two or more messages, oldest first. The result is priced as
/// the run's extract (exact for an extract; the estimate for a model's summary, which must
/// state the same facts).
fn squash_steps(
    messages: &[&Message],
    turns: &Turns,
    costs: &[u64],
    action: StepAction,
    cost: &dyn Fn(&Message) -> u64,
) -> Vec<FitStep> {
    let mut steps = Vec::new();
    for (run_index, run) in turns.runs.iter().enumerate() {
        let (Some(&first), Some(&last)) = (run.first(), run.last()) else {
            continue;
        };
        if run.len() < 2 {
            continue;
        }
        let sources: Vec<&Message> = run.iter().map(|&i| messages[i]).collect();
        let ledger = build_ledger(&sources);
        let text = extract_text(&ledger, &sources);
        let Ok(result) = Message::new(
            sources[0].conversation_id,
            Role::Assistant,
            vec![ContentItem::text_for(Role::Assistant, text.clone())],
        ) else {
            continue;
        };
        let before: u64 = run.iter().map(|&i| costs[i]).sum();
        let after = cost(&result);
        if after >= before {
            continue;
        }
        let exact = action == StepAction::Extract;
        steps.push(FitStep {
            action,
            sources: sources.iter().map(|m| m.id).collect(),
            first_position: first,
            last_position: last,
            run: run_index,
            tokens_before: before,
            tokens_after: after,
            estimated: !exact,
            facts: ledger.len(),
            facts_kept: exact.then(|| check_facts(&ledger, &text).kept.len()),
            content: None,
        });
    }
    steps
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
