//! Full-text search over 100,000 messages, through `ConversationService::search`, on SQLite and
//! (when `SQUASH_BENCH_PG=1`, server at `SQUASH_TEST_PG`) PostgreSQL. See BENCHMARKS.md
//! ("Search") for the command and the figures.
//!
//! The data: 50 conversations of 2,000 messages, generated from a fixed seed like a coding-agent
//! session: user requests, assistant prose, tool calls (shell commands, file reads, edits) and
//! tool results (test logs, compiler errors, file contents), words drawn from a Zipf-like
//! vocabulary so that some are in most messages and most are rare. Each conversation then gets
//! a few squashes, so that current threads leave some messages out, as real ones do.
//!
//! The queries: rare and common words, two-word ANDs, phrases, one conversation's scope —
//! each run in turn until every query has `ROUNDS` samples; p50/p95/p99/max per kind and over
//! all. The floor, in the same run and the same process: `ConversationService::message` (one
//! primary-key lookup through the same store and service).
//!
//! Then the history search (`ConversationService::search_history`, what the MCP `search` tool
//! calls): one more conversation of 100,000 messages from the same generator is stored in the
//! same database, 200 squashes take messages out of its thread, and the same kinds of queries
//! run over its whole history (`SQUASH_BENCH_HISTORY=0` skips it).

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use squash_app::{ConversationService, ManualSquashRequest, PartnerPolicy};
use squash_core::{
    ContentItem, ConversationId, Message, MessageId, Role, SourceFormat, StructuredText,
    ToolResultData,
};
use squash_store::postgres::PostgresStore;
use squash_store::sqlite::SqliteStore;
use squash_store::{ConversationStore, ImportBatch, ImportSource};

const CONVERSATIONS: usize = 50;
const PER_CONVERSATION: usize = 2_000;
const ROUNDS: usize = 40;
const SQUASHES_PER_CONVERSATION: usize = 5;
/// The conversation whose whole history the history search runs over.
const HISTORY_SIZE: usize = 100_000;
const HISTORY_SQUASHES: usize = 200;

const PROSE: &[&str] = &[
    "the",
    "a",
    "to",
    "and",
    "of",
    "in",
    "is",
    "it",
    "that",
    "for",
    "this",
    "we",
    "with",
    "on",
    "be",
    "not",
    "should",
    "now",
    "then",
    "file",
    "test",
    "change",
    "function",
    "error",
    "fix",
    "build",
    "check",
    "run",
    "value",
    "type",
    "return",
    "call",
    "case",
    "config",
    "update",
    "module",
    "handler",
    "request",
    "response",
    "server",
    "client",
    "cache",
    "index",
    "query",
    "thread",
    "message",
    "parser",
    "token",
    "buffer",
    "stream",
    "retry",
    "timeout",
    "path",
    "option",
    "result",
    "struct",
    "field",
    "method",
    "trait",
    "import",
    "export",
    "format",
    "output",
    "input",
    "layout",
    "render",
    "button",
    "window",
    "event",
    "listener",
    "state",
    "store",
    "database",
    "migration",
    "schema",
    "column",
    "row",
    "commit",
    "branch",
    "merge",
    "deploy",
    "release",
    "version",
    "dependency",
    "feature",
    "flag",
    "log",
    "warning",
    "panic",
    "failure",
    "success",
    "missing",
    "invalid",
    "expected",
    "found",
    "because",
    "instead",
    "looks",
    "like",
    "seems",
    "maybe",
    "let",
    "me",
    "see",
    "why",
    "how",
    "where",
    "what",
    "still",
    "again",
    "after",
    "before",
    "first",
    "last",
    "next",
    "only",
    "also",
    "both",
];
const COMMANDS: &[&str] = &[
    "cargo test",
    "cargo build --release",
    "cargo clippy",
    "npm run lint",
    "git status",
    "git diff",
    "rg -n",
    "ls -la",
    "pytest -x",
    "make check",
    "docker compose up",
];
const TOOLS: &[&str] = &["Bash", "Read", "Edit", "Grep", "Write", "Glob"];

