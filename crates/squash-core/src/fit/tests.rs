use std::collections::HashMap;

use super::*;
use crate::ids::ConversationId;
use crate::message::{Message, Role, ToolResultData};
use crate::render::message_text;
use crate::tokens::estimate_tokens;

fn cost(m: &Message) -> u64 {
    estimate_tokens(&message_text(m)) + 4
}

fn msg(conv: ConversationId, role: Role, content: Vec<ContentItem>) -> Message {
    Message::new(conv, role, content).expect("valid message")
}

/// `turns` turns of: a request, a `cargo test` call, its long output (failing in odd turns),
/// and the agent's answer.
fn session(turns: usize, output_lines: usize) -> Vec<Message> {
    let conv = ConversationId::new();
    let mut out = vec![msg(
        conv,
        Role::System,
        vec![ContentItem::text_for(
            Role::System,
            "You are a coding agent.",
        )],
    )];
    for t in 0..turns {
        out.push(msg(
            conv,
            Role::User,
            vec![ContentItem::UserMessage {
                text: format!("Turn {t}: make test_{t} in src/mod_{t}.rs pass"),
            }],
        ));
        let id = format!("toolu_{t}");
        out.push(msg(
            conv,
            Role::Assistant,
            vec![ContentItem::ToolCall {
                id: id.clone(),
                name: "Bash".into(),
                input: serde_json::json!({"command": format!("cargo test test_{t}")}),
            }],
        ));
        let failing = t % 2 == 1;
        let mut log: Vec<String> = (0..output_lines)
            .map(|i| format!("   Compiling dep_{i} v1.{i}.0"))
            .collect();
        if failing {
            log.push(format!(
                "error[E0425]: cannot find value `x_{t}` in src/mod_{t}.rs"
            ));
            log.push("Process exited with code 101".into());
        } else {
            log.push(format!("test result: ok. {t} passed; 0 failed"));
        }
        out.push(msg(
            conv,
            Role::User,
            vec![ContentItem::ToolResult {
                tool_use_id: id,
                tool_name: "Bash".into(),
                result: vec![ToolResultData::Text {
                    text: log.join("\n"),
                }],
                is_error: failing,
            }],
        ));
        out.push(msg(
            conv,
            Role::Assistant,
            vec![ContentItem::text_for(
                Role::Assistant,
                format!("Turn {t} done: test_{t} checked."),
            )],
        ));
    }
    out
}

/// The thread after applying `plan`'s steps the way the services do, and its cost.
fn applied(thread: &[Message], plan: &FitPlan) -> (Vec<Message>, u64) {
    let by_id: HashMap<MessageId, &Message> = thread.iter().map(|m| (m.id, m)).collect();
    let mut made: HashMap<MessageId, Message> = HashMap::new();
    let results: Vec<(&FitStep, MessageId)> = plan
        .steps
        .iter()
        .map(|step| {
            let first = by_id[&step.sources[0]];
            let content = match &step.content {
                Some(c) => c.clone(),
                None => {
                    let srcs: Vec<&Message> = step.sources.iter().map(|id| by_id[id]).collect();
                    let ledger = crate::ledger::build_ledger(&srcs);
                    let text = crate::ledger::extract_text(&ledger, &srcs);
                    vec![ContentItem::text_for(Role::Assistant, text)]
                }
            };
            let m = Message::new(first.conversation_id, first.role, content).expect("valid");
            let id = m.id;
            made.insert(id, m);
            (step, id)
        })
        .collect();
    let base: Vec<MessageId> = thread.iter().map(|m| m.id).collect();
    let links = fitted_links(&base, &results);
    let out: Vec<Message> = links
        .iter()
        .map(|id| made.get(id).cloned().unwrap_or_else(|| by_id[id].clone()))
        .collect();
    let total = out.iter().map(cost).sum();
    (out, total)
}

fn plan(thread: &[Message], budget: u64, strategy: FitStrategy) -> FitPlan {
    let refs: Vec<&Message> = thread.iter().collect();
    plan_fit(
        &refs,
        FitRequest {
            budget,
            keep_last: DEFAULT_KEEP_LAST,
            strategy,
        },
        &cost,
    )
}

