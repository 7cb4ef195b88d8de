//! End to end, as a person uses it: real headless Chromium (through chromedriver) against the
//! real server on a loopback port, with a real OpenAI-compatible model server on another
//! loopback port that streams its answers and records what it was asked.
//!
//! Screenshots of the main states go to `artifacts/screenshots/` at the workspace root.
//! Without chromedriver the test prints a note and passes, unless `SQUASH_REQUIRE_BROWSER` or
//! `CI` is set (`.ci/run` sets the first after installing Chromium): then it fails.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use squash_app::ConversationService;
use squash_core::tokens::{format_compact, format_count, message_tokens};
use squash_core::ConversationId;
use squash_llm::{OpenAiConfig, OpenAiModel, RetryPolicy};
use squash_store::sqlite::SqliteStore;
use squash_web::AppState;

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";
const MODEL_ID: &str = "loopback-model";
/// The model's context window: the window the page's context meter measures against.
const WINDOW: u64 = 32_000;
/// Shorter than any selection the story squashes, with its salient terms.
const SQUASH_ANSWER: &str = "E0308 in src/main.rs fixed: load_config returns Result.";
const CHAT_ANSWER: &str = "The build is clean; nothing else is open.";
const INSTRUCTIONS: &str = "Keep every file path verbatim.";
const XSS: &str =
    "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\"> was in the log";

// ---- the loopback model server --------------------------------------------------------------

#[derive(Default)]
struct ModelServer {
    requests: Mutex<Vec<Value>>,
    fail_next: AtomicBool,
}

impl ModelServer {
    fn requests(&self) -> Vec<Value> {
        self.requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

async fn completions(State(server): State<Arc<ModelServer>>, Json(body): Json<Value>) -> Response {
    server
        .requests
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(body.clone());
    if server.fail_next.swap(false, Ordering::SeqCst) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({ "error": {
                "message": "Incorrect API key provided.",
                "type": "invalid_request_error",
                "code": "invalid_api_key",
            }})),
        )
            .into_response();
    }
    let text = if body.to_string().contains("messages_to_squash") {
        SQUASH_ANSWER
    } else {
        CHAT_ANSWER
    };
    if body["stream"] != json!(true) {
        return Json(json!({
            "model": MODEL_ID,
            "choices": [{ "index": 0, "message": { "role": "assistant", "content": text }, "finish_reason": "stop" }],
            "usage": { "prompt_tokens": 120, "completion_tokens": 14 },
        }))
        .into_response();
    }
    // Slowly, word by word, so that the page's progress indicator can be seen.
    let mut chunks: VecDeque<String> = text
        .split_inclusive(' ')
        .map(|piece| {
            json!({ "model": MODEL_ID, "choices": [{ "index": 0, "delta": { "content": piece }, "finish_reason": null }] })
                .to_string()
        })
        .collect();
    chunks.push_back(
        json!({ "model": MODEL_ID, "choices": [{ "index": 0, "delta": {}, "finish_reason": "stop" }],
                "usage": { "prompt_tokens": 120, "completion_tokens": 14 } })
        .to_string(),
    );
    chunks.push_back("[DONE]".to_owned());
    let stream = futures::stream::unfold(chunks, |mut chunks| async move {
        let chunk = chunks.pop_front()?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        Some((
            Ok::<_, std::io::Error>(Bytes::from(format!("data: {chunk}\n\n"))),
            chunks,
        ))
    });
    (
        [(header::CONTENT_TYPE, "text/event-stream")],
        Body::from_stream(stream),
    )
        .into_response()
}

async fn start_model_server() -> (Arc<ModelServer>, String) {
    let server = Arc::new(ModelServer::default());
    let app = Router::new()
        .route("/v1/chat/completions", post(completions))
        .with_state(server.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind model server");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (server, format!("http://{addr}/v1"))
}

// ---- the browser ----------------------------------------------------------------------------

struct Browser {
    client: Client,
    _driver: tokio::process::Child,
    _profile: tempfile::TempDir,
    shots: PathBuf,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

async fn start_browser() -> Browser {
    let port = free_port();
    let driver = tokio::process::Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("start chromedriver");
    let deadline = Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let profile = tempfile::tempdir().expect("profile dir");
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-dev-shm-usage",
                "--window-size=1280,960",
                format!("--user-data-dir={}", profile.path().display()),
            ],
        }),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("WebDriver session");
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../artifacts/screenshots");
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    Browser {
        client,
        _driver: driver,
        _profile: profile,
        shots,
    }
}

