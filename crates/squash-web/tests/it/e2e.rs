//! End to end, as a person uses it: real headless Chromium (through chromedriver) against the
//! real server on a loopback port, with a real OpenAI-compatible model server on another
//! loopback port that streams its answers and records what it was asked.
//!
//! Screenshots of the main states go to `artifacts/screenshots/` at the workspace root.
//! Without chromedriver the test prints a note and passes, unless `SQUASH_REQUIRE_BROWSER` or
//! `CI` is set (`.ci/run` sets the first after installing Chromium): then it fails.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use squash_app::ConversationService;
use squash_core::tokens::{format_compact, format_count, message_tokens};
use squash_core::ConversationId;
use squash_llm::{OpenAiConfig, OpenAiModel, RetryPolicy};
use squash_store::sqlite::SqliteStore;
use squash_web::AppState;

use crate::browser::{
    browser_missing, drive, start_app, start_browser_with, Browser, DESKTOP, PHONE,
};

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

/// The chat model the stories use: OpenAI-compatible, served by [`start_model_server`], no
/// retries, a [`WINDOW`]-token context window (what the page's meter measures against).
async fn loopback_model() -> (Arc<ModelServer>, OpenAiModel) {
    let (server, base_url) = start_model_server().await;
    let mut config = OpenAiConfig::new(base_url, MODEL_ID);
    config.retry = RetryPolicy::none();
    config.context_window_tokens = WINDOW as u32;
    (server, OpenAiModel::new(config).expect("model"))
}

async fn start_model_server() -> (Arc<ModelServer>, String) {
    let server = Arc::new(ModelServer::default());
    let url = crate::serve_completions(completions, server.clone()).await;
    (server, url)
}

impl Browser {
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
}

// ---- the story ------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_squashes_with_the_web_ui() {
    if browser_missing() {
        return;
    }
    story().await;
}

