use serde::{Deserialize, Serialize};
use squash_core::DomainError;
use squash_llm::LlmError;
use squash_store::{Entity, StoreError};
use thiserror::Error;

use crate::remedy::Remedy;

/// What every error a service returns tells an interface, besides its text: the CLI and the
/// web each map *any* app error through this one trait (the web to a status and its JSON shape,
/// the CLI to its line), and word the [`Remedy`]s themselves. The text (`Display`) says what
/// went wrong and names no interface's flag or field.
pub trait AppError: std::error::Error + Send + Sync + 'static {
    /// The stable code: exit statuses, API responses, logs.
    fn code(&self) -> ErrorCode;

    /// The finer class of a model or output failure (`rate_limit`, `empty`, `out_of_reach`, ...).
    fn class(&self) -> Option<&'static str> {
        None
    }

    /// Whether the same request may succeed later.
    fn is_retryable(&self) -> bool {
        false
    }

    /// The ways out, the most direct first; empty when there is nothing specific to say.
    fn remedies(&self) -> Vec<Remedy> {
        Vec::new()
    }
}

/// The stable code of every failure a service reports, for exit statuses, API responses and
/// logs. Serialized in snake_case (`not_found`, `invalid_input`, ...), the strings the API has
/// always answered with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// What the request names does not exist.
    NotFound,
    /// The request itself is wrong; nothing was changed.
    InvalidInput,
    /// The conversation changed in a way the operation cannot survive.
    Conflict,
    /// The model call failed.
    ModelError,
    /// The selection does not fit the model's context window (or an upload its limit).
    InputTooLarge,
    /// The model answered with something unusable.
    BadModelOutput,
    /// The database failed.
    StorageError,
    /// No model (or no usable configuration) is available.
    NotConfigured,
}

impl ErrorCode {
    /// The code as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotFound => "not_found",
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::Conflict => "conflict",
            ErrorCode::ModelError => "model_error",
            ErrorCode::InputTooLarge => "input_too_large",
            ErrorCode::BadModelOutput => "bad_model_output",
            ErrorCode::StorageError => "storage_error",
            ErrorCode::NotConfigured => "not_configured",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

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
    /// No operation of the conversation carries the recall reference; `highest` is the last
    /// one it has, if any.
    #[error("{}", unknown_ref(*recall, *highest))]
    UnknownRecallRef {
        recall: squash_core::RecallRef,
        highest: Option<squash_core::RecallRef>,
    },
    #[error("storage: {0}")]
    Store(StoreError),
}

impl AppError for ServiceError {
    fn code(&self) -> ErrorCode {
        match self {
            ServiceError::NotFound(..) | ServiceError::UnknownRecallRef { .. } => {
                ErrorCode::NotFound
            }
            ServiceError::Invalid(_) | ServiceError::Domain(_) | ServiceError::Ambiguous(_) => {
                ErrorCode::InvalidInput
            }
            ServiceError::Conflict(_) => ErrorCode::Conflict,
            ServiceError::Store(_) => ErrorCode::StorageError,
        }
    }

    fn is_retryable(&self) -> bool {
        match self {
            ServiceError::Store(e) => e.is_retryable(),
            ServiceError::Conflict(_) => true,
            ServiceError::NotFound(..)
            | ServiceError::UnknownRecallRef { .. }
            | ServiceError::Invalid(_)
            | ServiceError::Domain(_)
            | ServiceError::Ambiguous(_) => false,
        }
    }

    fn remedies(&self) -> Vec<Remedy> {
        match self {
            ServiceError::Conflict(_) => vec![Remedy::Reload],
            _ => Vec::new(),
        }
    }
}

fn unknown_ref(recall: squash_core::RecallRef, highest: Option<squash_core::RecallRef>) -> String {
    match highest {
        Some(h) => format!(
            "no [{recall}] in this conversation: its references go from 1 to {}",
            h.get()
        ),
        None => format!("no [{recall}] in this conversation: it has no references yet"),
    }
}

/// A model call's failure, as the chat and squash errors carry it.
impl AppError for LlmError {
    fn code(&self) -> ErrorCode {
        ErrorCode::ModelError
    }

    fn class(&self) -> Option<&'static str> {
        Some(LlmError::class(self))
    }

    fn is_retryable(&self) -> bool {
        LlmError::is_retryable(self)
    }

    fn remedies(&self) -> Vec<Remedy> {
        vec![Remedy::FixProvider {
            advice: self.hint(),
        }]
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

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn codes_serialize_as_their_names() {
        for code in [
            ErrorCode::NotFound,
            ErrorCode::InvalidInput,
            ErrorCode::Conflict,
            ErrorCode::ModelError,
            ErrorCode::InputTooLarge,
            ErrorCode::BadModelOutput,
            ErrorCode::StorageError,
            ErrorCode::NotConfigured,
        ] {
            let json = serde_json::to_value(code).expect("serializes");
            assert_eq!(json, serde_json::json!(code.as_str()));
            assert_eq!(
                serde_json::from_value::<ErrorCode>(json).expect("reads back"),
                code
            );
        }
        assert_eq!(ErrorCode::InputTooLarge.to_string(), "input_too_large");
    }
}