impl Browser {
    async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Polls `condition` (a JS expression) until it is true.
    async fn wait(&self, condition: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if self.js(&format!("return !!({condition});")).await == json!(true) {
                return;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
    }

    async fn type_into(&self, css: &str, text: &str) {
        let el = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        el.clear().await.expect("clear");
        el.send_keys(text).await.expect("type");
    }

    async fn text(&self, css: &str) -> String {
        self.js(&format!(
            "const e = document.querySelector({}); return e ? e.textContent : '';",
            json!(css)
        ))
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }

    async fn ids(&self) -> Vec<String> {
        let v = self
            .js("return Array.from(document.querySelectorAll('#thread li.msg')).map(li => li.dataset.id);")
            .await;
        serde_json::from_value(v).expect("ids")
    }

    /// Ticks the checkbox of message @n (1-based), optionally with Shift held.
    async fn tick(&self, n: usize, shift: bool) {
        if shift {
            // A real click event with shiftKey set, dispatched on the checkbox.
            self.js(&format!(
                "document.querySelectorAll('#thread .select-box')[{}].dispatchEvent(new MouseEvent('click', {{bubbles: true, cancelable: true, shiftKey: true}})); return true;",
                n - 1
            ))
            .await;
        } else {
            self.click(&format!("#thread li.msg:nth-child({n}) .select-box"))
                .await;
        }
    }

    async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.expect("screenshot");
        std::fs::write(self.shots.join(name), png).expect("write screenshot");
    }
}

// ---- the story ------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_squashes_with_the_web_ui() {
    if browser_missing() {
        return;
    }
    story().await;
}

/// Whether the browser is missing (noted as a skip); fails instead when it is required.
fn browser_missing() -> bool {
    if Path::new(CHROMEDRIVER).exists() && Path::new(CHROMIUM).exists() {
        return false;
    }
    if std::env::var_os("SQUASH_REQUIRE_BROWSER").is_some() || std::env::var_os("CI").is_some() {
        panic!("{CHROMEDRIVER} or {CHROMIUM} is missing: apt-get install chromium chromium-driver");
    }
    note_skip(&format!(
        "{CHROMEDRIVER} or {CHROMIUM} is missing (apt-get install chromium chromium-driver)"
    ));
    true
}

/// Says that the running test did not run, on stderr and, under `scripts/test.sh`, in the list
/// its summary prints (`SQUASH_SKIP_LOG`): libtest hides a passing test's stderr, and a skip
/// must not read as a pass.
fn note_skip(message: &str) {
    eprintln!("note: skipping: {message}");
    if let Some(log) = std::env::var_os("SQUASH_SKIP_LOG") {
        use std::io::Write;
        let test = std::thread::current().name().unwrap_or("a test").to_owned();
        let line = format!("{} {test}: {message}\n", env!("CARGO_PKG_NAME"));
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        if let Err(e) = written {
            eprintln!(
                "note: cannot record the skip in {}: {e}",
                log.to_string_lossy()
            );
        }
    }
}

async fn story() {
    let (model_server, base_url) = start_model_server().await;
    let mut config = OpenAiConfig::new(base_url, MODEL_ID);
    config.retry = RetryPolicy::none();
    config.context_window_tokens = WINDOW as u32;
    let model = OpenAiModel::new(config).expect("model");

    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("sqlite");
    let service = ConversationService::new(Arc::new(store));
    // The test's own view of the database, to compute what the page should show.
    let probe = service.clone();
    let state = AppState::new(service)
        .with_model(Arc::new(model))
        .with_default_project("/work/e2e");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind app");
    let app = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(squash_web::serve(listener, state, std::future::pending()));

    let b = Arc::new(start_browser().await);
    // In a task, so that a failed assertion still closes the browser below.
    let run = tokio::spawn({
        let b = b.clone();
        async move { run_story(&b, &app, &model_server, &probe).await }
    });
    let outcome = tokio::time::timeout(Duration::from_secs(240), run).await;
    let _ = b.client.clone().close().await;
    match outcome {
        Ok(Ok(())) => {}
        Ok(Err(e)) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Ok(Err(e)) => panic!("the story task failed: {e}"),
        Err(_) => panic!("the browser story took too long"),
    }
}

