//! What a person's squash, edit, delete and undo cost end to end (BENCHMARKS.md, "Operations end
//! to end"), through the real `squash` binary and a real `squash serve`, on a thread of 100
//! messages beside one of 100,000: the process's start, opening the database, resolving `@N`,
//! the operation and the answer, all counted. Issue 31 asks for the long thread within 2× of
//! the short one.
//!
//! For each size it stores a generated coding-agent session in a fresh SQLite file, then runs
//! `--runs` cycles of: squash two user messages (non-contiguous), undo, edit one, undo, delete
//! one, undo — first as CLI commands (`squash manual CONV @a @b`, `squash message edit …`), then
//! as API requests to `squash serve` on the same file. Every undo puts the thread back, so each
//! cycle works on the same positions.
//!
//!   cargo build --release -p squash-cli --no-default-features
//!   cargo run --release -p squash-cli --example ops_bench -- --bin target/release/squash
//!   (scripts/bench-ops.sh does both; `--pg postgres://…/test` runs it on PostgreSQL)

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use squash_core::{ContentItem, ConversationId, MessageId, Role};
use squash_testkit::cli::{unconfigured, Served};

/// Squash, edit, delete and undo end to end, through the CLI and the API, on a short thread
/// beside a long one.
#[derive(clap::Parser)]
struct Args {
    /// The `squash` binary to run.
    #[arg(long, default_value = "target/release/squash")]
    bin: PathBuf,
    /// The thread lengths, the shortest first.
    #[arg(long, value_delimiter = ',', default_value = "100,100000")]
    sizes: Vec<usize>,
    /// Cycles a size.
    #[arg(long, default_value_t = 10)]
    runs: usize,
    /// Where the databases go (kept); a temporary folder when not given.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// A PostgreSQL server (`postgres://…/test`): each size in a database of its own there,
    /// dropped after, instead of a SQLite file.
    #[arg(long)]
    pg: Option<String>,
}

/// The thread the cycles work on: its conversation and four user messages near its middle, by
/// 1-based position and id.
struct Subject {
    conversation: ConversationId,
    picked: Vec<(u64, MessageId)>,
}

async fn store_session(db: &str, n: usize) -> Subject {
    let store = squash_store::open(db).await.expect("open the database");
    let store = store.as_ref();
    let (conversation, _) = squash_testkit::long_session::stored(store, n).await;
    let thread = store
        .current_thread_header(conversation)
        .await
        .expect("thread");
    let start = thread.message_count / 2;
    let range = store
        .thread_range(thread.id, start, 400)
        .await
        .expect("range");
    let picked: Vec<(u64, MessageId)> = range
        .messages
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            m.role == Role::User
                && m.content
                    .iter()
                    .all(|c| matches!(c, ContentItem::UserMessage { .. }))
        })
        .map(|(i, m)| (start + i as u64 + 1, m.id))
        .take(4)
        .collect();
    assert_eq!(picked.len(), 4, "four user messages near the middle");
    Subject {
        conversation,
        picked,
    }
}

/// The URL of a new, empty database `name` on the PostgreSQL server at `server`.
fn fresh_database(server: &str, name: &str) -> String {
    psql(server, &format!("DROP DATABASE IF EXISTS {name}"));
    psql(server, &format!("CREATE DATABASE {name}"));
    let (base, _) = server
        .rsplit_once('/')
        .expect("a postgres:// URL with a database");
    format!("{base}/{name}")
}

