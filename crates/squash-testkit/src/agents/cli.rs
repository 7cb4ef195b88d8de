//! Finding and running the real agent CLIs in an isolated home: nothing of the user's
//! configuration, credentials or sessions is read, nothing outside the sandbox is written.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use tokio::process::Command;

use crate::skip::Need;

/// Long enough for a cold start on a loaded machine; a hung agent fails the test.
const RUN_LIMIT: Duration = Duration::from_secs(180);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentKind {
    Claude,
    Codex,
    Gemini,
    Opencode,
    /// Not an agent: the MCP Inspector's CLI, fetched with them, the independent client of the
    /// protocol test of `squash mcp`.
    McpInspector,
}

impl AgentKind {
    fn env(self) -> &'static str {
        match self {
            AgentKind::Claude => "SQUASH_CLAUDE_BIN",
            AgentKind::Codex => "SQUASH_CODEX_BIN",
            AgentKind::Gemini => "SQUASH_GEMINI_BIN",
            AgentKind::Opencode => "SQUASH_OPENCODE_BIN",
            AgentKind::McpInspector => "SQUASH_MCP_INSPECTOR_BIN",
        }
    }

    fn program(self) -> &'static str {
        match self {
            AgentKind::Claude => "claude",
            AgentKind::Codex => "codex",
            AgentKind::Gemini => "gemini",
            AgentKind::Opencode => "opencode",
            AgentKind::McpInspector => "mcp-inspector",
        }
    }
}

pub struct Agent {
    pub kind: AgentKind,
    pub bin: PathBuf,
}

impl Agent {
    /// Two CLIs, as [`Agent::find`] finds each (both looked for, so every missing one is
    /// noted); `None` when either is missing.
    pub fn find_both(first: AgentKind, second: AgentKind) -> Option<(Agent, Agent)> {
        let (first, second) = (Agent::find(first), Agent::find(second));
        Some((first?, second?))
    }

    /// The CLI from its env variable or `PATH`; `None` (after noting the skip) when it is not
    /// installed, a failure when the run requires the agents.
    pub fn find(kind: AgentKind) -> Option<Agent> {
        if Need::Agents.left_to_full_tier() {
            return None;
        }
        let from_env = std::env::var_os(kind.env()).map(PathBuf::from);
        let bin = from_env.clone().or_else(|| on_path(kind.program()));
        match bin {
            Some(bin) if bin.is_file() => Some(Agent { kind, bin }),
            _ => {
                let message = match from_env {
                    Some(p) => {
                        format!("{} points at {}, which is no file", kind.env(), p.display())
                    }
                    None => format!(
                        "no `{}` on PATH and {} is not set (bash scripts/fetch-agents.sh, see .ci/run)",
                        kind.program(),
                        kind.env()
                    ),
                };
                Need::Agents.missing(&message);
                None
            }
        }
    }
}

fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// A temp dir holding the agent's home (config, sessions) and the working directory it runs in.
pub struct Sandbox {
    _dir: tempfile::TempDir,
    pub home: PathBuf,
    pub cwd: PathBuf,
}

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox::new()
    }
}

impl Sandbox {
    /// The `squash` binary at `squash` run in the sandbox: its own database, the agents' homes,
    /// nothing of the caller's environment but `PATH`, with the agent `agent`'s directory first
    /// (so that `squash resume` finds the real one).
    pub fn squash(&self, squash: &Path, agent: &Path) -> Command {
        let dir = agent.parent().expect("bin dir").to_path_buf();
        let rest = std::env::var_os("PATH").unwrap_or_default();
        let path = std::env::join_paths(std::iter::once(dir).chain(std::env::split_paths(&rest)))
            .expect("PATH");
        let mut cmd = Command::new(squash);
        cmd.current_dir(&self.cwd)
            .env_clear()
            .env("HOME", &self.home)
            .env("PATH", path)
            .env("LANG", "C.UTF-8")
            .env("CLAUDE_CONFIG_DIR", self.claude_config())
            .env("CODEX_HOME", self.codex_home())
            .env("SQUASH_LOCAL_SERVERS", "none")
            .arg("--db")
            .arg(self.squash_db())
            .stdin(std::process::Stdio::null());
        cmd
    }

    pub fn new() -> Sandbox {
        let dir = tempfile::tempdir().expect("temp dir");
        // Canonical, because the agents record (and look sessions up by) the resolved cwd.
        let root = dir.path().canonicalize().expect("canonical temp dir");
        let home = root.join("home");
        let cwd = root.join("project");
        let gemini = home.join(".gemini");
        for d in [
            &home,
            &cwd,
            &home.join(".claude"),
            &home.join(".codex"),
            &gemini,
        ] {
            std::fs::create_dir_all(d).expect("sandbox dirs");
        }
        // Gemini CLI with an API key and no questions; its workspace trusted by environment.
        let settings = r#"{"security": {"auth": {"selectedType": "gemini-api-key"}}}"#;
        std::fs::write(gemini.join("settings.json"), settings).expect("gemini settings");
        Sandbox {
            _dir: dir,
            home,
            cwd,
        }
    }

    /// Gemini CLI's home: `tmp/<project>/chats/session-*.jsonl`, `projects.json`.
    pub fn gemini_home(&self) -> PathBuf {
        self.home.join(".gemini")
    }

    /// opencode's data: `opencode.db`.
    pub fn opencode_data(&self) -> PathBuf {
        self.home.join(".local/share/opencode")
    }

    /// `CLAUDE_CONFIG_DIR`: Claude Code's settings and `projects/<encoded cwd>/<session>.jsonl`.
    pub fn claude_config(&self) -> PathBuf {
        self.home.join(".claude")
    }

    /// The database `squash` uses in this sandbox.
    pub fn squash_db(&self) -> PathBuf {
        self.home.join("squash.db")
    }