/// Waits for the context meter to show the current thread's size against [`WINDOW`], the size
/// computed here from the stored messages (`message_tokens` summed); returns it.
async fn meter_shows_the_thread(b: &Browser, service: &ConversationService) -> u64 {
    let conversation: ConversationId = b
        .js("return document.querySelector('#conversation').dataset.conversation;")
        .await
        .as_str()
        .expect("conversation id")
        .parse()
        .expect("a conversation id");
    let view = service.current_thread(conversation).await.expect("thread");
    let tokens: u64 = view.messages.iter().map(message_tokens).sum();
    let percent = tokens * 100 / WINDOW;
    let text = format!(
        "{} / {} tokens ({percent}%)",
        format_compact(tokens),
        format_compact(WINDOW)
    );
    b.wait(
        &format!(
            "document.querySelector('#context-meter-text').textContent.trim() === {}",
            json!(text)
        ),
        &format!("the context meter to show {text}"),
    )
    .await;
    let bar = b
        .js("const m = document.querySelector('#context-meter-bar');              return [m.value, m.max, m.getAttribute('aria-valuetext'), m.labels.length];")
        .await;
    let label = format!(
        "{} of {} tokens ({percent}%)",
        format_count(tokens),
        format_count(WINDOW)
    );
    assert_eq!(bar, json!([tokens, WINDOW, label, 1]), "the meter's bar");
    tokens
}

