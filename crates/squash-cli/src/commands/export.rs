//! `squash export`: a conversation's current (or named) thread as Markdown, a resumable Claude
//! Code session, Codex rollout, Gemini CLI recording or opencode import document, or the whole
//! conversation as our lossless JSON.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use squash_app::export::{project_dir, rollout_path};
use squash_app::resume::AgentHomes;
use squash_app::{ConversationService, ExportFormat, ExportOptions};

use crate::output::Output;

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Conversation id, unique id prefix, or exact name.
    pub conversation: String,
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: ExportFormat,
    /// Write to this file (or into this directory, as <session>.jsonl for claude-code,
    /// rollout-<time>-<session>.jsonl for codex) instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// A thread id or prefix instead of the current thread (markdown, claude-code, codex).
    #[arg(long)]
    pub thread: Option<String>,
    /// claude-code, codex: write the session where the agent looks for it, ready to resume:
    /// ~/.claude/projects/<encoded cwd>/<session>.jsonl (or under $CLAUDE_CONFIG_DIR) for
    /// `claude --resume <session>`; ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl
    /// (or under $CODEX_HOME) for `codex resume <session>`. A new session: the original is
    /// never overwritten.
    #[arg(long)]
    pub install: bool,
    /// Agent sessions: the working directory the session will be resumed from (default: the
    /// conversation's project).
    #[arg(long)]
    pub cwd: Option<String>,
    /// opencode: the provider/model the session goes on with (default: the one it last ran on
    /// in opencode, else the `model` of the opencode.json that applies to --cwd).
    #[arg(long)]
    pub model: Option<String>,
}

fn is_agent(format: ExportFormat) -> bool {
    matches!(
        format,
        ExportFormat::ClaudeCode
            | ExportFormat::Codex
            | ExportFormat::Gemini
            | ExportFormat::Opencode
    )
}

/// Where `--install` puts the session.
fn install_path(format: ExportFormat, session_id: &str, cwd: &str) -> anyhow::Result<PathBuf> {
    let homes = AgentHomes::from_env();
    Ok(match format {
        ExportFormat::Codex => rollout_path(&homes.codex_home, session_id, &chrono::Local::now()),
        ExportFormat::Gemini => {
            let dir = homes.gemini_project_dir_for_new(cwd)?;
            squash_app::export::gemini_session_path(&dir, session_id, &chrono::Utc::now())
        }
        ExportFormat::Opencode => anyhow::bail!(
            "opencode keeps sessions in its own store: write the document with --output, then \
             run `opencode import FILE` (or use `squash resume --agent opencode`)"
        ),
        _ => project_dir(&homes.claude_config, cwd).join(format!("{session_id}.jsonl")),
    })
}

pub async fn run(
    service: &ConversationService,
    out: &Output,
    args: ExportArgs,
) -> anyhow::Result<()> {
    let format = args.format;
    if args.install && !is_agent(format) {
        anyhow::bail!("--install only applies to --format claude-code, codex or gemini");
    }
    let conversation = service.resolve_conversation(&args.conversation).await?;
    let thread = match &args.thread {
        Some(t) => Some(service.resolve_thread(conversation, t).await?),
        None => None,
    };
    let session_id = if format == ExportFormat::Opencode {
        squash_app::export::new_opencode_session_id()
    } else {
        uuid_v7()
    };
    let cwd = match (&args.cwd, format) {
        (Some(cwd), _) => Some(cwd.clone()),
        (None, f) if is_agent(f) => {
            let conv = service.conversation(conversation).await?;
            Some(service.project(conv.project_id).await?.path)
        }
        _ => None,
    };
    let model = match (&args.model, format, cwd.as_deref()) {
        (Some(m), _, _) => Some(m.clone()),
        (None, ExportFormat::Opencode, Some(cwd)) => AgentHomes::from_env().opencode_model(cwd),
        _ => None,
    };
    let options = ExportOptions {
        thread,
        session_id: Some(session_id.clone()),
        cwd: cwd.clone(),
        model,
        ..ExportOptions::new(format)
    };
    let target: Option<PathBuf> = if args.install {
        Some(install_path(
            format,
            &session_id,
            cwd.as_deref().unwrap_or_default(),
        )?)
    } else {
        match &args.output {
            // An existing directory, or a path written as one ("out/"), gets a file name.
            Some(p) if p.is_dir() || p.as_os_str().to_string_lossy().ends_with('/') => {
                Some(p.join(match format {
                    ExportFormat::ClaudeCode => format!("{session_id}.jsonl"),
                    ExportFormat::Codex => rollout_file_name(&session_id),
                    f => format!("{conversation}.{}", f.extension()),
                }))
            }
            other => other.clone(),
        }
    };
    let Some(path) = target else {
        let mut stdout = BufWriter::new(crate::output::Stdout::default());
        let exported = service.export(conversation, &options, &mut stdout).await;
        let flushed = stdout.flush();
        stdout.get_ref().closed()?;
        exported?;
        flushed?;
        return Ok(());
    };
    let report = write_file(service, conversation, &options, &path).await?;
    out.emit(&serde_json::json!({"path": path, "report": report}), || {
        let mut text = format!(
            "wrote {} message(s) of conversation {conversation} to {}",
            report.messages,
            path.display()
        );
        if let (Some(session), Some(cwd)) = (&report.session_id, &report.cwd) {
            text.push_str(&match format {
                ExportFormat::Codex => {
                    format!("\nCodex session {session}: cd {cwd} && codex resume {session}")
                }
                ExportFormat::Gemini => {
                    format!("\nGemini CLI session {session}: cd {cwd} && gemini --resume {session}")
                }
                ExportFormat::Opencode => format!(
                    "\nopencode session {session}: opencode import {} && cd {cwd} && opencode --session {session}",
                    path.display()
                ),
                _ => format!(
                    "\nClaude Code session {session}: cd {cwd} && claude --resume {session}"
                ),
            });
        }
        for w in &report.warnings {
            text.push_str(&format!("\nwarning: {w}"));
        }
        text
    })
}

async fn write_file(
    service: &ConversationService,
    conversation: squash_core::ConversationId,
    options: &ExportOptions,
    path: &Path,
) -> anyhow::Result<squash_app::ExportReport> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    // Written beside the target and renamed into place, so a failed export leaves no half file
    // where Claude Code would find it.
    let partial = path.with_extension("partial");
    let file = std::fs::File::create(&partial)
        .with_context(|| format!("cannot create {}", partial.display()))?;
    let mut writer = BufWriter::new(file);
    let result = service.export(conversation, options, &mut writer).await;
    let flushed = writer.flush();
    match (result, flushed) {
        (Ok(report), Ok(())) => {
            std::fs::rename(&partial, path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(report)
        }
        (Err(e), _) => {
            let _ = std::fs::remove_file(&partial);
            Err(e.into())
        }
        (_, Err(e)) => {
            let _ = std::fs::remove_file(&partial);
            Err(e.into())
        }
    }
}

/// The file name Codex gives a rollout started now.
fn rollout_file_name(session_id: &str) -> String {
    let path = rollout_path(Path::new(""), session_id, &chrono::Local::now());
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| format!("{session_id}.jsonl"))
}

fn uuid_v7() -> String {
    squash_core::MessageId::new().to_string()
}
