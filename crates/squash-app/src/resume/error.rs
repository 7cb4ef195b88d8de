use std::path::PathBuf;

use thiserror::Error;

use super::Agent;
use crate::error::ErrorCode;
use crate::fit::FitError;
use crate::import::ImportError;

#[derive(Debug, Error)]
pub enum ResumeError {
    #[error("no {agent} session for {cwd} (looked in {})", .looked.display())]
    NoSession {
        agent: Agent,
        cwd: String,
        looked: PathBuf,
    },
    #[error("no session {id} in {}", .looked.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" or "))]
    UnknownSession { id: String, looked: Vec<PathBuf> },
    #[error("{}: not a session of an agent Squash resumes (Claude Code, Codex, Gemini CLI, opencode): {found}", .path.display())]
    NotASession { path: PathBuf, found: String },
    #[error("{}: {reason}", .path.display())]
    Unreadable { path: PathBuf, reason: String },
    #[error("`{program}` is not installed (not found on PATH); install it or pass --dry-run")]
    AgentMissing { program: String },
    /// A conversation of the store goes to an agent that finds sessions by their folder, and its
    /// project names none.
    #[error("the conversation's project names no working directory, which {agent} needs to find the session")]
    NoWorkingDirectory { agent: Agent },
    /// A conversation of the store has no agent of its own to go on with it.
    #[error("name the agent that goes on with the conversation")]
    NoAgent,
    /// The fit's plan asks a model, and the interface has none.
    #[error("the fit needs a model, and none is configured: {reason}")]
    NoModel { reason: String },
    #[error("cannot write the new session {}: {error}", .path.display())]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(transparent)]
    Import(#[from] ImportError),
    #[error(transparent)]
    Fit(#[from] FitError),
    #[error(transparent)]
    Service(#[from] crate::ServiceError),
    #[error(transparent)]
    Provider(#[from] crate::providers::ProviderError),
}

impl ResumeError {
    /// What kind of failure it is, for the interfaces that answer with a code.
    pub fn code(&self) -> ErrorCode {
        match self {
            ResumeError::NoSession { .. } | ResumeError::UnknownSession { .. } => {
                ErrorCode::NotFound
            }
            ResumeError::NotASession { .. }
            | ResumeError::Unreadable { .. }
            | ResumeError::NoWorkingDirectory { .. }
            | ResumeError::NoAgent => ErrorCode::InvalidInput,
            ResumeError::AgentMissing { .. }
            | ResumeError::NoModel { .. }
            | ResumeError::Provider(_) => ErrorCode::NotConfigured,
            ResumeError::Write { .. } => ErrorCode::StorageError,
            ResumeError::Import(ImportError::Service(e)) => e.code(),
            ResumeError::Import(_) => ErrorCode::InvalidInput,
            ResumeError::Fit(e) => e.code(),
            ResumeError::Service(e) => e.code(),
        }
    }
}

impl From<squash_store::StoreError> for ResumeError {
    fn from(e: squash_store::StoreError) -> Self {
        ResumeError::Service(e.into())
    }
}