async fn story() {
    let (model_server, model) = loopback_model().await;

    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("sqlite");
    let service = ConversationService::new(Arc::new(store));
    // The test's own view of the database, to compute what the page should show.
    let probe = service.clone();
    let state = AppState::new(service)
        .with_model(Arc::new(model))
        .with_default_project("/work/e2e");
    let app = start_app(state).await;

    drive("squash", Duration::from_secs(240), move |b| async move {
        run_story(&b, &app, &model_server, &probe).await
    })
    .await;
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
            "Let me check src/main.rs. The mismatched type comes from load_config, which \
             hands back a Config where its caller expects a Result; I will read the function \
             and the places that call it before changing anything.",
        ),
        ("user", XSS),
        (
            "assistant",
            "Fixed E0308: load_config now returns Result<Config, Error>. I went through every \
             place that calls it as well, and none of them needed more than handling the error \
             it now returns, so the rest of the code stays as it was.",
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
    // The meter follows: the three messages' tokens are gone, the result's added (with the
    // facts the answer left out, the result of three short messages can be as long as they).
    let after_squash = meter_shows_the_thread(b, service).await;
    assert_ne!(after_squash, written);

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
    // The call's card holds its result (the input and the thinking folded); the next message
    // points at it.
    assert_eq!(
        b.js("return Array.from(document.querySelectorAll('#thread details.tool, #thread details.thinking')).map(d => d.open);")
            .await,
        json!([false, false])
    );
    assert!(b
        .text("#thread li.msg:nth-child(6) .tool-card")
        .await
        .contains("error[E0308]: mismatched types"));
    assert!(b
        .text("#thread li.msg:nth-child(7) a.tool-ref")
        .await
        .contains("output shown with its call at @6"));
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
    b.click("#thread li.msg:nth-child(6) details.tool-call summary")
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

const TRIM_MARKER: &str = "[trimmed by squash:";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_fits_a_session_to_a_budget_with_the_web_ui() {
    if browser_missing() {
        return;
    }
    let (_model_server, model) = loopback_model().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("sqlite");
    let state = AppState::new(ConversationService::new(Arc::new(store)))
        .with_model(Arc::new(model))
        .with_default_project("/work/e2e");
    let app = start_app(state).await;

    drive("fit", Duration::from_secs(180), move |b| async move {
        fit_story(&b, &app).await
    })
    .await;
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
    // No model is needed: the default strategy takes the levels, the model's is to choose.
    assert_eq!(
        b.js("return document.querySelector('#fit-strategy').value;")
            .await,
        json!("extract")
    );
    assert_eq!(
        b.js("return document.querySelector('#fit-apply').disabled;")
            .await,
        json!(true)
    );
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
        .contains("Does not fit: the smallest reachable"));
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

    // The default budget (half the thread): the oldest tool outputs trimmed, as many as the
    // budget needs; the requests and the newest outputs left alone.
    b.type_into("#fit-budget", &default_budget).await;
    b.wait(
        "document.querySelector('#fit-plan').children.length === 0",
        "the stale plan cleared",
    )
    .await;
    b.click("#fit-preview").await;
    b.wait("document.querySelector('#fit-levels')", "the plan's levels")
        .await;
    assert_eq!(
        b.js("return Array.from(document.querySelectorAll('#fit-levels tbody tr')).map(r => r.dataset.action);")
            .await,
        json!(["trim"])
    );
    assert!(b.text("#fit-kept").await.contains("6 requests you typed"));
    let rows = b
        .js("return Array.from(document.querySelectorAll('#fit-steps tbody tr')).map(r => [r.dataset.action, r.cells[2].textContent]);")
        .await;
    // Oldest first, only as many as the budget needs: tool outputs, never the newest.
    let trimmed: Vec<usize> = rows
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            assert_eq!(r[0], "trim", "{rows}");
            r[1].as_str().expect("@N")[1..].parse().expect("a position")
        })
        .collect();
    assert!(!trimmed.is_empty() && trimmed[0] == 3, "{rows}");
    assert!(trimmed.windows(2).all(|w| w[0] < w[1]), "{rows}");
    assert!(trimmed.iter().all(|p| p % 4 == 3 && *p < 23), "{rows}");
    assert!(b.text("#fit-plan .fit-after").await.contains("fits"));
    assert_eq!(
        b.js("return document.querySelector('#fit-apply').disabled;")
            .await,
        json!(false)
    );
    assert_eq!(b.ids().await, original, "a preview changes nothing");
    b.screenshots("13-fit-preview", "#fit-apply").await;

    // Apply: the thread changes, the old outputs are trimmed, the card offers the undo.
    b.click("#fit-apply").await;
    b.wait(
        "!document.querySelector('#fit-dialog').open && !document.querySelector('#fit-done').hidden",
        "the applied fit",
    )
    .await;
    b.wait(
        &format!("{thread_text}.includes({})", json!(TRIM_MARKER)),
        "the trimmed outputs",
    )
    .await;
    let fitted = b.ids().await;
    assert_eq!(fitted.len(), original.len());
    let changed: Vec<usize> = (0..fitted.len())
        .filter(|&i| fitted[i] != original[i])
        .map(|i| i + 1)
        .collect();
    assert_eq!(changed, trimmed);
    assert!(b
        .text("#fit-done-text")
        .await
        .contains(&format!("in {} step", trimmed.len())));
    // A trimmed result shows in its call's card; its own message is attached under it, badged.
    assert!(b
        .text("#thread li.msg:nth-child(2) .tool-card")
        .await
        .contains(TRIM_MARKER));
    assert_eq!(
        b.text("#thread li.msg.attached:nth-child(3) .prov-badge")
            .await,
        "▨ trimmed"
    );
    // The last turns are whole: their long log comes in part with the page, the rest when
    // asked for.
    let card = "#thread li.msg:nth-child(22) .tool-card";
    assert!(b.text(card).await.contains("Compiling dep_0 "));
    b.js(&format!(
        "document.querySelector({}).open = true; return true;",
        json!(format!("{card} details.tool-output"))
    ))
    .await;
    b.click(&format!("{card} .load-output")).await;
    b.wait(
        &format!(
            "document.querySelector({}).textContent.includes('Compiling dep_149')",
            json!(card)
        ),
        "the whole log",
    )
    .await;
    b.screenshots("14-fit-applied", "#fit-done").await;

    // Undo: the original thread, exactly.
    b.click("#fit-undo").await;
    b.wait(
        "document.querySelector('#fit-done').hidden",
        "the undone fit",
    )
    .await;
    b.wait(
        &format!("!{thread_text}.includes({})", json!(TRIM_MARKER)),
        "the original outputs",
    )
    .await;
    assert_eq!(b.ids().await, original);
    assert!(b.text("#flash").await.contains("Undone"));
}

// ---- reading an agent session, with the keyboard --------------------------------------------

const ARROW_DOWN: &str = "\u{E015}";
const ARROW_UP: &str = "\u{E013}";
const HOME: &str = "\u{E011}";
const END: &str = "\u{E010}";
const ESCAPE: &str = "\u{E00C}";
const ENTER: &str = "\u{E007}";
const CONTROL: &str = "\u{E009}";
const SHIFT: &str = "\u{E008}";
/// Releases the modifiers held by a key sequence.
const RELEASE: &str = "\u{E000}";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_reads_an_agent_session_with_the_keyboard() {
    if browser_missing() {
        return;
    }
    let (_model_server, model) = loopback_model().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("sqlite");
    let state = AppState::new(ConversationService::new(Arc::new(store)))
        .with_model(Arc::new(model))
        .with_default_project("/work/e2e");
    let app = start_app(state).await;

    drive("reading", Duration::from_secs(240), move |b| async move {
        reader_story(&b, &app).await
    })
    .await;
}

