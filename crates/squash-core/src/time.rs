//! Timestamps at the precision both stores keep (microseconds), so that a value read back
//! equals the value written.

use chrono::{DateTime, SubsecRound, Utc};

/// Now, truncated to microseconds.
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(6)
}
