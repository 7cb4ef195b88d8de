//! The Claude CLI provider against a stand-in `claude` script that records its arguments and
//! standard input and prints what the real CLI prints.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::wire::{assert_answer, assert_timeout};
use squash_llm::{
    CancellationToken, ChatMessage, ChatModel, ChatRequest, ClaudeCliConfig, ClaudeCliModel,
    LlmError, ProviderKind,
};
use squash_testkit::model_server::{complete_err, complete_ok};
use tempfile::TempDir;

/// Writing an executable while another test thread forks can make exec fail with "text file
/// busy"; these tests write and run their scripts one at a time.
static SCRIPTS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const SUCCESS: &str = r#"{"type":"result","subtype":"success","is_error":false,"duration_ms":1200,"duration_api_ms":1100,"num_turns":1,"result":"The short version.","session_id":"abc","total_cost_usd":0.0123,"usage":{"input_tokens":12,"cache_creation_input_tokens":0,"cache_read_input_tokens":300,"output_tokens":4},"modelUsage":{"claude-sonnet-4-5-20250929":{"inputTokens":312,"outputTokens":4,"costUSD":0.0123}}}"#;

struct Fixture {
    dir: TempDir,
    program: PathBuf,
}

impl Fixture {
    /// A `claude` that saves its arguments (NUL-separated) and stdin, then runs `body`.
    fn new(body: &str) -> Fixture {
        let dir = tempfile::tempdir().expect("temp dir");
        let program = dir.path().join("claude");
        let script = format!(
            "#!/bin/sh\nprintf '%s\\0' \"$@\" > '{args}'\ncat > '{stdin}'\n{body}\n",
            args = dir.path().join("args").display(),
            stdin = dir.path().join("stdin").display(),
        );
        std::fs::write(&program, script).expect("write script");
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755))
            .expect("make script executable");
        Fixture { dir, program }
    }

    fn model(&self, edit: impl FnOnce(&mut ClaudeCliConfig)) -> ClaudeCliModel {
        let mut config = ClaudeCliConfig::new(&self.program);
        config.working_dir = Some(self.dir.path().to_path_buf());
        edit(&mut config);
        ClaudeCliModel::new(config)
    }

    fn args(&self) -> Vec<String> {
        let raw = std::fs::read(self.dir.path().join("args")).expect("args file");
        let mut args: Vec<String> = raw
            .split(|b| *b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        args.pop(); // after the last NUL
        args
    }

    fn stdin(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("stdin")).expect("stdin file")
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

/// What a call fails with when `claude` runs `body` (the script run alone, see [`SCRIPTS`]).
async fn script_error(body: &str) -> LlmError {
    let _one_at_a_time = SCRIPTS.lock().await;
    let fixture = Fixture::new(body);
    complete_err(&fixture.model(|_| {}), &squash_request()).await
}

fn print(json: &str) -> String {
    format!("cat <<'JSON'\n{json}\nJSON")
}

fn squash_request() -> ChatRequest {
    ChatRequest {
        system: Some("You compress conversations.".into()),
        messages: vec![ChatMessage::user(
            "<messages_to_squash>\n<message index=\"1\">it's \"quoted\" $HOME</message>\n</messages_to_squash>",
        )],
        temperature: Some(0.3),
        max_output_tokens: 4096,
        model: None,
    }
}

#[tokio::test]
async fn runs_the_cli_without_tools_and_parses_its_result() {
    let _one_at_a_time = SCRIPTS.lock().await;
    let fixture = Fixture::new(&print(SUCCESS));
    let model = fixture.model(|_| {});
    let response = complete_ok(&model, &squash_request()).await;
    assert_answer(
        &response,
        "The short version.",
        "claude-sonnet-4-5-20250929",
        (312, 4),
    );

    assert_eq!(
        fixture.args(),
        vec![
            "-p",
            "--output-format",
            "json",
            "--model",
            "sonnet",
            "--max-turns",
            "1",
            "--tools",
            "",
            "--strict-mcp-config",
            "--system-prompt",
            "You compress conversations.",
        ]
    );
    assert_eq!(fixture.stdin(), squash_request().messages[0].content_text());
    let info = model.info();
    assert_eq!(info.provider, ProviderKind::ClaudeCli);
    assert_eq!(info.model, "sonnet");
}

#[tokio::test]
async fn a_conversation_becomes_one_prompt_and_the_model_can_be_overridden() {
    let _one_at_a_time = SCRIPTS.lock().await;
    let fixture = Fixture::new(&print(SUCCESS));
    let request = ChatRequest {
        system: None,
        messages: vec![
            ChatMessage::user("What is 2+2?"),
            ChatMessage::assistant("4"),
            ChatMessage::user("And times 3?"),
        ],
        temperature: None,
        max_output_tokens: 1000,
        model: Some("opus".into()),
    };
    fixture
        .model(|_| {})
        .complete(&request, &CancellationToken::new())
        .await
        .expect("answer");
    let args = fixture.args();
    assert!(
        args.windows(2).any(|w| w == ["--model", "opus"]),
        "{args:?}"
    );
    // No system prompt: an empty one still replaces the CLI's own agent prompt.
    assert!(
        args.windows(2).any(|w| w == ["--system-prompt", ""]),
        "{args:?}"
    );
    let stdin = fixture.stdin();
    assert!(stdin.contains("[user]\nWhat is 2+2?\n"), "{stdin}");
    assert!(stdin.contains("[assistant]\n4\n"), "{stdin}");
    assert!(stdin.contains("[user]\nAnd times 3?\n"), "{stdin}");
}

#[tokio::test]
async fn an_error_result_is_classified() {
    let error = script_error(&format!(
        "{}\nexit 1",
        print(
            r#"{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key · Please run /login","usage":{"input_tokens":0,"output_tokens":0}}"#
        )
    )).await;
    assert!(
        matches!(
            error,
            LlmError::Auth {
                provider: ProviderKind::ClaudeCli,
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.hint().contains("log in"));
}

#[tokio::test]
async fn an_error_subtype_is_a_provider_error() {
    let error = script_error(&print(
        r#"{"type":"result","subtype":"error_during_execution","is_error":true,"usage":{}}"#,
    ))
    .await;
    assert_eq!(error.class(), "provider", "{error:?}");
    assert!(
        error.to_string().contains("error_during_execution"),
        "{error}"
    );
}

#[tokio::test]
async fn a_failing_exit_without_json_reports_stderr() {
    let error = script_error("echo 'unknown option --tools' >&2\nexit 2").await;
    assert_eq!(error.class(), "provider", "{error:?}");
    let text = error.to_string();
    assert!(
        text.contains("status 2") && text.contains("unknown option"),
        "{text}"
    );
}

#[tokio::test]
async fn garbage_output_is_malformed() {
    let error = script_error("echo 'Hello! How can I help?'").await;
    assert!(matches!(error, LlmError::MalformedResponse(_)), "{error:?}");
}

#[tokio::test]
async fn a_missing_executable_is_not_configured() {
    let _one_at_a_time = SCRIPTS.lock().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let model = ClaudeCliModel::new(ClaudeCliConfig::new(dir.path().join("no-such-claude")));
    let error = complete_err(&model, &squash_request()).await;
    assert!(matches!(error, LlmError::NotConfigured(_)), "{error:?}");
}

/// Whether the process is gone (or only a zombie waiting to be reaped).
fn is_dead(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

async fn wait_dead(pid_file: &Path) -> bool {
    let pid = std::fs::read_to_string(pid_file).expect("pid file");
    let pid = pid.trim();
    for _ in 0..50 {
        if is_dead(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test]
async fn a_slow_cli_times_out_and_is_killed() {
    let _one_at_a_time = SCRIPTS.lock().await;
    let fixture = Fixture::new("echo $$ > \"$(dirname \"$0\")/pid\"\nexec sleep 30");
    let model = fixture.model(|c| c.timeout = Duration::from_millis(500));
    let started = Instant::now();
    let error = complete_err(&model, &squash_request()).await;
    assert_timeout(&error, Duration::from_millis(500));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(wait_dead(&fixture.path("pid")).await, "the CLI still runs");
}

#[tokio::test]
async fn cancellation_kills_the_cli() {
    let _one_at_a_time = SCRIPTS.lock().await;
    let fixture = Fixture::new("echo $$ > \"$(dirname \"$0\")/pid\"\nexec sleep 30");
    let model = fixture.model(|_| {});
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    let pid_file = fixture.path("pid");
    tokio::spawn(async move {
        // Cancel once the script is running, so the kill is what is tested.
        for _ in 0..100 {
            if pid_file.exists() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        trigger.cancel();
    });
    let error = model
        .complete(&squash_request(), &cancel)
        .await
        .unwrap_err();
    assert_eq!(error, LlmError::Cancelled);
    assert!(wait_dead(&fixture.path("pid")).await, "the CLI still runs");
}

#[tokio::test]
async fn streaming_falls_back_to_one_delta() {
    let _one_at_a_time = SCRIPTS.lock().await;
    let fixture = Fixture::new(&print(SUCCESS));
    let deltas = std::sync::Mutex::new(Vec::new());
    let response = fixture
        .model(|_| {})
        .stream(&squash_request(), &CancellationToken::new(), &|d| {
            deltas.lock().expect("lock").push(d.to_string())
        })
        .await
        .expect("answer");
    assert_eq!(response.text, "The short version.");
    assert_eq!(*deltas.lock().expect("lock"), vec!["The short version."]);
}

trait ContentText {
    fn content_text(&self) -> String;
}

impl ContentText for ChatMessage {
    fn content_text(&self) -> String {
        self.content
            .iter()
            .filter_map(|p| match p {
                squash_llm::ChatPart::Text(t) => Some(t.clone()),
                _ => None,
            })
            .collect()
    }
}
