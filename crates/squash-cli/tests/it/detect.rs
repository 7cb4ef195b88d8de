//! Provider auto-detection, one test per branch, through the built binary with an environment,
//! a PATH and a home directory the test makes: `squash doctor --json` reports the choice and
//! why, and `squash ai` sends its request where the detection points.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

const SERVED_MODEL: &str = "qwen2.5-coder:0.5b";

/// A home of its own (configuration and data directories), a PATH with only what the test puts
/// there, and no provider variables.
struct Env {
    home: tempfile::TempDir,
    bin: PathBuf,
    vars: Vec<(String, String)>,
}

impl Env {
    fn new() -> Env {
        let home = tempfile::tempdir().expect("temp home");
        let bin = home.path().join("bin");
        std::fs::create_dir_all(&bin).expect("bin dir");
        Env {
            home,
            bin,
            // No local server unless a test names one: a real Ollama on this machine must
            // not change the answer.
            vars: vec![("SQUASH_LOCAL_SERVERS".into(), "none".into())],
        }
    }

    fn var(mut self, name: &str, value: &str) -> Env {
        self.vars.retain(|(k, _)| k != name);
        self.vars.push((name.into(), value.into()));
        self
    }

    fn config(self, text: &str) -> Env {
        let dir = self.home.path().join("config/squash");
        std::fs::create_dir_all(&dir).expect("config dir");
        std::fs::write(dir.join("config.toml"), text).expect("config");
        self
    }

    fn claude_on_path(self) -> Env {
        let exe = self.bin.join("claude");
        std::fs::write(&exe, "#!/bin/sh\necho 'claude stub'\n").expect("stub");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        self
    }

    fn run(&self, args: &[&str]) -> Output {
        let home = self.home.path();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_squash"));
        cmd.env_clear()
            .env("HOME", home)
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_DATA_HOME", home.join("data"))
            .env("PATH", &self.bin)
            .env("SQUASH_DB", home.join("squash.db"))
            .args(args);
        for (k, v) in &self.vars {
            cmd.env(k, v);
        }
        cmd.output().expect("run squash")
    }

