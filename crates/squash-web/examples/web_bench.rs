//! The web UI and API under load, against a real `squash serve` process (BENCHMARKS.md, "The web
//! UI on long sessions"). For each backend (`--backends sqlite,postgres`; PostgreSQL at `--pg`,
//! default `postgres://postgres@127.0.0.1:5432/squash_bench`, each run in a schema of its own,
//! dropped after) and each thread size it stores a generated coding-agent session in a fresh
//! database, starts the server on it and measures, at `--concurrency` connections:
//!
//! * the floor: `GET /static/app.css` (the same HTTP stack and guard, no database);
//! * `GET /api/conversations/{id}/thread?limit=100&before=P` at random positions P;
//! * the HTML fragment the page loads while scrolling (`/ui/…/messages?before=P&limit=100`);
//! * the first page `/c/{id}`: its size, and the server's resident memory (VmHWM) after all;
//! * with chromedriver, the browser's own timeline for the first page (`--paint`).
//!
//!   cargo build --release -p squash-cli --no-default-features
//!   cargo run --release -p squash-web --example web_bench -- --bin target/release/squash
//!   (scripts/bench-web.sh does both)

#[path = "../tests/it/browser.rs"]
mod browser;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use http_body_util::BodyExt;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use squash_core::ConversationId;
use squash_store::postgres::PostgresStore;
use squash_store::sqlite::SqliteStore;
use squash_testkit::process::{free_port, start_listening};

const USAGE: &str = "web_bench [--bin PATH (target/release/squash)] \
[--backends sqlite,postgres (sqlite)] [--pg URL (postgres://postgres@127.0.0.1:5432/squash_bench)] \
[--rows floor,api,html,page (all)] [--sizes N,M (10000,100000)] [--concurrency N (64)] \
[--seconds N (10)] [--no-paint]";

struct Args {
    bin: PathBuf,
    backends: Vec<String>,
    pg: String,
    /// Which rows to measure: floor, api, html, page.
    rows: Vec<String>,
    sizes: Vec<usize>,
    concurrency: usize,
    seconds: u64,
    paint: bool,
}

fn args() -> Args {
    let mut args = Args {
        bin: PathBuf::from("target/release/squash"),
        backends: vec!["sqlite".into()],
        pg: "postgres://postgres@127.0.0.1:5432/squash_bench".into(),
        rows: ["floor", "api", "html", "page"].map(String::from).to_vec(),
        sizes: vec![10_000, 100_000],
        concurrency: 64,
        seconds: 10,
        paint: Path::new(browser::CHROMEDRIVER).exists() && Path::new(browser::CHROMIUM).exists(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--bin" => args.bin = value().into(),
            "--backends" => args.backends = value().split(',').map(str::to_owned).collect(),
            "--pg" => args.pg = value(),
            "--rows" => args.rows = value().split(',').map(str::to_owned).collect(),
            "--sizes" => {
                args.sizes = value()
                    .split(',')
                    .map(|s| s.parse().expect("--sizes N,M"))
                    .collect()
            }
            "--concurrency" => args.concurrency = value().parse().expect("--concurrency N"),
            "--seconds" => args.seconds = value().parse().expect("--seconds N"),
            "--no-paint" => args.paint = false,
            "--help" | "-h" => {
                println!("usage: {USAGE}");
                std::process::exit(0);
            }
            other => {
                eprintln!("web_bench: unknown argument {other}\nusage: {USAGE}");
                std::process::exit(2);
            }
        }
    }
    args
}

/// A fresh database the server is started on: a SQLite file, or a schema of the PostgreSQL
/// database (dropped when done).
enum Database {
    Sqlite(tempfile::TempDir),
    Postgres { store: PostgresStore, url: String },
}

impl Database {
    /// A fresh database of `backend` holding a generated session of `n` messages.
    async fn with_session(backend: &str, pg: &str, n: usize) -> (Database, ConversationId) {
        match backend {
            "sqlite" => {
                let dir = tempfile::tempdir().expect("temp dir");
                let store = SqliteStore::open(dir.path().join("bench.db")).expect("open sqlite");
                let conv = squash_testkit::long_session::stored(&store, n).await.0;
                (Database::Sqlite(dir), conv)
            }
            "postgres" => {
                let schema = format!(
                    "web_bench_{}",
                    squash_core::MessageId::new().as_uuid().simple()
                );
                let store = PostgresStore::connect_in_schema(pg, &schema)
                    .await
                    .unwrap_or_else(|e| panic!("PostgreSQL at {pg}: {e}"));
                let conv = squash_testkit::long_session::stored(&store, n).await.0;
                let sep = if pg.contains('?') { '&' } else { '?' };
                let url = format!("{pg}{sep}options[search_path]={schema}");
                (Database::Postgres { store, url }, conv)
            }
            other => panic!("unknown backend {other} (sqlite, postgres)"),
        }
    }

