use std::path::PathBuf;

use thiserror::Error;

use super::Agent;
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
}

impl crate::AppError for ResumeError {
    fn code(&self) -> crate::ErrorCode {
        use crate::ErrorCode;
        match self {
            ResumeError::NoSession { .. } | ResumeError::UnknownSession { .. } => {
                ErrorCode::NotFound
            }
            ResumeError::NotASession { .. } | ResumeError::Unreadable { .. } => {
                ErrorCode::InvalidInput
            }
            ResumeError::AgentMissing { .. } => ErrorCode::NotConfigured,
            ResumeError::Write { .. } => ErrorCode::StorageError,
            ResumeError::Import(e) => e.code(),
            ResumeError::Fit(e) => e.code(),
            ResumeError::Service(e) => e.code(),
        }
    }

    fn class(&self) -> Option<&'static str> {
        match self {
            ResumeError::Import(e) => e.class(),
            ResumeError::Fit(e) => e.class(),
            ResumeError::Service(e) => e.class(),
            _ => None,
        }
    }

    fn remedies(&self) -> Vec<crate::Remedy> {
        match self {
            ResumeError::Import(e) => e.remedies(),
            ResumeError::Fit(e) => e.remedies(),
            ResumeError::Service(e) => e.remedies(),
            _ => Vec::new(),
        }
    }
}
