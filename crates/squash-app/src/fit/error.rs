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
         ({} of them kept as they are: {}; the rest down to its digests)",
        format_count(*.budget),
        format_count(*.best_reachable),
        format_count(*.protected),
        kept_words(*.keep_recent, *.keep_last, *.folded),
    )]
    OutOfReach {
        budget: u64,
        best_reachable: u64,
        protected: u64,
        keep_recent: u64,
        keep_last: usize,
        /// The oldest requests the plan took into digests.
        folded: usize,
        strategy: squash_core::fit::FitStrategy,
    },
}

/// What a plan keeps as it is, in words.
fn kept_words(keep_recent: u64, keep_last: usize, folded: usize) -> String {
    let typed = match folded {
        0 => "what you typed".to_owned(),
        1 => "your requests but the oldest, which is in a digest".to_owned(),
        n => format!("your newest request (the {n} before it are in digests)"),
    };
    let mut kept = vec!["what comes before the first request", typed.as_str()];
    let recent = format!(
        "the newest steps up to {} tokens",
        format_count(keep_recent)
    );
    if keep_recent > 0 {
        kept.push(&recent);
    }
    let last = match keep_last {
        0 => String::new(),
        1 => "the last turn".to_owned(),
        n => format!("the last {n} turns"),
    };
    if keep_last > 0 {
        kept.push(&last);
    }
    match kept.split_last() {
        Some((tail, head)) if !head.is_empty() => format!("{} and {tail}", head.join(", ")),
        _ => kept.join(""),
    }
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
            folded: plan.protection.requests_folded,
            strategy: plan.request.strategy,
        }
    }
}

crate::error::via_service!(FitError: squash_store::StoreError);