    /// What the server's `--db` takes.
    fn location(&self) -> String {
        match self {
            Database::Sqlite(dir) => dir.path().join("bench.db").display().to_string(),
            Database::Postgres { url, .. } => url.clone(),
        }
    }

    async fn drop(self) {
        if let Database::Postgres { store, .. } = self {
            store.drop_schema().await.expect("drop the bench schema");
        }
    }
}

struct Server {
    child: tokio::process::Child,
    base: String,
}

impl Server {
    async fn start(bin: &Path, db: &str) -> Server {
        let port = free_port();
        let mut command = tokio::process::Command::new(bin);
        command
            .args(["--db", db])
            .args(["serve", "--port", &port.to_string()])
            // No model: the bench measures reading, and a detected model would be loaded.
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OPENAI_API_KEY");
        let child = start_listening(command, "squash serve", port, Duration::from_secs(30)).await;
        Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    /// (VmRSS, VmHWM) in MB.
    fn memory(&self) -> (f64, f64) {
        let pid = self.child.id().expect("server pid");
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let kb = |key: &str| {
            status
                .lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap_or(f64::NAN)
        };
        (kb("VmRSS:") / 1024.0, kb("VmHWM:") / 1024.0)
    }
}

type HttpClient = Client<hyper_util::client::legacy::connect::HttpConnector, Body>;

struct Load {
    requests: usize,
    errors: usize,
    bytes: usize,
    rps: f64,
    p50: Duration,
    p99: Duration,
}

/// `concurrency` clients, each sending the next of `urls` as soon as its last answer is read.
async fn load(
    client: &HttpClient,
    urls: Arc<Vec<String>>,
    concurrency: usize,
    seconds: u64,
) -> Load {
    let start = Instant::now();
    let deadline = start + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for worker in 0..concurrency {
        let client = client.clone();
        let urls = urls.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let (mut errors, mut bytes) = (0, 0);
            let mut i = worker;
            while Instant::now() < deadline {
                let url = &urls[i % urls.len()];
                i += concurrency;
                let sent = Instant::now();
                match client.get(url.parse().expect("url")).await {
                    Ok(response) => {
                        let ok = response.status().is_success();
                        match response.into_body().collect().await {
                            Ok(body) if ok => bytes += body.to_bytes().len(),
                            _ => errors += 1,
                        }
                    }
                    Err(_) => errors += 1,
                }
                latencies.push(sent.elapsed());
            }
            (latencies, errors, bytes)
        }));
    }
    let mut all = Vec::new();
    let (mut errors, mut bytes) = (0, 0);
    for t in tasks {
        let (l, e, b) = t.await.expect("load task");
        all.extend(l);
        errors += e;
        bytes += b;
    }
    let elapsed = start.elapsed();
    all.sort();
    let at = |q: f64| all[((all.len() as f64 * q) as usize).min(all.len() - 1)];
    Load {
        requests: all.len(),
        errors,
        bytes,
        rps: all.len() as f64 / elapsed.as_secs_f64(),
        p50: at(0.50),
        p99: at(0.99),
    }
}

fn row(label: &str, l: &Load) {
    println!(
        "| {label} | {:.0} | {:.1} | {:.1} | {:.1} | {} | {} |",
        l.rps,
        l.p50.as_secs_f64() * 1e3,
        l.p99.as_secs_f64() * 1e3,
        l.bytes as f64 / l.requests.max(1) as f64 / 1024.0,
        l.requests,
        l.errors
    );
}

/// Random page positions, the same for every run.
fn positions(total: usize, n: usize) -> Vec<usize> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            101 + (x % total as u64) as usize
        })
        .collect()
}

