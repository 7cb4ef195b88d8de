//! Export of a conversation: a readable Markdown transcript, our own lossless JSON (everything
//! needed to import the conversation back: messages, threads, operations, import records), and
//! a Claude Code session that `claude --resume` accepts, a Codex rollout that `codex resume`
//! accepts, a Gemini CLI recording that `gemini --resume` accepts and an opencode document that
//! `opencode import` reads.
//!
//! The writers are pure functions over loaded data, in `squash-formats`;
//! [`ConversationService::export`] loads what they need and writes to any `Write`.

use std::collections::HashMap;
use std::io::Write;

use serde::Serialize;
use squash_core::{ConversationId, ThreadId};
use squash_core::{Message, Project, SquashOperation, SquashOperationId};
use squash_formats::handoff::{self, HandoffReport};
use squash_formats::session::Session;
use squash_formats::squash_json::{self, ExportedThread};
use squash_formats::{claude_code, codex, gemini, markdown, opencode, SourceFormat};

pub use squash_formats::claude_code::project_dir;
pub use squash_formats::codex::rollout_path;
pub use squash_formats::{ExportFormat, UnknownExportFormat};

use crate::conversations::ConversationService;
use crate::error::ServiceError;

impl From<UnknownExportFormat> for ServiceError {
    fn from(e: UnknownExportFormat) -> Self {
        ServiceError::Invalid(e.to_string())
    }
}

#[derive(Clone, Debug)]
pub struct ExportOptions {
    pub format: ExportFormat,
    /// The thread to export instead of the current one (markdown, claude-code, codex; the JSON
    /// export always holds every thread).
    pub thread: Option<ThreadId>,
    /// Agent sessions: the session id (default: a new UUID; for opencode an id of its form).
    pub session_id: Option<String>,
    /// Agent sessions: the working directory of the session (default: the project path).
    pub cwd: Option<String>,
    /// opencode: the `provider/model` the session runs on (default: the last one it ran on).
    pub model: Option<String>,
}

impl ExportOptions {
    pub fn new(format: ExportFormat) -> ExportOptions {
        ExportOptions {
            format,
            thread: None,
            session_id: None,
            cwd: None,
            model: None,
        }
    }
}

/// What an export wrote.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ExportReport {
    pub conversation_id: Option<ConversationId>,
    pub thread_id: Option<ThreadId>,
    pub messages: usize,
    /// Claude Code, Codex: lines written, the session id and the working directory.
    pub lines: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// What was changed on the way (orphaned tool results turned into text, ...).
    pub warnings: Vec<String>,
    /// A session of one agent written for another: what the conversion changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handoff: Option<HandoffReport>,
}

impl ConversationService {
    /// Writes the conversation in `options.format` to `out`.
    pub async fn export(
        &self,
        conversation: ConversationId,
        options: &ExportOptions,
        out: &mut (dyn Write + Send),
    ) -> Result<ExportReport, ServiceError> {
        let io = |e: std::io::Error| ServiceError::Invalid(format!("cannot write the export: {e}"));
        let conv = self.store().conversation(conversation).await?;
        let project = self.store().project(conv.project_id).await?;
        let imports = self.store().import_records_of(conversation).await?;
        let operations = self.store().operations(conversation).await?;
        let mut report = ExportReport {
            conversation_id: Some(conversation),
            ..ExportReport::default()
        };
        match options.format {
            ExportFormat::Json => {
                let threads = self.store().threads(conversation).await?;
                let mut snapshots = Vec::with_capacity(threads.len());
                for t in threads {
                    let s = self.store().thread(t.id).await?;
                    snapshots.push(ExportedThread {
                        thread: s.thread,
                        links: s.links,
                    });
                }
                let messages = self.store().all_messages(conversation).await?;
                report.messages = messages.len();
                report.thread_id = Some(conv.current_thread_id);
                let doc = squash_json::ExportDocument::new(
                    project, conv, snapshots, messages, operations, imports,
                );
                serde_json::to_writer_pretty(&mut *out, &doc)
                    .map_err(|e| ServiceError::Invalid(format!("cannot write the export: {e}")))?;
                out.write_all(b"\n").map_err(io)?;
            }
            ExportFormat::Markdown
            | ExportFormat::ClaudeCode
            | ExportFormat::Codex
            | ExportFormat::Gemini
            | ExportFormat::Opencode => {
                let thread_id = options.thread.unwrap_or(conv.current_thread_id);
                let snapshot = self.store().thread(thread_id).await?;
                if snapshot.thread.conversation_id != conversation {
                    return Err(ServiceError::Invalid(format!(
                        "thread {thread_id} belongs to another conversation"
                    )));
                }
                let messages = self.store().thread_messages(thread_id).await?;
                report.messages = messages.len();
                report.thread_id = Some(thread_id);
                let ops: HashMap<_, _> = operations.into_iter().map(|o| (o.id, o)).collect();
                if options.format == ExportFormat::Markdown {
                    let text = markdown::render(&markdown::Transcript {
                        conversation: &conv,
                        project: &project.path,
                        thread: &snapshot.thread,
                        messages: &messages,
                        operations: &ops,
                    });
                    out.write_all(text.as_bytes()).map_err(io)?;
                } else {
                    let agent = AgentSession {
                        options,
                        title: &conv.display_name,
                        project: &project,
                        imports: &imports,
                        messages: &messages,
                        operations: &ops,
                    };
                    agent.write(out, &mut report).map_err(io)?;
                }
            }
        }
        out.flush().map_err(io)?;
        Ok(report)
    }
}