    /// `CODEX_HOME`: Codex's config and `sessions/YYYY/MM/DD/rollout-*.jsonl`.
    pub fn codex_home(&self) -> PathBuf {
        self.home.join(".codex")
    }

    /// A command with an empty environment but `PATH` (the agents run tools through it) and
    /// the sandbox's home.
    fn command(&self, agent: &Agent) -> Command {
        let mut cmd = Command::new(&agent.bin);
        cmd.current_dir(&self.cwd)
            .env_clear()
            .env("HOME", &self.home)
            .env("LANG", "C.UTF-8")
            // The recall server an agent starts (`squash mcp`) reads the sandbox's database.
            .env("SQUASH_DB", self.squash_db())
            .stdin(std::process::Stdio::null())
            .kill_on_drop(true);
        if let Some(path) = std::env::var_os("PATH") {
            cmd.env("PATH", path);
        }
        cmd
    }

    /// `claude -p PROMPT` against `base_url`, tools allowed without asking, `extra` before the
    /// prompt (e.g. `--resume ID`).
    pub async fn claude(
        &self,
        agent: &Agent,
        base_url: &str,
        extra: &[&str],
        prompt: &str,
    ) -> Output {
        let mut cmd = self.command(agent);
        cmd.env("CLAUDE_CONFIG_DIR", self.claude_config())
            .env("ANTHROPIC_BASE_URL", base_url)
            .env("ANTHROPIC_API_KEY", "test")
            // As root, Claude Code refuses to skip permissions unless it is told it is sandboxed.
            .env("IS_SANDBOX", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .args(["--dangerously-skip-permissions"])
            .args(extra)
            .args(["-p", prompt]);
        run(cmd, "claude").await
    }

    /// `codex exec PROMPT` (or `codex exec resume ID PROMPT` with `extra`) against `base_url`
    /// through a custom Responses provider.
    ///
    /// The model name matters: Codex picks the tools by model family, and for its default model
    /// it offers a JavaScript `exec` tool instead of `exec_command`; an unknown name gets the
    /// generic set (`exec_command`, `write_stdin`, ...).
    pub async fn codex(
        &self,
        agent: &Agent,
        base_url: &str,
        extra: &[&str],
        prompt: &str,
    ) -> Output {
        let provider = format!(
            "model_providers.loopback={{name=\"loopback\", base_url=\"{base_url}\", \
             env_key=\"OPENAI_API_KEY\", wire_api=\"responses\"}}"
        );
        let mut cmd = self.command(agent);
        cmd.env("CODEX_HOME", self.codex_home())
            .env("OPENAI_API_KEY", "test")
            .arg("exec")
            .args(extra)
            .args(["-m", "loopback-model", "--skip-git-repo-check"])
            .arg("--dangerously-bypass-approvals-and-sandbox")
            .args(["-c", "model_provider=\"loopback\"", "-c", &provider])
            .arg(prompt);
        run(cmd, "codex").await
    }

    /// `gemini --yolo -p PROMPT` against `base_url` (`extra` before the prompt, e.g.
    /// `--resume ID`).
    pub async fn gemini(
        &self,
        agent: &Agent,
        base_url: &str,
        extra: &[&str],
        prompt: &str,
    ) -> Output {
        let mut cmd = self.command(agent);
        cmd.env("GOOGLE_GEMINI_BASE_URL", base_url)
            .env("GEMINI_API_KEY", "test")
            .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
            .arg("--yolo")
            .args(extra)
            .args(["-p", prompt]);
        run(cmd, "gemini").await
    }

    /// `opencode run PROMPT` (`extra` before it, e.g. `--session ID`) through a custom
    /// OpenAI-compatible provider at `base_url`, configured in the project's `opencode.json`.
    pub async fn opencode(
        &self,
        agent: &Agent,
        base_url: &str,
        extra: &[&str],
        prompt: &str,
    ) -> Output {
        self.opencode_config(base_url);
        let mut cmd = self.command(agent);
        cmd.env("OPENCODE_DISABLE_AUTOUPDATE", "1")
            .arg("run")
            .args(extra)
            .arg(prompt);
        run(cmd, "opencode").await
    }

    /// `opencode ARGS` (e.g. `import FILE`).
    pub async fn opencode_cli(&self, agent: &Agent, args: &[&str]) -> Output {
        let mut cmd = self.command(agent);
        cmd.env("OPENCODE_DISABLE_AUTOUPDATE", "1").args(args);
        run(cmd, "opencode").await
    }

    /// The project's `opencode.json`: the loopback provider and its model.
    pub fn opencode_config(&self, base_url: &str) {
        let config = serde_json::json!({
            "provider": {"loopback": {
                "npm": "@ai-sdk/openai-compatible", "name": "Loopback",
                "options": {"baseURL": base_url, "apiKey": "test"},
                "models": {"loopback-model": {"name": "Loopback"}},
            }},
            "model": "loopback/loopback-model",
            "autoupdate": false,
            "share": "disabled",
        });
        std::fs::write(self.cwd.join("opencode.json"), config.to_string()).expect("opencode.json");
    }
}

async fn run(mut cmd: Command, what: &str) -> Output {
    let child = cmd.output();
    match tokio::time::timeout(RUN_LIMIT, child).await {
        Ok(Ok(output)) => output,
        Ok(Err(e)) => panic!("cannot run {what}: {e}"),
        Err(_) => panic!("{what} did not finish within {RUN_LIMIT:?}"),
    }
}

/// Fails with the agent's output when it did not exit 0.
pub fn assert_ran(output: &Output, what: &str) {
    assert!(
        output.status.success(),
        "{what} exited with {}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Every `*.jsonl` file under `dir`, sorted.
pub fn session_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