impl Browser {
    /// Keys sent to the focused element, as a person types them.
    pub async fn press(&self, keys: &str) {
        self.client
            .active_element()
            .await
            .expect("focused element")
            .send_keys(keys)
            .await
            .unwrap_or_else(|e| panic!("cannot press {keys:?}: {e}"));
    }

    /// `id`, else `data-squash`, else the tag of the focused element.
    async fn focused(&self) -> String {
        self.js("const e = document.activeElement; \
             return e.id || (e.dataset && e.dataset.squash) || e.tagName.toLowerCase();")
            .await
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    async fn count(&self, css: &str) -> u64 {
        self.js(&format!(
            "return document.querySelectorAll({}).length;",
            json!(css)
        ))
        .await
        .as_u64()
        .expect("a count")
    }

    async fn send_json(&self, method: &str, url: &str, body: &Value) -> Value {
        self.js(&format!(
            "return fetch({}, {{ method: {}, headers: {{ 'Content-Type': 'application/json', \
             'X-Squash-Csrf': '1' }}, body: JSON.stringify({body}) }}).then(r => r.json());",
            json!(url),
            json!(method)
        ))
        .await
    }

    async fn get_json(&self, url: &str) -> Value {
        self.js(&format!(
            "return fetch({}).then(r => r.json());",
            json!(url)
        ))
        .await
    }

    /// Whether the element's box is inside the viewport.
    async fn in_view(&self, css: &str) -> bool {
        self.js(&format!(
            "const r = document.querySelector({}).getBoundingClientRect(); \
             return r.height > 0 && r.top >= -1 && r.top < innerHeight && r.bottom <= innerHeight + 1;",
            json!(css)
        ))
        .await
            == json!(true)
    }
}

/// A shared Claude Code session (12 tool calls, one error), imported over the API.
async fn import_session(b: &Browser) -> String {
    let out = b.upload_session("claude-code-linear-1af7fc5e.jsonl").await;
    out["summary"]["conversations"][0]["conversation_id"]
        .as_str()
        .unwrap_or_else(|| panic!("imported: {out}"))
        .to_owned()
}

async fn append(b: &Browser, conv: &str, body: Value) -> String {
    let out = b
        .post_json(&format!("/api/conversations/{conv}/messages"), &body)
        .await;
    out["message"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("appended: {out}"))
        .to_owned()
}

async fn reader_story(b: &Browser, app: &str) {
    b.client.goto(app).await.expect("open home");

    // ---- a Claude Code session: each call one card with its result ----
    let conv = import_session(b).await;
    // A turn of our own: a markdown prompt, a failing command that took a while with a long
    // log, and a long system prompt.
    append(
        b,
        &conv,
        json!({ "role": "user", "text": "## Plan\nrun `cargo test`\nthen fix <b>it</b>" }),
    )
    .await;
    append(
        b,
        &conv,
        json!({ "role": "assistant", "content": [{ "type": "tool_call", "id": "toolu_long",
        "name": "Bash", "input": { "command": "cargo test --workspace" } }] }),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let log: String = (1..=40)
        .map(|i| format!("test case_{i} ... ok\n"))
        .collect();
    append(b, &conv, json!({ "role": "user", "content": [{ "type": "tool_result", "tool_use_id": "toolu_long",
        "tool_name": "Bash", "is_error": false,
        "result": [{ "type": "text", "text": format!("{log}test result: FAILED\nExit code: 101") }] }] }))
    .await;
    let rules: String = (1..=30)
        .map(|i| format!("Rule {i}: keep the tests green.\n"))
        .collect();
    append(b, &conv, json!({ "role": "system", "text": rules })).await;

    b.client
        .goto(&format!("{app}/c/{conv}"))
        .await
        .expect("open the session");
    b.wait("document.querySelector('#thread li.msg')", "the session")
        .await;
    let thread = b
        .get_json(&format!("/api/conversations/{conv}/thread"))
        .await;
    let stored = thread["messages"].as_array().expect("messages").len() as u64;
    assert_eq!(
        b.count("#thread li.msg").await,
        stored,
        "every message keeps its own item"
    );
    assert_eq!(b.count("#thread .tool-card").await, 13, "one card per call");
    assert_eq!(
        b.count("#thread .tool-card .tool-status").await,
        13,
        "each with its result's status"
    );
    assert!(b.count("#thread .tool-card .status-error").await >= 2);
    // Messages of results only are attached under the call, and stay selectable messages.
    let attached = b.count("#thread li.msg.attached").await;
    assert!(attached >= 10, "{attached} attached result messages");
    assert_eq!(
        b.count("#thread li.msg.attached .select-box").await,
        attached
    );
    assert_eq!(
        b.js("return Array.from(document.querySelectorAll('#thread li.msg.attached .role')).every(r => r.textContent === '↳ tool result');")
            .await,
        json!(true)
    );
    assert_eq!(
        b.count("#thread li.msg.attached .tool-result").await,
        0,
        "no output is shown twice"
    );
    // User text is markdown, and stays inert.
    assert!(b.count("#thread .user-markdown ol li").await >= 1);
    assert_eq!(b.text("#thread .user-markdown h2").await, "Plan");
    assert_eq!(
        b.count("#thread .user-markdown b, #thread .user-markdown command-name")
            .await,
        0
    );
    // The failing command: its status from the exit code, its duration, its long log folded.
    let card = "#thread .tool-card[id='call-toolu_long']";
    assert_eq!(
        b.text(&format!("{card} .tool-status")).await,
        "error (exit 101)"
    );
    let took = b.text(&format!("{card} .tool-duration")).await;
    let seconds: f64 = took
        .trim_end_matches(" s")
        .parse()
        .unwrap_or_else(|_| panic!("a duration in seconds: {took:?}"));
    assert!((1.0..10.0).contains(&seconds), "{took}");
    assert_eq!(
        b.js(&format!(
            "const d = document.querySelector(\"{card} details.tool-output\"); return [d.open, \
             document.querySelector(\"{card} pre.output-preview\").textContent.split('\\n').length];"
        ))
        .await,
        json!([false, 4])
    );
    // The long system prompt is one line until opened.
    assert_eq!(
        b.js("const d = document.querySelector('#thread details.long-text'); return d && !d.open && d.querySelector('summary').textContent.includes('Rule 1');")
            .await,
        json!(true)
    );
    // Relative times, the exact one in the title.
    assert_eq!(
        b.js("const t = Array.from(document.querySelectorAll('#thread time.rel')); return [t[0].textContent, t[t.length - 1].textContent, t[0].title.endsWith('UTC'), !isNaN(Date.parse(t[0].dateTime))];")
            .await,
        json!(["2025-09-03", "just now", true, true])
    );
    // Edit and Delete appear on hover or keyboard focus only.
    let actions_opacity =
        "getComputedStyle(document.querySelector('#thread li.msg:nth-child(1) .actions')).opacity";
    b.js("window.scrollTo(0, document.body.scrollHeight); return true;")
        .await;
    b.wait(&format!("{actions_opacity} === '0'"), "hidden actions")
        .await;
    b.js("document.querySelector('#thread li.msg:nth-child(1) .select-box').focus(); return true;")
        .await;
    b.wait(
        &format!("{actions_opacity} === '1'"),
        "the actions on focus",
    )
    .await;
    b.click(&format!("{card} details.tool-output summary"))
        .await;
    assert_eq!(
        b.js(&format!(
            "return getComputedStyle(document.querySelector(\"{card} pre.output-preview\")).display;"
        ))
        .await,
        json!("none"),
        "the preview gives way to the whole output"
    );
    b.screenshots("15-agent-session", card).await;

    // ---- badges say what happened ----
    let created = b
        .post_json("/api/conversations", &json!({ "name": "Badges" }))
        .await;
    let badges = created["id"].as_str().expect("conversation id").to_owned();
    let long_log: String = (0..150)
        .map(|i| format!("   Compiling dep_{i} v0.1.{i}\n"))
        .collect();
    append(
        b,
        &badges,
        json!({ "role": "user", "text": "Run the tests" }),
    )
    .await;
    append(
        b,
        &badges,
        json!({ "role": "assistant", "content": [{ "type": "tool_call", "id": "toolu_b",
        "name": "Bash", "input": { "command": "cargo test" } }] }),
    )
    .await;
    append(b, &badges, json!({ "role": "user", "content": [{ "type": "tool_result", "tool_use_id": "toolu_b",
        "tool_name": "Bash", "is_error": false,
        "result": [{ "type": "text", "text": format!("{long_log}test result: ok. 12 passed") }] }] }))
    .await;
    let green = append(
        b,
        &badges,
        json!({ "role": "assistant", "text": "All green." }),
    )
    .await;
    let thanks = append(b, &badges, json!({ "role": "user", "text": "Thanks" })).await;
    let welcome = append(
        b,
        &badges,
        json!({ "role": "assistant", "text": "You are welcome." }),
    )
    .await;
    let fitted = b
        .post_json(
            &format!("/api/conversations/{badges}/fit"),
            &json!({ "budget": 400, "keep_last": 1, "strategy": "mask", "best_effort": true }),
        )
        .await;
    assert!(!fitted["thread"].is_null(), "the fit trimmed: {fitted}");
    let edited = b
        .send_json(
            "PUT",
            &format!("/api/conversations/{badges}/messages/{green}"),
            &json!({ "text": "All green: 12 passed. I ran the whole suite twice to be sure nothing \
                               was flaky, and both runs came out the same way, so the branch is \
                               ready for review." }),
        )
        .await;
    assert!(edited["thread"]["id"].is_string(), "edited: {edited}");
    let squashed = b
        .post_json(
            &format!("/api/conversations/{badges}/squash/manual"),
            &json!({ "messages": [thanks, welcome] }),
        )
        .await;
    assert!(squashed["thread"]["id"].is_string(), "squashed: {squashed}");
    b.client
        .goto(&format!("{app}/c/{badges}"))
        .await
        .expect("open the badges");
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 5",
        "the operated thread",
    )
    .await;
    assert_eq!(
        b.js("return Array.from(document.querySelectorAll('#thread li.msg')).map(li => { const b = li.querySelector('.prov-badge'); return b ? b.textContent : ''; });")
            .await,
        json!(["", "", "▨ trimmed", "✎ edited", "◆ squashed · manual"])
    );
    // A trimmed result's time is the fit's: no run time is made up from it.
    assert_eq!(
        b.count("#thread li.msg:nth-child(2) .tool-card .tool-duration")
            .await,
        0
    );
    b.screenshots("16-badges", "#thread li.msg:nth-child(5)")
        .await;

    // ---- the Squash menu from the keyboard ----
    b.tick(4, false).await;
    b.tick(5, false).await;
    b.press("s").await;
    b.wait(
        "!document.querySelector('#squash-menu').hidden",
        "s to open the menu",
    )
    .await;
    assert_eq!(b.focused().await, "manual", "the focus goes into the menu");
    assert_eq!(
        b.js("return document.querySelector('#squash-btn').getAttribute('aria-expanded');")
            .await,
        json!("true")
    );
    b.press(ARROW_DOWN).await;
    assert_eq!(b.focused().await, "ai");
    b.press(END).await;
    assert_eq!(b.focused().await, "custom");
    b.press(HOME).await;
    assert_eq!(b.focused().await, "manual");
    b.press(ARROW_UP).await;
    assert_eq!(b.focused().await, "custom", "ArrowUp wraps to the end");
    b.screenshot("17-menu-keyboard.png").await;
    b.press(ESCAPE).await;
    assert_eq!(
        b.js("return document.querySelector('#squash-menu').hidden;")
            .await,
        json!(true)
    );
    assert_eq!(
        b.focused().await,
        "squash-btn",
        "Escape returns to the button"
    );
    b.press(ARROW_DOWN).await;
    assert_eq!(b.focused().await, "manual", "ArrowDown on the button opens");
    b.press(ESCAPE).await;

    // Escape cancels a running AI squash; nothing changes.
    let before = b.ids().await;
    b.press("s").await;
    b.press(ARROW_DOWN).await;
    b.press(ENTER).await;
    b.wait(
        "!document.querySelector('#progress').hidden && document.activeElement.id === 'progress-cancel'",
        "the running squash, its Cancel focused",
    )
    .await;
    b.press(ESCAPE).await;
    b.wait(
        "document.querySelector('#progress').hidden && document.querySelector('#flash').textContent.includes('cancelled')",
        "Escape to cancel the squash",
    )
    .await;
    assert_eq!(b.ids().await, before, "a cancelled squash changes nothing");

    // The preview takes the focus; its Edit puts the caret at the end.
    b.js("document.querySelector('#squash-btn').focus(); return true;")
        .await;
    b.press(ARROW_DOWN).await;
    b.press(ARROW_DOWN).await;
    b.press(ENTER).await;
    b.wait(
        "!document.querySelector('#preview').hidden && document.activeElement.id === 'preview'",
        "the preview, focused",
    )
    .await;
    b.click("#preview [data-preview-action=edit]").await;
    assert_eq!(
        b.js("const e = document.activeElement; return [e.id, e.value.length > 0 && e.selectionStart === e.value.length];")
            .await,
        json!(["preview-edit", true])
    );
    b.click("#preview [data-preview-action=discard]").await;
    b.wait("document.querySelector('#preview').hidden", "the discard")
        .await;

    // Undo and redo from the keyboard; never while typing.
    b.tick(1, false).await;
    b.press(&format!("{CONTROL}z{RELEASE}")).await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 6 && document.querySelector('#flash').textContent.includes('Undone')",
        "Ctrl+Z to undo the squash",
    )
    .await;
    b.js("document.querySelector('#thread .select-box').focus(); return true;")
        .await;
    b.press(&format!("{CONTROL}{SHIFT}z{RELEASE}")).await;
    b.wait(
        "document.querySelectorAll('#thread li.msg').length === 5 && document.querySelector('#flash').textContent.includes('Redone')",
        "Ctrl+Shift+Z to redo",
    )
    .await;
    // The buttons say their shortcuts, also once re-rendered.
    assert_eq!(
        b.js("const u = document.querySelector('#undo-btn'); return [u.getAttribute('aria-keyshortcuts'), u.title.endsWith('(Ctrl+Z)')];")
            .await,
        json!(["Control+Z Meta+Z", true])
    );
    b.click("#chat-input").await;
    b.press(&format!("abc{CONTROL}z{RELEASE}")).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(
        b.count("#thread li.msg").await,
        5,
        "Ctrl+Z in a field is the field's"
    );

