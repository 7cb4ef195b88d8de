//! Fitting a thread into a budget through the service, on both backends, on the shape most real
//! agent sessions have — one request, then a long run of tool calls: the defaults degrade the
//! oldest steps level by level and land just under the budget, the request and the newest steps
//! stay, every call keeps its result, the plan is one new thread that one undo restores, every
//! step has its operation; a plan that cannot be met, or a model call that fails, writes nothing.

use squash_testkit::fixtures::{cargo_log, new_conversation};
use squash_testkit::on_every_backend;
use std::collections::HashSet;
use std::sync::Arc;

use squash_app::fit::{FitError, FitService, FitStrategy, StepAction};
use squash_app::{SquashEngine, SquashError};
use squash_core::fit::{FitRequest, TRIM_MARKER};
use squash_core::prompt::SquashStyle;
use squash_core::render::message_text;
use squash_core::tokens::message_tokens;
use squash_core::{
    ContentItem, ConversationId, Message, MessageId, OperationKind, Role, ThreadOrigin,
};
use squash_llm::{ChatPart, FakeModel, LlmError};
use squash_testkit::Backend;

/// One request, then `steps` steps: a `cargo test` call with a long log (failing with a named
/// error every third step), a sentence of the agent's every fourth.
async fn session(b: &Backend, steps: usize) -> (ConversationId, Vec<Message>) {
    let conv = new_conversation(&b.service, "/tmp/fit", "fit").await.id;
    let mut items = vec![(
        Role::User,
        ContentItem::UserMessage {
            text: "Make every report test pass".into(),
        },
    )];
    for t in 0..steps {
        let id = format!("toolu_{t:03}");
        let failing = t % 3 == 1;
        let log = cargo_log(t, failing, 1000 + t);
        items.push((
            Role::Assistant,
            ContentItem::tool_call(
                id.clone(),
                "Bash",
                serde_json::json!({ "command": format!("cargo test report_{t}") }),
            ),
        ));
        items.push((
            Role::User,
            ContentItem::tool_result(id, "Bash", log.join("\n"), failing),
        ));
        if t % 4 == 3 {
            items.push((
                Role::Assistant,
                ContentItem::text_for(Role::Assistant, format!("report_{t} now passes.")),
            ));
        }
    }
    let mut messages = Vec::new();
    for (role, item) in items {
        let (m, _) = b.service.append(conv, role, vec![item]).await.unwrap();
        messages.push(m);
    }
    (conv, messages)
}

fn total(messages: &[Message]) -> u64 {
    messages.iter().map(message_tokens).sum()
}

fn request(budget: u64, strategy: FitStrategy) -> FitRequest {
    FitRequest::new(budget, strategy)
}

fn offline(b: &Backend) -> FitService {
    FitService::new(SquashEngine::offline(b.service.clone()))
}

