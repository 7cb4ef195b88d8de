//! Fitting a thread into a budget through the service, on both backends: masks keep every
//! call paired, the plan is one new thread that one undo restores exactly, every step has its
//! operation, and a plan that cannot be met, or a model call that fails, writes nothing.

mod common;

use std::sync::Arc;

use common::Backend;
use squash_app::fit::{FitError, FitService, FitStrategy, StepAction, DEFAULT_KEEP_LAST};
use squash_app::{SquashEngine, SquashError};
use squash_core::fit::{FitRequest, MASK_MARKER};
use squash_core::prompt::SquashStyle;
use squash_core::tokens::message_tokens;
use squash_core::{
    ContentItem, ConversationId, Message, MessageId, Role, ThreadOrigin, ToolResultData,
};
use squash_llm::{FakeModel, LlmError};

/// A coding session of `turns` turns: request, `cargo test` call, a long log (failing with a
/// named error in odd turns), and the agent's answer.
async fn session(b: &Backend, turns: usize) -> (ConversationId, Vec<Message>) {
    let conv = b
        .service
        .create_conversation("/tmp/fit", "fit")
        .await
        .unwrap()
        .id;
    let mut messages = Vec::new();
    for t in 0..turns {
        let id = format!("toolu_{t:02}");
        let failing = t % 2 == 1;
        let mut log: Vec<String> = (0..150)
            .map(|i| format!("   Compiling dep_{i} v0.{t}.{i} (/work/deps/dep_{i})"))
            .collect();
        log.push(if failing {
            format!("error[E0425]: cannot find value `total_{t}` in src/report_{t}.rs")
        } else {
            format!("test result: ok. {} passed; 0 failed", t + 3)
        });
        let items = [
            (
                Role::User,
                ContentItem::UserMessage {
                    text: format!("Turn {t}: make report_{t} pass"),
                },
            ),
            (
                Role::Assistant,
                ContentItem::ToolCall {
                    id: id.clone(),
                    name: "Bash".into(),
                    input: serde_json::json!({ "command": format!("cargo test report_{t}") }),
                },
            ),
            (
                Role::User,
                ContentItem::ToolResult {
                    tool_use_id: id,
                    tool_name: "Bash".into(),
                    result: vec![ToolResultData::Text {
                        text: log.join("\n"),
                    }],
                    is_error: failing,
                },
            ),
            (
                Role::Assistant,
                ContentItem::text_for(Role::Assistant, format!("report_{t} is done.")),
            ),
        ];
        for (role, item) in items {
            let (m, _) = b.service.append(conv, role, vec![item]).await.unwrap();
            messages.push(m);
        }
    }
    (conv, messages)
}

fn total(messages: &[Message]) -> u64 {
    messages.iter().map(message_tokens).sum()
}

fn request(budget: u64, strategy: FitStrategy) -> FitRequest {
    FitRequest {
        budget,
        keep_last: DEFAULT_KEEP_LAST,
        strategy,
    }
}

fn offline(b: &Backend) -> FitService {
    FitService::new(SquashEngine::offline(b.service.clone()))
}

