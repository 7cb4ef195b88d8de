//! Two real `squash serve` processes on one PostgreSQL database (a fresh schema per run):
//! a change made through one reaches the other's live-update stream, and concurrent appends,
//! manual squashes, undo, redo and chat through both leave every conversation consistent — no
//! lost append, every thread's links valid, one history that both servers agree on.
//!
//! Needs PostgreSQL at SQUASH_TEST_PG (default postgres://postgres@127.0.0.1:5432/test).

use std::collections::{HashMap, HashSet};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::response::IntoResponse;
use axum::routing::post;
use axum::Router;
use serde_json::{json, Value};
use squash_store::postgres::PostgresStore;
use squash_testkit::cli::Served;
use squash_testkit::fixtures::Lcg;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const WORKERS_PER_SERVER: usize = 4;
const OPERATIONS_PER_WORKER: usize = 30;

/// A fresh schema, migrated, and the URL that makes a server use it.
async fn fresh_schema() -> Option<(PostgresStore, String)> {
    let schema = format!("two_{}", squash_testkit::backend::uuid_simple());
    let store = squash_testkit::backend::postgres_store_in(&schema).await?;
    let url = squash_testkit::pg_url();
    let sep = if url.contains('?') { '&' } else { '?' };
    let server_url = format!("{url}{sep}options=-c%20search_path%3D{schema}");
    Some((store, server_url))
}

