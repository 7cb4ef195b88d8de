//! The resume use case, whole: find the session, read it once, plan its fit once (and refuse a
//! budget it cannot meet before anything is written), import it, carry the plan out, write the
//! session for the agent that goes on with it, and say how to start that agent.

use std::path::Path;
use std::sync::Arc;

use serde::Serialize;
use squash_core::fit::{plan_summaries, FitPlan};
use squash_core::{ConversationId, ThreadId};
use squash_llm::{CancellationToken, ChatModel};

use super::command::{find_program, AgentCommand};
use super::read::{read_session, window, ReadSession};
use super::request::{ModelSource, ResumeFrom, ResumeHistory, ResumeRequest};
use super::write::{write_session, WrittenSession};
use super::{locate, Agent, AgentHomes, ResumeError, SessionFile};
use crate::fit::{FitError, FitOutcome, FitProgress, FitService, PlannedFit};
use crate::import::{ImportOptions, Skipped};
use crate::workers::workers;
use crate::{providers, ConversationService, SquashEngine, SquashOptions};

/// Told as each step of the fit is computed (an AI step takes seconds).
pub type FitListener = Arc<dyn Fn(FitProgress<'_>) + Send + Sync>;

/// What a resume did, and what the interface needs to go on.
#[derive(Clone, Debug, Serialize)]
pub struct Resumed {
    /// The session file resumed; `None` for a conversation of the store.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original: Option<SessionFile>,
    /// The agent that resumes: the original's, or another one the session is handed to.
    pub agent: Agent,
    pub conversation_id: ConversationId,
    /// The context window the default budget is half of.
    pub window: u32,
    /// The model the session last used, when the same agent goes on with it.
    pub model: Option<String>,
    /// The plan carried out: what it keeps and cuts, per level.
    pub plan: FitPlan,
    pub fit: FitOutcome,
    /// `None` when the session was within the budget: the agent resumes the original.
    pub written: Option<WrittenSession>,
    /// What starts the agent on the session (after `written.import_command`, when there is one).
    pub launch: AgentCommand,
    /// What the import of the session file skipped, with the reasons.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_imported: Vec<Skipped>,
}

/// Resumes agent sessions (and hands them over to other agents).
#[derive(Clone)]
pub struct ResumeService {
    service: ConversationService,
    homes: AgentHomes,
    model: ModelSource,
    options: SquashOptions,
    cancel: Option<CancellationToken>,
    progress: Option<FitListener>,
}

impl ResumeService {
    pub fn new(service: ConversationService, homes: AgentHomes) -> ResumeService {
        ResumeService {
            service,
            homes,
            model: ModelSource::default(),
            options: SquashOptions::default(),
            cancel: None,
            progress: None,
        }
    }

    /// Where a model comes from when the fit asks one.
    pub fn with_model(mut self, model: ModelSource) -> ResumeService {
        self.model = model;
        self
    }

    /// The options of the fit's AI squashes.
    pub fn with_options(mut self, options: SquashOptions) -> ResumeService {
        self.options = options;
        self
    }

    /// Stops the fit's model calls; nothing is stored then.
    pub fn with_cancel(mut self, cancel: CancellationToken) -> ResumeService {
        self.cancel = Some(cancel);
        self
    }

    pub fn with_progress(mut self, progress: FitListener) -> ResumeService {
        self.progress = Some(progress);
        self
    }

    pub async fn resume(&self, request: ResumeRequest) -> Result<Resumed, ResumeError> {
        match &request.from {
            ResumeFrom::Session { session, cwd } => {
                let wanted: Vec<Agent> = request.agent.into_iter().collect();
                let session = locate(&self.homes, &wanted, session.as_deref(), cwd)?;
                self.resume_session(session, &request).await
            }
            ResumeFrom::Conversation(id) => self.resume_conversation(*id, &request).await,
        }
    }

    async fn resume_session(
        &self,
        session: SessionFile,
        request: &ResumeRequest,
    ) -> Result<Resumed, ResumeError> {
        let target = request.agent.unwrap_or(session.agent);
        let program = program(target, request.start_agent)?;
        let read = read_session(&session, request.fit.history)?;
        // The model the session used tells the window when the same agent goes on with it;
        // another agent brings its own model.
        let model = read
            .model
            .clone()
            .filter(|_| session.session_id.is_none() && target == session.agent);
        let window = window(model.as_deref(), target);
        let budget = request.fit.budget.unwrap_or(u64::from(window) / 2);
        let (planned_on, plan) = {
            // Planned as a fit of the store plans it: on every core the machine has, from the
            // summaries of the thread read chunk by chunk.
            let workers = workers();
            let (ids, summaries) = read.thread.summaries(&session, workers)?;
            (
                ids,
                plan_summaries(&summaries, request.fit.request(budget), workers),
            )
        };
        if !plan.fits() && !request.fit.best_effort {
            return Err(FitError::out_of_reach(&plan).into());
        }
        let ReadSession {
            parsed, resume_id, ..
        } = read;
        let options = ImportOptions {
            format: session.agent.format().into(),
            ..ImportOptions::default()
        };
        let summary = self
            .service
            .import_read_file(&session.path, session.agent.format(), parsed, &options)
            .await?;
        let conv = summary
            .conversations
            .iter()
            .filter(|c| session.may_be_main(c.sidechain, &c.source_key))
            .max_by_key(|c| c.counts.messages)
            .map(|c| c.conversation_id)
            .ok_or_else(|| ResumeError::Unreadable {
                path: session.path.clone(),
                reason: "no conversation was imported".into(),
            })?;
        let switched_from = self.to_history(conv, request.fit.history).await?;
        let fitted = async {
            let planned = FitService::new(SquashEngine::offline(self.service.clone()))
                .adopt(conv, plan, &planned_on)
                .await?;
            self.fit(planned, request.fit.best_effort).await
        }
        .await;
        let (plan, fit) = self.back_on_error(conv, switched_from, fitted).await?;
        // Another agent always gets a session of its own; the same one only when the fit
        // changed it.
        let written = if fit.thread.is_some() || target != session.agent {
            let cwd = session.cwd.clone();
            Some(self.write(conv, Some(&session), cwd, target).await?)
        } else {
            None
        };
        let id =
            match &written {
                Some(w) => w.session_id.clone(),
                None => session.session_id.clone().or(resume_id).ok_or_else(|| {
                    ResumeError::Unreadable {
                        path: session.path.clone(),
                        reason: "no session id in the file name".into(),
                    }
                })?,
            };
        let launch = launch(
            target,
            program,
            (&id, conv),
            request,
            session.cwd.as_deref(),
        )?;
        Ok(Resumed {
            original: Some(session),
            agent: target,
            conversation_id: conv,
            window,
            model,
            plan,
            fit,
            written: with_program(written, &launch),
            launch,
            not_imported: summary.skipped,
        })
    }

    /// A conversation of the store, written as a new session of the agent named, in its
    /// project's folder.
    async fn resume_conversation(
        &self,
        conv: ConversationId,
        request: &ResumeRequest,
    ) -> Result<Resumed, ResumeError> {
        let target = request.agent.ok_or(ResumeError::NoAgent)?;
        let program = program(target, request.start_agent)?;
        let conversation = self.service.conversation(conv).await?;
        let project = self
            .service
            .store()
            .project(conversation.project_id)
            .await?;
        let cwd = Some(project.path).filter(|p| !p.is_empty());
        let window = target.default_window();
        let budget = request.fit.budget.unwrap_or(u64::from(window) / 2);
        let switched_from = self.to_history(conv, request.fit.history).await?;
        let fitted = async {
            let planned = FitService::new(SquashEngine::offline(self.service.clone()))
                .plan(conv, request.fit.request(budget))
                .await?;
            if !planned.plan.fits() && !request.fit.best_effort {
                return Err(FitError::out_of_reach(&planned.plan).into());
            }
            self.fit(planned, request.fit.best_effort).await
        }
        .await;
        let (plan, fit) = self.back_on_error(conv, switched_from, fitted).await?;
        let written = self.write(conv, None, cwd.clone(), target).await?;
        let launch = launch(
            target,
            program,
            (&written.session_id, conv),
            request,
            cwd.as_deref(),
        )?;
        Ok(Resumed {
            original: None,
            agent: target,
            conversation_id: conv,
            window,
            model: None,
            plan,
            fit,
            written: with_program(Some(written), &launch),
            launch,
            not_imported: Vec::new(),
        })
    }

    /// With [`ResumeHistory::Whole`], makes the conversation's whole history its current thread
    /// when it has one, so that the fit works on it; the thread it switched from, if it did.
    async fn to_history(
        &self,
        conv: ConversationId,
        history: ResumeHistory,
    ) -> Result<Option<ThreadId>, ResumeError> {
        if history != ResumeHistory::Whole {
            return Ok(None);
        }
        let threads = self.service.history(conv).await?;
        let whole = threads.iter().find(|e| e.thread.origin.is_whole_history());
        let compacted = threads.iter().any(|e| e.thread.origin.is_compaction());
        let whole = match whole {
            Some(whole) if whole.is_current => return Ok(None),
            Some(whole) => whole,
            // A session that never compacted is its current thread, whole.
            None if !compacted => return Ok(None),
            None => return Err(ResumeError::NoWholeHistory { conversation: conv }),
        };
        let Some(from) = threads.iter().find(|e| e.is_current).map(|e| e.thread.id) else {
            return Ok(None);
        };
        self.service.switch_thread(conv, whole.thread.id).await?;
        Ok(Some(from))
    }

    /// `result`; when it is an error, the conversation goes back to the thread [`Self::to_history`]
    /// switched from, so that a refused or failed fit changes nothing.
    async fn back_on_error<T>(
        &self,
        conv: ConversationId,
        switched_from: Option<ThreadId>,
        result: Result<T, ResumeError>,
    ) -> Result<T, ResumeError> {
        if let (Err(_), Some(from)) = (&result, switched_from) {
            // The fit's error is what the person needs to read; should the switch back fail
            // too, the whole history stays current, one `squash undo` from where it was.
            if let Err(e) = self.service.switch_thread(conv, from).await {
                tracing::warn!(error = %e, "could not switch back after a failed resume");
            }
        }
        result
    }

    /// Carries the plan out, with a model only when it asks one.
    async fn fit(
        &self,
        planned: PlannedFit,
        best_effort: bool,
    ) -> Result<(FitPlan, FitOutcome), ResumeError> {
        let plan = planned.plan.clone();
        let needs_model = plan.needs_model() && (plan.fits() || best_effort);
        let engine = if needs_model {
            SquashEngine::new(self.service.clone(), self.model().await?)
        } else {
            SquashEngine::offline(self.service.clone())
        };
        let mut engine = engine.with_options(self.options.clone());
        if let Some(cancel) = &self.cancel {
            engine = engine.with_cancel(cancel.clone());
        }
        let quiet = |_: FitProgress<'_>| {};
        let progress: &(dyn Fn(FitProgress<'_>) + Sync) = match &self.progress {
            Some(p) => &**p,
            None => &quiet,
        };
        let outcome = FitService::new(engine)
            .apply(planned, best_effort, progress)
            .await?;
        Ok((plan, outcome))
    }

    async fn model(&self) -> Result<Arc<dyn ChatModel>, ResumeError> {
        match &self.model {
            ModelSource::Select { provider, model } => {
                Ok(providers::model_from_env(*provider, model.as_deref()).await?)
            }
            ModelSource::Ready(Ok(model)) => Ok(model.clone()),
            ModelSource::Ready(Err(reason)) => Err(ResumeError::NoModel {
                reason: reason.clone(),
            }),
        }
    }

    async fn write(
        &self,
        conv: ConversationId,
        original: Option<&SessionFile>,
        cwd: Option<String>,
        target: Agent,
    ) -> Result<WrittenSession, ResumeError> {
        write_session(&self.service, conv, original, cwd, target, &self.homes).await
    }
}

/// The agent's program as found on PATH; refused when it is missing and about to be started.
fn program(target: Agent, start_agent: bool) -> Result<Option<String>, ResumeError> {
    let found = find_program(target.program()).map(|p| p.display().to_string());
    if found.is_none() && start_agent {
        return Err(ResumeError::AgentMissing {
            program: target.program().to_owned(),
        });
    }
    Ok(found)
}

/// The command that starts `target` on session `id`, with the recall server for `conv` when
/// the request asks for one (its settings file written first, for an agent that takes one).
fn launch(
    target: Agent,
    program: Option<String>,
    (id, conv): (&str, ConversationId),
    request: &ResumeRequest,
    cwd: Option<&str>,
) -> Result<AgentCommand, ResumeError> {
    let registration = request
        .recall
        .as_ref()
        .map(|server| server.registration(target, conv))
        .unwrap_or_default();
    if let Some((path, content)) = &registration.file {
        write_private(path, content).map_err(|error| ResumeError::RecallSettings {
            path: path.clone(),
            error,
        })?;
    }
    // The registration's options come first: Claude Code's `--mcp-config` takes every
    // argument up to the next option, and Codex's `-c` belongs before its subcommand.
    let mut args = registration.args;
    args.extend(target.resume_args(id));
    args.extend(request.agent_args.iter().cloned());
    Ok(AgentCommand {
        program: program.unwrap_or_else(|| target.program().to_owned()),
        args,
        env: registration.env,
        cwd: cwd
            .map(Path::new)
            .filter(|d| d.is_dir())
            .map(Path::to_path_buf),
    })
}

/// Writes a file of Squash's own that only its owner may read (it may name the database).
fn write_private(path: &Path, content: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    use std::io::Write;
    options.open(path)?.write_all(content.as_bytes())
}

/// The written session's import command runs the program the agent is started with.
fn with_program(written: Option<WrittenSession>, launch: &AgentCommand) -> Option<WrittenSession> {
    let mut written = written?;
    if let Some(first) = written.import_command.as_mut().and_then(|c| c.first_mut()) {
        first.clone_from(&launch.program);
    }
    Some(written)
}
