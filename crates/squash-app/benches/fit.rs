//! `squash fit --strategy mask` on generated agent sessions (the fit evaluation's generator:
//! requests, test runs, builds, file reads and searches; ~90% of the tokens are tool output),
//! through `FitService` on a SQLite file, and on PostgreSQL with `SQUASH_BENCH=pg`.
//!
//! ```text
//! cargo bench -p squash-app --bench fit
//! SQUASH_BENCH=pg cargo bench -p squash-app --bench fit   # also PostgreSQL (SQUASH_TEST_PG)
//! ```
//!
//! Prints two tables (see BENCHMARKS.md, "Fitting a session"):
//! * planning at 1,000 / 2,500 / 5,000 / 10,000 messages: the plan as the service makes it
//!   (read the current thread, then plan), the planner alone on the messages in memory, and the
//!   floor measured in the same run — reading the thread's messages from the store — with the
//!   time per message of each, for linearity;
//! * plan + apply at 10,000 messages (the budget is 25% of the session, which masks alone do not
//!   reach, so every mask is applied: the most work a mask fit does), and apply alone with the
//!   read it makes timed alone; the rest of apply is its one commit (new messages, operations,
//!   a ~10,000-link thread).
//!
//! Medians of `RUNS` runs after one warm-up; wall clock and the process's CPU time. Each apply
//! is undone (not timed) before the next run.

#[allow(dead_code)]
#[path = "../examples/fit_eval/generate.rs"]
mod generate;
#[allow(dead_code)]
#[path = "../examples/fit_eval/names.rs"]
mod names;
#[allow(dead_code)]
#[path = "../examples/fit_eval/outputs.rs"]
mod outputs;

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use squash_app::fit::{message_cost, FitService, FitStrategy};
use squash_app::{ConversationService, SquashEngine};
use squash_core::fit::{plan_fit, FitRequest, StepAction, DEFAULT_KEEP_LAST};
use squash_core::{ConversationId, Message, MessageId, SourceFormat, ThreadId, ThreadOrigin};
use squash_store::postgres::PostgresStore;
use squash_store::sqlite::SqliteStore;
use squash_store::{ConversationStore, ImportBatch, ImportSource, ImportThread};
use tokio::runtime::Runtime;

const SIZES: [usize; 4] = [1_000, 2_500, 5_000, 10_000];
const SEED: u64 = 7;
const RUNS: usize = 7;
const SHARE: f64 = 0.25;

/// Wall clock and process CPU time of one run.
#[derive(Clone, Copy)]
struct Sample {
    wall: Duration,
    cpu: Duration,
}

/// CPU time of all threads of this process (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn process_cpu() -> Duration {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    let rc = unsafe { clock_gettime(2, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn process_cpu() -> Duration {
    Duration::ZERO
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

/// Medians of wall and CPU time over `RUNS` runs of `f`, after one untimed warm-up; `reset`
/// runs after each (untimed).
fn median_of(mut f: impl FnMut() -> Sample, mut reset: impl FnMut()) -> Sample {
    f();
    reset();
    let mut walls = Vec::with_capacity(RUNS);
    let mut cpus = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let s = f();
        reset();
        walls.push(s.wall);
        cpus.push(s.cpu);
    }
    walls.sort();
    cpus.sort();
    Sample {
        wall: walls[RUNS / 2],
        cpu: cpus[RUNS / 2],
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

fn per_message(d: Duration, n: usize) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6 / n as f64)
}

/// A session of at least `n` messages: the first turns of the seed's session.
fn session(conv: ConversationId, n: usize) -> Vec<Message> {
    generate::session(SEED, n)
        .messages
        .into_iter()
        .map(|(role, content)| Message::new(conv, role, content).expect("valid message"))
        .collect()
}

/// The session stored in one import transaction, as `squash import` stores one.
async fn stored(
    store: Arc<dyn ConversationStore>,
    n: usize,
) -> (ConversationService, ConversationId) {
    let conv = ConversationId::new();
    let messages = session(conv, n);
    let links: Vec<MessageId> = messages.iter().map(|m| m.id).collect();
    let (now, thread) = (Utc::now(), ThreadId::new());
    store
        .import_conversation(ImportBatch {
            source: ImportSource {
                source_key: format!("bench-fit:{conv}"),
                format: SourceFormat::Squash,
                content_hash: "1".into(),
                metadata: None,
            },
            project_path: "/bench/fit".into(),
            conversation_id: conv,
            display_name: format!("fit bench {n}"),
            created_at: now,
            updated_at: now,
            messages,
            threads: vec![ImportThread {
                id: thread,
                original_thread_id: None,
                origin: ThreadOrigin::Initial,
                revision: 0,
                links,
                created_at: now,
                updated_at: now,
            }],
            current_thread_id: thread,
            operations: Vec::new(),
        })
        .await
        .expect("import");
    (ConversationService::new(store), conv)
}

fn request(budget: u64) -> FitRequest {
    FitRequest {
        budget,
        keep_last: DEFAULT_KEEP_LAST,
        strategy: FitStrategy::Mask,
    }
}

struct Fixture {
    service: ConversationService,
    conv: ConversationId,
    messages: Vec<Message>,
    budget: u64,
}

