use squash_core::tokens::format_count;
use thiserror::Error;

use crate::error::{ErrorCode, ServiceError};
use crate::squash::SquashError;

#[derive(Debug, Error)]
pub enum FitError {
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error(transparent)]
    Squash(#[from] SquashError),
    /// The budget needs more than the strategy may take; nothing was changed.
    #[error(
        "cannot fit into {} tokens without touching the protected part ({} tokens: what comes \
         before the first request, every request, and the last {keep_last} turn{}): the best \
         the {strategy} strategy reaches is {} tokens; raise the budget, keep fewer turns \
         (--keep-last), or apply that with --best-effort",
        format_count(*.budget),
        format_count(*.protected),
        if *.keep_last == 1 { "" } else { "s" },
        format_count(*.best_reachable)
    )]
    OutOfReach {
        budget: u64,
        best_reachable: u64,
        protected: u64,
        keep_last: usize,
        strategy: squash_core::fit::FitStrategy,
    },
}

impl FitError {
    pub fn code(&self) -> ErrorCode {
        match self {
            FitError::Service(e) => e.code(),
            FitError::Squash(e) => e.code(),
            FitError::OutOfReach { .. } => ErrorCode::InvalidInput,
        }
    }
}

impl From<squash_store::StoreError> for FitError {
    fn from(e: squash_store::StoreError) -> Self {
        FitError::Service(e.into())
    }
}
