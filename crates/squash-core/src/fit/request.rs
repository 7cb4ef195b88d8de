//! What to fit, and how: the budget, what stays protected, the strategy.

use serde::{Deserialize, Serialize};

use super::levels::FitStrategy;

/// How many of the last user turns a fit keeps whole unless told otherwise: none — the newest
/// steps are kept by tokens instead (`keep_recent`).
pub const DEFAULT_KEEP_LAST: usize = 0;

/// The share of the budget the newest steps keep verbatim unless told otherwise: a fifth.
pub const DEFAULT_KEEP_RECENT_SHARE: u64 = 5;

/// What to fit, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FitRequest {
    /// The most tokens the thread may have afterwards (estimated, see [`crate::tokens`]).
    pub budget: u64,
    /// Tokens of the newest steps kept verbatim; `None`: a fifth of the budget.
    #[serde(default)]
    pub keep_recent: Option<u64>,
    /// How many of the last user turns stay whole (0: none).
    #[serde(default)]
    pub keep_last: usize,
    pub strategy: FitStrategy,
}

impl FitRequest {
    /// A request with the default protection.
    pub fn new(budget: u64, strategy: FitStrategy) -> FitRequest {
        FitRequest {
            budget,
            keep_recent: None,
            keep_last: DEFAULT_KEEP_LAST,
            strategy,
        }
    }

    /// The tokens of newest steps kept, with the default applied.
    pub fn keep_recent_tokens(&self) -> u64 {
        self.keep_recent
            .unwrap_or(self.budget / DEFAULT_KEEP_RECENT_SHARE)
    }
}
