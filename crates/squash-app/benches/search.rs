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

fn batch(index: usize, rng: &mut StdRng) -> ImportBatch {
    let conversation = ConversationId::new();
    let messages: Vec<Message> = (0..PER_CONVERSATION)
        .map(|n| message(conversation, n, rng))
        .collect();
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

/// Loads the data set; returns the conversations and a sample of message ids for the floor.
async fn load(service: &ConversationService) -> (Vec<ConversationId>, Vec<MessageId>) {
    let mut rng = StdRng::seed_from_u64(14);
    let mut conversations = Vec::new();
    let mut sample = Vec::new();
    for i in 0..CONVERSATIONS {
        let b = batch(i, &mut rng);
        let id = b.conversation_id;
        sample.extend(b.messages.iter().step_by(97).map(|m| m.id));
        let links = b.threads[0].links.clone();
        service
            .store()
            .import_conversation(b)
            .await
            .expect("import");
        for s in 0..SQUASHES_PER_CONVERSATION {
            // Plain assistant messages (n % 6 == 3), far apart: no tool partners.
            let at = 3 + 6 * (s * 60);
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
        conversations.push(id);
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
    let scoped = Some(conversations[CONVERSATIONS / 2]);
    let queries: Vec<(&str, &str, Option<ConversationId>)> = vec![
        ("rare word", "ident15031", None),
        ("rare word", "ident9377", None),
        ("medium word", "ident312", None),
        ("common word", "error", None),
        ("very common word", "the", None),
        ("two words", "cargo ident250", None),
        ("two common words", "test failed", None),
        ("phrase", "\"cargo test\"", None),
        ("phrase, common words", "\"should be\"", None),
        ("one conversation, common word", "error", scoped),
        ("one conversation, rare word", "ident4711", scoped),
        ("no hit", "zeppelinharbour", None),
    ];
    // Warm-up: one pass, untimed (page cache, prepared statements).
    for (_, q, c) in &queries {
        service.search(q, *c, Some(20)).await.expect("search");
    }
    let mut per_query: Vec<Vec<Duration>> = vec![Vec::new(); queries.len()];
    let mut totals = vec![0u64; queries.len()];
    let mut more = vec![false; queries.len()];
    let mut floor = Vec::new();
    for round in 0..ROUNDS {
        for (i, (_, q, c)) in queries.iter().enumerate() {
            let t = Instant::now();
            let r = service.search(q, *c, Some(20)).await.expect("search");
            per_query[i].push(t.elapsed());
            totals[i] = r.total;
            more[i] = r.more;
            let id = sample[(round * queries.len() + i) % sample.len()];
            let t = Instant::now();
            service.message(id).await.expect("floor lookup");
            floor.push(t.elapsed());
        }
    }
    println!("| query ({name}, limit 20)              | runs   | p50 ms  | p95 ms  | p99 ms  | max ms  | hits (total) |");
    println!("|------------------------------------|--------|---------|---------|---------|---------|--------------|");
    for (i, (kind, q, _)) in queries.iter().enumerate() {
        row(
            &format!("{kind}: {q}"),
            &stats(per_query[i].clone()),
            &format!("{}{}", totals[i], if more[i] { "+" } else { "" }),
        );
    }
    row("ALL SEARCHES", &stats(per_query.concat()), "");
    row("floor: message by id", &stats(floor), "");
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
