//! The paging parameters thread reads take: `limit` and at most one of `before`, `after`
//! (1-based positions, exclusive), `around` (a position) or `at` (a message id). Without
//! `limit`, a read returns the whole thread up to [`MAX_PAGE`] messages (its last ones beyond
//! that, which the answer's `page` says).

use serde::Deserialize;
use squash_app::{PageAnchor, PageWindow, MAX_PAGE};
use squash_core::MessageId;

use super::parse_id;
use crate::error::ApiError;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    pub limit: Option<u32>,
    pub before: Option<u64>,
    pub after: Option<u64>,
    pub around: Option<u64>,
    pub at: Option<String>,
}

impl PageQuery {
    /// The window asked for; `default_limit` when the query names none.
    pub fn window(&self, default_limit: u32) -> Result<PageWindow, ApiError> {
        let limit = self.limit.unwrap_or(default_limit);
        if limit > MAX_PAGE {
            return Err(ApiError::invalid(format!(
                "`limit` is at most {MAX_PAGE} (got {limit}); page on with `before` or `after`"
            )));
        }
        let mut anchors = Vec::new();
        if let Some(position) = self.before {
            anchors.push(PageAnchor::Before { position });
        }
        if let Some(position) = self.after {
            anchors.push(PageAnchor::After { position });
        }
        if let Some(position) = self.around {
            anchors.push(PageAnchor::Around { position });
        }
        if let Some(at) = &self.at {
            let message: MessageId = parse_id(at, "message")?;
            anchors.push(PageAnchor::AroundMessage { message });
        }
        let anchor = match anchors.as_slice() {
            [] => PageAnchor::Last,
            [one] => *one,
            _ => {
                return Err(ApiError::invalid(
                    "give at most one of `before`, `after`, `around` and `at`",
                ))
            }
        };
        Ok(PageWindow { anchor, limit })
    }
}

/// The paging parameters of a list that is no thread (an operation's sources, a sub-agent's
/// run opened under its call): `offset` (0-based, default 0) and `limit`.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OffsetQuery {
    pub offset: Option<u64>,
    pub limit: Option<u32>,
}

impl OffsetQuery {
    /// `(offset, limit)`, `default_limit` when the query names none; the service refuses a
    /// limit over its page size and an offset past the end.
    pub fn get(&self, default_limit: u32) -> (u64, u32) {
        (
            self.offset.unwrap_or(0),
            self.limit.unwrap_or(default_limit),
        )
    }
}