async fn run_story(
    b: &Browser,
    app: &str,
    model_server: &ModelServer,
    service: &ConversationService,
) {
    // Create a conversation.
    b.client.goto(app).await.expect("open home");
    b.type_into("#create-name", "Fix the build").await;
    b.click("#create-form button[type=submit]").await;
    b.wait(
        "document.querySelector('#conversation')",
        "the conversation page",
    )
    .await;

    // Write six messages (one of them an XSS payload), without asking the model.
    let messages = [
        (
            "user",
            "The build fails with error E0308 in src/main.rs line 42.",
        ),
        (
            "assistant",
            "Let me check src/main.rs. The mismatched type comes from load_config.",
        ),
        ("user", XSS),
        (
            "assistant",
            "Fixed E0308: load_config now returns Result<Config, Error>.",
        ),
        (
            "user",
            "There is also a warning about unused imports in src/lib.rs.",
        ),
        (
            "assistant",
            "Removed the unused imports; cargo build is clean now.",
        ),
    ];
    for (i, (role, text)) in messages.iter().enumerate() {
        b.type_into("#chat-input", text).await;
        b.js(&format!(
            "document.querySelector('#append-role').value = {}; return true;",
            json!(role)
        ))
        .await;
        b.click("#append-btn").await;
        b.wait(
            &format!(
                "document.querySelectorAll('#thread li.msg').length === {}",
                i + 1
            ),
            "the appended message",
        )
        .await;
    }
    let original = b.ids().await;
    assert_eq!(original.len(), 6);
    let written = meter_shows_the_thread(b, service).await;
    assert!(written > 0);

    // The XSS payload is shown as text and never ran.
    assert_eq!(
        b.js("return window.pwned === undefined;").await,
        json!(true)
    );
    let shown = b.text("#thread li.msg:nth-child(3) .msg-body").await;
    assert!(shown.contains("<script>window.pwned=1</script>"), "{shown}");
    assert_eq!(
        b.js("return document.querySelectorAll('#thread .msg-body script, #thread .msg-body img').length;")
            .await,
        json!(0)
    );

    // Shift-click selects a range; Clear empties the selection.
    b.tick(2, false).await;
    b.tick(5, true).await;
    assert_eq!(b.text("#selection-count").await, "4 selected");
    b.click("#clear-selection").await;
    assert_eq!(b.text("#selection-count").await, "0 selected");

    // Select three non-contiguous messages.
    for n in [1, 4, 6] {
        b.tick(n, false).await;
    }
    assert_eq!(b.text("#selection-count").await, "3 selected");
    b.screenshot("01-conversation-selection.png").await;

    // AI squash: progress with streamed text, the menu disabled meanwhile.
    b.click("#squash-btn").await;
    b.wait(
        "!document.querySelector('#squash-menu').hidden",
        "the Squash menu",
    )
    .await;
    b.screenshot("02-squash-menu.png").await;
    b.click("[data-squash=ai]").await;
    b.wait(
        "!document.querySelector('#progress').hidden && document.querySelector('#progress-text').textContent.length > 10",
        "streamed progress",
    )
    .await;
    assert_eq!(
        b.js("return document.querySelector('#squash-btn').disabled;")
            .await,
        json!(true)
    );
    b.screenshot("03-squash-in-progress.png").await;

    // The preview with its quality report.
    b.wait(
        "!document.querySelector('#preview').hidden && document.querySelector('#quality-report')",
        "the preview",
    )
    .await;
    let report = b.text("#quality-report").await;
    assert!(report.contains("Compression"), "{report}");
    assert!(report.contains("E0308"), "{report}");
    // The answer, with the facts it left out appended, and the fact report.
    let preview_text = b.text("#preview-text").await;
    assert!(preview_text.starts_with(SQUASH_ANSWER), "{preview_text}");
    let facts = b.text("#fact-report").await;
    assert!(facts.contains("Facts:"), "{facts}");
    b.screenshot("04-preview.png").await;
    // Nothing changed before Apply.
    assert_eq!(b.ids().await, original);

    // Apply: the squashed message takes the first source's place, with a provenance badge.
    b.click("[data-preview-action=apply]").await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 4",
        "the squashed thread",
    )
    .await;
    let squashed = b.ids().await;
    assert_eq!(
        &squashed[1..],
        &[
            original[1].clone(),
            original[2].clone(),
            original[4].clone()
        ]
    );
    assert!(!original.contains(&squashed[0]));
    assert_eq!(
        b.js("return !!document.querySelector('#thread li.msg:nth-child(1) .prov-badge');")
            .await,
        json!(true)
    );
    assert!(b
        .text("#thread li.msg:nth-child(1) .msg-body")
        .await
        .contains(SQUASH_ANSWER));
    assert!(b.text("#flash").await.contains("Applied"));
    // The meter follows: the three messages' tokens are gone, the answer's added.
    let after_squash = meter_shows_the_thread(b, service).await;
    assert!(after_squash < written, "{after_squash} vs {written}");

    // Provenance: the operation and its three sources.
    b.click("#thread li.msg:nth-child(1) .prov-badge").await;
    b.wait(
        "document.querySelector('#provenance-dialog').open && document.querySelector('#provenance-body .prov-op')",
        "the provenance dialog",
    )
    .await;
    let prov = b.text("#provenance-body").await;
    assert!(prov.contains("AI squash"), "{prov}");
    assert!(prov.contains(MODEL_ID), "{prov}");
    assert!(prov.contains("Sources (3)"), "{prov}");
    assert!(
        prov.contains("error E0308") && prov.contains("cargo build is clean"),
        "{prov}"
    );
    b.screenshot("05-provenance.png").await;
    b.click("#provenance-dialog .close-dialog").await;

    // The history panel: two threads, the squash current.
    b.click("#history-btn").await;
    b.wait(
        "!document.querySelector('#history-panel').hidden",
        "the history panel",
    )
    .await;
    assert_eq!(
        b.js("return document.querySelectorAll('#history-panel .hist-entry').length;")
            .await,
        json!(2)
    );
    assert!(b
        .text("#history-panel .hist-entry.current")
        .await
        .contains("AI squash of 3 messages"));
    b.screenshot("06-history.png").await;

    // Undo restores the original list; redo brings the squash back.
    b.click("#undo-btn").await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 6",
        "the undone thread",
    )
    .await;
    assert_eq!(b.ids().await, original);
    assert_eq!(meter_shows_the_thread(b, service).await, written, "undo");
    b.click("#redo-btn").await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 4",
        "the redone thread",
    )
    .await;
    assert_eq!(b.ids().await, squashed);

    // A model error: a readable message, nothing changed.
    model_server.fail_next.store(true, Ordering::SeqCst);
    b.tick(2, false).await;
    b.tick(4, false).await;
    b.click("#squash-btn").await;
    b.click("[data-squash=ai]").await;
    b.wait(
        "!document.querySelector('#flash').hidden && document.querySelector('#flash').classList.contains('error')",
        "the error message",
    )
    .await;
    let error = b.text("#flash").await;
    assert!(error.contains("rejected the credentials"), "{error}");
    assert!(error.contains("Incorrect API key provided"), "{error}");
    assert!(error.contains("OPENAI_API_KEY"), "hint: {error}");
    assert_eq!(b.ids().await, squashed);
    assert_eq!(
        b.js("return document.querySelector('#preview').hidden && document.querySelector('#progress').hidden;")
            .await,
        json!(true)
    );
    b.screenshot("07-model-error.png").await;

    // Custom AI Squash: the instructions reach the model.
    let before = model_server.requests().len();
    b.click("#squash-btn").await;
    b.click("[data-squash=custom]").await;
    b.wait(
        "document.querySelector('#custom-dialog').open",
        "the custom dialog",
    )
    .await;
    b.type_into("#custom-instructions", INSTRUCTIONS).await;
    b.screenshot("08-custom-dialog.png").await;
    b.click("#custom-run").await;
    b.wait(
        "!document.querySelector('#preview').hidden && document.querySelector('#quality-report')",
        "the custom preview",
    )
    .await;
    // The squash, then one repair request for the facts the scripted answer leaves out.
    let requests = model_server.requests();
    assert_eq!(requests.len(), before + 2);
    assert!(requests[before + 1]
        .to_string()
        .contains("Your answer needs one correction"));
    let sent = requests[before].to_string();
    assert!(sent.contains(INSTRUCTIONS), "{sent}");
    assert!(sent.contains("additional_instructions"), "{sent}");
    assert!(b.text("#preview").await.contains(INSTRUCTIONS));
    // Retry asks again with the same instructions and replaces the preview.
    let first_preview = b
        .js("return document.querySelector('#preview .preview-card').dataset.preview;")
        .await;
    b.click("[data-preview-action=retry]").await;
    b.wait(
        &format!(
            "document.querySelector('#preview .preview-card') && document.querySelector('#preview .preview-card').dataset.preview !== {first_preview}"
        ),
        "the retried preview",
    )
    .await;
    let requests = model_server.requests();
    assert_eq!(requests.len(), before + 4);
    assert!(requests[before + 2].to_string().contains(INSTRUCTIONS));
    // Edit, then apply.
    b.click("[data-preview-action=edit]").await;
    b.type_into(
        "#preview-edit",
        "Edited by hand: src/main.rs and src/lib.rs are fine.",
    )
    .await;
    b.click("[data-preview-action=apply-edited]").await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 3",
        "the custom squash applied",
    )
    .await;
    assert!(b
        .text("#thread li.msg:nth-child(2) .msg-body")
        .await
        .contains("Edited by hand"));

    // Chat: the reply streams in and is stored after the user's message.
    b.type_into("#chat-input", "What is left to do?").await;
    b.click("#chat-send").await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 5",
        "the chat turn",
    )
    .await;
    assert!(b
        .text("#thread li.msg:nth-child(5) .msg-body")
        .await
        .contains(CHAT_ANSWER));
    b.screenshot("09-after-chat.png").await;

    // Every content type, readable; tool calls, results and thinking collapsed by default.
    let conversation = b
        .js("return document.querySelector('#conversation').dataset.conversation;")
        .await;
    let conversation = conversation.as_str().expect("conversation id");
    for (role, content) in [
        (
            "assistant",
            json!([
                { "type": "thinking", "signature": "sig", "thinking": "The error is in the config loader; run the build first." },
                { "type": "assistant_message", "structured": { "full_text": "**Plan:** run `cargo build`, then:\n\n- check `src/main.rs`\n- fix *E0308*" } },
                { "type": "tool_call", "id": "toolu_1", "name": "Bash", "input": { "command": "cargo build 2>&1 | tail -3" } },
            ]),
        ),
        (
            "user",
            json!([
                { "type": "tool_result", "tool_use_id": "toolu_1", "tool_name": "Bash", "is_error": true,
                  "result": [{ "type": "text", "text": "error[E0308]: mismatched types\n --> src/main.rs:42:5" }] },
                { "type": "system", "level": "warning", "content": "The build took 41 s." },
                { "type": "system", "level": "error", "content": "1 error emitted." },
            ]),
        ),
    ] {
        let body = json!({ "role": role, "content": content });
        let status = b
            .js(&format!(
                "return fetch('/api/conversations/{conversation}/messages', {{ method: 'POST', \
                 headers: {{ 'Content-Type': 'application/json', 'X-Squash-Csrf': '1' }}, \
                 body: JSON.stringify({body}) }}).then(r => r.status);"
            ))
            .await;
        assert_eq!(status, json!(201));
    }
    b.client.refresh().await.expect("reload");
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 7",
        "the rich messages",
    )
    .await;
    assert_eq!(
        b.js("return Array.from(document.querySelectorAll('#thread details.tool, #thread details.thinking')).map(d => d.open);")
            .await,
        json!([false, false, false])
    );
    assert_eq!(
        b.js("return document.querySelector('#thread li.msg:nth-child(6) .markdown strong').textContent;")
            .await,
        json!("Plan:")
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#thread .system.level-warning, #thread .system.level-error').length;")
            .await,
        json!(2)
    );
    // Open the tool result to show it, as a person would.
    b.click("#thread li.msg:nth-child(7) details.tool-result summary")
        .await;
    b.js("document.querySelector('#thread li.msg:nth-child(6)').scrollIntoView(); return true;")
        .await;
    b.screenshot("10-content-types.png").await;

    // Edit a message, delete one, undo the delete.
    b.click("#thread li.msg:nth-child(5) .edit-btn").await;
    b.type_into(
        "#thread li.msg:nth-child(5) .edit-form textarea",
        "The build is clean.",
    )
    .await;
    b.click("#thread li.msg:nth-child(5) .edit-form button[type=submit]")
        .await;
    b.wait(
        "document.querySelector('#thread li.msg:nth-child(5) .msg-body').textContent.trim() === 'The build is clean.'",
        "the edited message",
    )
    .await;
    assert!(b.text("#flash").await.contains("Edited"));
    let before_delete = b.ids().await;
    b.click("#thread li.msg:nth-child(4) .delete-btn").await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 6",
        "the deleted message",
    )
    .await;
    b.click("#undo-btn").await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 7",
        "the delete undone",
    )
    .await;
    assert_eq!(b.ids().await, before_delete);

    // The conversation list: rename, then delete (after confirming).
    b.client.goto(app).await.expect("open home");
    b.click("li.conversation .rename-btn").await;
    b.type_into("li.conversation .rename-form input", "Build fixed")
        .await;
    b.click("li.conversation .rename-form button[type=submit]")
        .await;
    b.wait(
        "document.querySelector('li.conversation .conversation-link') && document.querySelector('li.conversation .conversation-link').textContent === 'Build fixed'",
        "the renamed conversation",
    )
    .await;
    assert!(b.text(".project h3").await.contains("/work/e2e"));
    b.screenshot("11-conversation-list.png").await;
    b.click("li.conversation .delete-conversation-btn").await;
    b.client.accept_alert().await.expect("confirm the delete");
    b.wait(
        "!document.querySelector('li.conversation') && document.querySelector('.empty')",
        "the empty list",
    )
    .await;
}