    // Edit: the caret at the end; Escape cancels the edit.
    b.click("#thread li.msg:nth-child(1) .edit-btn").await;
    assert_eq!(
        b.js("const e = document.activeElement; return [e.tagName, e.selectionStart === e.value.length && e.value.length > 0];")
            .await,
        json!(["TEXTAREA", true])
    );
    b.press(ESCAPE).await;
    assert_eq!(
        b.js("return [document.querySelector('#thread li.msg:nth-child(1) .edit-form').hidden, document.activeElement.className];")
            .await,
        json!([true, "edit-btn"])
    );
    // ? shows the shortcuts.
    b.press("?").await;
    b.wait(
        "document.querySelector('#shortcuts-dialog').open",
        "the shortcuts help",
    )
    .await;
    assert!(b.text("#shortcuts-dialog").await.contains("Undo"));
    b.press(ESCAPE).await;
    b.wait(
        "!document.querySelector('#shortcuts-dialog').open",
        "the help closed",
    )
    .await;

    // ---- on a phone: history and provenance as sheets in view ----
    b.resize(PHONE).await;
    b.client
        .goto(&format!("{app}/c/{conv}"))
        .await
        .expect("the session on a phone");
    b.wait("document.querySelector('#thread li.msg')", "the session")
        .await;
    let wide = b
        .js("return Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > innerWidth + 1).slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));")
        .await;
    assert_eq!(wide, json!([]), "nothing wider than a phone");
    b.client
        .goto(&format!("{app}/c/{badges}"))
        .await
        .expect("back to the badges");
    b.wait("document.querySelector('#thread li.msg')", "the badges")
        .await;
    b.js("window.scrollTo(0, 0); return true;").await;
    b.click("#history-btn").await;
    b.wait(
        "!document.querySelector('#history-panel').hidden",
        "the history",
    )
    .await;
    assert!(
        b.in_view("#history-panel").await,
        "the history opens in view"
    );
    assert_eq!(
        b.js("return document.activeElement.textContent;").await,
        json!("Thread history")
    );
    b.screenshot("18-history-sheet-phone.png").await;
    b.click("#history-panel .history-close").await;
    b.wait(
        "document.querySelector('#history-panel').hidden && document.activeElement.id === 'history-btn'",
        "the history closed",
    )
    .await;
    b.click("#thread li.msg:nth-child(4) .prov-badge").await;
    b.wait(
        "document.querySelector('#provenance-dialog').open",
        "the provenance",
    )
    .await;
    assert!(b.in_view("#provenance-dialog").await);
    assert!(b.text("#provenance-body").await.contains("Manual edit"));
    b.screenshot("19-provenance-sheet-phone.png").await;
    b.click("#provenance-dialog .close-dialog").await;
    // The provenance of a trimmed output says so, not "edit".
    b.click("#thread li.msg:nth-child(3) .prov-badge").await;
    b.wait(
        "document.querySelector('#provenance-dialog').open && document.querySelector('#provenance-body').textContent.includes('Trimmed to the lines')",
        "the trimmed message's provenance",
    )
    .await;
    b.click("#provenance-dialog .close-dialog").await;
    b.resize(DESKTOP).await;