fn psql(server: &str, statement: &str) {
    let out = Command::new("psql")
        .args([server, "-q", "-c", statement])
        .output()
        .expect("run psql");
    assert!(
        out.status.success(),
        "psql {statement}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Wall time of each sample, by what was done.
#[derive(Default)]
struct Samples(BTreeMap<&'static str, Vec<Duration>>);

impl Samples {
    fn add(&mut self, what: &'static str, took: Duration) {
        self.0.entry(what).or_default().push(took);
    }

    fn median(&self, what: &str) -> Duration {
        let mut all = self.0.get(what).cloned().unwrap_or_default();
        all.sort();
        all.get(all.len() / 2).copied().unwrap_or_default()
    }

    fn p90(&self, what: &str) -> Duration {
        let mut all = self.0.get(what).cloned().unwrap_or_default();
        all.sort();
        all.get(all.len() * 9 / 10).copied().unwrap_or_default()
    }
}

/// Where a size's database is, and the home its commands run in.
struct Place {
    db: String,
    home: PathBuf,
}

fn cli(bin: &Path, at: &Place, args: &[String], samples: &mut Samples, what: &'static str) {
    let mut cmd = Command::new(bin);
    cmd.arg("--db").arg(&at.db).args(args);
    unconfigured(&mut cmd, &at.home);
    let started = Instant::now();
    let out = cmd.output().expect("run squash");
    samples.add(what, started.elapsed());
    assert!(
        out.status.success(),
        "squash {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn cli_cycles(bin: &Path, db: &Place, subject: &Subject, runs: usize) -> Samples {
    let conv = subject.conversation.to_string();
    let at = |i: usize| format!("@{}", subject.picked[i].0);
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut samples = Samples::default();
    for run in 0..runs {
        let manual = [
            s(&["manual", &conv]),
            vec![at(0), at(2)],
            s(&["--text", "squashed"]),
        ];
        cli(bin, db, &manual.concat(), &mut samples, "squash 2 messages");
        cli(bin, db, &s(&["undo", &conv]), &mut samples, "undo");
        let text = format!("edited {run}");
        let edit = [
            s(&["message", "edit", &conv]),
            vec![at(1)],
            s(&["--text", &text]),
        ];
        cli(bin, db, &edit.concat(), &mut samples, "edit 1 message");
        cli(bin, db, &s(&["undo", &conv]), &mut samples, "undo");
        let delete = [s(&["message", "delete", &conv]), vec![at(3)]];
        cli(bin, db, &delete.concat(), &mut samples, "delete 1 message");
        cli(bin, db, &s(&["undo", &conv]), &mut samples, "undo");
    }
    samples
}

/// A `squash serve` on the database, with nothing configured (no model is looked for).
struct Server {
    _served: Served,
    addr: String,
}

impl Server {
    fn start(bin: &Path, at: &Place) -> Server {
        let mut cmd = Command::new(bin);
        cmd.arg("--db")
            .arg(&at.db)
            .args(["serve", "--port", "0"])
            .stderr(Stdio::null());
        let served = Served::start(unconfigured(&mut cmd, &at.home));
        let addr = served
            .url
            .trim_start_matches("http://")
            .trim_end_matches('/');
        let addr = addr.split('/').next().unwrap_or(addr).to_owned();
        Server {
            _served: served,
            addr,
        }
    }

    /// One request on a connection of its own, as a script's `curl` sends it; the answer read
    /// whole.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nX-Squash-Csrf: 1\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            body.len()
        );
        stream
            .write_all(format!("{head}{body}").as_bytes())
            .expect("send");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("read");
        let status = answer
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        (status, answer)
    }
}

fn api(server: &Server, call: (&str, &str, &str), samples: &mut Samples, what: &'static str) {
    let (method, path, body) = call;
    let started = Instant::now();
    let (status, answer) = server.request(method, path, body);
    samples.add(what, started.elapsed());
    assert_eq!(status, 200, "{method} {path}: {answer}");
}

fn api_cycles(server: &Server, subject: &Subject, runs: usize) -> Samples {
    let conv = subject.conversation;
    let id = |i: usize| subject.picked[i].1;
    let base = format!("/api/conversations/{conv}");
    let undo = ("POST", format!("{base}/undo"), "{}".to_owned());
    let mut samples = Samples::default();
    for run in 0..runs {
        let steps = [
            (
                "squash 2 messages",
                (
                    "POST",
                    format!("{base}/squash/manual"),
                    format!(
                        r#"{{"messages":["{}","{}"],"text":"squashed"}}"#,
                        id(0),
                        id(2)
                    ),
                ),
            ),
            ("undo", undo.clone()),
            (
                "edit 1 message",
                (
                    "PUT",
                    format!("{base}/messages/{}", id(1)),
                    format!(r#"{{"text":"edited {run}"}}"#),
                ),
            ),
            ("undo", undo.clone()),
            (
                "delete 1 message",
                (
                    "DELETE",
                    format!("{base}/messages/{}", id(3)),
                    String::new(),
                ),
            ),
            ("undo", undo.clone()),
        ];
        for (what, (method, path, body)) in &steps {
            api(server, (method, path, body), &mut samples, what);
        }
    }
    samples
}

const OPERATIONS: [&str; 4] = [
    "squash 2 messages",
    "edit 1 message",
    "delete 1 message",
    "undo",
];

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn table(interface: &str, sizes: &[usize], by_size: &[Samples]) {
    let (short, long) = (sizes[0], sizes[sizes.len() - 1]);
    println!(
        "\n| {interface} | {short} messages: median (p90) | {long} messages: median (p90) | long / short | goal ≤ 2× met? |"
    );
    println!("|---|---:|---:|---:|---|");
    let (first, last) = (&by_size[0], &by_size[by_size.len() - 1]);
    for what in OPERATIONS {
        let ratio = last.median(what).as_secs_f64() / first.median(what).as_secs_f64();
        println!(
            "| {what} | {} ({}) | {} ({}) | {ratio:.2}× | {} |",
            ms(first.median(what)),
            ms(first.p90(what)),
            ms(last.median(what)),
            ms(last.p90(what)),
            if ratio <= 2.0 { "yes" } else { "**no**" }
        );
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args = <Args as clap::Parser>::parse();
    assert!(
        args.bin.exists(),
        "{} not found: build it first (scripts/bench-ops.sh)",
        args.bin.display()
    );
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = args.dir.clone().unwrap_or_else(|| temp.path().to_owned());
    std::fs::create_dir_all(&dir).expect("the databases' folder");
    let mut cli_samples = Vec::new();
    let mut api_samples = Vec::new();
    for &n in &args.sizes {
        let name = format!("squash_ops_bench_{n}");
        let db = match &args.pg {
            Some(server) => fresh_database(server, &name),
            None => dir
                .join(format!("{name}.db"))
                .to_string_lossy()
                .into_owned(),
        };
        let at = Place {
            db,
            home: dir.join(format!("{name}.home")),
        };
        let subject = store_session(&at.db, n).await;
        eprintln!(
            "{n} messages: positions {:?}",
            subject.picked.iter().map(|p| p.0).collect::<Vec<_>>()
        );
        cli_samples.push(cli_cycles(&args.bin, &at, &subject, args.runs));
        let server = Server::start(&args.bin, &at);
        api_samples.push(api_cycles(&server, &subject, args.runs));
        drop(server);
        if let Some(server) = &args.pg {
            psql(server, &format!("DROP DATABASE {name} WITH (FORCE)"));
        }
    }
    println!(
        "{}: {} cycles a size; each CLI sample is a whole `squash` process, each API sample one \
         request on a new connection",
        if args.pg.is_some() {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        args.runs
    );
    table("CLI", &args.sizes, &cli_samples);
    table("API", &args.sizes, &api_samples);
}
