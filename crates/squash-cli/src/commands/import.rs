//! `squash import`: sessions from Claude Code, Codex CLI, Gemini CLI, opencode, OpenAI/Anthropic-
//! style JSON, Gromozeka databases, ChatGPT and claude.ai data exports and our own JSON export,
//! with a progress bar on a terminal and a summary at the end. A file Squash cannot read is
//! refused with one line (what was found, which formats exist) and nothing is written.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use squash_app::{ConversationService, ImportFormat, ImportOptions, ImportProgress};

use crate::output::Output;
use crate::remedy::{failure, helped};

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// A session file, a database (Gromozeka, opencode), or a directory (searched recursively
    /// for .jsonl, .json, .traj and .db files — e.g. ~/.claude/projects or ~/.gemini/tmp).
    pub path: PathBuf,
    /// The format; auto detects it from the content.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: FormatArg,
    /// Put the conversations in this project instead of the working directory the source names.
    #[arg(long)]
    pub project: Option<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum FormatArg {
    Auto,
    ClaudeCode,
    Codex,
    /// A Gemini CLI recording (`~/.gemini/tmp/<project>/chats/session-*.jsonl`).
    Gemini,
    /// opencode's store (`~/.local/share/opencode/opencode.db`) or an `opencode export`.
    Opencode,
    Openai,
    Anthropic,
    Gromozeka,
    /// The ChatGPT data export (`conversations.json`, or one conversation of it).
    #[value(name = "chatgpt")]
    Chatgpt,
    /// The claude.ai data export (`conversations.json`, or one conversation of it).
    ClaudeAi,
    Squash,
}

impl From<FormatArg> for ImportFormat {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::Auto => ImportFormat::Auto,
            FormatArg::ClaudeCode => ImportFormat::ClaudeCode,
            FormatArg::Codex => ImportFormat::Codex,
            FormatArg::Gemini => ImportFormat::Gemini,
            FormatArg::Opencode => ImportFormat::Opencode,
            FormatArg::Openai => ImportFormat::OpenAi,
            FormatArg::Anthropic => ImportFormat::Anthropic,
            FormatArg::Gromozeka => ImportFormat::Gromozeka,
            FormatArg::Chatgpt => ImportFormat::ChatGpt,
            FormatArg::ClaudeAi => ImportFormat::ClaudeAi,
            FormatArg::Squash => ImportFormat::Squash,
        }
    }
}

/// A byte progress bar per file, on stderr.
struct Bar(ProgressBar);

impl ImportProgress for Bar {
    fn file_started(&self, path: &str, bytes: u64) {
        self.0.reset();
        self.0.set_length(bytes);
        self.0.set_message(short(path).to_owned());
    }

    fn advanced(&self, bytes: u64) {
        self.0.inc(bytes);
    }

    fn storing(&self, conversations: usize) {
        self.0
            .set_message(format!("storing {conversations} conversation(s)"));
    }
}

fn short(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

pub async fn run(
    service: &ConversationService,
    out: &Output,
    args: ImportArgs,
) -> anyhow::Result<()> {
    let bar = if out.is_json() || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {msg:30!} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} {eta}",
            )?
            .progress_chars("=> "),
        );
        bar
    };
    let options = ImportOptions {
        format: args.format.into(),
        project: args.project,
        fallback_project: std::env::current_dir()?.to_string_lossy().into_owned(),
    };
    let progress = Arc::new(Bar(bar.clone()));
    let result = service.import_path(&args.path, &options, progress).await;
    bar.finish_and_clear();
    let summary = result.map_err(failure)?;
    let totals = summary.totals();
    out.emit(
        &serde_json::json!({"summary": summary, "totals": totals}),
        || summary.text(),
    )?;
    // The files that did read are imported; the run still fails, so that a script notices.
    match summary.failed.as_slice() {
        [] => Ok(()),
        [one] => anyhow::bail!("{}", helped(one.error.clone(), &one.remedies)),
        many => anyhow::bail!(
            "{} of {} files could not be imported (listed above)",
            many.len(),
            summary.files
        ),
    }
}