fn quiet(_: squash_app::fit::FitProgress<'_>) {}

async fn links(b: &Backend, conv: ConversationId) -> Vec<MessageId> {
    b.store.current_thread(conv).await.unwrap().links
}

async fn masks_apply_as_one_thread_and_undo_restores_it(b: &Backend) {
    let (conv, original) = session(b, 10).await;
    let before = total(&original);
    let budget = before / 2;
    let fitter = offline(b);
    let planned = fitter
        .plan(conv, request(budget, FitStrategy::Mask))
        .await
        .unwrap();
    assert_eq!(
        planned.plan.tokens_before, before,
        "the plan prices the thread the same way"
    );
    let threads_before = b.store.threads(conv).await.unwrap().len();
    let outcome = fitter.apply(planned, false, &quiet).await.unwrap();
    assert!(outcome.fits(), "{} > {budget}", outcome.tokens_after);
    assert_eq!(
        b.store.threads(conv).await.unwrap().len(),
        threads_before + 1,
        "one new thread"
    );

    let view = b.service.current_thread(conv).await.unwrap();
    assert_eq!(
        view.messages.len(),
        original.len(),
        "masks replace, never remove"
    );
    assert_eq!(
        total(&view.messages),
        outcome.tokens_after,
        "the reported size is the real one"
    );
    let ThreadOrigin::Fit {
        operation_ids,
        budget: b_recorded,
    } = &view.thread.origin
    else {
        panic!("origin {:?}", view.thread.origin);
    };
    assert_eq!(*b_recorded, budget);
    assert_eq!(operation_ids.len(), outcome.steps.len());
    for (step, id) in outcome.steps.iter().zip(operation_ids) {
        let op = b.service.operation(*id).await.unwrap();
        assert_eq!(op.style, Some(SquashStyle::Mask));
        assert_eq!(op.source_message_ids, step.step.sources);
        assert_eq!(op.result_thread_id, Some(view.thread.id));
        assert!(!op.performed_by_agent);
        let masked = b.service.message(op.result_message_id).await.unwrap();
        let source = b.service.message(op.source_message_ids[0]).await.unwrap();
        // The sources are read in one go before the commit; each result is its own source's.
        assert_eq!(
            (
                masked.role,
                masked.reply_to,
                &masked.instructions,
                &masked.metadata
            ),
            (
                source.role,
                source.reply_to,
                &source.instructions,
                &source.metadata
            )
        );
        assert_eq!(masked.squash_operation_id, Some(op.id));
        match (&masked.content[0], &source.content[0]) {
            (
                ContentItem::ToolResult {
                    tool_use_id: a,
                    result,
                    is_error: ea,
                    ..
                },
                ContentItem::ToolResult {
                    tool_use_id: s,
                    is_error: es,
                    ..
                },
            ) => {
                assert_eq!(a, s, "the call keeps its result");
                assert_eq!(ea, es);
                let ToolResultData::Text { text } = &result[0] else {
                    panic!()
                };
                assert!(text.starts_with(MASK_MARKER), "{text}");
            }
            other => panic!("{other:?}"),
        }
    }
    // The last two turns and every request are untouched.
    let kept: Vec<MessageId> = view.messages.iter().map(|m| m.id).collect();
    let ids: Vec<MessageId> = original.iter().map(|m| m.id).collect();
    assert_eq!(kept[kept.len() - 8..], ids[ids.len() - 8..]);
    for (i, m) in original.iter().enumerate().filter(|(i, _)| i % 4 == 0) {
        assert_eq!(kept[i], m.id, "request {i}");
    }

    b.service.undo(conv).await.unwrap();
    assert_eq!(
        links(b, conv).await,
        ids,
        "one undo restores the thread exactly"
    );
    b.service.redo(conv).await.unwrap();
    assert_eq!(links(b, conv).await, kept);
}

async fn out_of_reach_writes_nothing(b: &Backend) {
    let (conv, original) = session(b, 4).await;
    let fitter = offline(b);
    let planned = fitter
        .plan(conv, request(50, FitStrategy::Hybrid))
        .await
        .unwrap();
    assert!(!planned.plan.fits());
    let threads = b.store.threads(conv).await.unwrap().len();
    let err = fitter.apply(planned, false, &quiet).await.unwrap_err();
    let FitError::OutOfReach {
        best_reachable,
        protected,
        ..
    } = err
    else {
        panic!("{err}");
    };
    assert!(best_reachable >= protected && best_reachable > 50);
    assert_eq!(b.store.threads(conv).await.unwrap().len(), threads);
    assert_eq!(links(b, conv).await.len(), original.len());
}

async fn hybrid_squashes_old_turns_with_the_model(b: &Backend) {
    let (conv, original) = session(b, 12).await;
    let mask_floor = offline(b)
        .plan(conv, request(0, FitStrategy::Mask))
        .await
        .unwrap()
        .plan
        .best_reachable;
    let fake = Arc::new(FakeModel::new());
    for _ in 0..20 {
        fake.push_text("Ran cargo test report_0; it passed.");
    }
    let fitter = FitService::new(SquashEngine::new(b.service.clone(), fake.clone()));
    let planned = fitter
        .plan(conv, request(mask_floor - 100, FitStrategy::Hybrid))
        .await
        .unwrap();
    let outcome = fitter.apply(planned, false, &quiet).await.unwrap();
    assert!(
        outcome.fits(),
        "{} > {}",
        outcome.tokens_after,
        outcome.budget
    );
    let ai: Vec<_> = outcome
        .steps
        .iter()
        .filter(|s| s.step.action == StepAction::Ai)
        .collect();
    assert!(!ai.is_empty());
    assert!(!fake.requests().is_empty(), "the model was asked");
    for done in &ai {
        let op = b.service.operation(done.operation_id).await.unwrap();
        assert!(op.performed_by_agent && op.prompt.is_some() && op.model.is_some());
        assert_eq!(
            op.source_message_ids.len(),
            3,
            "call, output and answer of one turn"
        );
        assert!(
            !outcome
                .steps
                .iter()
                .any(|m| m.step.action == StepAction::Mask && m.step.run == done.step.run),
            "a squashed turn is not masked as well"
        );
        // The faithful engine kept the turn's facts: the ledger is appended when the model
        // leaves them out.
        assert_eq!(done.step.facts_kept, Some(done.step.facts));
    }
    let view = b.service.current_thread(conv).await.unwrap();
    assert_eq!(total(&view.messages), outcome.tokens_after);
    assert!(view.messages.len() < original.len());
    b.service.undo(conv).await.unwrap();
    assert_eq!(
        links(b, conv).await,
        original.iter().map(|m| m.id).collect::<Vec<_>>()
    );
}

async fn a_failed_model_call_writes_nothing(b: &Backend) {
    let (conv, original) = session(b, 12).await;
    let fake = Arc::new(FakeModel::new());
    fake.push_error(LlmError::Network("connection refused".into()));
    let fitter = FitService::new(SquashEngine::new(b.service.clone(), fake));
    let planned = fitter
        .plan(conv, request(1_000, FitStrategy::Ai))
        .await
        .unwrap();
    let threads = b.store.threads(conv).await.unwrap().len();
    let messages = b.store.all_messages(conv).await.unwrap().len();
    let err = fitter.apply(planned, true, &quiet).await.unwrap_err();
    assert!(
        matches!(err, FitError::Squash(SquashError::Model(_))),
        "{err}"
    );
    assert_eq!(b.store.threads(conv).await.unwrap().len(), threads);
    assert_eq!(b.store.all_messages(conv).await.unwrap().len(), messages);
    assert_eq!(links(b, conv).await.len(), original.len());
}

async fn extract_is_exact_and_keeps_every_fact(b: &Backend) {
    let (conv, original) = session(b, 8).await;
    let fitter = offline(b);
    let planned = fitter
        .plan(conv, request(1, FitStrategy::Extract))
        .await
        .unwrap();
    let estimate = planned.plan.tokens_after;
    let outcome = fitter.apply(planned, true, &quiet).await.unwrap();
    assert_eq!(
        outcome.tokens_after, estimate,
        "an extract is priced exactly when planned"
    );
    assert_eq!(outcome.steps.len(), 6);
    for s in &outcome.steps {
        assert_eq!(s.step.facts_kept, Some(s.step.facts));
    }
    let view = b.service.current_thread(conv).await.unwrap();
    assert_eq!(view.messages.len(), original.len() - 6 * 2);
}

async fn within_budget_is_a_no_op(b: &Backend) {
    let (conv, original) = session(b, 3).await;
    let fitter = offline(b);
    let planned = fitter
        .plan(conv, request(u64::MAX / 2, FitStrategy::Hybrid))
        .await
        .unwrap();
    let outcome = fitter.apply(planned, false, &quiet).await.unwrap();
    assert!(outcome.thread.is_none() && outcome.steps.is_empty());
    assert_eq!(outcome.tokens_after, total(&original));
    assert_eq!(b.store.threads(conv).await.unwrap().len(), 1);
}

macro_rules! on_every_backend {
    ($body:ident) => {
        for b in [common::sqlite().await, common::postgres().await] {
            $body(&b).await;
            b.cleanup().await;
        }
    };
}

#[tokio::test]
async fn masks_are_one_thread_that_one_undo_restores() {
    on_every_backend!(masks_apply_as_one_thread_and_undo_restores_it);
}

#[tokio::test]
async fn a_budget_out_of_reach_changes_nothing() {
    on_every_backend!(out_of_reach_writes_nothing);
}

#[tokio::test]
async fn hybrid_ai_squashes_old_turns_after_masking() {
    on_every_backend!(hybrid_squashes_old_turns_with_the_model);
}

#[tokio::test]
async fn a_model_failure_mid_fit_changes_nothing() {
    on_every_backend!(a_failed_model_call_writes_nothing);
}

#[tokio::test]
async fn extract_fits_exactly() {
    on_every_backend!(extract_is_exact_and_keeps_every_fact);
}

#[tokio::test]
async fn a_thread_within_budget_is_left_alone() {
    on_every_backend!(within_budget_is_a_no_op);
}