#[test]
fn a_thread_within_budget_needs_no_step() {
    let thread = session(6, 50);
    let p = plan(&thread, u64::MAX, FitStrategy::Hybrid);
    assert!(p.is_noop());
    assert_eq!(p.tokens_after, p.tokens_before);
}

#[test]
fn masking_takes_the_oldest_outputs_first_and_protects_the_last_turns() {
    let thread = session(10, 200);
    let full = plan(&thread, 0, FitStrategy::Mask);
    // Eight old turns have one large output each; the last two turns are protected.
    assert_eq!(full.steps.len(), 8, "{:#?}", full.steps);
    assert!(!full.fits());
    let budget = full.tokens_before - (full.tokens_before - full.best_reachable) / 2;
    let half = plan(&thread, budget, FitStrategy::Mask);
    assert!(half.fits(), "{} > {budget}", half.tokens_after);
    assert!(half.steps.len() < 8 && !half.steps.is_empty());
    let positions: Vec<usize> = half.steps.iter().map(|s| s.first_position).collect();
    let mut sorted = positions.clone();
    sorted.sort_unstable();
    assert_eq!(positions, sorted, "oldest first");
    assert_eq!(positions[0], 3, "the first turn's output comes first");
    let (after, total) = applied(&thread, &half);
    assert_eq!(total, half.tokens_after, "masks are priced exactly");
    assert_eq!(after.len(), thread.len(), "a mask replaces, never removes");
    // The last two turns and every request are untouched.
    for (a, b) in after.iter().zip(&thread).skip(thread.len() - 8) {
        assert_eq!(a.id, b.id);
    }
    for step in &half.steps {
        assert_eq!(step.action, StepAction::Mask);
        assert_eq!(
            step.facts_kept,
            Some(step.facts),
            "a mask keeps the tool use's facts"
        );
    }
}

#[test]
fn hybrid_squashes_whole_old_runs_when_masks_are_not_enough() {
    let thread = session(12, 200);
    let masks_only = plan(&thread, 0, FitStrategy::Mask).best_reachable;
    let p = plan(&thread, masks_only - 60, FitStrategy::Hybrid);
    let squashes: Vec<&FitStep> = p
        .steps
        .iter()
        .filter(|s| s.action == StepAction::Ai)
        .collect();
    assert!(!squashes.is_empty(), "{p:#?}");
    assert!(p.fits());
    for s in &squashes {
        assert_eq!(s.sources.len(), 3, "call, output and answer of one turn");
        assert!(s.estimated && s.facts_kept.is_none());
        assert!(
            !p.steps
                .iter()
                .any(|m| m.action == StepAction::Mask && m.run == s.run),
            "a squashed run's mask is dropped"
        );
    }
    assert_eq!(squashes[0].run, 0, "oldest first");
    assert!(!p.reserve.is_empty(), "later runs wait in reserve");
}

#[test]
fn extract_plans_are_exact() {
    let thread = session(12, 200);
    let p = plan(&thread, 0, FitStrategy::Extract);
    assert!(!p.fits());
    assert_eq!(p.steps.len(), 10);
    let (after, total) = applied(&thread, &p);
    assert_eq!(total, p.tokens_after);
    assert_eq!(p.best_reachable, p.tokens_after);
    assert_eq!(after.len(), thread.len() - 2 * 10);
    for step in &p.steps {
        assert_eq!(step.facts_kept, Some(step.facts), "{step:?}");
    }
}

#[test]
fn a_budget_below_the_protected_part_cannot_be_met() {
    let thread = session(4, 200);
    let p = plan(&thread, 10, FitStrategy::Hybrid);
    assert!(!p.fits());
    assert!(p.best_reachable >= p.protected_tokens);
    assert!(p.best_reachable > 10);
}

#[test]
fn strategies_round_trip_their_names() {
    for s in FitStrategy::ALL {
        assert_eq!(FitStrategy::parse(s.as_str()), Some(s));
    }
    assert_eq!(FitStrategy::parse("fold"), None);
    assert_eq!(FitStrategy::default(), FitStrategy::Hybrid);
}
