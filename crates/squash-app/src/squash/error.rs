//! Why an AI squash did not happen. Nothing was changed in every case.

use squash_core::quality::OutputProblem;
use squash_core::tokens::TooLarge;
use squash_core::{DomainError, MessageId, SquashOperationId};
use squash_llm::LlmError;
use squash_store::StoreError;
use thiserror::Error;

use crate::error::{AppError, ErrorCode, ServiceError};
use crate::remedy::Remedy;

#[derive(Debug, Error)]
pub enum SquashError {
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error("the model call failed: {0}")]
    Model(#[from] LlmError),
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    #[error("{0}")]
    Output(#[from] OutputProblem),
    #[error("the {0} style needs a model, and none is configured")]
    NoModel(squash_core::prompt::SquashStyle),
    #[error(
        "operation {0} is not an AI squash (it has no recorded prompt and model); only AI \
         squashes can be re-run"
    )]
    NotAiSquash(SquashOperationId),
    #[error(
        "cannot re-run operation {operation}: {} of its source messages are no longer in the \
         current thread ({})",
        .missing.len(),
        .missing.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", ")
    )]
    SourcesGone {
        operation: SquashOperationId,
        missing: Vec<MessageId>,
    },
    #[error(
        "nothing was applied: no faithful note of these messages is shorter than they are \
         (~{selection_tokens} tokens; the shortest, the facts alone, is ~{shortest_tokens})"
    )]
    NothingShorter {
        selection_tokens: u64,
        shortest_tokens: u64,
    },
}

crate::error::via_service!(SquashError: DomainError, StoreError);

impl AppError for SquashError {
    fn code(&self) -> ErrorCode {
        match self {
            SquashError::Service(e) => e.code(),
            SquashError::Model(e) => e.code(),
            SquashError::TooLarge(_) => ErrorCode::InputTooLarge,
            SquashError::Output(_) => ErrorCode::BadModelOutput,
            SquashError::NoModel(_) => ErrorCode::NotConfigured,
            SquashError::NotAiSquash(_) => ErrorCode::InvalidInput,
            SquashError::SourcesGone { .. } => ErrorCode::Conflict,
            SquashError::NothingShorter { .. } => ErrorCode::InvalidInput,
        }
    }

    /// The finer class of a model or output failure (`rate_limit`, `empty`, ...).
    fn class(&self) -> Option<&'static str> {
        match self {
            SquashError::Model(e) => AppError::class(e),
            SquashError::Output(p) => Some(p.class()),
            SquashError::Service(_)
            | SquashError::TooLarge(_)
            | SquashError::NoModel(_)
            | SquashError::NotAiSquash(_)
            | SquashError::SourcesGone { .. }
            | SquashError::NothingShorter { .. } => None,
        }
    }

    /// Whether trying the same squash again later may succeed.
    fn is_retryable(&self) -> bool {
        match self {
            SquashError::Service(e) => e.is_retryable(),
            SquashError::Model(e) => AppError::is_retryable(e),
            SquashError::TooLarge(_) => false,
            // Answers vary between calls; another attempt may give a usable one.
            SquashError::Output(_) => true,
            SquashError::NoModel(_) => false,
            SquashError::NotAiSquash(_) => false,
            SquashError::SourcesGone { .. } => false,
            SquashError::NothingShorter { .. } => false,
        }
    }

    fn remedies(&self) -> Vec<Remedy> {
        match self {
            SquashError::Service(e) => e.remedies(),
            SquashError::Model(e) => e.remedies(),
            SquashError::Output(_) => vec![Remedy::SteerModel],
            SquashError::NoModel(_) => vec![Remedy::UseExtract, Remedy::ConfigureModel],
            SquashError::TooLarge(_) => vec![Remedy::SelectFewer],
            SquashError::SourcesGone { .. } => vec![Remedy::SwitchBack],
            SquashError::NothingShorter { .. } => vec![Remedy::SelectMore],
            SquashError::NotAiSquash(_) => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_has_a_code() {
        let errors = [
            SquashError::Service(ServiceError::Invalid("x".into())),
            SquashError::Model(LlmError::Cancelled),
            SquashError::TooLarge(TooLarge {
                estimated: 10,
                available: 5,
                window: 9,
            }),
            SquashError::Output(OutputProblem::Empty),
            SquashError::NoModel(squash_core::prompt::SquashStyle::Prose),
            SquashError::NotAiSquash(SquashOperationId::new()),
            SquashError::SourcesGone {
                operation: SquashOperationId::new(),
                missing: vec![MessageId::new()],
            },
            SquashError::NothingShorter {
                selection_tokens: 30,
                shortest_tokens: 34,
            },
        ];
        for e in &errors {
            assert!(!e.code().as_str().is_empty());
            assert!(!e.to_string().is_empty());
        }
        assert!(errors[3].is_retryable());
        assert!(!errors[2].is_retryable());
    }
}
