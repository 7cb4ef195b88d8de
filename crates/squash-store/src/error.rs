use std::fmt;

use squash_core::{DomainError, ThreadId};
use thiserror::Error;

/// What was not found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entity {
    Project,
    Conversation,
    Thread,
    Message,
    Operation,
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Entity::Project => "project",
            Entity::Conversation => "conversation",
            Entity::Thread => "thread",
            Entity::Message => "message",
            Entity::Operation => "operation",
        })
    }
}

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("{0} {1} not found")]
    NotFound(Entity, String),
    /// The conversation moved on since the operation was computed.
    #[error(
        "the conversation changed meanwhile: current thread is {current} at revision {revision}"
    )]
    Conflict { current: ThreadId, revision: u64 },
    /// A row with this id is already stored (a unique key refused the write).
    #[error("{0} {1} already exists")]
    AlreadyExists(Entity, String),
    /// The write breaks a domain rule (a link edit that does not fit its base thread).
    #[error("invalid input: {0}")]
    Domain(#[from] DomainError),
    #[error("invalid input: {0}")]
    Invalid(String),
    /// Another writer holds the database (SQLite `BUSY` after the timeout, PostgreSQL
    /// serialization failures).
    #[error("the database is busy: {0}")]
    Busy(String),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error("database migration failed: {0}")]
    Migration(String),
    #[error("database error: {0}")]
    Backend(String),
}

impl StoreError {
    /// The source an import's messages are made from failed (a file changed or cannot be
    /// read): nothing of the import is written.
    pub fn source_failed(reason: impl std::fmt::Display) -> StoreError {
        StoreError::Invalid(format!("the source of the import failed: {reason}"))
    }

    /// Whether trying the same call again may succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            StoreError::Busy(_) => true,
            StoreError::NotFound(..)
            | StoreError::Conflict { .. }
            | StoreError::AlreadyExists(..)
            | StoreError::Domain(_)
            | StoreError::Invalid(_)
            | StoreError::Corrupt(_)
            | StoreError::Migration(_)
            | StoreError::Backend(_) => false,
        }
    }

    pub(crate) fn not_found(entity: Entity, id: impl fmt::Display) -> StoreError {
        StoreError::NotFound(entity, id.to_string())
    }

    pub(crate) fn already_exists(entity: Entity, id: impl fmt::Display) -> StoreError {
        StoreError::AlreadyExists(entity, id.to_string())
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError::Corrupt(e.to_string())
    }
}
