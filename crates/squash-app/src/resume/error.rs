use std::path::PathBuf;

use squash_core::ConversationId;
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
    #[error("`{program}` is not installed (not found on PATH)")]
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
    #[error("cannot write the recall server's settings {}: {error}", .path.display())]
    RecallSettings {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The whole history was asked of a conversation that went through compactions but was
    /// imported before Squash kept a thread of it.
    #[error("conversation {conversation} went through compactions but holds no thread of its whole history: it was imported before Squash kept one")]
    NoWholeHistory { conversation: ConversationId },
    #[error(transparent)]
    Import(#[from] ImportError),
    #[error(transparent)]
    Fit(#[from] FitError),
    #[error(transparent)]
    Service(#[from] crate::ServiceError),
    #[error(transparent)]
    Provider(#[from] crate::providers::ProviderError),
}

crate::error::via_service!(ResumeError: squash_store::StoreError);

impl crate::AppError for ResumeError {
    fn code(&self) -> crate::ErrorCode {
        use crate::ErrorCode;
        match self {
            ResumeError::NoSession { .. } | ResumeError::UnknownSession { .. } => {
                ErrorCode::NotFound
            }
            ResumeError::NotASession { .. }
            | ResumeError::Unreadable { .. }
            | ResumeError::NoWorkingDirectory { .. }
            | ResumeError::NoAgent
            | ResumeError::NoWholeHistory { .. } => ErrorCode::InvalidInput,
            ResumeError::AgentMissing { .. } | ResumeError::NoModel { .. } => {
                ErrorCode::NotConfigured
            }
            ResumeError::Provider(e) => e.code(),
            ResumeError::Write { .. } | ResumeError::RecallSettings { .. } => {
                ErrorCode::StorageError
            }
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
            ResumeError::Provider(e) => e.class(),
            _ => None,
        }
    }

    fn remedies(&self) -> Vec<crate::Remedy> {
        match self {
            ResumeError::Import(e) => e.remedies(),
            ResumeError::Fit(e) => e.remedies(),
            ResumeError::Service(e) => e.remedies(),
            ResumeError::Provider(e) => e.remedies(),
            ResumeError::AgentMissing { .. } => vec![crate::Remedy::WriteOnly],
            ResumeError::NoWholeHistory { .. } => {
                vec![crate::Remedy::ImportAgain, crate::Remedy::FitCurrent]
            }
            ResumeError::NoModel { .. } => {
                vec![crate::Remedy::ConfigureModel, crate::Remedy::UseExtract]
            }
            _ => Vec::new(),
        }
    }
}
