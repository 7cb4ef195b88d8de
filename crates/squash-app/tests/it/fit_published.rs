//! A fit of a published session lands where its plan said: at every budget it reaches, the
//! thread it writes costs no more than the plan's figure, which is within the budget. The plan
//! prices each trim with a plain reference and the thread's how-to once; the apply writes the
//! real ones (issue 29: a request of several pastes once said how to use references in each).

use squash_app::fit::{message_cost, FitService, FitStrategy};
use squash_app::SquashEngine;
use squash_core::fit::FitRequest;

/// Sessions whose requests paste plans and logs, and a Codex rollout.
const SESSIONS: &[&str] = &[
    "claude-code-compacted-7bdbcc35/7bdbcc35-891f-40ee-bd64-b461804c0fe4.jsonl",
    "claude-code-compacted-19512375/19512375-5c9f-4947-a8a2-72c341bdfe21.jsonl",
    "codex-compacted-019d7372/019d7372-a0bb-72c0-847d-5e4439ef5efd.jsonl",
];

/// Budgets, in thousandths of the session's tokens, from a quarter down to the agent's own
/// compaction sizes (2–4%).
const SHARES: &[u64] = &[250, 150, 100, 70, 50, 40, 32, 25, 20];

#[tokio::test]
async fn a_fit_of_a_published_session_lands_within_what_its_plan_said() {
    let b = squash_testkit::sqlite().await;
    let fitter = FitService::new(SquashEngine::offline(b.service.clone()));
    for file in SESSIONS {
        let conv = squash_testkit::fixtures::import_session_data(&b, file).await;
        let before = b.service.current_thread(conv).await.unwrap();
        let total: u64 = before.messages.iter().map(message_cost).sum();
        let mut fitted = 0;
        for share in SHARES {
            let budget = total * share / 1000;
            let request = FitRequest::new(budget, FitStrategy::default());
            let planned = fitter.plan(conv, request).await.unwrap();
            if !planned.plan.fits() {
                continue;
            }
            let promised = planned.plan.tokens_after;
            let outcome = fitter.apply(planned, false, &|_| {}).await.unwrap();
            let after = b.service.current_thread(conv).await.unwrap();
            let written: u64 = after.messages.iter().map(message_cost).sum();
            assert_eq!(written, outcome.tokens_after, "{file} at {share}‰");
            assert!(
                written <= promised && promised <= budget,
                "{file} at {share}‰: wrote {written}, the plan said {promised}, budget {budget}"
            );
            b.service.undo(conv).await.unwrap();
            fitted += 1;
        }
        assert!(
            fitted >= SHARES.len() / 2,
            "{file}: {fitted} budgets reached"
        );
    }
}

/// A hybrid fit holds its budget whatever the model writes: a model whose squashes and gists
/// are long (two sentences of a hundred words each) gets them cut to the room the plan left or
/// replaced by the extracts the plan priced.
#[tokio::test]
async fn a_hybrid_fit_of_a_published_session_holds_its_budget_whatever_the_model_writes() {
    let b = squash_testkit::sqlite().await;
    let clause = "the work went on one step at a time and what came of each step was looked at \
                  again before the next one, ";
    let long = format!(
        "First {}and so on. Then {}until the end.",
        clause.repeat(6),
        clause.repeat(6)
    );
    for file in SESSIONS {
        let conv = squash_testkit::fixtures::import_session_data(&b, file).await;
        let before = b.service.current_thread(conv).await.unwrap();
        let total: u64 = before.messages.iter().map(message_cost).sum();
        let mut asked = 0;
        for share in [100, 40, 25] {
            let model = std::sync::Arc::new(squash_llm::FakeModel::new());
            for _ in 0..2_000 {
                model.push_text(long.clone());
            }
            let fitter = FitService::new(SquashEngine::new(b.service.clone(), model.clone()));
            let budget = total * share / 1000;
            let request = FitRequest::new(budget, FitStrategy::Hybrid);
            let planned = fitter.plan(conv, request).await.unwrap();
            if !planned.plan.fits() {
                continue;
            }
            let outcome = fitter.apply(planned, false, &|_| {}).await.unwrap();
            let after = b.service.current_thread(conv).await.unwrap();
            let written: u64 = after.messages.iter().map(message_cost).sum();
            assert_eq!(written, outcome.tokens_after, "{file} at {share}‰");
            assert!(
                written <= budget,
                "{file} at {share}‰: wrote {written} of a budget of {budget}"
            );
            asked += model.requests().len();
            b.service.undo(conv).await.unwrap();
        }
        assert!(asked > 0, "{file}: the model was never asked");
    }
}
