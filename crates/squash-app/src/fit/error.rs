use squash_core::tokens::format_count;
use thiserror::Error;

use crate::error::{AppError, ErrorCode, ServiceError};
use crate::remedy::Remedy;
use crate::squash::SquashError;

#[derive(Debug, Error)]
pub enum FitError {
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error(transparent)]
    Squash(#[from] SquashError),
    /// The budget needs more than the strategy may take; nothing was changed.
    #[error(
        "cannot fit into {} tokens: the smallest the {strategy} strategy reaches is {} tokens \
         ({} of them kept as they are: what comes before the first request, what you typed, \
         and the newest steps up to {} tokens{})",
        format_count(*.budget),
        format_count(*.best_reachable),
        format_count(*.protected),
        format_count(*.keep_recent),
        match .keep_last {
            0 => String::new(),
            1 => ", and the last turn".to_owned(),
            n => format!(", and the last {n} turns"),
        }
    )]
    OutOfReach {
        budget: u64,
        best_reachable: u64,
        protected: u64,
        keep_recent: u64,
        keep_last: usize,
        strategy: squash_core::fit::FitStrategy,
    },
}

impl AppError for FitError {
    fn code(&self) -> ErrorCode {
        match self {
            FitError::Service(e) => e.code(),
            FitError::Squash(e) => e.code(),
            FitError::OutOfReach { .. } => ErrorCode::InvalidInput,
        }
    }

    fn class(&self) -> Option<&'static str> {
        match self {
            FitError::Service(e) => e.class(),
            FitError::Squash(e) => e.class(),
            FitError::OutOfReach { .. } => Some("out_of_reach"),
        }
    }

    fn is_retryable(&self) -> bool {
        match self {
            FitError::Service(e) => e.is_retryable(),
            FitError::Squash(e) => e.is_retryable(),
            FitError::OutOfReach { .. } => false,
        }
    }

    fn remedies(&self) -> Vec<Remedy> {
        match self {
            FitError::Service(e) => e.remedies(),
            FitError::Squash(e) => e.remedies(),
            FitError::OutOfReach { best_reachable, .. } => vec![
                Remedy::RaiseBudget {
                    to: *best_reachable,
                },
                Remedy::KeepLess,
                Remedy::BestEffort,
            ],
        }
    }
}

impl FitError {
    /// The refusal of a plan that cannot reach its budget.
    pub fn out_of_reach(plan: &squash_core::fit::FitPlan) -> FitError {
        FitError::OutOfReach {
            budget: plan.request.budget,
            best_reachable: plan.best_reachable,
            protected: plan.protected_tokens,
            keep_recent: plan.protection.keep_recent,
            keep_last: plan.request.keep_last,
            strategy: plan.request.strategy,
        }
    }
}

impl From<squash_store::StoreError> for FitError {
    fn from(e: squash_store::StoreError) -> Self {
        FitError::Service(e.into())
    }
}
