//! `squash resume`: the latest agent session of this directory, fitted and handed back to the
//! agent as a new session — or handed over to another agent (`--agent`), converted into its
//! session format and tools.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{anyhow, Context};
use clap::{Args, ValueEnum};
use serde::Serialize;
use squash_app::fit::FitOutcome;
use squash_app::resume::{self, Agent, AgentHomes, ResumeError, SessionFile, WrittenSession};
use squash_app::{ConversationService, ImportOptions, NoProgress};
use squash_core::fit::FitPlan;
use squash_core::tokens::format_count;
use squash_core::ConversationId;

use super::fit::{fit, kept_text, outcome_text, request, FitOptionArgs};
use crate::output::Output;

#[derive(Args, Debug)]
pub struct ResumeArgs {
    /// A session file (or opencode's store), or a session id of any agent; default: the most
    /// recent session of the current directory (in $CLAUDE_CONFIG_DIR/projects or
    /// ~/.claude/projects, $CODEX_HOME/sessions or ~/.codex/sessions, ~/.gemini/tmp/<project>/chats,
    /// and ~/.local/share/opencode/opencode.db).
    pub session: Option<String>,
    /// The agent to resume with. With a SESSION of another agent, the session is handed over:
    /// converted into this agent's session format and tools. Without a SESSION, only this
    /// agent's sessions are looked at (default: every agent's, the most recent wins).
    #[arg(long, value_enum)]
    pub agent: Option<AgentArg>,
    #[command(flatten)]
    pub fit: FitOptionArgs,
    /// Do everything but start the agent, and print the command that would.
    #[arg(long)]
    pub dry_run: bool,
    /// Arguments for the agent, after `--`.
    #[arg(last = true, value_name = "AGENT_ARGS")]
    pub agent_args: Vec<String>,
}

/// `--agent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AgentArg {
    Claude,
    Codex,
    Gemini,
    Opencode,
}

impl From<AgentArg> for Agent {
    fn from(a: AgentArg) -> Agent {
        match a {
            AgentArg::Claude => Agent::Claude,
            AgentArg::Codex => Agent::Codex,
            AgentArg::Gemini => Agent::Gemini,
            AgentArg::Opencode => Agent::Opencode,
        }
    }
}

/// What `resume` did, for `--json`.
#[derive(Serialize)]
struct Resumed {
    original: SessionFile,
    /// The agent that resumes: the original's, or another one the session is handed to.
    agent: Agent,
    conversation_id: ConversationId,
    window: u32,
    model: Option<String>,
    /// The plan made before anything was written: what it keeps and cuts, per level.
    plan: FitPlan,
    fit: FitOutcome,
    /// `None` when the session was within the budget: the agent resumes the original.
    written: Option<WrittenSession>,
    command: Vec<String>,
}

pub async fn run(
    service: &ConversationService,
    out: &Output,
    args: ResumeArgs,
) -> anyhow::Result<()> {
    let cwd = std::env::current_dir()
        .context("cannot read the current directory")?
        .to_string_lossy()
        .into_owned();
    let homes = AgentHomes::from_env();
    let wanted: Vec<Agent> = args.agent.map(Agent::from).into_iter().collect();
    let session = resume::locate(&homes, &wanted, args.session.as_deref(), &cwd)?;
    let target = wanted.first().copied().unwrap_or(session.agent);
    let program = find_program(target.program());
    if program.is_none() && !args.dry_run {
        return Err(ResumeError::AgentMissing {
            program: target.program().to_owned(),
        }
        .into());
    }
    let fit_args = &args.fit;
    let request = |budget| request(budget, fit_args);
    let check = resume::precheck(
        &session,
        target,
        fit_args.budget,
        request,
        fit_args.best_effort,
    )
    .map_err(resume_error)?;
    let conv = import(service, &session).await?;
    let outcome = fit(
        service,
        conv,
        check.plan.request.budget,
        fit_args,
        out.is_json(),
    )
    .await?;
    // Another agent always gets a session of its own; the same one only when the fit changed it.
    let written = if outcome.thread.is_some() || target != session.agent {
        Some(resume::write_session(service, conv, &session, target, &homes).await?)
    } else {
        None
    };
    let id = match &written {
        Some(w) => w.session_id.clone(),
        None => session_id_of(&session)?,
    };
    let program_name = program
        .as_ref()
        .map_or_else(|| target.program().to_owned(), |p| p.display().to_string());
    let mut command = vec![program_name.clone()];
    command.extend(target.resume_args(&id));
    command.extend(args.agent_args.iter().cloned());
    let mut written = written;
    if let Some(import) = written.as_mut().and_then(|w| w.import_command.as_mut()) {
        import[0] = program_name;
    }
    let resumed = Resumed {
        original: session,
        agent: target,
        conversation_id: conv,
        window: check.window,
        model: check.model,
        plan: check.plan,
        fit: outcome,
        written,
        command,
    };
    out.emit(&resumed, || resumed_text(&resumed, args.dry_run))?;
    if args.dry_run {
        return Ok(());
    }
    exec(&resumed)
}

