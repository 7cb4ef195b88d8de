//! One `squash fit` (plan + apply at 25%, the defaults) of a generated agent session, for a
//! profiler: `fit.rs` measures, this runs the fit once on a session stored beforehand, so that
//! `valgrind --tool=callgrind` or `perf record` see the fit and not the import.
//!
//! ```text
//! # store a session of N messages once (SQLite file, or a PostgreSQL schema with SQUASH_FIT_PG)
//! SQUASH_FIT=setup SQUASH_FIT_N=10000 SQUASH_FIT_DB=/tmp/fit.db cargo bench -p squash-app --bench fit_once
//! # then profile the binary cargo built, on a copy of the file (a fit changes it)
//! SQUASH_FIT=fit SQUASH_FIT_DB=/tmp/fit-copy.db valgrind --tool=callgrind target/release/deps/fit_once-…
//! # PostgreSQL: SQUASH_FIT_PG=<schema> (server at SQUASH_TEST_PG); the fit is undone afterwards
//! ```
//!
//! `SQUASH_FIT=plan` plans only. The conversation's id is kept next to the file
//! (`<SQUASH_FIT_DB>.conv`).

#[path = "common/agent_session.rs"]
mod agent_session;

use std::sync::Arc;
use std::time::Instant;

use squash_app::fit::{FitService, FitStrategy};
use squash_app::{ConversationService, SquashEngine};
use squash_core::fit::FitRequest;
use squash_core::ConversationId;
use squash_store::postgres::PostgresStore;
use squash_store::sqlite::SqliteStore;
use squash_store::ConversationStore;

const SEED: u64 = 7;
const SHARE: f64 = 0.25;

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

async fn open() -> Arc<dyn ConversationStore> {
    match env("SQUASH_FIT_PG") {
        Some(schema) => {
            let url = env("SQUASH_TEST_PG")
                .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".into());
            Arc::new(
                PostgresStore::connect_in_schema(&url, &schema)
                    .await
                    .expect("PostgreSQL at SQUASH_TEST_PG"),
            )
        }
        None => {
            let path = env("SQUASH_FIT_DB").expect("SQUASH_FIT_DB: a SQLite file");
            Arc::new(SqliteStore::open(path).expect("sqlite"))
        }
    }
}

/// Where the conversation's id is kept.
fn conv_file() -> String {
    let name = env("SQUASH_FIT_DB")
        .or_else(|| env("SQUASH_FIT_PG").map(|s| format!("/tmp/{s}")))
        .expect("SQUASH_FIT_DB or SQUASH_FIT_PG");
    format!("{name}.conv")
}

fn main() {
    let what = env("SQUASH_FIT").unwrap_or_else(|| "fit".into());
    let rt = tokio::runtime::Runtime::new().expect("tokio runtime");
    rt.block_on(async {
        let store = open().await;
        if what == "setup" {
            let n: usize =
                env("SQUASH_FIT_N").map_or(10_000, |n| n.parse().expect("SQUASH_FIT_N: a number"));
            let conv = ConversationId::new();
            agent_session::store(&store, "fit", conv, agent_session::session(SEED, conv, n)).await;
            std::fs::write(conv_file(), conv.to_string()).expect("write the id");
            return;
        }
        let id = std::fs::read_to_string(conv_file()).expect("run SQUASH_FIT=setup first");
        let conv: ConversationId = id.trim().parse().expect("a conversation id");
        let service = ConversationService::new(store);
        let view = service.current_thread(conv).await.expect("thread");
        // As the store keeps them: estimating the session here would blur the profile.
        let total: u64 = view.message_tokens.iter().sum();
        drop(view);
        let budget = (total as f64 * SHARE) as u64;
        let fitter = FitService::new(SquashEngine::offline(service.clone()));
        let request = FitRequest::new(budget, FitStrategy::default());
        let start = Instant::now();
        let planned = fitter.plan(conv, request).await.expect("plan");
        let planning = start.elapsed();
        println!(
            "plan: {} steps, {} → {} tokens, {:.1} ms",
            planned.plan.steps.len(),
            planned.plan.tokens_before,
            planned.plan.tokens_after,
            planning.as_secs_f64() * 1e3
        );
        if what == "plan" {
            return;
        }
        let outcome = fitter.apply(planned, false, &|_| {}).await.expect("apply");
        let whole = start.elapsed();
        println!(
            "apply: {} steps, {} → {} tokens; plan + apply {:.1} ms (apply {:.1})",
            outcome.steps.len(),
            outcome.tokens_before,
            outcome.tokens_after,
            whole.as_secs_f64() * 1e3,
            (whole - planning).as_secs_f64() * 1e3
        );
        if env("SQUASH_FIT_PG").is_some() {
            service.undo(conv).await.expect("undo");
        }
    });
}
