//! Claude through the Claude Code CLI (`claude -p`), for people who have the CLI logged in but
//! no API key.
//!
//! The CLI is an agent; here it must only write text. It runs with `--tools ""` (the CLI
//! reference's way to disable every built-in tool) and `--strict-mcp-config` without an
//! `--mcp-config` (so no MCP server from the user's settings adds tools), `--max-turns 1`, and
//! in a scratch directory so that no project's CLAUDE.md or settings shape the answer. The
//! system prompt replaces the CLI's own through `--system-prompt` (an empty one when the
//! request has none); the conversation goes to standard input as one prompt.

mod output;
mod prompt;
mod settings;

use std::process::Stdio;

use async_trait::async_trait;
use squash_core::ProviderKind;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

use crate::error::LlmError;
use crate::guard::{cancellable, timed};
use crate::model::{ChatCall, ChatModel, ChatRequest, ChatResponse, ModelInfo};

pub use settings::{find_on_path, ClaudeCliConfig, CLAUDE_CLI_DEFAULT_MODEL};

/// A system prompt longer than this goes to standard input instead of the command line, which
/// the OS limits (one argument may not exceed 128 KiB on Linux).
const MAX_ARG_BYTES: usize = 64 * 1024;

/// Claude, answering through the Claude Code CLI.
#[derive(Debug)]
pub struct ClaudeCliModel {
    config: ClaudeCliConfig,
}

impl ClaudeCliModel {
    /// A model running `config.program`. Nothing is checked until the first call.
    pub fn new(config: ClaudeCliConfig) -> ClaudeCliModel {
        ClaudeCliModel { config }
    }

    /// The command line and the text for standard input.
    fn invocation(&self, req: &ChatRequest) -> (Vec<String>, String) {
        let model = req.model.as_deref().unwrap_or(&self.config.model);
        let mut args: Vec<String> = [
            "-p",
            "--output-format",
            "json",
            "--model",
            model,
            "--max-turns",
            "1",
            "--tools",
            "",
            "--strict-mcp-config",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut stdin = prompt::render(&req.messages);
        // Always replaced: without `--system-prompt` the CLI sends its own interactive-agent
        // prompt (tens of kB on tools, permissions and coding tasks) with every request, which
        // would shape a squash; an empty one leaves only the CLI's one-line identity (seen on
        // the wire with claude 2.1.197).
        let system = match req.system.as_deref().filter(|s| !s.trim().is_empty()) {
            Some(system) if system.len() <= MAX_ARG_BYTES => system.to_string(),
            Some(system) => {
                stdin = format!("<system>\n{system}\n</system>\n\n{stdin}");
                String::new()
            }
            None => String::new(),
        };
        args.push("--system-prompt".into());
        args.push(system);
        // The CLI has no temperature or output-limit flags; both stay the CLI's defaults.
        (args, stdin)
    }

    async fn run(&self, args: Vec<String>, stdin_text: String) -> Result<ChatResponse, LlmError> {
        let mut command = Command::new(&self.config.program);
        command
            .args(&args)
            .current_dir(
                self.config
                    .working_dir
                    .clone()
                    .unwrap_or_else(std::env::temp_dir),
            )
            // Set when Squash itself runs inside Claude Code; the CLI then refuses to start a
            // nested session.
            .env_remove("CLAUDECODE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Cancellation and timeouts drop the future; the child must not outlive it.
            .kill_on_drop(true);
        let mut child = command.spawn().map_err(|e| self.spawn_error(e))?;
        let mut stdin = child.stdin.take().ok_or_else(|| LlmError::Provider {
            status: None,
            message: "the CLI's standard input is not available".into(),
        })?;
        let write = async move {
            // A CLI that exits early closes the pipe; its output says why, so the write error
            // adds nothing.
            let _ = stdin.write_all(stdin_text.as_bytes()).await;
            let _ = stdin.shutdown().await;
        };
        let ((), output) = tokio::join!(write, child.wait_with_output());
        let output = output.map_err(|e| LlmError::Provider {
            status: None,
            message: format!("waiting for the CLI failed: {e}"),
        })?;
        output::parse(
            &String::from_utf8_lossy(&output.stdout),
            &String::from_utf8_lossy(&output.stderr),
            output.status.code(),
            &self.config.model,
        )
    }

    fn spawn_error(&self, error: std::io::Error) -> LlmError {
        let program = self.config.program.display();
        match error.kind() {
            std::io::ErrorKind::NotFound => {
                LlmError::NotConfigured(format!("the Claude CLI was not found at `{program}`"))
            }
            std::io::ErrorKind::PermissionDenied => {
                LlmError::NotConfigured(format!("the Claude CLI at `{program}` cannot be run"))
            }
            _ => LlmError::Provider {
                status: None,
                message: format!("starting `{program}` failed: {error}"),
            },
        }
    }
}

#[async_trait]
impl ChatModel for ClaudeCliModel {
    fn info(&self) -> ModelInfo {
        ModelInfo::new(
            ProviderKind::ClaudeCli,
            self.config.model.clone(),
            self.config.context_window_tokens,
        )
    }

    /// The CLI cannot stream: a streaming caller gets the whole answer as one delta.
    async fn answer(&self, call: ChatCall<'_>) -> Result<ChatResponse, LlmError> {
        let (args, stdin) = self.invocation(call.request);
        tracing::debug!(program = %self.config.program.display(), "running the Claude CLI");
        let timeout = self.config.timeout;
        let response = cancellable(call.cancel, timed(timeout, self.run(args, stdin))).await?;
        call.deliver_whole(&response.text);
        Ok(response)
    }
}
