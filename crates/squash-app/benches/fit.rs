//! `squash fit` with the defaults (the `extract` strategy: trim, then one-line extracts, then
//! runs' extracts; no model) through `FitService`, on a SQLite file, and on PostgreSQL with
//! `SQUASH_BENCH=pg`: on the largest published session with a compaction (its history before
//! the compaction, a 3.5 MB file) and on generated agent sessions (the fit evaluation's
//! generator: requests, test runs, builds, file reads and searches; ~90% of the tokens are tool
//! output) of 10,000 and 100,000 messages.
//!
//! ```text
//! cargo bench -p squash-app --bench fit
//! SQUASH_BENCH=pg cargo bench -p squash-app --bench fit   # also PostgreSQL (SQUASH_TEST_PG)
//! SQUASH_BENCH_SIZES=1000,10000 cargo bench -p squash-app --bench fit
//! ```
//!
//! Prints two tables (see BENCHMARKS.md, "Fitting a session"):
//! * planning at each size: the floor measured in the same run (reading the thread's messages
//!   from the store, which every plan starts with), the plan as the service makes it, and the
//!   planner alone on the messages in memory split into its two parts (one summary per
//!   message, then the plan from the summaries), with the time per message of each;
//! * plan + apply at 25% of each session (what `squash fit CONV --budget N` does), apply alone,
//!   and the floor; the rest of apply is its one commit (the new messages, one operation each,
//!   the new thread's links).
//!
//! Medians of `RUNS` runs after one warm-up (`RUNS_LARGE` at 100,000 messages); wall clock and
//! the process's CPU time. Each apply is undone (not timed) before the next run.

#[path = "common/agent_session.rs"]
mod agent_session;
#[path = "common/cpu.rs"]
mod cpu;

use std::sync::Arc;
use std::time::{Duration, Instant};

use squash_app::fit::{message_cost, FitService, FitStrategy};
use squash_app::import::{ImportOptions, NoProgress};
use squash_app::workers::workers;
use squash_app::{ConversationService, SquashEngine};
use squash_core::fit::{plan_summaries, summarize_thread, FitRequest};
use squash_core::{ConversationId, Message};
use squash_store::postgres::PostgresStore;
use squash_store::sqlite::SqliteStore;
use squash_store::ConversationStore;
use tokio::runtime::Runtime;

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];
const SEED: u64 = 7;
const RUNS: usize = 7;
const RUNS_LARGE: usize = 3;
const SHARE: f64 = 0.25;
/// The largest published session with a compaction (testdata/SOURCES.md).
const REAL_SESSION: &str =
    "claude-code-compacted-fa812bfe/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl";

/// Wall clock and process CPU time of one run.
#[derive(Clone, Copy)]
struct Sample {
    wall: Duration,
    cpu: Duration,
}

/// CPU time of all threads of this process (zero where it cannot be read).
fn process_cpu() -> Duration {
    Duration::from_nanos(cpu::process_cpu_ns().unwrap_or(0))
}

fn sample<T>(f: impl FnOnce() -> T) -> (Sample, T) {
    let (cpu, wall) = (process_cpu(), Instant::now());
    let out = f();
    let s = Sample {
        wall: wall.elapsed(),
        cpu: process_cpu().saturating_sub(cpu),
    };
    (s, out)
}

/// Medians of wall and CPU time over `runs` runs of `f`, after one untimed warm-up; `reset`
/// runs after each (untimed).
fn median_of(runs: usize, mut f: impl FnMut() -> Sample, mut reset: impl FnMut()) -> Sample {
    f();
    reset();
    let mut walls = Vec::with_capacity(runs);
    let mut cpus = Vec::with_capacity(runs);
    for _ in 0..runs {
        let s = f();
        reset();
        walls.push(s.wall);
        cpus.push(s.cpu);
    }
    walls.sort();
    cpus.sort();
    Sample {
        wall: walls[runs / 2],
        cpu: cpus[runs / 2],
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

fn per_message(d: Duration, n: usize) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6 / n as f64)
}

/// A session of at least `n` messages: whole turns of the seed's session, in pieces of
/// [`agent_session::PIECE`] messages from seeds `SEED`, `SEED + 1` … for larger ones.
fn session(conv: ConversationId, n: usize) -> Vec<Message> {
    agent_session::session(SEED, conv, n)
}