#[tokio::main]
async fn main() {
    let args = args();
    assert!(
        args.bin.exists(),
        "no squash binary at {}: build it first",
        args.bin.display()
    );
    println!(
        "machine: {} cores, load {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    let client: HttpClient = Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(args.concurrency)
        .build_http();
    for backend in &args.backends {
        for &n in &args.sizes {
            let (db, conv) = Database::with_session(backend, &args.pg, n).await;
            let mut server = Server::start(&args.bin, &db.location()).await;
            println!("\n{backend}, {n} messages:");
            run(&args, &client, &server, conv, n).await;
            let _ = server.child.kill().await;
            db.drop().await;
        }
    }
}

/// The rows of one backend and size, against its server.
async fn run(args: &Args, client: &HttpClient, server: &Server, conv: ConversationId, n: usize) {
    let base = &server.base;
    let first_page = client
        .get(format!("{base}/c/{conv}").parse().expect("url"))
        .await
        .expect("first page");
    let page_bytes = first_page
        .into_body()
        .collect()
        .await
        .expect("page body")
        .to_bytes()
        .len();
    println!("first page /c/{{id}} {:.1} KB", page_bytes as f64 / 1024.0);
    println!(
        "\n| {} concurrent, {} s | req/s | p50 ms | p99 ms | KB/answer | requests | errors |",
        args.concurrency, args.seconds
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let at_random = |path: &str| -> Arc<Vec<String>> {
        Arc::new(
            positions(n, 997)
                .into_iter()
                .map(|p| format!("{base}{path}?limit=100&before={p}"))
                .collect(),
        )
    };
    let rows = [
        (
            "floor",
            "floor: GET /static/app.css",
            Arc::new(vec![format!("{base}/static/app.css")]),
        ),
        (
            "api",
            "GET /api/…/thread?limit=100&before=P",
            at_random(&format!("/api/conversations/{conv}/thread")),
        ),
        (
            "html",
            "GET /ui/…/messages?limit=100&before=P (HTML)",
            at_random(&format!("/ui/conversations/{conv}/messages")),
        ),
        (
            "page",
            "GET /c/{id} (first page, 50 messages)",
            Arc::new(vec![format!("{base}/c/{conv}")]),
        ),
    ];
    for (name, label, urls) in rows {
        if args.rows.iter().any(|r| r == name) {
            row(
                label,
                &load(client, urls, args.concurrency, args.seconds).await,
            );
        }
    }
    let (rss, hwm) = server.memory();
    println!("\nserver memory after the load: resident {rss:.0} MB, peak {hwm:.0} MB");
    if args.paint {
        paint::measure(&format!("{base}/c/{conv}")).await;
    }
}

mod paint {
    //! The first page as Chromium draws it, from the page's own performance timeline.

    use fantoccini::Locator;

    pub async fn measure(url: &str) {
        let browser = super::browser::start_browser().await;
        let client = &browser.client;
        println!("\n| first page in Chromium (run) | DOMContentLoaded ms | first contentful paint ms | load ms | first click handled ms | long tasks ms | DOM nodes |");
        println!("|---|---:|---:|---:|---:|---:|---:|");
        for run in 1..=5 {
            client.goto(url).await.expect("open the page");
            // A real click on the last message's checkbox, as soon as WebDriver hands over
            // (after the load event); the page's clock says when its handler had run.
            client
                .find(Locator::Css("#thread > li.msg:last-child .select-box"))
                .await
                .expect("a checkbox")
                .click()
                .await
                .expect("click");
            let v = client
                .execute(
                    "const clicked = document.querySelector('#selection-count').textContent === '1 selected' ? performance.now() : null; \
                     const nav = performance.getEntriesByType('navigation')[0]; \
                     const fcp = performance.getEntriesByName('first-contentful-paint')[0]; \
                     return new Promise(done => { let long = 0; \
                       try { new PerformanceObserver(l => { for (const e of l.getEntries()) long += e.duration; }) \
                         .observe({ type: 'longtask', buffered: true }); } catch (e) {} \
                       setTimeout(() => done([nav.domContentLoadedEventEnd, fcp ? fcp.startTime : null, nav.loadEventEnd, clicked, long, \
                         document.getElementsByTagName('*').length]), 50); });",
                    vec![],
                )
                .await
                .expect("timeline");
            let f = |i: usize| v[i].as_f64().map_or("–".to_owned(), |x| format!("{x:.0}"));
            println!(
                "| {run} | {} | {} | {} | {} | {} | {} |",
                f(0),
                f(1),
                f(2),
                f(3),
                f(4),
                f(5)
            );
        }
        let _ = client.clone().close().await;
    }
}