/// What an agent session (Claude Code, Codex, Gemini CLI, opencode) is written from.
struct AgentSession<'a> {
    options: &'a ExportOptions,
    title: &'a str,
    project: &'a Project,
    imports: &'a [squash_core::ImportRecord],
    messages: &'a [Message],
    operations: &'a HashMap<SquashOperationId, SquashOperation>,
}

impl AgentSession<'_> {
    fn write(
        &self,
        out: &mut (dyn Write + Send),
        report: &mut ExportReport,
    ) -> std::io::Result<()> {
        let session_id = self.options.session_id.clone().unwrap_or_else(|| {
            if self.options.format == ExportFormat::Opencode {
                opencode::new_session_id(chrono::Utc::now())
            } else {
                uuid::Uuid::now_v7().to_string()
            }
        });
        let cwd = self
            .options
            .cwd
            .clone()
            .unwrap_or_else(|| self.project.path.clone());
        let created_at = chrono::Utc::now();
        let target = match self.options.format {
            ExportFormat::Codex => SourceFormat::Codex,
            ExportFormat::Gemini => SourceFormat::Gemini,
            ExportFormat::Opencode => SourceFormat::Opencode,
            _ => SourceFormat::ClaudeCode,
        };
        // A session another agent wrote: its calls in the target's tools, the rest as text.
        let from = self
            .imports
            .first()
            .map(|r| r.source.format)
            .filter(|f| handoff::is_agent_format(*f) && *f != target);
        let adapted = from.map(|from| handoff::adapt(self.messages, from, target));
        let messages = adapted
            .as_ref()
            .map_or(self.messages, |(m, _)| m.as_slice());
        let session = Session {
            session_id: &session_id,
            cwd: &cwd,
            created_at,
            messages,
            operations: self.operations,
        };
        let (lines, warnings) = match self.options.format {
            ExportFormat::Codex => {
                let written = codex::write(&session, &codex::extras_of(self.imports), out)?;
                (written.lines, written.warnings)
            }
            ExportFormat::Gemini => {
                let written = gemini::write(&session, out)?;
                (written.lines, written.warnings)
            }
            ExportFormat::Opencode => {
                let model = self.options.model.as_deref();
                let written = opencode::write(&session, self.title, model, out)?;
                (written.messages, written.warnings)
            }
            _ => {
                let extras = claude_code::extras_of(self.imports);
                let written = claude_code::write(&session, &extras, out)?;
                (written.lines, written.warnings)
            }
        };
        report.lines = lines;
        report.warnings = warnings;
        if let Some((_, handed)) = adapted {
            report.warnings.splice(0..0, handed.warnings());
            report.handoff = Some(handed);
        }
        report.session_id = Some(session_id);
        report.cwd = Some(cwd);
        Ok(())
    }
}

/// Where Gemini CLI keeps a session of the project folder `dir`.
pub fn gemini_session_path(
    dir: &std::path::Path,
    session_id: &str,
    at: &chrono::DateTime<chrono::Utc>,
) -> std::path::PathBuf {
    gemini::session_path(dir, session_id, at)
}

/// A new session id in opencode's own form.
pub fn new_opencode_session_id() -> String {
    opencode::new_session_id(chrono::Utc::now())
}