// ---- fit to budget --------------------------------------------------------------------------

const MASK_MARKER: &str = "[output masked by squash:";
const PHONE: (u32, u32) = (390, 844);
const DESKTOP: (u32, u32) = (1280, 960);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_fits_a_session_to_a_budget_with_the_web_ui() {
    if browser_missing() {
        return;
    }
    let (_model_server, base_url) = start_model_server().await;
    let mut config = OpenAiConfig::new(base_url, MODEL_ID);
    config.retry = RetryPolicy::none();
    config.context_window_tokens = 32_000;
    let model = OpenAiModel::new(config).expect("model");
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("sqlite");
    let state = AppState::new(ConversationService::new(Arc::new(store)))
        .with_model(Arc::new(model))
        .with_default_project("/work/e2e");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind app");
    let app = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(squash_web::serve(listener, state, std::future::pending()));

    let b = Arc::new(start_browser().await);
    let run = tokio::spawn({
        let b = b.clone();
        async move { fit_story(&b, &app).await }
    });
    let outcome = tokio::time::timeout(Duration::from_secs(180), run).await;
    let _ = b.client.clone().close().await;
    match outcome {
        Ok(Ok(())) => {}
        Ok(Err(e)) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Ok(Err(e)) => panic!("the fit story task failed: {e}"),
        Err(_) => panic!("the fit story took too long"),
    }
}

