//! `recall` (what `squash mcp`'s tool and `squash recall` answer with) on a generated agent
//! session of 100,000 messages fitted with the defaults, on a SQLite file and, with
//! `SQUASH_BENCH=pg`, on PostgreSQL (`SQUASH_TEST_PG`). See BENCHMARKS.md ("Recall").
//!
//! ```text
//! cargo bench -p squash-app --bench recall
//! SQUASH_BENCH=pg cargo bench -p squash-app --bench recall
//! SQUASH_BENCH_MESSAGES=10000 cargo bench -p squash-app --bench recall
//! ```
//!
//! The session is the fit bench's generator (requests, test runs, builds, reads, searches) fitted
//! at 10% and at 25% of its tokens and to the smallest it reaches, so that its references stand
//! for everything from one trimmed output to a digest of thousands of messages. Each reference's first page (200 lines) and a
//! page from its middle are recalled in turn until `SAMPLES` calls are timed; p50, p95, p99 and
//! the slowest, against the floor measured in the same run: one message read by its id through
//! the same service (`ConversationService::message`).

#[path = "common/agent_session.rs"]
mod agent_session;
#[path = "common/cpu.rs"]
mod cpu;

use std::sync::Arc;
use std::time::{Duration, Instant};

use squash_app::fit::{message_cost, FitService, FitStrategy};
use squash_app::recall::LinePage;
use squash_app::{ConversationService, SquashEngine};
use squash_core::fit::FitRequest;
use squash_core::{ConversationId, Message, RecallRef};
use squash_store::postgres::PostgresStore;
use squash_store::sqlite::SqliteStore;
use squash_store::ConversationStore;
use tokio::runtime::Runtime;

const SEED: u64 = 11;
const SAMPLES: usize = 2_000;
/// 0: the smallest the fit reaches (best effort), where digests stand for thousands of messages.
const SHARES: [f64; 3] = [0.0, 0.10, 0.25];

fn session(conv: ConversationId, n: usize) -> Vec<Message> {
    agent_session::session(SEED, conv, n)
}

/// The session stored as one import, then fitted at `share` of its tokens: the service, the
/// conversation, its references.
async fn fitted(
    store: Arc<dyn ConversationStore>,
    n: usize,
    share: f64,
) -> (ConversationService, ConversationId, Vec<RecallRef>) {
    let conv = ConversationId::new();
    let messages = session(conv, n);
    let total: u64 = messages.iter().map(message_cost).sum();
    agent_session::store(&store, "recall", conv, messages).await;
    let service = ConversationService::new(store);
    let fitter = FitService::new(SquashEngine::offline(service.clone()));
    let budget = (total as f64 * share) as u64;
    let planned = fitter
        .plan(conv, FitRequest::new(budget, FitStrategy::default()))
        .await
        .expect("plan");
    let outcome = fitter
        .apply(planned, true, &|_| {})
        .await
        .expect("the fit applies");
    let mut refs = Vec::new();
    for step in &outcome.steps {
        let op = service.operation(step.operation_id).await.expect("op");
        refs.extend(op.recall_ref);
    }
    (service, conv, refs)
}

struct Spread {
    p50: Duration,
    p95: Duration,
    p99: Duration,
    max: Duration,
}

fn spread(mut samples: Vec<Duration>) -> Spread {
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    Spread {
        p50: at(0.50),
        p95: at(0.95),
        p99: at(0.99),
        max: *samples.last().expect("samples"),
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn row(backend: &str, what: &str, s: &Spread, floor: &Spread) {
    println!(
        "| {backend} | {what} | {} | {} | {} | {} | {:.1}× |",
        ms(s.p50),
        ms(s.p95),
        ms(s.p99),
        ms(s.max),
        s.p99.as_secs_f64() / floor.p99.as_secs_f64().max(1e-9),
    );
}

fn measure(rt: &Runtime, backend: &str, store: Arc<dyn ConversationStore>, n: usize, share: f64) {
    let (service, conv, refs) = rt.block_on(fitted(store, n, share));
    assert!(!refs.is_empty(), "the fit made references");
    // How many lines each original has, and the largest source count, once, untimed.
    let mut sizes = Vec::new();
    let mut most_sources = 0;
    for &r in &refs {
        let first = rt
            .block_on(service.recall(
                conv,
                r,
                LinePage {
                    offset: 0,
                    limit: None,
                },
            ))
            .expect("recall");
        most_sources = most_sources.max(first.messages);
        sizes.push(
            first
                .total_lines
                .unwrap_or(first.next_offset.unwrap_or(0) * 2),
        );
    }
    let thread = rt
        .block_on(service.current_thread(conv))
        .expect("thread")
        .messages;
    let (mut first_pages, mut middles, mut floor) = (Vec::new(), Vec::new(), Vec::new());
    let cpu_start = cpu::process_cpu_ns();
    let started = Instant::now();
    for i in 0..SAMPLES {
        let k = i % refs.len();
        let t = Instant::now();
        rt.block_on(service.recall(
            conv,
            refs[k],
            LinePage {
                offset: 0,
                limit: None,
            },
        ))
        .expect("recall");
        first_pages.push(t.elapsed());
        let middle = sizes[k] / 2;
        let t = Instant::now();
        rt.block_on(service.recall(
            conv,
            refs[k],
            LinePage {
                offset: middle,
                limit: None,
            },
        ))
        .expect("recall");
        middles.push(t.elapsed());
        let id = thread[i % thread.len()].id;
        let t = Instant::now();
        rt.block_on(service.message(id)).expect("message");
        floor.push(t.elapsed());
    }
    let wall = started.elapsed();
    let cpu = match (cpu_start, cpu::process_cpu_ns()) {
        (Some(a), Some(b)) => format!("{:.1} s", (b - a) as f64 / 1e9),
        _ => "unknown".into(),
    };
    let floor = spread(floor);
    let what = |page: &str| {
        format!(
            "{n} messages fitted to {:.0}%: {} refs (up to {most_sources} sources), {page}",
            share * 100.0,
            refs.len()
        )
    };
    row(backend, &what("first page"), &spread(first_pages), &floor);
    row(backend, &what("a middle page"), &spread(middles), &floor);
    row(backend, "floor: one message by id", &floor, &floor);
    eprintln!(
        "{backend}: {} calls in {:.1} s wall, {cpu} CPU",
        SAMPLES * 3,
        wall.as_secs_f64()
    );
}

fn main() {
    let n: usize = std::env::var("SQUASH_BENCH_MESSAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let rt = Runtime::new().expect("runtime");
    println!("| backend | recall | p50 | p95 | p99 | max | p99 / floor's p99 |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for share in SHARES {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SqliteStore::open(dir.path().join("recall.db")).expect("sqlite");
        measure(&rt, "SQLite", Arc::new(store), n, share);
        if std::env::var("SQUASH_BENCH").as_deref() == Ok("pg") {
            let url = std::env::var("SQUASH_TEST_PG")
                .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
            let schema = format!("bench_recall_{}", std::process::id());
            let store = Arc::new(
                rt.block_on(PostgresStore::connect_in_schema(&url, &schema))
                    .expect("PostgreSQL"),
            );
            measure(&rt, "PostgreSQL", store.clone(), n, share);
            rt.block_on(store.drop_schema())
                .expect("drop the bench schema");
        }
    }
}