    // ---- the dark theme, where the system asks for it ----
    let dark = start_browser_with(&["--force-dark-mode"]).await;
    let shown = async {
        dark.client
            .goto(&format!("{app}/c/{conv}"))
            .await
            .expect("open the session, dark");
        dark.wait("document.querySelector('#thread li.msg')", "the session")
            .await;
        assert_eq!(
            dark.js("return [matchMedia('(prefers-color-scheme: dark)').matches, getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.querySelector('#thread li.msg')).backgroundColor];")
                .await,
            json!([true, "rgb(15, 18, 23)", "rgb(24, 28, 36)"])
        );
        dark.screenshots("20-dark", card).await;
    };
    shown.await;
    let _ = dark.client.clone().close().await;
}

// ---- a long session, a page at a time -------------------------------------------------------

const LONG: usize = 10_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_reads_and_selects_across_pages_of_a_long_session() {
    if browser_missing() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("sqlite");
    let (conv, ids) = squash_testkit::long_session::stored(&store, LONG).await;
    let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
    let state =
        AppState::new(ConversationService::new(Arc::new(store))).with_default_project("/work/e2e");
    let app = start_app(state).await;

    drive(
        "long-session",
        Duration::from_secs(240),
        move |b| async move { long_story(&b, &app, conv, &ids).await },
    )
    .await;
}