/// The session stored in one import transaction, as `squash import` stores one.
async fn stored(
    store: Arc<dyn ConversationStore>,
    n: usize,
) -> (ConversationService, ConversationId) {
    let conv = ConversationId::new();
    agent_session::store(&store, "fit", conv, session(conv, n)).await;
    (ConversationService::new(store), conv)
}

/// What `squash fit CONV --budget N` asks for.
fn request(budget: u64) -> FitRequest {
    FitRequest::new(budget, FitStrategy::default())
}

fn runs_for(n: usize) -> usize {
    if n > 20_000 {
        RUNS_LARGE
    } else {
        RUNS
    }
}

struct Fixture {
    label: String,
    service: ConversationService,
    conv: ConversationId,
    messages: Vec<Message>,
    budget: u64,
}

impl Fixture {
    fn generated(rt: &Runtime, store: Arc<dyn ConversationStore>, n: usize) -> Fixture {
        let (service, conv) = rt.block_on(stored(store, n));
        Fixture::of(rt, service, conv, format!("generated, {n} messages"))
    }

    /// The published session's history before its compaction, imported as `squash import`
    /// does, the history thread made current.
    fn real(rt: &Runtime, store: Arc<dyn ConversationStore>) -> Fixture {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/sessions");
        let path = root.join(REAL_SESSION);
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let service = ConversationService::new(store);
        let conv = rt.block_on(async {
            let summary = service
                .import_file(&path, &ImportOptions::default(), Arc::new(NoProgress))
                .await
                .expect("import the session");
            let conv = summary.conversations[0].conversation_id;
            // The longest thread is the history before the compaction.
            let history = service.history(conv).await.expect("threads");
            let longest = history
                .iter()
                .max_by_key(|e| e.thread.message_count)
                .expect("a thread")
                .thread
                .id;
            service.switch_thread(conv, longest).await.expect("switch");
            conv
        });
        let label = format!("published session, {:.1} MB file", bytes as f64 / 1e6);
        Fixture::of(rt, service, conv, label)
    }

    fn of(
        rt: &Runtime,
        service: ConversationService,
        conv: ConversationId,
        label: String,
    ) -> Fixture {
        let messages = rt
            .block_on(service.current_thread(conv))
            .expect("thread")
            .messages;
        let total: u64 = messages.iter().map(message_cost).sum();
        Fixture {
            label,
            service,
            conv,
            messages,
            budget: (total as f64 * SHARE) as u64,
        }
    }

    fn fitter(&self) -> FitService {
        FitService::new(SquashEngine::offline(self.service.clone()))
    }

    fn tokens(&self) -> u64 {
        self.messages.iter().map(message_cost).sum()
    }

    fn text_mb(&self) -> f64 {
        self.messages
            .iter()
            .map(|m| serde_json::to_string(&m.content).map_or(0, |s| s.len()))
            .sum::<usize>() as f64
            / 1e6
    }
}

fn planning_table(
    rt: &Runtime,
    label: &str,
    sizes: &[usize],
    open: &dyn Fn() -> Arc<dyn ConversationStore>,
) {
    println!("\nplanning, {label} (medians; µs/msg = per message)\n");
    println!("| messages | tokens | steps planned | floor: read thread ms (µs/msg) | plan via service ms (µs/msg) | planner alone ms (µs/msg) | of which: summaries ms | of which: plan ms | CPU plan ms |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &n in sizes {
        let f = Fixture::generated(rt, open(), n);
        let n = f.messages.len();
        let runs = runs_for(n);
        let floor = median_of(
            runs,
            || sample(|| rt.block_on(f.service.current_thread(f.conv)).expect("read")).0,
            || {},
        );
        let fitter = f.fitter();
        let plan = median_of(
            runs,
            || {
                sample(|| {
                    rt.block_on(fitter.plan(f.conv, request(f.budget)))
                        .expect("plan")
                })
                .0
            },
            || {},
        );
        // As the service summarizes: side by side on the threads `SQUASH_WORKERS` allows.
        let summarized_now = || summarize_thread(&f.messages, None, workers());
        let summaries = summarized_now();
        let planned = plan_summaries(&summaries, request(f.budget), workers());
        let summarized = median_of(runs, || sample(summarized_now).0, || {});
        let planner = median_of(
            runs,
            || sample(|| plan_summaries(&summaries, request(f.budget), workers())).0,
            || {},
        );
        let alone = summarized.wall + planner.wall;
        println!(
            "| {n} | {} | {} | {} ({}) | {} ({}) | {} ({}) | {} | {} | {} |",
            f.tokens(),
            planned.steps.len(),
            ms(floor.wall),
            per_message(floor.wall, n),
            ms(plan.wall),
            per_message(plan.wall, n),
            ms(alone),
            per_message(alone, n),
            ms(summarized.wall),
            ms(planner.wall),
            ms(plan.cpu),
        );
    }
}

