use squash_core::DomainError;
use squash_store::{Entity, StoreError};
use thiserror::Error;

/// Every way a service call can fail, each with a stable [`code`](ServiceError::code) that the
/// interfaces map to exit statuses and HTTP responses.
#[derive(Debug, Error)]
pub enum ServiceError {
    #[error("{0} {1} not found")]
    NotFound(Entity, String),
    /// The request itself is wrong; nothing was changed.
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Domain(#[from] DomainError),
    /// The conversation changed in a way the operation cannot survive; nothing was changed.
    #[error("conflict: {0}")]
    Conflict(String),
    /// A reference matched several things.
    #[error("{0}")]
    Ambiguous(String),
    #[error("storage: {0}")]
    Store(StoreError),
}

impl ServiceError {
    pub fn code(&self) -> &'static str {
        match self {
            ServiceError::NotFound(..) => "not_found",
            ServiceError::Invalid(_) | ServiceError::Domain(_) | ServiceError::Ambiguous(_) => {
                "invalid_input"
            }
            ServiceError::Conflict(_) => "conflict",
            ServiceError::Store(_) => "storage_error",
        }
    }

    pub fn is_retryable(&self) -> bool {
        match self {
            ServiceError::Store(e) => e.is_retryable(),
            ServiceError::Conflict(_) => true,
            ServiceError::NotFound(..)
            | ServiceError::Invalid(_)
            | ServiceError::Domain(_)
            | ServiceError::Ambiguous(_) => false,
        }
    }
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::AlreadyExists(..) => ServiceError::Invalid(e.to_string()),
            StoreError::NotFound(entity, id) => ServiceError::NotFound(entity, id),
            StoreError::Invalid(msg) => ServiceError::Invalid(msg),
            StoreError::Domain(d) => ServiceError::Domain(d),
            StoreError::Conflict { current, .. } => ServiceError::Conflict(format!(
                "the conversation moved on to thread {current} meanwhile"
            )),
            other => ServiceError::Store(other),
        }
    }
}