/// Imports the session (again: an unchanged file is recognised, a grown one appended to) and
/// returns its main conversation.
async fn import(
    service: &ConversationService,
    session: &SessionFile,
) -> anyhow::Result<ConversationId> {
    let options = ImportOptions {
        format: session.agent.format().into(),
        ..ImportOptions::default()
    };
    let summary = service
        .import_file(&session.path, &options, Arc::new(NoProgress))
        .await?;
    let key = session.source_key();
    summary
        .conversations
        .iter()
        .filter(|c| !c.sidechain)
        .filter(|c| key.as_ref().is_none_or(|k| *k == c.source_key))
        .max_by_key(|c| c.counts.messages)
        .map(|c| c.conversation_id)
        .ok_or_else(|| anyhow!("{}: no conversation was imported", session.path.display()))
}

/// The session id the agent resumes the original by: its file name (Claude Code) or the id at
/// its end (Codex's `rollout-<time>-<id>.jsonl`).
fn session_id_of(session: &SessionFile) -> anyhow::Result<String> {
    if let Some(id) = &session.session_id {
        return Ok(id.clone());
    }
    let stem = session
        .path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| anyhow!("{}: no session id in the file name", session.path.display()))?;
    Ok(match session.agent {
        Agent::Claude | Agent::Opencode => stem.to_owned(),
        // The recording names its session; the file only its first eight characters.
        Agent::Gemini => gemini_session_id(&session.path).unwrap_or_else(|| stem.to_owned()),
        Agent::Codex => {
            // A UUID is the last five dash-separated groups.
            let parts: Vec<&str> = stem.split('-').collect();
            parts[parts.len().saturating_sub(5)..].join("-")
        }
    })
}

/// The `sessionId` on a Gemini CLI recording's first line (or its whole older document).
fn gemini_session_id(path: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let first = text.lines().next()?;
    let header: serde_json::Value = serde_json::from_str(first)
        .or_else(|_| serde_json::from_str(&text))
        .ok()?;
    header.get("sessionId")?.as_str().map(str::to_owned)
}

fn resumed_text(r: &Resumed, dry_run: bool) -> String {
    let mut s = format!(
        "{} session {}\n  imported as conversation {}; budget {} tokens (half of {}'s {} window)\n",
        r.original.agent,
        r.original.path.display(),
        r.conversation_id,
        format_count(r.fit.budget),
        r.model.as_deref().unwrap_or("the agent's model"),
        format_count(u64::from(r.window)),
    );
    s.push_str(&format!("  {}\n", kept_text(&r.plan)));
    s.push_str(&outcome_text(&r.fit, &r.conversation_id.to_string()));
    s.push('\n');
    match &r.written {
        Some(w) => {
            s.push_str(&format!(
                "new {} session {} written to {} ({} lines; the original is untouched)\n",
                w.agent,
                w.session_id,
                w.path.display(),
                w.report.lines
            ));
            for warning in w.report.handoff.iter().flat_map(|h| h.warnings()) {
                s.push_str(&format!("  {warning}\n"));
            }
        }
        None => s.push_str("the session is resumed as it is\n"),
    }
    let import = r
        .written
        .as_ref()
        .and_then(|w| w.import_command.as_ref())
        .map(|c| c.join(" "));
    let command = r.command.join(" ");
    let command = match import {
        Some(import) => format!("{import} && {command}"),
        None => command,
    };
    if dry_run {
        s.push_str(&format!(
            "dry run; the agent would start with:\n  {command}"
        ));
    } else {
        s.push_str(&format!("starting: {command}"));
    }
    s
}

/// Replaces this process with the agent (on Unix), so the terminal is the agent's; for
/// opencode, after importing the written session into its store.
fn exec(r: &Resumed) -> anyhow::Result<()> {
    if let Some(import) = r.written.as_ref().and_then(|w| w.import_command.as_ref()) {
        let status = std::process::Command::new(&import[0])
            .args(&import[1..])
            .stdin(std::process::Stdio::null())
            .status()
            .with_context(|| format!("cannot start {}", import[0]))?;
        if !status.success() {
            anyhow::bail!("`{}` failed ({status})", import.join(" "));
        }
    }
    let mut cmd = std::process::Command::new(&r.command[0]);
    cmd.args(&r.command[1..]);
    if let Some(dir) = r
        .original
        .cwd
        .as_deref()
        .filter(|d| std::path::Path::new(d).is_dir())
    {
        cmd.current_dir(dir);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let error = cmd.exec();
        Err(anyhow!("cannot start {}: {error}", r.command[0]))
    }
    #[cfg(not(unix))]
    {
        let status = cmd
            .status()
            .with_context(|| format!("cannot start {}", r.command[0]))?;
        std::process::exit(status.code().unwrap_or(1));
    }
}

/// `program` on PATH (or a path to it).
fn find_program(program: &str) -> Option<PathBuf> {
    let candidate = std::path::Path::new(program);
    if candidate.components().count() > 1 {
        return candidate.is_file().then(|| candidate.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|p| is_executable(p))
}

fn is_executable(path: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

fn resume_error(e: ResumeError) -> anyhow::Error {
    crate::remedy::failure(e)
}