fn apply_rows(rt: &Runtime, f: &Fixture) {
    let fitter = f.fitter();
    let runs = runs_for(f.messages.len());
    let undo = || {
        rt.block_on(f.service.undo(f.conv)).expect("undo");
    };
    let whole = median_of(
        runs,
        || {
            sample(|| {
                rt.block_on(async {
                    let planned = fitter.plan(f.conv, request(f.budget)).await?;
                    fitter.apply(planned, false, &|_| {}).await
                })
                .expect("fit")
            })
            .0
        },
        undo,
    );
    let apply = median_of(
        runs,
        || {
            let planned = rt
                .block_on(fitter.plan(f.conv, request(f.budget)))
                .expect("plan");
            sample(|| {
                rt.block_on(fitter.apply(planned, false, &|_| {}))
                    .expect("apply")
            })
            .0
        },
        undo,
    );
    let floor = median_of(
        runs,
        || sample(|| rt.block_on(f.service.current_thread(f.conv)).expect("read")).0,
        || {},
    );
    let outcome = {
        let planned = rt
            .block_on(fitter.plan(f.conv, request(f.budget)))
            .expect("plan");
        rt.block_on(fitter.apply(planned, false, &|_| {}))
            .expect("apply")
    };
    undo();
    println!(
        "| {} | {} ({:.1} MB of content) | {} → {} (budget {}) | {} | **{}** ({}) | {} ({}) | {} ({}) |",
        f.label,
        f.messages.len(),
        f.text_mb(),
        outcome.tokens_before,
        outcome.tokens_after,
        f.budget,
        outcome.steps.len(),
        ms(whole.wall),
        ms(whole.cpu),
        ms(apply.wall),
        ms(apply.cpu),
        ms(floor.wall),
        ms(floor.cpu),
    );
}

fn apply_table(
    rt: &Runtime,
    label: &str,
    sizes: &[usize],
    open: &dyn Fn() -> Arc<dyn ConversationStore>,
) {
    println!("\nplan + apply at 25% with the defaults, {label} (medians; wall ms (CPU ms))\n");
    println!("| session | messages | tokens before → after | steps | plan + apply | apply alone | floor: read the thread |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    apply_rows(rt, &Fixture::real(rt, open()));
    for &n in sizes.iter().filter(|&&n| n >= agent_session::PIECE) {
        apply_rows(rt, &Fixture::generated(rt, open(), n));
    }
}

fn main() {
    let rt = Runtime::new().expect("tokio runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let counter = std::sync::atomic::AtomicUsize::new(0);
    let sqlite = || -> Arc<dyn ConversationStore> {
        let k = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Arc::new(SqliteStore::open(dir.path().join(format!("fit-{k}.db"))).expect("sqlite"))
    };
    let sizes: Vec<usize> = match std::env::var("SQUASH_BENCH_SIZES") {
        Ok(list) => list
            .split(',')
            .map(|n| n.trim().parse().expect("SQUASH_BENCH_SIZES: numbers"))
            .collect(),
        Err(_) => SIZES.to_vec(),
    };
    let parts = std::env::var("SQUASH_BENCH").unwrap_or_default();
    planning_table(&rt, "SQLite", &sizes, &sqlite);
    apply_table(&rt, "SQLite", &sizes, &sqlite);
    if parts.split(',').any(|p| p == "pg") {
        let url = std::env::var("SQUASH_TEST_PG")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
        let schemas = std::sync::Mutex::new(Vec::new());
        let pg = || -> Arc<dyn ConversationStore> {
            let schema = format!("bench_fit_{}", uuid::Uuid::now_v7().simple());
            let store = Arc::new(
                rt.block_on(PostgresStore::connect_in_schema(&url, &schema))
                    .expect("PostgreSQL at SQUASH_TEST_PG"),
            );
            schemas.lock().expect("lock").push(store.clone());
            store
        };
        apply_table(&rt, "PostgreSQL", &sizes, &pg);
        for store in schemas.lock().expect("lock").drain(..) {
            rt.block_on(store.drop_schema())
                .expect("drop the bench schema");
        }
    }
}
