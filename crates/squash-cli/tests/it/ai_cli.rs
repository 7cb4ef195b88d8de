//! `squash ai` (preview and apply), `rerun`, `chat` and `doctor` with the built binary against a
//! loopback OpenAI-compatible server that answers `/chat/completions` and records each request.

use std::collections::VecDeque;
use std::process::Command;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde_json::{json, Value};
use squash_testkit::answers::{OUTCOME_KEYS, SQUASH_RESULT_KEYS};
use squash_testkit::cli::unconfigured;

const KEY: &str = "sk-test-loopback-0123456789";
const REPORTED_MODEL: &str = "loopback-model-2024-01-01";

/// One scripted answer.
#[derive(Clone)]
enum Answer {
    /// Streamed (or not, as asked) in these pieces.
    Text(Vec<&'static str>),
    Error(u16, Value),
}

#[derive(Default)]
struct Server {
    answers: Mutex<VecDeque<Answer>>,
    requests: Mutex<Vec<(HeaderMap, Value)>>,
}

async fn completions(
    State(server): State<Arc<Server>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let stream = body["stream"].as_bool().unwrap_or(false);
    server
        .requests
        .lock()
        .unwrap()
        .push((headers, body.clone()));
    let answer = server
        .answers
        .lock()
        .unwrap()
        .pop_front()
        .unwrap_or(Answer::Text(vec!["OK"]));
    match answer {
        Answer::Error(status, body) => (
            StatusCode::from_u16(status).unwrap(),
            [("content-type", "application/json")],
            body.to_string(),
        )
            .into_response(),
        Answer::Text(pieces) if stream => {
            let mut sse = String::new();
            for piece in &pieces {
                let chunk = json!({"model": REPORTED_MODEL, "object": "chat.completion.chunk",
                    "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": null}]});
                sse.push_str(&format!("data: {chunk}\n\n"));
            }
            let end = json!({"model": REPORTED_MODEL,
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 321, "completion_tokens": 17}});
            sse.push_str(&format!("data: {end}\n\ndata: [DONE]\n\n"));
            ([("content-type", "text/event-stream")], sse).into_response()
        }
        Answer::Text(pieces) => {
            let reply = json!({"model": REPORTED_MODEL, "choices": [{"index": 0,
                "message": {"role": "assistant", "content": pieces.concat()},
                "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 12, "completion_tokens": 1}});
            ([("content-type", "application/json")], reply.to_string()).into_response()
        }
    }
}

async fn start() -> (String, Arc<Server>) {
    let server = Arc::new(Server::default());
    let app = Router::new()
        .route("/v1/chat/completions", post(completions))
        .with_state(server.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}/v1"), server)
}

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

/// Runs the built `squash` with the loopback server as its only provider.
async fn squash(db: &str, base_url: &str, args: &[&str]) -> Run {
    let mut all = vec!["--db".to_owned(), db.to_owned()];
    all.extend(args.iter().map(|a| a.to_string()));
    let base_url = base_url.to_owned();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_squash"))
            .args(&all)
            .env("OPENAI_BASE_URL", base_url)
            .env("OPENAI_API_KEY", KEY)
            .env("OPENAI_MODEL", "loopback-model")
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OPENAI_CONTEXT_WINDOW")
            .env_remove("SQUASH_CONTEXT_WINDOW")
            .env_remove("SQUASH_DB")
            .env_remove("DATABASE_URL")
            .output()
            .expect("run squash")
    })
    .await
    .unwrap();
    let run = Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    // The transcript, for reading with --nocapture (JSON bodies left out).
    if args.first() != Some(&"--json") {
        eprintln!(
            "$ squash {}\n{}{}",
            args.join(" "),
            run.stdout,
            if run.stderr.is_empty() {
                String::new()
            } else {
                format!("[stderr]\n{}", run.stderr)
            }
        );
    }
    run
}

