//! `resume`: an agent's session made smaller and handed back to the agent — or to another agent
//! (a handoff: the thread is converted into the target's session format and tools). The use
//! case is [`ResumeService::resume`] (`service`): find the session (`locate`: the latest of the
//! current directory by default), read it once (`read`), plan its fit and refuse a budget it
//! cannot meet before anything is written, import it, carry the plan out, and export the fitted
//! thread as a **new** session where the target agent looks for it (`write`); the original is
//! never touched. A conversation already in the store resumes the same way, without the file.

mod command;
mod error;
mod homes;
mod locate;
mod read;
mod recall;
mod request;
mod service;
mod write;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

pub use command::{find_program, quoted, shell_line, AgentCommand};
pub use error::ResumeError;
pub use homes::AgentHomes;
pub use locate::locate;
pub use recall::{RecallServer, Registration, DATABASE_ENV, SERVER_NAME};
pub use request::{ModelSource, ResumeFit, ResumeFrom, ResumeHistory, ResumeRequest};
pub use service::{FitListener, ResumeService, Resumed};
pub use write::WrittenSession;

/// The agents whose sessions `resume` reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Agent {
    Claude,
    Codex,
    Gemini,
    Opencode,
}

squash_core::named_enum!(Agent {
    Claude => "claude",
    Codex => "codex",
    Gemini => "gemini",
    Opencode => "opencode",
});

impl Agent {
    /// The program that resumes a session, found on PATH.
    pub fn program(self) -> &'static str {
        self.as_str()
    }

    /// The session format the agent writes.
    pub fn format(self) -> squash_core::SourceFormat {
        match self {
            Agent::Claude => squash_core::SourceFormat::ClaudeCode,
            Agent::Codex => squash_core::SourceFormat::Codex,
            Agent::Gemini => squash_core::SourceFormat::Gemini,
            Agent::Opencode => squash_core::SourceFormat::Opencode,
        }
    }

    /// The agent whose sessions are in `format`, if any.
    pub fn of_format(format: squash_core::SourceFormat) -> Option<Agent> {
        Agent::ALL.into_iter().find(|a| a.format() == format)
    }

    /// The export format that writes the agent's sessions.
    pub fn export_format(self) -> crate::export::ExportFormat {
        use crate::export::ExportFormat;
        match self {
            Agent::Claude => ExportFormat::ClaudeCode,
            Agent::Codex => ExportFormat::Codex,
            Agent::Gemini => ExportFormat::Gemini,
            Agent::Opencode => ExportFormat::Opencode,
        }
    }

    /// The arguments that resume session `id`, before the user's own.
    pub fn resume_args(self, id: &str) -> Vec<String> {
        match self {
            Agent::Claude | Agent::Gemini => vec!["--resume".into(), id.into()],
            Agent::Codex => vec!["resume".into(), id.into()],
            Agent::Opencode => vec!["--session".into(), id.into()],
        }
    }

    /// The context window assumed when the session does not name a model Squash knows:
    /// Claude's models have 200k; Codex's GPT-5 family takes 272k of input; Gemini's 1M;
    /// opencode runs any provider's model, so the smallest of these.
    pub fn default_window(self) -> u32 {
        match self {
            Agent::Claude | Agent::Opencode => 200_000,
            Agent::Codex => 272_000,
            Agent::Gemini => 1_048_576,
        }
    }
}

/// A session file of an agent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SessionFile {
    pub agent: Agent,
    pub path: PathBuf,
    /// The working directory the session ran in, when the file says.
    pub cwd: Option<String>,
    /// The session within the file, when the file is a store of many (opencode's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
}

impl SessionFile {
    /// The source key its conversation is imported under, when the file holds many sessions.
    pub fn source_key(&self) -> Option<String> {
        let id = self.session_id.as_deref()?;
        Some(format!("{}:{id}", self.agent.format()))
    }

    /// Whether a conversation read from the file can be the session's main one (of those that
    /// can, the one with the most messages is): not a sidechain, and the named session's when
    /// the file holds many.
    pub(crate) fn may_be_main(&self, sidechain: bool, source_key: &str) -> bool {
        !sidechain && self.source_key().is_none_or(|k| k == source_key)
    }
}