impl Fixture {
    fn new(rt: &Runtime, store: Arc<dyn ConversationStore>, n: usize) -> Fixture {
        let (service, conv) = rt.block_on(stored(store, n));
        let messages = rt
            .block_on(service.current_thread(conv))
            .expect("thread")
            .messages;
        let total: u64 = messages.iter().map(message_cost).sum();
        Fixture {
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
}

fn planning_table(rt: &Runtime, label: &str, open: &dyn Fn() -> Arc<dyn ConversationStore>) {
    println!("\nplanning, {label} (median of {RUNS}; µs/msg = per message)\n");
    println!("| messages | tokens | masks | floor: read thread ms (µs/msg) | plan via service ms (µs/msg) | planner alone ms (µs/msg) | plan − floor µs/msg | CPU plan ms |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in SIZES {
        let f = Fixture::new(rt, open(), n);
        let n = f.messages.len();
        let floor = median_of(
            || sample(|| rt.block_on(f.service.current_thread(f.conv)).expect("read")).0,
            || {},
        );
        let fitter = f.fitter();
        let plan = median_of(
            || {
                sample(|| {
                    rt.block_on(fitter.plan(f.conv, request(f.budget)))
                        .expect("plan")
                })
                .0
            },
            || {},
        );
        let refs: Vec<&Message> = f.messages.iter().collect();
        let (_, planned) = sample(|| plan_fit(&refs, request(f.budget), &message_cost));
        let alone = median_of(
            || sample(|| plan_fit(&refs, request(f.budget), &message_cost)).0,
            || {},
        );
        println!(
            "| {n} | {} | {} | {} ({}) | {} ({}) | {} ({}) | {} | {} |",
            f.tokens(),
            planned.steps.len(),
            ms(floor.wall),
            per_message(floor.wall, n),
            ms(plan.wall),
            per_message(plan.wall, n),
            ms(alone.wall),
            per_message(alone.wall, n),
            per_message(plan.wall.saturating_sub(floor.wall), n),
            ms(plan.cpu),
        );
    }
}

fn apply_table(rt: &Runtime, label: &str, store: Arc<dyn ConversationStore>) {
    let f = Fixture::new(rt, store, 10_000);
    let fitter = f.fitter();
    let undo = || {
        rt.block_on(f.service.undo(f.conv)).expect("undo");
    };
    let whole = median_of(
        || {
            sample(|| {
                rt.block_on(async {
                    let planned = fitter.plan(f.conv, request(f.budget)).await?;
                    fitter.apply(planned, true, &|_| {}).await
                })
                .expect("fit")
            })
            .0
        },
        undo,
    );
    let apply = median_of(
        || {
            let planned = rt
                .block_on(fitter.plan(f.conv, request(f.budget)))
                .expect("plan");
            sample(|| {
                rt.block_on(fitter.apply(planned, true, &|_| {}))
                    .expect("apply")
            })
            .0
        },
        undo,
    );
    let planned = rt
        .block_on(fitter.plan(f.conv, request(f.budget)))
        .expect("plan");
    let masked: Vec<MessageId> = planned
        .plan
        .steps
        .iter()
        .filter(|s| s.action == StepAction::Mask)
        .map(|s| s.sources[0])
        .collect();
    // What apply reads before it commits: the masked messages, in one call.
    let reads = median_of(
        || sample(|| rt.block_on(f.service.messages(&masked)).expect("messages")).0,
        || {},
    );
    let floor = median_of(
        || sample(|| rt.block_on(f.service.current_thread(f.conv)).expect("read")).0,
        || {},
    );
    let outcome = {
        let planned = rt
            .block_on(fitter.plan(f.conv, request(f.budget)))
            .expect("plan");
        rt.block_on(fitter.apply(planned, true, &|_| {}))
            .expect("apply")
    };
    println!("\nplan + apply at 10,000 messages, {label} (median of {RUNS})\n");
    println!(
        "{} messages, {} → {} tokens (budget {}), {} mask steps\n",
        f.messages.len(),
        outcome.tokens_before,
        outcome.tokens_after,
        f.budget,
        outcome.steps.len()
    );
    println!("| part | wall ms | CPU ms |\n|---|---:|---:|");
    for (part, s) in [
        (
            "plan + apply (`squash fit --strategy mask --best-effort`)",
            whole,
        ),
        ("apply alone (compute the masks, one commit)", apply),
        ("  of which: reading the masked messages (one call)", reads),
        ("floor: read the thread's messages", floor),
    ] {
        println!("| {part} | {} | {} |", ms(s.wall), ms(s.cpu));
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
    let parts = std::env::var("SQUASH_BENCH").unwrap_or_default();
    planning_table(&rt, "SQLite", &sqlite);
    apply_table(&rt, "SQLite", sqlite());
    if parts.split(',').any(|p| p == "pg") {
        let url = std::env::var("SQUASH_TEST_PG")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
        let schema = format!("bench_fit_{}", uuid::Uuid::now_v7().simple());
        let store = Arc::new(
            rt.block_on(PostgresStore::connect_in_schema(&url, &schema))
                .expect("PostgreSQL at SQUASH_TEST_PG"),
        );
        apply_table(&rt, "PostgreSQL", store.clone());
        rt.block_on(store.drop_schema())
            .expect("drop the bench schema");
    }
}