/// A loopback OpenAI-compatible model: every chat gets the same short answer.
async fn fake_model() -> String {
    async fn completions(body: Bytes) -> axum::response::Response {
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let text = "Noted: the build passes.";
        if body["stream"].as_bool().unwrap_or(false) {
            let chunk = json!({"model": "loopback", "choices": [{"index": 0,
                "delta": {"content": text}, "finish_reason": null}]});
            let end = json!({"model": "loopback", "choices": [{"index": 0, "delta": {},
                "finish_reason": "stop"}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}});
            let sse = format!("data: {chunk}\n\ndata: {end}\n\ndata: [DONE]\n\n");
            ([("content-type", "text/event-stream")], sse).into_response()
        } else {
            let reply = json!({"model": "loopback", "choices": [{"index": 0,
                "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5}});
            ([("content-type", "application/json")], reply.to_string()).into_response()
        }
    }
    let app = Router::new().route("/v1/chat/completions", post(completions));
    let addr = squash_testkit::model_server::serve(app).await;
    format!("http://{addr}/v1")
}

/// A `squash serve` process (killed when dropped) in a home of its own.
struct Server {
    _served: Served,
    addr: String,
    _home: tempfile::TempDir,
}

fn serve(database_url: &str, model_url: &str) -> Server {
    let home = tempfile::tempdir().expect("temp dir");
    let served = Served::start(
        Command::new(env!("CARGO_BIN_EXE_squash"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .env("DATABASE_URL", database_url)
            .env("OPENAI_BASE_URL", model_url)
            .env("OPENAI_API_KEY", "sk-test-loopback")
            .env("OPENAI_MODEL", "loopback")
            .env("HOME", home.path())
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("SQUASH_LOCAL_SERVERS", "none")
            .env_remove("SQUASH_DB")
            .env_remove("SQUASH_TOKEN")
            .env_remove("SQUASH_CONFIG")
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OPENAI_CONTEXT_WINDOW")
            .env_remove("SQUASH_CONTEXT_WINDOW")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit()),
    );
    let addr = served
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    Server {
        _served: served,
        addr,
        _home: home,
    }
}

/// One request over a fresh connection: (status, JSON body or `null`).
async fn call(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nX-Squash-Csrf: 1\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.expect("read");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_owned()
    };
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

async fn ok(addr: &str, method: &str, path: &str, body: Option<&Value>) -> Value {
    let (status, value) = call(addr, method, path, body).await;
    assert!(
        (200..300).contains(&status),
        "{method} {path} on {addr}: {status} {value}"
    );
    value
}

/// An open event stream, read as it arrives.
struct Events {
    stream: TcpStream,
    buffer: String,
}

impl Events {
    async fn open(addr: &str, conversation: &str) -> Events {
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        let request = format!(
            "GET /api/conversations/{conversation}/events HTTP/1.1\r\nHost: {addr}\r\n\
             Accept: text/event-stream\r\nAccept-Encoding: gzip, br\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.expect("send");
        Events {
            stream,
            buffer: String::new(),
        }
    }

    /// The next `(event, data)`, within `wait`.
    async fn next(&mut self, wait: Duration) -> Option<(String, Value)> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            // Events end with a blank line; chunk-size lines carry no `event:`/`data:`.
            if let Some(end) = self.buffer.find("\n\n") {
                let raw: String = self.buffer.drain(..end + 2).collect();
                let mut name = None;
                let mut data = None;
                for line in raw.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        name = Some(v.trim().to_owned());
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data = serde_json::from_str(v.trim()).ok();
                    }
                }
                if let (Some(name), Some(data)) = (name, data) {
                    return Some((name, data));
                }
                continue;
            }
            let mut chunk = [0u8; 4096];
            let n = tokio::time::timeout_at(deadline, self.stream.read(&mut chunk))
                .await
                .ok()?
                .expect("read events");
            assert!(n > 0, "the event stream closed");
            self.buffer
                .push_str(&String::from_utf8_lossy(&chunk[..n]).replace("\r\n", "\n"));
        }
    }
}

/// What the workers did, to check against the database afterwards.
#[derive(Default)]
struct Done {
    /// (conversation, message, thread, position) of every successful append.
    appends: Vec<(String, String, String, u64)>,
    /// (conversation, thread, user message, reply) of every chat turn.
    chats: Vec<(String, String, String, String)>,
    counts: HashMap<String, usize>,
}

async fn worker(addr: String, conversations: Arc<Vec<String>>, seed: u64) -> Done {
    let mut rng = Lcg(seed);
    let mut done = Done::default();
    for i in 0..OPERATIONS_PER_WORKER {
        let conv = &conversations[rng.pick(conversations.len())];
        let base = format!("/api/conversations/{conv}");
        let pick = rng.pick(100);
        let (kind, status) = if pick < 50 {
            let text = format!(
                "worker {seed} message {i}: edited src/lib.rs line {}",
                i * 7
            );
            let body = json!({"role": if i % 2 == 0 { "user" } else { "assistant" }, "text": text});
            let (status, out) = call(&addr, "POST", &format!("{base}/messages"), Some(&body)).await;
            assert_eq!(status, 201, "append: {out}");
            done.appends.push((
                conv.clone(),
                out["message"]["id"].as_str().expect("id").to_owned(),
                out["thread_id"].as_str().expect("thread").to_owned(),
                out["position"].as_u64().expect("position"),
            ));
            ("append", status)
        } else if pick < 68 {
            let thread = ok(&addr, "GET", &format!("{base}/thread"), None).await;
            let ids: Vec<Value> = thread["messages"]
                .as_array()
                .expect("messages")
                .iter()
                .map(|m| m["id"].clone())
                .collect();
            if ids.len() < 2 {
                continue;
            }
            let a = rng.pick(ids.len());
            let b = (a + 1 + rng.pick(ids.len() - 1)) % ids.len();
            let body = json!({"messages": [ids[a], ids[b]]});
            let (status, out) =
                call(&addr, "POST", &format!("{base}/squash/manual"), Some(&body)).await;
            // A source squashed away meanwhile by the other server is refused, never applied
            // half-way.
            assert!(
                status == 200 || status == 409 || status == 400,
                "squash: {status} {out}"
            );
            if status != 200 {
                eprintln!("squash {status}: {}", out["error"]["message"]);
            }
            ("squash", status)
        } else if pick < 80 {
            let (status, out) = call(&addr, "POST", &format!("{base}/undo"), None).await;
            assert!(status == 200 || status == 400, "undo: {status} {out}");
            ("undo", status)
        } else if pick < 86 {
            let (status, out) = call(&addr, "POST", &format!("{base}/redo"), None).await;
            assert!(status == 200 || status == 400, "redo: {status} {out}");
            ("redo", status)
        } else if pick < 94 {
            let body = json!({"text": format!("worker {seed} asks {i}: does it build?")});
            let (status, out) = call(&addr, "POST", &format!("{base}/chat"), Some(&body)).await;
            // 409: the other server switched threads during the model call and the question
            // is not in the current thread any more; the reply is not stored out of context.
            assert!(status == 200 || status == 409, "chat: {status} {out}");
            if status == 200 {
                done.chats.push((
                    conv.clone(),
                    out["thread_id"].as_str().expect("thread").to_owned(),
                    out["user"]["id"].as_str().expect("user").to_owned(),
                    out["assistant"]["id"].as_str().expect("reply").to_owned(),
                ));
            }
            ("chat", status)
        } else {
            let thread = ok(&addr, "GET", &format!("{base}/thread"), None).await;
            // The header and the links are two reads: an append between them adds a link.
            let n = thread["messages"].as_array().map_or(0, Vec::len) as u64;
            let count = thread["thread"]["message_count"].as_u64().expect("count");
            assert!(n >= count, "links only grow: {n} < {count}");
            ("read", 200)
        };
        *done.counts.entry(format!("{kind} {status}")).or_default() += 1;
    }
    done
}

/// Everything that must hold for one conversation, read through `addr`.
async fn check_conversation(addr: &str, conv: &str) -> (Value, HashMap<String, Vec<String>>) {
    let history = ok(
        addr,
        "GET",
        &format!("/api/conversations/{conv}/history"),
        None,
    )
    .await;
    let entries = history["threads"].as_array().expect("threads").clone();
    let conversation = ok(addr, "GET", &format!("/api/conversations/{conv}"), None).await;
    let ids: HashSet<String> = entries
        .iter()
        .map(|e| e["thread"]["id"].as_str().expect("id").to_owned())
        .collect();
    assert_eq!(ids.len(), entries.len(), "a thread listed twice");
    let initial: Vec<_> = entries
        .iter()
        .filter(|e| e["thread"]["original_thread_id"].is_null())
        .collect();
    assert_eq!(initial.len(), 1, "one initial thread");
    let current: Vec<_> = entries.iter().filter(|e| e["is_current"] == true).collect();
    assert_eq!(current.len(), 1, "one current thread");
    assert_eq!(
        current[0]["thread"]["id"], conversation["current_thread_id"],
        "the history's current thread is the conversation's"
    );
    let mut links = HashMap::new();
    for e in &entries {
        let t = &e["thread"];
        let id = t["id"].as_str().expect("id");
        if let Some(original) = t["original_thread_id"].as_str() {
            assert!(
                ids.contains(original),
                "thread {id} derives from a missing thread"
            );
        }
        let view = ok(addr, "GET", &format!("/api/threads/{id}"), None).await;
        let messages: Vec<String> = view["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| {
                assert_eq!(
                    m["conversation_id"], conv,
                    "a message of another conversation"
                );
                m["id"].as_str().expect("id").to_owned()
            })
            .collect();
        assert_eq!(
            t["message_count"],
            messages.len() as u64,
            "thread {id}: the count says what the links hold"
        );
        let distinct: HashSet<_> = messages.iter().collect();
        assert_eq!(
            distinct.len(),
            messages.len(),
            "thread {id} links a message twice"
        );
        links.insert(id.to_owned(), messages);
    }
    // Every squash's result sits in the thread it made.
    let operations = ok(
        addr,
        "GET",
        &format!("/api/conversations/{conv}/operations"),
        None,
    )
    .await;
    for op in operations["operations"].as_array().into_iter().flatten() {
        if let (Some(thread), Some(result)) = (
            op["result_thread_id"].as_str(),
            op["result_message_id"].as_str(),
        ) {
            assert!(
                links
                    .get(thread)
                    .is_some_and(|l| l.iter().any(|m| m == result)),
                "operation {} lost its result",
                op["id"]
            );
        }
    }
    (history, links)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_on_one_database_stay_consistent_and_see_each_others_changes() {
    let Some((store, database_url)) = fresh_schema().await else {
        return;
    };
    let model_url = fake_model().await;
    let a = serve(&database_url, &model_url);
    let b = serve(&database_url, &model_url);

    let mut conversations = Vec::new();
    for name in ["Shared one", "Shared two"] {
        let created = ok(
            &a.addr,
            "POST",
            "/api/conversations",
            Some(&json!({"name": name})),
        )
        .await;
        conversations.push(created["id"].as_str().expect("id").to_owned());
    }
    let conv = conversations[0].clone();

    // Live updates: B's stream hears what A writes.
    let mut events = Events::open(&b.addr, &conv).await;
    let (name, first) = events.next(Duration::from_secs(10)).await.expect("current");
    assert_eq!(name, "current");
    assert_eq!(first["revision"], 0);
    let appended = ok(
        &a.addr,
        "POST",
        &format!("/api/conversations/{conv}/messages"),
        Some(&json!({"role": "user", "text": "Written through A"})),
    )
    .await;
    let (name, changed) = events
        .next(Duration::from_secs(10))
        .await
        .expect("B hears A's append");
    assert_eq!(name, "changed", "{changed}");
    assert_eq!(changed["thread"], appended["thread_id"]);
    assert_eq!(changed["revision"], appended["revision"]);
    assert_eq!(changed["message_count"], 1);
    // And what B itself writes (its own tabs).
    ok(
        &b.addr,
        "POST",
        &format!("/api/conversations/{conv}/messages"),
        Some(&json!({"role": "assistant", "text": "Written through B"})),
    )
    .await;
    let (_, changed) = events
        .next(Duration::from_secs(10))
        .await
        .expect("B's own append");
    assert_eq!(changed["revision"], 2);

    // Hammer both servers at once.
    let shared = Arc::new(conversations.clone());
    let mut tasks = Vec::new();
    for (s, server) in [&a, &b].into_iter().enumerate() {
        for w in 0..WORKERS_PER_SERVER {
            let seed = (s * 100 + w) as u64 + 1;
            tasks.push(tokio::spawn(worker(
                server.addr.clone(),
                shared.clone(),
                seed,
            )));
        }
    }
    let mut appends = Vec::new();
    let mut chats = Vec::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for task in tasks {
        let done = task.await.expect("worker");
        appends.extend(done.appends);
        chats.extend(done.chats);
        for (k, v) in done.counts {
            *counts.entry(k).or_default() += v;
        }
    }
    let mut summary: Vec<_> = counts.iter().collect();
    summary.sort();
    eprintln!("operations: {summary:?}");
    assert!(
        counts.get("squash 200").copied().unwrap_or(0) > 0,
        "{summary:?}"
    );
    assert!(
        counts.get("undo 200").copied().unwrap_or(0) > 0,
        "{summary:?}"
    );
    assert!(
        counts.get("chat 200").copied().unwrap_or(0) > 0,
        "{summary:?}"
    );

    // The stream kept up: the last event is the conversation's state now.
    let now = ok(
        &a.addr,
        "GET",
        &format!("/api/conversations/{conv}/thread"),
        None,
    )
    .await;
    let mut last = changed;
    while let Some((_, event)) = events.next(Duration::from_secs(3)).await {
        last = event;
    }
    assert_eq!(last["thread"], now["thread"]["id"]);
    assert_eq!(last["revision"], now["thread"]["revision"]);

    let mut links_of = HashMap::new();
    for conv in &conversations {
        let (history_a, links) = check_conversation(&a.addr, conv).await;
        let (history_b, _) = check_conversation(&b.addr, conv).await;
        assert_eq!(history_a, history_b, "both servers tell one history");
        let thread_a = ok(
            &a.addr,
            "GET",
            &format!("/api/conversations/{conv}/thread"),
            None,
        )
        .await;
        let thread_b = ok(
            &b.addr,
            "GET",
            &format!("/api/conversations/{conv}/thread"),
            None,
        )
        .await;
        assert_eq!(thread_a, thread_b, "both servers show one current thread");
        links_of.insert(conv.clone(), links);
    }
    // No lost append: each message is where its answer said, in a thread that only grew.
    for (conv, message, thread, position) in &appends {
        let links = &links_of[conv][thread];
        assert_eq!(
            links.get(*position as usize),
            Some(message),
            "append {message} at {thread}:{position}"
        );
    }
    for (conv, thread, user, reply) in &chats {
        let links = &links_of[conv][thread];
        let at = |id: &String| links.iter().position(|m| m == id);
        let (Some(u), Some(r)) = (at(user), at(reply)) else {
            panic!("chat turn {user}/{reply} missing from {thread}");
        };
        assert!(u < r, "the reply follows the question");
    }
    eprintln!(
        "checked {} appends and {} chat turns over {} conversations",
        appends.len(),
        chats.len(),
        conversations.len()
    );
    drop(a);
    drop(b);
    store.drop_schema().await.expect("drop the schema");
}