fn json_of(run: &Run) -> Value {
    assert!(run.ok, "failed: {}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

fn result_keys(result: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = result
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn long_text(n: usize) -> String {
    format!(
        "Message {n}: the build fails with error E0308 (mismatched types) in parse_config at \
         src/config.rs:42. We went through the options at length and agreed that the value \
         should be a u32 rather than a string, because every caller expects a number."
    )
}

fn prompt_of(body: &Value) -> String {
    let content = &body["messages"][0]["content"];
    content
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| content[0]["text"].as_str().unwrap_or_default().to_owned())
}

async fn message_count(db: &str, url: &str, conv: &str) -> usize {
    let shown = json_of(&squash(db, url, &["--json", "conversation", "show", conv]).await);
    shown["messages"].as_array().unwrap().len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_preview_apply_rerun_chat_and_doctor() {
    let (url, server) = start().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("squash.db").to_string_lossy().into_owned();
    let db = db.as_str();

    let conv = json_of(
        &squash(
            db,
            &url,
            &[
                "--json",
                "conversation",
                "new",
                "AI test",
                "--project",
                "/tmp/ai-cli",
            ],
        )
        .await,
    )["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let conv = conv.as_str();
    for n in 0..4 {
        let role = if n % 2 == 0 { "user" } else { "assistant" };
        let text = long_text(n);
        assert!(
            squash(
                db,
                &url,
                &["message", "add", conv, "--role", role, "--text", &text]
            )
            .await
            .ok
        );
    }

    // --preview: the result and its quality report, nothing applied.
    server.answers.lock().unwrap().extend([
        Answer::Text(vec![
            "Here is the compressed message:\n\n",
            "E0308 in parse_config (src/config.rs:42): ",
            "the value becomes a u32.",
        ]),
        Answer::Text(vec![
            "E0308 in parse_config (src/config.rs:42): the value becomes a u32.",
        ]),
    ]);
    let preview = squash(
        db,
        &url,
        &[
            "ai",
            conv,
            "@3",
            "@1",
            "--preview",
            "--instructions",
            "Keep the error code.",
        ],
    )
    .await;
    assert!(preview.ok, "{}", preview.stderr);
    assert!(preview
        .stdout
        .starts_with("E0308 in parse_config (src/config.rs:42): the value becomes a u32."));
    assert!(!preview.stdout.contains("Here is"), "preamble stripped");
    assert!(preview.stdout.contains("quality: compressed"));
    assert!(preview.stdout.contains("salient terms"));
    assert!(preview.stdout.contains(REPORTED_MODEL));
    assert!(preview.stdout.contains("not applied (preview)"));
    assert_eq!(message_count(db, &url, conv).await, 4);

    let requests = server.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 1);
    let (headers, body) = &requests[0];
    assert_eq!(headers["authorization"], format!("Bearer {KEY}"));
    assert_eq!(body["model"], "loopback-model");
    assert_eq!(body["temperature"].as_f64(), Some(0.3));
    assert_eq!(body["max_tokens"], 4096);
    assert_eq!(body["stream"], true);
    assert!(body.get("tools").is_none());
    assert_eq!(body["messages"].as_array().unwrap().len(), 1);
    let prompt = prompt_of(body);
    assert!(prompt.contains("<messages_to_squash>"), "{prompt}");
    assert!(prompt.contains("Keep the error code."));
    assert!(prompt.contains("Message 0:") && prompt.contains("Message 2:"));
    assert!(!prompt.contains("Message 1:"));

    // Applied: the result, the report, what changed.
    let applied = squash(
        db,
        &url,
        &[
            "ai",
            conv,
            "@1",
            "@3",
            "--instructions",
            "Keep the error code.",
        ],
    )
    .await;
    assert!(applied.ok, "{}", applied.stderr);
    assert!(applied.stdout.contains("quality: compressed"));
    assert!(applied.stdout.contains("AI-squashed 2 message(s)"));
    assert!(applied.stdout.contains(&format!("squash undo {conv}")));
    assert_eq!(message_count(db, &url, conv).await, 3);
    let provenance = squash(db, &url, &["provenance", "@1", "-c", conv]).await;
    assert!(
        provenance
            .stdout
            .contains(&format!("AI squash by {REPORTED_MODEL}")),
        "{}",
        provenance.stdout
    );
    let history = json_of(&squash(db, &url, &["--json", "thread", "list", conv]).await);
    let op = history
        .as_array()
        .unwrap()
        .iter()
        .find_map(|e| e["operation"]["id"].as_str())
        .unwrap()
        .to_owned();

    // JSON preview: result, report, not applied.
    server
        .answers
        .lock()
        .unwrap()
        .push_back(Answer::Text(vec!["E0308 at src/config.rs:42 fixed: u32."]));
    let json_preview =
        json_of(&squash(db, &url, &["--json", "ai", conv, "@2", "@3", "--preview"]).await);
    assert_eq!(json_preview["applied"], false);
    assert!(json_preview["report"]["char_ratio"].as_f64().unwrap() < 1.0);
    assert!(json_preview["report"]["kept"].as_array().is_some());
    assert!(json_preview["result"]["prompt"]["user"].as_str().is_some());
    // One spelling of the provider, and the result in the shape the API answers with.
    assert_eq!(json_preview["result"]["provider"], "openai");
    assert_eq!(result_keys(&json_preview["result"]), SQUASH_RESULT_KEYS);
    assert!(json_preview["result"]["usage"]["input_tokens"].is_u64());
    assert_eq!(message_count(db, &url, conv).await, 3);

    // A failed call: a clear error, nothing stored.
    server.answers.lock().unwrap().push_back(Answer::Error(
        401,
        json!({"error": {"message": format!("Incorrect API key provided: {KEY}"), "type": "invalid_request_error", "code": "invalid_api_key"}}),
    ));
    let failed = squash(db, &url, &["ai", conv, "@1", "@2"]).await;
    assert!(!failed.ok);
    assert!(
        failed.stderr.contains("rejected the credentials"),
        "{}",
        failed.stderr
    );
    assert!(failed.stderr.contains("OPENAI_API_KEY"), "the hint");
    assert!(!failed.stderr.contains(KEY), "the key is never printed");
    assert_eq!(message_count(db, &url, conv).await, 3);

    // Undo, then re-run: the stored prompt and model, a further thread.
    assert!(squash(db, &url, &["undo", conv]).await.ok);
    assert_eq!(message_count(db, &url, conv).await, 4);
    server.answers.lock().unwrap().push_back(Answer::Text(vec![
        "parse_config (src/config.rs:42) failed with E0308; it now returns a u32.",
    ]));
    let rerun = squash(db, &url, &["rerun", &op[..13]]).await;
    assert!(rerun.ok, "{}", rerun.stderr);
    assert!(
        rerun.stdout.contains("AI-squashed 2 message(s)"),
        "{}",
        rerun.stdout
    );
    assert!(rerun.stdout.contains("quality: compressed"));
    assert_eq!(message_count(db, &url, conv).await, 3);
    let requests = server.requests.lock().unwrap().clone();
    let (_, first_apply) = &requests[1];
    let (_, rerun_body) = requests.last().unwrap();
    assert_eq!(
        rerun_body["messages"], first_apply["messages"],
        "same prompt"
    );
    assert_eq!(rerun_body["model"], REPORTED_MODEL, "the recorded model");
    let history = json_of(&squash(db, &url, &["--json", "thread", "list", conv]).await);
    assert_eq!(history.as_array().unwrap().len(), 3, "the old result stays");

    // Chat: streamed, stored.
    server
        .answers
        .lock()
        .unwrap()
        .push_back(Answer::Text(vec!["Run the tests ", "again."]));
    let chat = squash(db, &url, &["chat", conv, "What next?"]).await;
    assert!(chat.ok, "{}", chat.stderr);
    assert_eq!(chat.stdout.trim(), "Run the tests again.");
    assert_eq!(message_count(db, &url, conv).await, 5);
    let (_, chat_body) = server.requests.lock().unwrap().last().unwrap().clone();
    let turns = chat_body["messages"].as_array().unwrap();
    assert_eq!(turns.last().unwrap()["role"], "user");
    assert!(turns.last().unwrap().to_string().contains("What next?"));

    // Doctor: configured and reachable, no secret printed.
    let doctor = squash(db, &url, &["doctor"]).await;
    assert!(doctor.ok, "{}", doctor.stderr);
    assert!(
        doctor.stdout.contains("openai: configured"),
        "{}",
        doctor.stdout
    );
    assert!(doctor.stdout.contains("reachable"));
    assert!(doctor.stdout.contains("OPENAI_API_KEY"));
    assert!(!doctor.stdout.contains(KEY));
    let doctor_json = json_of(&squash(db, &url, &["--json", "doctor", "--no-probe"]).await);
    assert_eq!(doctor_json["selected"], "openai");
    assert!(!doctor_json.to_string().contains(KEY));

    // An operation's outcome in the shape the API answers with.
    let manual = json_of(&squash(db, &url, &["--json", "manual", conv, "@1", "@2"]).await);
    assert_eq!(result_keys(&manual), OUTCOME_KEYS, "{manual:#}");
}

#[test]
fn unknown_or_missing_providers_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("squash.db").to_string_lossy().into_owned();
    let run = |args: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_squash"));
        // Nothing configured: no keys, no `claude` on PATH, no local server, no installed
        // local model (a home of its own).
        let out = unconfigured(&mut cmd, dir.path())
            .arg("--db")
            .arg(&db)
            .args(args)
            .env_remove("SQUASH_DB")
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, stdout, _) = run(&["--json", "conversation", "new", "c", "--project", "/tmp/x"]);
    assert!(ok);
    let conv: Value = serde_json::from_str(&stdout).unwrap();
    let conv = conv["id"].as_str().unwrap();

    // `--provider` takes the provider names only, and says which.
    let (ok, _, stderr) = run(&["chat", conv, "hi", "--provider", "gemini"]);
    assert!(!ok);
    assert!(stderr.contains("invalid value 'gemini'"), "{stderr}");
    assert!(
        stderr.contains("[possible values: anthropic, openai, claude-cli, local]"),
        "{stderr}"
    );
    let (ok, _, stderr) = run(&["ai", conv, "@1", "@2", "--provider", "bogus"]);
    assert!(!ok);
    assert!(stderr.contains("invalid value 'bogus'"), "{stderr}");
    assert!(
        stderr.contains("[possible values: anthropic, openai, claude-cli, local]"),
        "{stderr}"
    );

    // Auto-detection falls through to the embedded model, which is not installed here: the
    // error says how to get one (or, in a build without it, what to configure instead).
    let (ok, _, stderr) = run(&["chat", conv, "hi"]);
    assert!(!ok);
    if cfg!(feature = "local") {
        assert!(stderr.contains("squash model install"), "{stderr}");
        assert!(stderr.contains("SQUASH_LOCAL_MODEL"), "{stderr}");
    } else {
        assert!(stderr.contains("without the `local` feature"), "{stderr}");
        assert!(stderr.contains("OPENAI_API_KEY"), "{stderr}");
    }
    // Nothing was stored for the refused turns.
    let (_, shown, _) = run(&["--json", "conversation", "show", conv]);
    let shown: Value = serde_json::from_str(&shown).unwrap();
    assert!(shown["messages"].as_array().unwrap().is_empty());

    let (ok, stdout, _) = run(&["doctor", "--no-probe"]);
    assert!(ok);
    assert!(stdout.contains("anthropic: not configured"), "{stdout}");
    assert!(
        stdout.contains("default provider: local") && stdout.contains("because no API key"),
        "{stdout}"
    );
}

/// `--style extract` asks no model: it works with an unreachable provider, and its report
/// speaks in facts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_extract_style_needs_no_model() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("squash.db").to_string_lossy().into_owned();
    let db = db.as_str();
    let nowhere = "http://127.0.0.1:9/v1";
    let conv = json_of(&squash(db, nowhere, &["--json", "conversation", "new", "extract"]).await)
        ["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for (role, text) in [
        ("user", "cargo build fails with E0308 in src/main.rs"),
        (
            "assistant",
            "Line 42 of src/main.rs assigns a &str to a String; fixed with .to_string(). I \
             went through the other places that build that value as well, and none of them \
             needed the same change, so the rest of the code stays as it was.",
        ),
        ("user", "Builds now, thanks!"),
    ] {
        let added = squash(
            db,
            nowhere,
            &["message", "add", &conv, "--role", role, "--text", text],
        )
        .await;
        assert!(added.ok, "{}", added.stderr);
    }
    let preview = json_of(
        &squash(
            db,
            nowhere,
            &[
                "--json",
                "ai",
                &conv,
                "@1",
                "@2",
                "--style",
                "extract",
                "--preview",
            ],
        )
        .await,
    );
    let result = &preview["result"];
    assert_eq!(result["style"], "extract");
    assert_eq!(result["model"], Value::Null);
    let facts = &result["report"]["facts"];
    assert!(facts["total"].as_u64().unwrap() >= 2, "{facts}");
    assert_eq!(facts["missing"], json!([]));
    assert!(result["text"].as_str().unwrap().contains("E0308"));
    let applied = json_of(
        &squash(
            db,
            nowhere,
            &["--json", "ai", &conv, "@1", "@2", "--style", "extract"],
        )
        .await,
    );
    assert_eq!(applied["operation"]["style"], "extract");
    assert_eq!(message_count(db, nowhere, &conv).await, 2);
    // A bad style is refused with the valid ones listed.
    let bad = squash(db, nowhere, &["ai", &conv, "@1", "@2", "--style", "poetry"]).await;
    assert!(!bad.ok);
    assert!(
        bad.stderr.contains("prose") && bad.stderr.contains("extract"),
        "{}",
        bad.stderr
    );
}