impl Browser {
    /// `fetch` from the page, with the CSRF header; returns the answer's JSON.
    async fn post_json(&self, url: &str, body: &Value) -> Value {
        self.js(&format!(
            "return fetch({}, {{ method: 'POST', headers: {{ 'Content-Type': 'application/json', \
             'X-Squash-Csrf': '1' }}, body: JSON.stringify({body}) }}).then(r => r.json());",
            json!(url)
        ))
        .await
    }

    async fn resize(&self, (width, height): (u32, u32)) {
        self.client
            .set_window_size(width, height)
            .await
            .expect("resize the window");
    }

    /// A screenshot at desktop size and one at phone size, with `css` scrolled into view.
    async fn screenshots(&self, name: &str, css: &str) {
        let show = format!(
            "document.querySelector({}).scrollIntoView({{ block: 'nearest' }}); return true;",
            json!(css)
        );
        self.js(&show).await;
        self.screenshot(&format!("{name}.png")).await;
        self.resize(PHONE).await;
        self.js(&show).await;
        self.screenshot(&format!("{name}-phone.png")).await;
        self.resize(DESKTOP).await;
    }
}

/// A coding session of six turns, each with a long `cargo test` log, made over the API.
async fn fit_session(b: &Browser) -> String {
    let created = b
        .post_json(
            "/api/conversations",
            &json!({ "name": "Long agent session" }),
        )
        .await;
    let conv = created["id"].as_str().expect("conversation id").to_owned();
    for t in 0..6 {
        let call = format!("toolu_{t}");
        let log: Vec<String> = (0..150)
            .map(|i| format!("   Compiling dep_{i} v0.{t}.{i} (/work/deps/dep_{i})"))
            .chain([format!("test result: ok. {} passed; 0 failed", t + 3)])
            .collect();
        for body in [
            json!({ "role": "user", "text": format!("Turn {t}: make report_{t} pass") }),
            json!({ "role": "assistant", "content": [{ "type": "tool_call", "id": call, "name": "Bash",
                     "input": { "command": format!("cargo test report_{t}") } }] }),
            json!({ "role": "user", "content": [{ "type": "tool_result", "tool_use_id": call,
                     "tool_name": "Bash", "is_error": false,
                     "result": [{ "type": "text", "text": log.join("\n") }] }] }),
            json!({ "role": "assistant", "text": format!("report_{t} is done.") }),
        ] {
            let out = b
                .post_json(&format!("/api/conversations/{conv}/messages"), &body)
                .await;
            assert!(out["message"]["id"].is_string(), "{out}");
        }
    }
    conv
}

