//! `squash resume`: the latest agent session of this directory, fitted and handed back to the
//! agent as a new session — or handed over to another agent (`--agent`), converted into its
//! session format and tools.

use std::sync::Arc;

use anyhow::{anyhow, Context};
use clap::{Args, ValueEnum};
use serde::Serialize;
use squash_app::fit::FitProgress;
use squash_app::resume::{
    shell_line, Agent, AgentHomes, FitListener, ModelSource, RecallServer, ResumeError, ResumeFit,
    ResumeFrom, ResumeHistory, ResumeRequest, ResumeService, Resumed,
};
use squash_app::{ConversationService, SquashOptions};
use squash_core::tokens::format_count;

use super::ai::cancel_on_ctrl_c;
use super::fit::{kept_text, outcome_text, step_label, FitOptionArgs};
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
    /// Fit the session's whole history, its compactions undone, rather than the thread the
    /// agent continues from (its last compaction's summary and what followed); a session that
    /// never compacted has only the one.
    #[arg(long)]
    pub whole_history: bool,
    /// Do everything but start the agent, and print the command that would.
    #[arg(long)]
    pub dry_run: bool,
    /// Start the agent without the recall server (`squash mcp`), through which it can take
    /// back, in one tool call, whatever the fit shortened.
    #[arg(long)]
    pub no_recall: bool,
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

/// What `resume` did, for `--json`: the use case's answer, with the command as one list.
#[derive(Serialize)]
struct ResumedJson<'a> {
    #[serde(flatten)]
    resumed: &'a Resumed,
    command: Vec<String>,
}

pub async fn run(
    service: &ConversationService,
    out: &Output,
    args: ResumeArgs,
    database: &str,
) -> anyhow::Result<()> {
    let cwd = std::env::current_dir()
        .context("cannot read the current directory")?
        .to_string_lossy()
        .into_owned();
    let resumer = resumer(service, &args.fit, out.is_json())?;
    let recall = if args.no_recall {
        None
    } else {
        Some(recall_server(database)?)
    };
    let resumed = resumer
        .resume(request(&args, cwd, recall))
        .await
        .map_err(resume_error)?;
    let report = ResumedJson {
        resumed: &resumed,
        command: resumed.launch.argv(),
    };
    out.emit(&report, || resumed_text(&resumed, args.dry_run))?;
    if args.dry_run {
        return Ok(());
    }
    exec(&resumed)
}

/// The use case with the model the options name (made only when the fit asks one), stopped by
/// Ctrl-C, saying on stderr which AI step it is at.
fn resumer(
    service: &ConversationService,
    fit: &FitOptionArgs,
    json: bool,
) -> anyhow::Result<ResumeService> {
    let mut options = SquashOptions::from_env().map_err(crate::remedy::failure)?;
    options.context_window = fit.model.context_window.or(options.context_window);
    // Trims, lines and extracts take microseconds; a step that asks the model takes seconds
    // and says so.
    let progress: FitListener = Arc::new(move |p: FitProgress<'_>| {
        if !json && p.step.asks_model() {
            eprintln!("step {} of {}: {}", p.index, p.of, step_label(p.step));
        }
    });
    Ok(ResumeService::new(service.clone(), AgentHomes::from_env())
        .with_model(ModelSource::Select {
            provider: fit.model.provider,
            model: fit.model.model.clone(),
        })
        .with_options(options)
        .with_cancel(cancel_on_ctrl_c())
        .with_progress(progress))
}

/// This `squash`, serving recall from `database` to the agent it starts.
pub fn recall_server(database: &str) -> anyhow::Result<RecallServer> {
    let program = std::env::current_exe().context("cannot tell where this squash program is")?;
    Ok(RecallServer {
        program: program.display().to_string(),
        database: database.to_owned(),
        state_dir: crate::state_dir(),
    })
}

fn request(args: &ResumeArgs, cwd: String, recall: Option<RecallServer>) -> ResumeRequest {
    let fit = &args.fit;
    ResumeRequest {
        from: ResumeFrom::Session {
            session: args.session.clone(),
            cwd,
        },
        agent: args.agent.map(Agent::from),
        fit: ResumeFit {
            budget: fit.budget,
            keep_recent: fit.keep_recent,
            keep_last: fit.keep_last,
            strategy: fit.strategy.into(),
            best_effort: fit.best_effort,
            history: if args.whole_history {
                ResumeHistory::Whole
            } else {
                ResumeHistory::Current
            },
        },
        agent_args: args.agent_args.clone(),
        // A dry run starts nothing: the agent need not be installed.
        start_agent: !args.dry_run,
        recall,
    }
}

fn resumed_text(r: &Resumed, dry_run: bool) -> String {
    let (agent, path) = match &r.original {
        Some(o) => (o.agent, o.path.display().to_string()),
        None => (r.agent, String::new()),
    };
    let mut s = format!(
        "{agent} session {path}\n  imported as conversation {}; budget {} tokens (half of {}'s {} window)\n",
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
    let import = r.written.as_ref().and_then(|w| w.import_command.as_deref());
    let command = shell_line(&r.launch, import);
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
    let launch = &r.launch;
    let mut cmd = std::process::Command::new(&launch.program);
    cmd.args(&launch.args);
    cmd.envs(launch.env.iter().map(|(k, v)| (k, v)));
    if let Some(dir) = &launch.cwd {
        cmd.current_dir(dir);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let error = cmd.exec();
        Err(anyhow!("cannot start {}: {error}", launch.program))
    }
    #[cfg(not(unix))]
    {
        let status = cmd
            .status()
            .with_context(|| format!("cannot start {}", launch.program))?;
        std::process::exit(status.code().unwrap_or(1));
    }
}

fn resume_error(e: ResumeError) -> anyhow::Error {
    crate::remedy::failure(e)
}