/// A word with a Zipf-like frequency: rank r is drawn about 1/r as often. Ranks past the prose
/// list are generated identifiers (`ident4711`), most of them rare.
fn word(rng: &mut StdRng) -> String {
    let u: f64 = rng.gen_range(0.0..1.0);
    let rank = (20_000f64.powf(u) as usize).saturating_sub(1);
    match PROSE.get(rank) {
        Some(w) => (*w).to_owned(),
        None => format!("ident{rank}"),
    }
}

fn sentence(rng: &mut StdRng, words: usize) -> String {
    (0..words).map(|_| word(rng)).collect::<Vec<_>>().join(" ")
}

fn lines(rng: &mut StdRng, n: usize) -> String {
    (0..n)
        .map(|i| match i % 4 {
            0 => format!(
                "src/{}/{}.rs:{}: {}",
                word(rng),
                word(rng),
                rng.gen_range(1..900),
                sentence(rng, 6)
            ),
            1 => format!(
                "test {}::{} ... {}",
                word(rng),
                word(rng),
                if rng.gen_bool(0.9) { "ok" } else { "FAILED" }
            ),
            2 => format!("error[E0{}]: {}", rng.gen_range(100..999), sentence(rng, 5)),
            _ => format!("    {}", sentence(rng, 8)),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The n-th message of a generated session.
fn message(conv: ConversationId, n: usize, rng: &mut StdRng) -> Message {
    let tool_id = format!("toolu_{n}");
    let (role, content) = match n % 6 {
        0 => (
            Role::User,
            vec![ContentItem::UserMessage {
                text: {
                    let n = rng.gen_range(8..40);
                    sentence(rng, n)
                },
            }],
        ),
        1 | 4 => (
            Role::Assistant,
            vec![
                ContentItem::AssistantMessage {
                    structured: StructuredText {
                        full_text: {
                            let n = rng.gen_range(10..60);
                            sentence(rng, n)
                        },
                        ..Default::default()
                    },
                },
                ContentItem::ToolCall {
                    id: tool_id,
                    name: TOOLS[rng.gen_range(0..TOOLS.len())].into(),
                    input: json!({
                        "command": format!("{} {}", COMMANDS[rng.gen_range(0..COMMANDS.len())], word(rng)),
                        "path": format!("src/{}/{}.rs", word(rng), word(rng)),
                    }),
                },
            ],
        ),
        2 | 5 => (
            Role::User,
            vec![ContentItem::ToolResult {
                tool_use_id: format!("toolu_{}", n - 1),
                tool_name: "Bash".into(),
                result: vec![ToolResultData::Text {
                    text: {
                        let n = rng.gen_range(4..40);
                        lines(rng, n)
                    },
                }],
                is_error: rng.gen_bool(0.1),
            }],
        ),
        _ => (
            Role::Assistant,
            vec![ContentItem::AssistantMessage {
                structured: StructuredText {
                    full_text: {
                        let n = rng.gen_range(20..120);
                        sentence(rng, n)
                    },
                    ..Default::default()
                },
            }],
        ),
    };
    Message::new(conv, role, content).expect("generated content is not blank")
}

fn batch(index: usize, rng: &mut StdRng, size: usize) -> ImportBatch {
    let conversation = ConversationId::new();
    let messages: Vec<Message> = (0..size).map(|n| message(conversation, n, rng)).collect();
    let key = format!("search-bench-{index}-{conversation}");
    let project = format!("/bench/project-{}", index % 5);
    let source = ImportSource {
        source_key: key,
        format: SourceFormat::ClaudeCode,
        content_hash: "bench".into(),
        metadata: None,
    };
    ImportBatch::single_thread(
        source,
        project,
        format!("Session {index}"),
        conversation,
        messages,
    )
}

/// Squashes `count` pairs of plain assistant messages (n % 6 == 3, no tool partners) spread
/// over the first 60 % of `links` at most: the current thread leaves their sources out.
async fn squash_pairs(
    service: &ConversationService,
    id: ConversationId,
    links: &[MessageId],
    count: usize,
) {
    let step = (links.len() / 6 / count).min(60);
    for s in 0..count {
        let at = 3 + 6 * s * step;
        service
            .squash_manual(
                id,
                ManualSquashRequest {
                    messages: vec![links[at], links[at + 6]],
                    text: None,
                    content: None,
                    role: Some(Role::Assistant),
                    policy: PartnerPolicy::Include,
                },
            )
            .await
            .expect("squash");
    }
}

/// Stores the conversation `b` and squashes `squashes` pairs of its messages; returns its id.
async fn store_squashed(
    service: &ConversationService,
    b: ImportBatch,
    squashes: usize,
) -> ConversationId {
    let id = b.conversation_id;
    let links = b.threads[0].links.clone();
    service
        .store()
        .import_conversation(b)
        .await
        .expect("import");
    squash_pairs(service, id, &links, squashes).await;
    id
}

/// Loads the data set; returns the conversations and a sample of message ids for the floor.
async fn load(service: &ConversationService) -> (Vec<ConversationId>, Vec<MessageId>) {
    let mut rng = StdRng::seed_from_u64(14);
    let mut conversations = Vec::new();
    let mut sample = Vec::new();
    for i in 0..CONVERSATIONS {
        let b = batch(i, &mut rng, PER_CONVERSATION);
        sample.extend(b.messages.iter().step_by(97).map(|m| m.id));
        conversations.push(store_squashed(service, b, SQUASHES_PER_CONVERSATION).await);
    }
    (conversations, sample)
}

struct Stats {
    p50: Duration,
    p95: Duration,
    p99: Duration,
    max: Duration,
    n: usize,
}

fn stats(mut samples: Vec<Duration>) -> Stats {
    samples.sort();
    let at =
        |q: f64| samples[((samples.len() as f64 * q).ceil() as usize).clamp(1, samples.len()) - 1];
    Stats {
        p50: at(0.50),
        p95: at(0.95),
        p99: at(0.99),
        max: samples[samples.len() - 1],
        n: samples.len(),
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

fn row(label: &str, s: &Stats, hits: &str) {
    println!(
        "| {label:<34} | {:>6} | {:>7} | {:>7} | {:>7} | {:>7} | {hits} |",
        s.n,
        ms(s.p50),
        ms(s.p95),
        ms(s.p99),
        ms(s.max)
    );
}

/// The queries of both searches: rare, medium and common words, two-word ANDs, phrases, no hit
/// (last).
const WORDS: &[(&str, &str)] = &[
    ("rare word", "ident15031"),
    ("rare word", "ident9377"),
    ("medium word", "ident312"),
    ("common word", "error"),
    ("very common word", "the"),
    ("two words", "cargo ident250"),
    ("two common words", "test failed"),
    ("phrase", "\"cargo test\""),
    ("phrase, common words", "\"should be\""),
    ("no hit", "zeppelinharbour"),
];

/// A query of the bench: its kind, its text, and the conversation it keeps to.
type Query = (&'static str, &'static str, Option<ConversationId>);

/// Which search a table measures.
#[derive(Clone, Copy)]
enum Search {
    CurrentThreads,
    /// `search_history` of the query's conversation.
    History,
}

/// Runs `queries` in turn until each has `ROUNDS` samples (after one untimed pass: page cache,
/// prepared statements), with the floor's lookup interleaved, and prints the table.
async fn measure(
    label: &str,
    service: &ConversationService,
    search: Search,
    queries: &[Query],
    sample: &[MessageId],
) {
    let once = |q: &'static str, c: Option<ConversationId>| async move {
        match (search, c) {
            (Search::History, Some(c)) => {
                let r = service
                    .search_history(c, q, Some(20), None)
                    .await
                    .expect("history search");
                (r.total, r.more)
            }
            (Search::History, None) => panic!("a history search needs its conversation"),
            (Search::CurrentThreads, c) => {
                let r = service.search(q, c, Some(20)).await.expect("search");
                (r.total, r.more)
            }
        }
    };
    for (_, q, c) in queries {
        once(q, *c).await;
    }
    let mut per_query: Vec<Vec<Duration>> = vec![Vec::new(); queries.len()];
    let mut totals = vec![(0u64, false); queries.len()];
    let mut floor = Vec::new();
    for round in 0..ROUNDS {
        for (i, (_, q, c)) in queries.iter().enumerate() {
            let t = Instant::now();
            totals[i] = once(q, *c).await;
            per_query[i].push(t.elapsed());
            let id = sample[(round * queries.len() + i) % sample.len()];
            let t = Instant::now();
            service.message(id).await.expect("floor lookup");
            floor.push(t.elapsed());
        }
    }
    println!("| {label:<34} | runs   | p50 ms  | p95 ms  | p99 ms  | max ms  | hits (total) |");
    println!("|------------------------------------|--------|---------|---------|---------|---------|--------------|");
    for (i, (kind, q, _)) in queries.iter().enumerate() {
        let (total, more) = totals[i];
        row(
            &format!("{kind}: {q}"),
            &stats(per_query[i].clone()),
            &format!("{total}{}", if more { "+" } else { "" }),
        );
    }
    row("ALL SEARCHES", &stats(per_query.concat()), "");
    row("floor: message by id", &stats(floor), "");
}

/// Stores one conversation of `HISTORY_SIZE` messages and takes `HISTORY_SQUASHES` pairs of
/// them out of its thread with squashes; returns it and a sample of its message ids.
async fn load_history(service: &ConversationService) -> (ConversationId, Vec<MessageId>) {
    let mut rng = StdRng::seed_from_u64(30);
    let b = batch(CONVERSATIONS, &mut rng, HISTORY_SIZE);
    let sample: Vec<MessageId> = b.messages.iter().step_by(997).map(|m| m.id).collect();
    let id = store_squashed(service, b, HISTORY_SQUASHES).await;
    (id, sample)
}

async fn run(name: &str, store: Arc<dyn ConversationStore>) {
    let service = ConversationService::new(store);
    let started = Instant::now();
    let (conversations, sample) = load(&service).await;
    let stats_now = service.store().stats().await.expect("stats");
    println!(
        "\n## {name}: {} messages loaded in {:.1} s ({:?})\n",
        CONVERSATIONS * PER_CONVERSATION,
        started.elapsed().as_secs_f64(),
        stats_now
    );
    // The kinds of queries both searches run, then two of them kept to one conversation.
    let mut queries: Vec<Query> = WORDS.iter().map(|(k, q)| (*k, *q, None)).collect();
    let scoped = Some(conversations[CONVERSATIONS / 2]);
    queries.insert(
        WORDS.len() - 1,
        ("one conversation, common word", "error", scoped),
    );
    queries.insert(
        WORDS.len(),
        ("one conversation, rare word", "ident4711", scoped),
    );
    let label = format!("query ({name}, limit 20)");
    measure(&label, &service, Search::CurrentThreads, &queries, &sample).await;

    if std::env::var("SQUASH_BENCH_HISTORY").is_ok_and(|v| v == "0") {
        return;
    }
    let started = Instant::now();
    let (big, big_sample) = load_history(&service).await;
    println!(
        "\n## {name}: history of one conversation of {HISTORY_SIZE} messages \
         ({HISTORY_SQUASHES} squashes), stored beside the others in {:.1} s\n",
        started.elapsed().as_secs_f64()
    );
    let queries: Vec<Query> = WORDS.iter().map(|(k, q)| (*k, *q, Some(big))).collect();
    let label = format!("history ({name}, limit 20)");
    measure(&label, &service, Search::History, &queries, &big_sample).await;
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let sqlite: Arc<dyn ConversationStore> =
            Arc::new(SqliteStore::open(dir.path().join("search.db")).expect("sqlite"));
        if std::env::var("SQUASH_BENCH_SQLITE").map_or(true, |v| v != "0") {
            run("SQLite", sqlite).await;
        }
        if std::env::var("SQUASH_BENCH_PG").is_ok_and(|v| v == "1") {
            let url = std::env::var("SQUASH_TEST_PG")
                .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned());
            let schema = format!("bench_search_{}", std::process::id());
            let pg = Arc::new(
                PostgresStore::connect_in_schema(&url, &schema)
                    .await
                    .expect("PostgreSQL at SQUASH_TEST_PG"),
            );
            run("PostgreSQL", pg.clone()).await;
            if std::env::var("SQUASH_BENCH_KEEP").is_ok_and(|v| v == "1") {
                println!("kept schema {schema} for inspection");
            } else {
                pg.drop_schema().await.expect("drop bench schema");
            }
        }
    });
}