impl Browser {
    /// `[first, last, total, messages on the page]` of the shown part of the thread, after
    /// checking that the shown messages are consecutive positions.
    async fn shown(&self) -> [u64; 4] {
        let v = self
            .js(
                "const ol = document.querySelector('#thread'); \
                 const pos = Array.from(ol.querySelectorAll(':scope > li.msg')).map(li => Number(li.dataset.pos)); \
                 const ok = pos.every((p, i) => i === 0 || p === pos[i - 1] + 1) \
                   && pos[0] === Number(ol.dataset.first) && pos[pos.length - 1] === Number(ol.dataset.last); \
                 return [ok, Number(ol.dataset.first), Number(ol.dataset.last), Number(ol.dataset.total), pos.length];",
            )
            .await;
        assert_eq!(v[0], json!(true), "the shown messages are not one run: {v}");
        let n = |i: usize| v[i].as_u64().expect("a number");
        [n(1), n(2), n(3), n(4)]
    }

    async fn selected_count(&self) -> String {
        self.text("#selection-count").await
    }
}

async fn long_story(b: &Browser, app: &str, conv: ConversationId, ids: &[String]) {
    let total = LONG as u64;
    b.client
        .goto(&format!("{app}/c/{conv}"))
        .await
        .expect("open the long session");
    // The first page is the end of the thread, and it is light.
    let [first, last, shown_total, count] = b.shown().await;
    assert_eq!((last, shown_total, count), (total, total, 50));
    assert_eq!(first, total - 49);
    let html_bytes = b
        .js("return fetch(location.href).then(r => r.text()).then(t => new Blob([t]).size);")
        .await
        .as_u64()
        .expect("page size");
    assert!(
        html_bytes <= 300_000,
        "the first page is {html_bytes} bytes"
    );
    let paint = b
        .js("const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null;")
        .await;
    eprintln!("long session: first page {html_bytes} bytes, first contentful paint {paint} ms");
    // The reader starts where the conversation continues: the last message is on screen.
    b.wait(
        "(() => { const r = document.querySelector('#thread > li.msg:last-child').getBoundingClientRect(); \
           return r.top < innerHeight && r.bottom > 0; })()",
        "the last message on screen",
    )
    .await;
    // A long output comes with the page only in part; the rest loads when asked for.
    let loaded = b
        .js(
            "const btn = document.querySelector('#thread .load-output'); if (!btn) return null; \
             btn.closest('details').open = true; btn.id = 'first-load-output'; \
             return btn.previousElementSibling.textContent.length;",
        )
        .await;
    let head = loaded.as_u64().expect("a long output on the first page");
    assert!(head <= 4 * 1024, "{head}");
    b.click("#first-load-output").await;
    b.wait(
        &format!(
            "!document.querySelector('#first-load-output') && \
             Array.from(document.querySelectorAll('#thread pre.output')).some(p => p.textContent.length > {head})"
        ),
        "the rest of the output",
    )
    .await;
    b.screenshots("21-long-session", "#thread > li.msg:last-child")
        .await;

    // Tick one message, then scroll up page after page: earlier messages load, and the far end
    // is dropped again so that the page never holds more than 300.
    b.click(&format!("#thread li.msg[data-pos=\"{last}\"] .select-box"))
        .await;
    let mut seen_first = first;
    for _ in 0..10 {
        b.js("window.scrollTo(0, 0); return true;").await;
        b.wait(
            &format!("Number(document.querySelector('#thread').dataset.first) < {seen_first}"),
            "earlier messages to load",
        )
        .await;
        let [first, _, _, count] = b.shown().await;
        assert!(count <= 300, "{count} messages on the page");
        seen_first = first;
    }
    let [first, last_shown, _, _] = b.shown().await;
    assert!(last_shown < total, "the end was dropped from the page");
    assert!(first <= total - 500, "{first}");
    assert_eq!(
        b.selected_count().await,
        "1 selected",
        "the selection outlives its page"
    );

    // Shift-click far above the ticked message: the range covers messages no longer (or never)
    // on the page.
    b.js(&format!(
        "document.querySelector('#thread li.msg[data-pos=\"{first}\"] .select-box').dispatchEvent(new MouseEvent('click', {{bubbles: true, cancelable: true, shiftKey: true}})); return true;"
    ))
    .await;
    let expected = total - first + 1;
    b.wait(
        &format!(
            "document.querySelector('#selection-count').textContent === '{expected} selected'"
        ),
        "the range across pages to be selected",
    )
    .await;
    b.click("#clear-selection").await;

    // "Range…": @10 to @20, none of them loaded, then squashed by concatenation.
    b.click(".range-select > summary").await;
    b.type_into("#range-form input[name=from]", "10").await;
    b.type_into("#range-form input[name=to]", "20").await;
    b.click("#range-form button[type=submit]").await;
    b.wait(
        "document.querySelector('#selection-count').textContent === '11 selected'",
        "the range to be selected",
    )
    .await;
    b.click("#squash-btn").await;
    b.click("[data-squash=manual]").await;
    b.wait(
        &format!("Number(document.querySelector('#thread').dataset.total) < {total}"),
        "the squash of the range",
    )
    .await;
    // The range cut two tool calls from their results (@9/@10, @20/@21): both partners came
    // along, and the page says so.
    let flash = b.text("#flash").await;
    assert!(flash.contains("Squashed 13 messages into one"), "{flash}");
    assert!(flash.contains("Also included 2 tool message(s)"), "{flash}");
    let [_, _, after, _] = b.shown().await;
    assert_eq!(after, total - 12);

    // A link to one message opens its page with it marked.
    let target = &ids[4_321];
    b.client
        .goto(&format!("{app}/c/{conv}?at={target}#m-{target}"))
        .await
        .expect("open a linked message");
    b.wait(
        &format!("document.getElementById('m-{target}')?.classList.contains('target')"),
        "the linked message",
    )
    .await;
    let [first, last, _, _] = b.shown().await;
    assert!(first > 1 && last < total - 12, "{first}..{last}");
    // Scrolling down from there loads later messages.
    b.js("window.scrollTo(0, document.body.scrollHeight); return true;")
        .await;
    b.wait(
        &format!("Number(document.querySelector('#thread').dataset.last) > {last}"),
        "later messages to load",
    )
    .await;
    b.screenshots("22-long-session-linked", &format!("#m-{target}"))
        .await;
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
    let app = start_app(state).await;

    drive("live", Duration::from_secs(120), move |b| async move {
        live_story(&b, &app, &elsewhere).await
    })
    .await;
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

/// "Resume in…": a person picks an agent, writes the session, and reads the command to run;
/// the file is where the agent looks for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_resumes_a_conversation_in_an_agent_with_the_web_ui() {
    if browser_missing() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).expect("project folder");
    let homes = squash_testkit::fixtures::agent_homes_under(dir.path());
    let codex_home = homes.codex_home.clone();
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("sqlite");
    let state = AppState::new(ConversationService::new(Arc::new(store)))
        .with_default_project(project.to_string_lossy())
        .with_agent_homes(homes);
    let app = start_app(state).await;
    let project = project.to_string_lossy().into_owned();

    drive("resume", Duration::from_secs(120), move |b| async move {
        b.client.goto(&app).await.expect("open home");
        let conv = fit_session(&b).await;
        b.client
            .goto(&format!("{app}/c/{conv}"))
            .await
            .expect("open the conversation");
        b.wait(
            "document.querySelectorAll('#thread li.msg').length === 24",
            "the session",
        )
        .await;
        b.click("#resume-btn").await;
        b.wait(
            "document.querySelector('#resume-dialog').open",
            "the resume dialog",
        )
        .await;
        b.js("document.querySelector('#resume-agent').value = 'codex'; return true;")
            .await;
        b.click("#resume-write").await;
        b.wait(
            "!document.querySelector('#resume-done').hidden",
            "the session written",
        )
        .await;
        let command = b.text("#resume-command").await;
        assert!(
            command.starts_with(&format!("cd {project} && codex resume ")),
            "{command}"
        );
        let summary = b.text("#resume-summary").await;
        assert!(summary.starts_with("New codex session "), "{summary}");
        let id = command.rsplit(' ').next().expect("the session id");
        let sessions = codex_home.join("sessions");
        let written = crate::files_under(&sessions);
        assert!(
            written
                .iter()
                .any(|p| p.to_string_lossy().ends_with(&format!("-{id}.jsonl"))),
            "{written:?}"
        );
        assert_eq!(b.text("#resume-message").await, "");
        b.screenshot("resume-written.png").await;
    })
    .await;
}