    fn doctor(&self) -> Value {
        let out = self.run(&["--json", "doctor", "--no-probe"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("doctor JSON")
    }
}

fn selected(report: &Value) -> (&str, &str) {
    (
        report["selection"]["provider"].as_str().unwrap_or("none"),
        report["selection"]["why"].as_str().unwrap_or(""),
    )
}

#[test]
fn nothing_configured_selects_the_embedded_local_model() {
    let report = Env::new().doctor();
    let (provider, why) = selected(&report);
    assert_eq!(provider, "local", "{report:#}");
    assert!(why.contains("no API key"), "{why}");
}

#[test]
fn a_claude_executable_on_path_selects_the_claude_cli() {
    let env = Env::new().claude_on_path();
    let report = env.doctor();
    let (provider, why) = selected(&report);
    assert_eq!(provider, "claude-cli", "{report:#}");
    assert!(
        why.contains(&env.bin.join("claude").display().to_string()),
        "{why}"
    );
}

#[test]
fn an_openai_key_wins_over_claude_on_path() {
    let report = Env::new()
        .claude_on_path()
        .var("OPENAI_API_KEY", "sk-test")
        .doctor();
    assert_eq!(selected(&report), ("openai", "OPENAI_API_KEY is set"));
}

#[test]
fn an_anthropic_key_wins_over_an_openai_key() {
    let report = Env::new()
        .claude_on_path()
        .var("OPENAI_API_KEY", "sk-test")
        .var("ANTHROPIC_API_KEY", "sk-ant-test")
        .doctor();
    assert_eq!(selected(&report), ("anthropic", "ANTHROPIC_API_KEY is set"));
    // The key is reported as set, never shown.
    assert!(!report.to_string().contains("sk-ant-test"));
}

#[test]
fn the_configuration_file_wins_over_everything() {
    let env = Env::new()
        .claude_on_path()
        .var("ANTHROPIC_API_KEY", "sk-ant-test")
        .config("[model]\nprovider = \"local\"\nlocal_model = \"/models/x.gguf\"\n");
    let report = env.doctor();
    let (provider, why) = selected(&report);
    assert_eq!(provider, "local", "{report:#}");
    assert!(why.contains("config.toml"), "{why}");
    assert!(report["config_file"]
        .as_str()
        .is_some_and(|f| f.ends_with("squash/config.toml")));
}

#[test]
fn an_invalid_configuration_file_is_an_error_that_names_it() {
    let env = Env::new();
    let conv = make_conversation(&env);
    let env = env.config("[model]\nprovidr = \"local\"\n");
    let out = env.run(&["ai", &conv, "@1", "@2"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("config.toml") && err.contains("providr"),
        "{err}"
    );
}

#[derive(Default)]
struct Seen {
    requests: Mutex<Vec<Value>>,
}

async fn models() -> Json<Value> {
    Json(json!({"object": "list", "data": [{"id": SERVED_MODEL, "object": "model"}]}))
}

/// Answers as a stream, the way `squash ai` asks.
async fn completions(State(seen): State<Arc<Seen>>, body: Bytes) -> impl IntoResponse {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    seen.requests.lock().expect("lock").push(body);
    let piece = json!({"model": SERVED_MODEL, "choices": [{"index": 0,
        "delta": {"content": "E0308 fixed in src/main.rs."}, "finish_reason": null}]});
    let end = json!({"model": SERVED_MODEL,
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 40, "completion_tokens": 8}});
    (
        [("content-type", "text/event-stream")],
        format!("data: {piece}\n\ndata: {end}\n\ndata: [DONE]\n\n"),
    )
}

/// An OpenAI-compatible server like Ollama's, on a free loopback port.
fn local_server() -> (String, Arc<Seen>, tokio::runtime::Runtime) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let seen = Arc::new(Seen::default());
    let app = Router::new()
        .route("/v1/models", get(models))
        .route("/v1/chat/completions", post(completions))
        .with_state(seen.clone());
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    rt.spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/v1"), seen, rt)
}

fn make_conversation(env: &Env) -> String {
    let out = env.run(&["--json", "conversation", "new", "Detect"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let conv: Value = serde_json::from_slice(&out.stdout).expect("json");
    let id = conv["id"].as_str().expect("id").to_owned();
    for (role, text) in [
        (
            "user",
            "The build fails with error E0308 in src/main.rs line 42.",
        ),
        (
            "assistant",
            "Fixed E0308: load_config now returns Result<Config, Error>. I went through every \
             place that calls it as well, and none of them needed more than handling the error \
             it now returns, so the rest of the code stays as it was.",
        ),
    ] {
        let out = env.run(&["message", "add", &id, "--role", role, "--text", text]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    id
}

#[test]
fn a_local_server_that_answers_is_used_when_nothing_else_is_configured() {
    let (url, seen, _rt) = local_server();
    let env = Env::new().var(
        "SQUASH_LOCAL_SERVERS",
        &format!("http://127.0.0.1:9/v1,{url}"),
    );
    let report = env.doctor();
    let (provider, why) = selected(&report);
    assert_eq!(provider, "openai", "{report:#}");
    assert!(why.contains(&url) && why.contains(SERVED_MODEL), "{why}");
    assert_eq!(report["selection"]["server"]["model"], SERVED_MODEL);

    // And the squash goes there, asking for the model the server listed.
    let conv = make_conversation(&env);
    let out = env.run(&["--json", "ai", &conv, "@1", "@2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The squash and, when its answer leaves facts out, one repair request: both to the
    // model the server listed.
    let requests = seen.requests.lock().expect("lock");
    assert!((1..=2).contains(&requests.len()), "{requests:?}");
    assert!(requests.iter().all(|r| r["model"] == SERVED_MODEL));
    let result: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(result["applied"], true);
}

#[test]
fn a_local_server_that_does_not_answer_falls_through_to_the_local_model() {
    // Port 9 (discard) is closed on loopback.
    let report = Env::new()
        .var("SQUASH_LOCAL_SERVERS", "http://127.0.0.1:9/v1")
        .doctor();
    let (provider, why) = selected(&report);
    assert_eq!(provider, "local", "{report:#}");
    assert!(why.contains("http://127.0.0.1:9/v1"), "{why}");
}

#[test]
fn without_an_installed_model_the_local_provider_says_how_to_install_one() {
    let env = Env::new();
    let conv = make_conversation(&env);
    let out = env.run(&["ai", &conv, "@1", "@2"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    if cfg!(feature = "local") {
        assert!(err.contains("squash model install"), "{err}");
    } else {
        // A build without the embedded model says what to configure instead.
        assert!(err.contains("without the `local` feature"), "{err}");
    }
    // Nothing was applied.
    let out = env.run(&["--json", "conversation", "show", &conv]);
    let view: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        view["messages"].as_array().map(Vec::len),
        Some(2),
        "{view:#}"
    );
}