async fn fit_story(b: &Browser, app: &str) {
    b.client.goto(app).await.expect("open home");
    let conv = fit_session(b).await;
    b.client
        .goto(&format!("{app}/c/{conv}"))
        .await
        .expect("open the conversation");
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 24",
        "the session",
    )
    .await;
    let original = b.ids().await;
    let thread_text = "document.querySelector('#thread').textContent";

    // The dialog opens with the focus on the budget, and Escape closes it.
    b.click("#fit-btn").await;
    b.wait(
        "document.querySelector('#fit-dialog').open && document.activeElement.id === 'fit-budget'",
        "the fit dialog, focused",
    )
    .await;
    b.client
        .active_element()
        .await
        .expect("focused element")
        .send_keys("\u{E00C}")
        .await
        .expect("press Escape");
    b.wait(
        "!document.querySelector('#fit-dialog').open",
        "Escape to close the dialog",
    )
    .await;
    b.click("#fit-btn").await;
    b.wait(
        "document.querySelector('#fit-dialog').open",
        "the fit dialog",
    )
    .await;
    let default_budget = b
        .js("return document.querySelector('#fit-budget').value;")
        .await;
    let default_budget = default_budget.as_str().expect("budget").to_owned();
    assert_eq!(
        b.js("return document.querySelector('#fit-strategy').value;")
            .await,
        json!("hybrid")
    );
    assert_eq!(
        b.js("return document.querySelector('#fit-apply').disabled;")
            .await,
        json!(true)
    );
    b.js(
        "const s = document.querySelector('#fit-strategy'); s.value = 'mask'; \
          s.dispatchEvent(new Event('input', { bubbles: true })); return true;",
    )
    .await;

    // A budget out of reach: the best reachable, and Apply only as a best effort.
    b.type_into("#fit-budget", "1").await;
    b.click("#fit-preview").await;
    b.wait(
        "document.querySelector('#fit-plan .fit-out-of-reach')",
        "the out-of-reach plan",
    )
    .await;
    assert!(b
        .text("#fit-plan .fit-out-of-reach")
        .await
        .contains("Does not fit: best reachable"));
    assert_eq!(
        b.js("return document.querySelector('#fit-apply').disabled;")
            .await,
        json!(true)
    );
    b.click("#fit-best-effort").await;
    assert_eq!(
        b.js("return document.querySelector('#fit-apply').disabled;")
            .await,
        json!(false)
    );
    b.screenshots("12-fit-out-of-reach", "#fit-apply").await;

    // The default budget (half the thread) with masks: old tool outputs, the last two turns
    // left alone.
    b.type_into("#fit-budget", &default_budget).await;
    b.wait(
        "document.querySelector('#fit-plan').children.length === 0",
        "the stale plan cleared",
    )
    .await;
    b.click("#fit-preview").await;
    b.wait("document.querySelector('#fit-steps')", "the plan's steps")
        .await;
    let rows = b
        .js("return Array.from(document.querySelectorAll('#fit-steps tbody tr')).map(r => [r.dataset.action, r.cells[2].textContent]);")
        .await;
    // Oldest first, only as many as the budget needs: here the first two outputs.
    assert_eq!(rows, json!([["mask", "@3"], ["mask", "@7"]]));
    assert!(b.text("#fit-plan .fit-after").await.contains("fits"));
    assert_eq!(
        b.js("return document.querySelector('#fit-apply').disabled;")
            .await,
        json!(false)
    );
    assert_eq!(b.ids().await, original, "a preview changes nothing");
    b.screenshots("13-fit-preview", "#fit-apply").await;

    // Apply: the thread changes, the outputs become placeholders, the card offers the undo.
    b.click("#fit-apply").await;
    b.wait(
        "!document.querySelector('#fit-dialog').open && !document.querySelector('#fit-done').hidden",
        "the applied fit",
    )
    .await;
    b.wait(
        &format!("{thread_text}.includes({})", json!(MASK_MARKER)),
        "the masked outputs",
    )
    .await;
    let fitted = b.ids().await;
    assert_eq!(fitted.len(), original.len());
    let changed: Vec<usize> = (0..fitted.len())
        .filter(|&i| fitted[i] != original[i])
        .map(|i| i + 1)
        .collect();
    assert_eq!(changed, [3, 7]);
    assert!(b.text("#fit-done-text").await.contains("in 2 steps"));
    b.click("#thread li.msg:nth-child(3) details.tool-result summary")
        .await;
    assert!(b
        .text("#thread li.msg:nth-child(3) .msg-body")
        .await
        .contains(MASK_MARKER));
    // The last turns are whole.
    assert!(b
        .text("#thread li.msg:nth-child(23) .msg-body")
        .await
        .contains("Compiling dep_149"));
    b.screenshots("14-fit-applied", "#fit-done").await;

    // Undo: the original thread, exactly.
    b.click("#fit-undo").await;
    b.wait(
        "document.querySelector('#fit-done').hidden",
        "the undone fit",
    )
    .await;
    b.wait(
        &format!("!{thread_text}.includes({})", json!(MASK_MARKER)),
        "the original outputs",
    )
    .await;
    assert_eq!(b.ids().await, original);
    assert!(b.text("#flash").await.contains("Undone"));
}

