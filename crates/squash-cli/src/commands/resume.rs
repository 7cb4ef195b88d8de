//! `squash resume`: the latest agent session of this directory, fitted and handed back to the
//! agent as a new session.

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

use super::fit::{fit, fit_error, kept_text, outcome_text, request, FitOptionArgs};
use crate::output::Output;

#[derive(Args, Debug)]
pub struct ResumeArgs {
    /// A session file, or a session id; default: the most recent session of the current
    /// directory (in $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects, and $CODEX_HOME/sessions
    /// or ~/.codex/sessions).
    pub session: Option<String>,
    /// Which agent's sessions to look at (default: both, the most recent wins).
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
}

impl From<AgentArg> for Agent {
    fn from(a: AgentArg) -> Agent {
        match a {
            AgentArg::Claude => Agent::Claude,
            AgentArg::Codex => Agent::Codex,
        }
    }
}

/// What `resume` did, for `--json`.
#[derive(Serialize)]
struct Resumed {
    original: SessionFile,
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
    let session = resume::locate(
        &homes,
        args.agent.map(Agent::from),
        args.session.as_deref(),
        &cwd,
    )?;
    let program = find_program(session.agent.program());
    if program.is_none() && !args.dry_run {
        return Err(ResumeError::AgentMissing {
            program: session.agent.program().to_owned(),
        }
        .into());
    }
    let fit_args = &args.fit;
    let request = |budget| request(budget, fit_args);
    let check = resume::precheck(&session, fit_args.budget, request, fit_args.best_effort)
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
    let written = match outcome.thread {
        Some(_) => Some(resume::write_session(service, conv, &session, &homes).await?),
        None => None,
    };
    let id = match &written {
        Some(w) => w.session_id.clone(),
        None => session_id_of(&session)?,
    };
    let mut command = vec![program.as_ref().map_or_else(
        || session.agent.program().to_owned(),
        |p| p.display().to_string(),
    )];
    command.extend(session.agent.resume_args(&id));
    command.extend(args.agent_args.iter().cloned());
    let resumed = Resumed {
        original: session,
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
    summary
        .conversations
        .iter()
        .filter(|c| !c.sidechain)
        .max_by_key(|c| c.counts.messages)
        .map(|c| c.conversation_id)
        .ok_or_else(|| anyhow!("{}: no conversation was imported", session.path.display()))
}

/// The session id the agent resumes the original by: its file name (Claude Code) or the id at
/// its end (Codex's `rollout-<time>-<id>.jsonl`).
fn session_id_of(session: &SessionFile) -> anyhow::Result<String> {
    let stem = session
        .path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| anyhow!("{}: no session id in the file name", session.path.display()))?;
    Ok(match session.agent {
        Agent::Claude => stem.to_owned(),
        Agent::Codex => {
            // A UUID is the last five dash-separated groups.
            let parts: Vec<&str> = stem.split('-').collect();
            parts[parts.len().saturating_sub(5)..].join("-")
        }
    })
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
        Some(w) => s.push_str(&format!(
            "new session {} written to {} ({} lines; the original is untouched)\n",
            w.session_id,
            w.path.display(),
            w.report.lines
        )),
        None => s.push_str("the session is resumed as it is\n"),
    }
    let command = r.command.join(" ");
    if dry_run {
        s.push_str(&format!(
            "dry run; the agent would start with:\n  {command}"
        ));
    } else {
        s.push_str(&format!("starting: {command}"));
    }
    s
}

/// Replaces this process with the agent (on Unix), so the terminal is the agent's.
fn exec(r: &Resumed) -> anyhow::Result<()> {
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
    match e {
        ResumeError::Fit(f) => fit_error(f),
        other => anyhow!(other),
    }
}
