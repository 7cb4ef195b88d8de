//! What an AI squash costs beyond the model: reading the selection, building the prompt,
//! estimating tokens, guarding and reporting on the answer, and applying it as a new thread
//! with its provenance — measured with a model that answers at once (so the whole time is
//! overhead) on a SQLite file holding a 2,000-message conversation, squashing 10 messages per
//! run as `squash demo` does.
//!
//! ```text
//! cargo bench -p squash-app --bench squash_overhead
//! ```
//!
//! Prints the median, p90 and max of the squash (model call included, which takes ~0) and of
//! the apply, over 60 runs after 5 warm-up runs. Goal: < 50 ms together.

use std::sync::Arc;
use std::time::{Duration, Instant};

use squash_app::{ConversationService, SquashEngine, SquashOptions};
use squash_core::{ContentItem, ConversationId, Role};
use squash_llm::FakeModel;
use squash_store::sqlite::SqliteStore;
use squash_store::ConversationStore;

const MESSAGES: usize = 2_000;
const SELECTED: usize = 10;
const WARMUP: usize = 5;
const RUNS: usize = 60;

fn content(i: usize) -> (Role, Vec<ContentItem>) {
    match i % 4 {
        0 => (
            Role::User,
            vec![ContentItem::text_for(
                Role::User,
                format!(
                    "Step {i}: cargo test fails in crates/config with E0425 at src/lib.rs:{i}."
                ),
            )],
        ),
        1 => (
            Role::Assistant,
            vec![ContentItem::tool_call(
                format!("t{i}"),
                "Bash",
                serde_json::json!({"command": format!("cargo test -p config -- case_{i}")}),
            )],
        ),
        2 => (
            Role::User,
            vec![ContentItem::tool_result(
                format!("t{}", i - 1),
                "Bash",
                format!(
                    "running 4 tests\ntest case_{i} ... FAILED\nthread panicked at \
                     src/lib.rs:{i}:10: missing field `timeout_secs`\n{}",
                    "test other ... ok\n".repeat(8)
                ),
                true,
            )],
        ),
        _ => (
            Role::Assistant,
            vec![ContentItem::text_for(
                Role::Assistant,
                format!(
                    "The field timeout_secs has no serde default; adding default_timeout_secs() \
                     returning 30 fixes case_{i}."
                ),
            )],
        ),
    }
}

fn stats(label: &str, mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{label:<28} median {:>7.2} ms   p90 {:>7.2} ms   max {:>7.2} ms",
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(1.0))
    );
    at(0.5)
}

fn main() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn ConversationStore> =
        Arc::new(SqliteStore::open(dir.path().join("bench.db")).expect("open"));
    let service = ConversationService::new(store);
    let conv: ConversationId = rt.block_on(async {
        let conv = service
            .create_conversation("/bench", "Overhead")
            .await
            .expect("conversation");
        for i in 0..MESSAGES {
            let (role, items) = content(i);
            service.append(conv.id, role, items).await.expect("append");
        }
        conv.id
    });

    let model = Arc::new(FakeModel::new().with_model("instant"));
    let engine =
        SquashEngine::new(service.clone(), model.clone()).with_options(SquashOptions::default());
    let (mut squash, mut apply, mut total) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..WARMUP + RUNS {
        rt.block_on(async {
            let links = service.current_links(conv).await.expect("links").links;
            // A run of whole tool-call/result pairs from the middle of the thread, each run a
            // different one.
            let start = (links.len() / 2 + run * 4) & !3;
            let selection = &links[start..start + SELECTED];
            // Unique per run: an earlier run's result may be in this selection, and an answer
            // that only repeats it would be refused as a copy.
            model.push_text(format!(
                "Run {run}: E0425 in crates/config fixed; timeout_secs defaults to 30 via \
                 default_timeout_secs()."
            ));
            let t0 = Instant::now();
            let result = engine
                .squash_messages(conv, selection, None)
                .await
                .expect("squash");
            let t1 = Instant::now();
            engine.apply(&result).await.expect("apply");
            let t2 = Instant::now();
            if run >= WARMUP {
                squash.push(t1 - t0);
                apply.push(t2 - t1);
                total.push(t2 - t0);
            }
        });
    }
    println!("AI squash overhead beyond the model ({MESSAGES} messages, {SELECTED} selected, {RUNS} runs, SQLite file)");
    stats("compute (prompt, guard, report)", squash);
    stats("apply (new thread + record)", apply);
    let median = stats("total", total);
    println!(
        "goal < 50 ms: {}",
        if median < Duration::from_millis(50) {
            "met"
        } else {
            "missed"
        }
    );
}