fn quiet(_: squash_app::fit::FitProgress<'_>) {}

/// The smallest budget (in steps of 100) the extract reaches without digests.
async fn runs_floor(b: &Backend, conv: ConversationId) -> u64 {
    let mut floor = 0;
    loop {
        let p = offline(b)
            .plan(conv, request(floor, FitStrategy::Extract))
            .await
            .unwrap()
            .plan;
        if p.fits() && p.steps.iter().all(|s| s.action != StepAction::Digest) {
            return floor;
        }
        floor = floor.max(p.best_reachable) + 100;
    }
}

async fn links(b: &Backend, conv: ConversationId) -> Vec<MessageId> {
    b.store.current_thread(conv).await.unwrap().links
}

/// Every call in `messages` has its result and every result its call.
fn paired(messages: &[Message]) -> bool {
    let mut calls = HashSet::new();
    let mut results = HashSet::new();
    for m in messages {
        let refs = m.tool_refs();
        calls.extend(refs.calls);
        results.extend(refs.results);
    }
    calls == results
}

async fn the_defaults_land_under_the_budget_as_one_thread(b: &Backend) {
    let (conv, original) = session(b, 40).await;
    let before = total(&original);
    // Trimming every output is not enough: the oldest steps become their lines.
    let budget = before / 20;
    let fitter = offline(b);
    let planned = fitter
        .plan(conv, request(budget, FitStrategy::default()))
        .await
        .unwrap();
    assert_eq!(
        planned.plan.tokens_before, before,
        "priced as the thread is counted"
    );
    let protection = planned.plan.protection.clone();
    assert!(protection.recent_tokens <= budget / 5 && protection.recent_steps >= 1);
    let threads_before = b.store.threads(conv).await.unwrap().len();
    let outcome = fitter.apply(planned, false, &quiet).await.unwrap();
    assert!(outcome.fits(), "{} > {budget}", outcome.tokens_after);
    assert!(
        outcome.tokens_after * 10 >= budget * 9,
        "{} is under 90% of {budget}",
        outcome.tokens_after
    );
    assert_eq!(
        b.store.threads(conv).await.unwrap().len(),
        threads_before + 1
    );

    let view = b.service.current_thread(conv).await.unwrap();
    assert_eq!(
        total(&view.messages),
        outcome.tokens_after,
        "the reported size is the real one"
    );
    assert!(paired(&view.messages), "every call keeps its result");
    assert_eq!(view.messages[0].id, original[0].id, "the request stays");
    // The newest steps stay as they were: those kept up to a fifth of the budget, and the
    // newer ones the budget had room for.
    let kept_tail = view
        .messages
        .iter()
        .rev()
        .zip(original.iter().rev())
        .take_while(|(a, b)| a.id == b.id)
        .count();
    assert!(
        kept_tail >= protection.recent_steps,
        "{kept_tail} {protection:?}"
    );
    // Every fact the session held is still in it: commands, counts, errors.
    let text: String = view.messages.iter().map(message_text).collect();
    for t in 0..40 {
        assert!(
            text.contains(&format!("cargo test report_{t}")),
            "command {t}"
        );
        if t % 3 == 1 {
            assert!(text.contains(&format!("total_{t}")), "error {t}");
        } else {
            assert!(text.contains(&format!("{} passed", 1000 + t)), "count {t}");
        }
    }
    let ThreadOrigin::Fit {
        operation_ids,
        budget: recorded,
    } = &view.thread.origin
    else {
        panic!("origin {:?}", view.thread.origin);
    };
    assert_eq!(*recorded, budget);
    assert_eq!(operation_ids.len(), outcome.steps.len());
    let actions: HashSet<StepAction> = outcome.steps.iter().map(|d| d.step.action).collect();
    assert!(
        actions.contains(&StepAction::Trim) && actions.contains(&StepAction::Line),
        "{actions:?}"
    );
    for (done, id) in outcome.steps.iter().zip(operation_ids) {
        let op = b.service.operation(*id).await.unwrap();
        assert_eq!(op.source_message_ids, done.step.sources);
        assert_eq!(op.result_thread_id, Some(view.thread.id));
        assert!(!op.kind.performed_by_agent() && op.kind.prompt().is_none());
        let result = b.service.message(op.result_message_id).await.unwrap();
        assert_eq!(result.squash_operation_id, Some(op.id));
        match done.step.action {
            StepAction::Trim => {
                assert_eq!(op.kind, OperationKind::Mask);
                let source = b.service.message(op.source_message_ids[0]).await.unwrap();
                assert_eq!(result.role, source.role);
                assert_eq!(
                    result.tool_refs(),
                    source.tool_refs(),
                    "same ids, same pairing"
                );
                assert!(message_text(&result).contains(TRIM_MARKER));
            }
            StepAction::Line | StepAction::Extract | StepAction::Digest => {
                assert_eq!(op.kind.style(), Some(SquashStyle::Extract));
                assert_eq!(result.role, Role::Assistant);
                assert_eq!(done.step.facts_kept, Some(done.step.facts));
            }
            StepAction::Ai => panic!("no model was asked"),
        }
    }
    assert!(squash_testkit::violations(b, conv).await.is_empty());

    let ids: Vec<MessageId> = original.iter().map(|m| m.id).collect();
    let fitted = links(b, conv).await;
    b.service.undo(conv).await.unwrap();
    assert_eq!(
        links(b, conv).await,
        ids,
        "one undo restores the thread exactly"
    );
    b.service.redo(conv).await.unwrap();
    assert_eq!(links(b, conv).await, fitted);
}

async fn mask_only_trims(b: &Backend) {
    let (conv, original) = session(b, 12).await;
    let fitter = offline(b);
    let planned = fitter
        .plan(conv, request(total(&original) / 2, FitStrategy::Mask))
        .await
        .unwrap();
    let outcome = fitter.apply(planned, false, &quiet).await.unwrap();
    assert!(outcome.fits());
    assert!(outcome
        .steps
        .iter()
        .all(|d| d.step.action == StepAction::Trim));
    let view = b.service.current_thread(conv).await.unwrap();
    assert_eq!(
        view.messages.len(),
        original.len(),
        "a trim replaces, never removes"
    );
    assert!(paired(&view.messages));
}

async fn out_of_reach_writes_nothing(b: &Backend) {
    let (conv, original) = session(b, 4).await;
    let fitter = offline(b);
    let planned = fitter
        .plan(conv, request(20, FitStrategy::default()))
        .await
        .unwrap();
    assert!(!planned.plan.fits());
    let threads = b.store.threads(conv).await.unwrap().len();
    let err = fitter.apply(planned, false, &quiet).await.unwrap_err();
    let message = err.to_string();
    let FitError::OutOfReach {
        best_reachable,
        protected,
        ..
    } = err
    else {
        panic!("{err}");
    };
    assert!(best_reachable >= protected && best_reachable > 20);
    assert!(
        !message.contains('\n') && message.contains("the smallest"),
        "{message}"
    );
    assert_eq!(b.store.threads(conv).await.unwrap().len(), threads);
    assert_eq!(links(b, conv).await.len(), original.len());
}

async fn hybrid_squashes_the_oldest_runs_with_the_model(b: &Backend) {
    let (conv, original) = session(b, 64).await;
    // The smallest budget (in steps of 100) the extract reaches without digests: the runs'
    // extracts are what the model's squashes take the place of.
    let runs_floor = runs_floor(b, conv).await;
    let fake = Arc::new(FakeModel::new());
    for _ in 0..40 {
        fake.push_text("Ran the report tests one by one; the failing ones were fixed.");
    }
    let fitter = FitService::new(SquashEngine::new(b.service.clone(), fake.clone()));
    let planned = fitter
        .plan(conv, request(runs_floor, FitStrategy::Hybrid))
        .await
        .unwrap();
    let outcome = fitter.apply(planned, true, &quiet).await.unwrap();
    let ai: Vec<_> = outcome
        .steps
        .iter()
        .filter(|s| s.step.action == StepAction::Ai)
        .collect();
    assert!(
        !ai.is_empty(),
        "{:?}",
        outcome
            .steps
            .iter()
            .map(|s| s.step.action)
            .collect::<Vec<_>>()
    );
    assert!(!fake.requests().is_empty(), "the model was asked");
    for done in &ai {
        let op = b.service.operation(done.operation_id).await.unwrap();
        assert!(
            op.kind.performed_by_agent() && op.kind.prompt().is_some() && op.kind.model().is_some()
        );
        // The faithful engine kept the run's facts: the ledger is appended when the model
        // leaves them out.
        assert_eq!(done.step.facts_kept, Some(done.step.facts));
    }
    let view = b.service.current_thread(conv).await.unwrap();
    assert_eq!(total(&view.messages), outcome.tokens_after);
    assert!(paired(&view.messages));
    b.service.undo(conv).await.unwrap();
    assert_eq!(
        links(b, conv).await,
        original.iter().map(|m| m.id).collect::<Vec<_>>()
    );
}

/// The digests a hybrid fit takes near the smallest it reaches carry the model's gist above
/// their facts, within the room the plan left: the thread holds its budget, the facts are the
/// plan's, and the record names the model and the prompt. A gist that invents a path is left
/// out: the digest is applied as planned.
async fn hybrid_digests_carry_the_models_gist_within_the_budget(b: &Backend) {
    let gist = "Each report test was run with cargo test until every one of them passed.";
    let inventing = "The fix went into /work/elsewhere/src/config.rs.";
    for (answer, kept) in [(gist, true), (inventing, false)] {
        let (conv, original) = session(b, 64).await;
        let fake = Arc::new(FakeModel::new());
        for _ in 0..8 {
            fake.push_text(answer);
        }
        let fitter = FitService::new(SquashEngine::new(b.service.clone(), fake.clone()));
        let smallest = fitter
            .plan(conv, request(0, FitStrategy::Hybrid))
            .await
            .unwrap()
            .plan
            .best_reachable;
        // Room for a digest that says some of the runs, and its gist.
        let budget = smallest + 300;
        let planned = fitter
            .plan(conv, request(budget, FitStrategy::Hybrid))
            .await
            .unwrap();
        let digests: Vec<_> = planned
            .plan
            .steps
            .iter()
            .filter(|s| s.action == StepAction::Digest && s.gist_room.is_some())
            .cloned()
            .collect();
        assert!(!digests.is_empty(), "{:?}", planned.plan.levels);
        assert!(planned.plan.needs_model());
        let outcome = fitter.apply(planned, false, &quiet).await.unwrap();
        assert!(outcome.fits(), "{} of {budget}", outcome.tokens_after);
        let view = b.service.current_thread(conv).await.unwrap();
        assert_eq!(total(&view.messages), outcome.tokens_after);
        assert!(paired(&view.messages));
        // The model read the digest's messages, condensed, and the facts it will be put above.
        let asked = fake.requests();
        assert!(!asked.is_empty());
        let ChatPart::Text(prompt) = &asked[0].messages[0].content[0] else {
            panic!("{:?}", asked[0]);
        };
        assert!(
            prompt.contains("Called Bash(command=\"cargo test report_")
                && prompt.contains("Facts already recorded"),
            "{prompt}"
        );
        for planned_step in &digests {
            let done = outcome
                .steps
                .iter()
                .find(|d| d.step.sources == planned_step.sources)
                .expect("each planned digest is applied");
            assert_eq!(done.step.facts_kept, planned_step.facts_kept);
            let message = view
                .messages
                .iter()
                .find(|m| m.id == done.result_message_id)
                .unwrap();
            let text = message_text(message);
            let facts = planned_step.text.as_deref().unwrap();
            assert!(text.contains(facts), "{text}");
            assert_eq!(text.starts_with(gist), kept, "{text}");
            assert!(!text.contains("/work/elsewhere"), "{text}");
            let op = b.service.operation(done.operation_id).await.unwrap();
            let OperationKind::Ai(record) = &op.kind else {
                panic!("{:?}", op.kind);
            };
            assert_eq!(record.model, "fake-model");
            assert!(record.prompt.contains("Facts already recorded"));
            let style = if kept {
                SquashStyle::Prose
            } else {
                SquashStyle::Extract
            };
            assert_eq!(record.style, style);
        }
        b.service.undo(conv).await.unwrap();
        assert_eq!(
            links(b, conv).await,
            original.iter().map(|m| m.id).collect::<Vec<_>>()
        );
    }
}

/// A model whose squashes of the runs come out larger than the runs' extracts (a long gist
/// above the same facts) cannot take a hybrid fit over its budget: when the reserve is spent,
/// the largest of them give way to the extracts the plan priced.
async fn hybrid_holds_its_budget_when_the_models_squashes_outgrow_their_estimates(b: &Backend) {
    let (conv, _) = session(b, 32).await;
    let fake = Arc::new(FakeModel::new());
    let clause = "the report tests were run with cargo test one at a time and the ones that \
                  failed on a missing value were run again after the value was added, ";
    let long = format!(
        "First {}and so on. Then {}and in the end every one passed.",
        clause.repeat(12),
        clause.repeat(12)
    );
    for _ in 0..200 {
        fake.push_text(long.clone());
    }
    let fitter = FitService::new(SquashEngine::new(b.service.clone(), fake.clone()));
    // The smallest budget (in steps of 100) the runs' extracts reach without digests: little
    // room for a squash to outgrow its estimate.
    let runs_floor = runs_floor(b, conv).await;
    let planned = fitter
        .plan(conv, request(runs_floor, FitStrategy::Hybrid))
        .await
        .unwrap();
    assert!(planned.plan.fits());
    assert!(planned
        .plan
        .steps
        .iter()
        .any(|s| s.action == StepAction::Ai));
    let outcome = fitter.apply(planned, false, &quiet).await.unwrap();
    assert!(
        outcome.fits(),
        "{} tokens of a budget of {}",
        outcome.tokens_after,
        outcome.budget
    );
    let view = b.service.current_thread(conv).await.unwrap();
    assert_eq!(total(&view.messages), outcome.tokens_after);
    assert!(paired(&view.messages));
}

async fn a_failed_model_call_writes_nothing(b: &Backend) {
    let (conv, original) = session(b, 40).await;
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

async fn within_budget_is_a_no_op(b: &Backend) {
    let (conv, original) = session(b, 3).await;
    let fitter = offline(b);
    let planned = fitter
        .plan(conv, request(u64::MAX / 2, FitStrategy::default()))
        .await
        .unwrap();
    let outcome = fitter.apply(planned, false, &quiet).await.unwrap();
    assert!(outcome.thread.is_none() && outcome.steps.is_empty());
    assert_eq!(outcome.tokens_after, total(&original));
    assert_eq!(b.store.threads(conv).await.unwrap().len(), 1);
}

#[tokio::test]
async fn the_defaults_fit_one_long_run_as_one_thread_that_one_undo_restores() {
    on_every_backend!(the_defaults_land_under_the_budget_as_one_thread);
}

#[tokio::test]
async fn mask_only_trims_and_removes_nothing() {
    on_every_backend!(mask_only_trims);
}

#[tokio::test]
async fn a_budget_out_of_reach_changes_nothing() {
    on_every_backend!(out_of_reach_writes_nothing);
}

#[tokio::test]
async fn hybrid_ai_squashes_the_oldest_runs() {
    on_every_backend!(hybrid_squashes_the_oldest_runs_with_the_model);
}

#[tokio::test]
async fn hybrid_digests_carry_the_models_gist() {
    on_every_backend!(hybrid_digests_carry_the_models_gist_within_the_budget);
}

#[tokio::test]
async fn hybrid_holds_its_budget_when_squashes_outgrow_their_estimates() {
    on_every_backend!(hybrid_holds_its_budget_when_the_models_squashes_outgrow_their_estimates);
}

#[tokio::test]
async fn a_model_failure_mid_fit_changes_nothing() {
    on_every_backend!(a_failed_model_call_writes_nothing);
}

#[tokio::test]
async fn a_thread_within_budget_is_left_alone() {
    on_every_backend!(within_budget_is_a_no_op);
}