// ---- live updates ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_made_elsewhere_appears_in_the_open_page() {
    if browser_missing() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("sqlite");
    let service = ConversationService::new(Arc::new(store));
    // Another tab, as far as the page can tell: the same server's service, not this page.
    let elsewhere = service.clone();
    let state = AppState::new(service).with_default_project("/work/e2e");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind app");
    let app = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(squash_web::serve(listener, state, std::future::pending()));

    let b = Arc::new(start_browser().await);
    let run = tokio::spawn({
        let b = b.clone();
        async move { live_story(&b, &app, &elsewhere).await }
    });
    let outcome = tokio::time::timeout(Duration::from_secs(120), run).await;
    let _ = b.client.clone().close().await;
    match outcome {
        Ok(Ok(())) => {}
        Ok(Err(e)) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Ok(Err(e)) => panic!("the live story task failed: {e}"),
        Err(_) => panic!("the live story took too long"),
    }
}

async fn live_story(b: &Browser, app: &str, elsewhere: &ConversationService) {
    let conv = elsewhere
        .create_conversation("/work/e2e", "Live")
        .await
        .expect("create")
        .id;
    let say = |text: &'static str| async move {
        elsewhere
            .append(
                conv,
                squash_core::Role::User,
                vec![squash_core::ContentItem::text_for(
                    squash_core::Role::User,
                    text,
                )],
            )
            .await
            .expect("append elsewhere");
    };
    b.client
        .goto(&format!("{app}/c/{conv}"))
        .await
        .expect("open the page");
    b.wait(
        "document.querySelector('#conversation').dataset.live === 'open'",
        "the live-update stream",
    )
    .await;

    // Written elsewhere, shown here without a reload.
    say("Written in another tab").await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 1",
        "the message written elsewhere",
    )
    .await;
    assert!(b.text("#thread").await.contains("Written in another tab"));

    // An edit in progress is not swept away by a change elsewhere.
    b.click("#thread li.msg .edit-btn").await;
    b.type_into("#thread li.msg .edit-form textarea", "half-typed edit")
        .await;
    say("Second, while editing").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(b.ids().await.len(), 1, "no re-render during the edit");
    assert_eq!(
        b.js("return document.querySelector('#thread li.msg .edit-form textarea').value;")
            .await,
        json!("half-typed edit")
    );
    // Once the edit is closed, what changed meanwhile comes in.
    b.click("#thread li.msg .cancel-edit").await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 2",
        "the message written during the edit",
    )
    .await;
    say("Third, after the edit").await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 3",
        "all three messages",
    )
    .await;
    let shown = b.text("#thread").await;
    assert!(shown.contains("Second, while editing") && shown.contains("Third, after the edit"));
    b.screenshot("live-update.png").await;
}
