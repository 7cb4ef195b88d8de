//! Full-text search, what both backends share. The text indexed is the domain's
//! ([`searchable_text`]), computed in Rust when a message is stored and kept in the
//! `search_text` column; each backend indexes that column (SQLite FTS5 through triggers,
//! PostgreSQL a generated `tsvector` with a GIN index), so no insert path can forget it.
//!
//! Rows stored before the column existed hold NULL and are filled when the store opens, as the
//! tokens are (`crate::backfill`).

use squash_core::search::searchable_content;
use squash_core::ContentItem;

use crate::StoreError;

/// The value of a new message's `search_text` column.
pub(crate) fn stored_search_text(message: &squash_core::Message) -> String {
    squash_core::search::searchable_text(message)
}

/// The `search_text` of a stored row from its `content` column, for the fill.
pub(crate) fn row_search_text(key: i64, content: &str) -> Result<String, StoreError> {
    let content: Vec<ContentItem> = serde_json::from_str(content)
        .map_err(|e| StoreError::Corrupt(format!("content of message {key}: {e}")))?;
    Ok(searchable_content(&content))
}

/// The most hits one search returns.
pub const MAX_SEARCH_LIMIT: u32 = 200;

/// `limit` checked: 1 to [`MAX_SEARCH_LIMIT`].
pub(crate) fn check_limit(limit: u32) -> Result<i64, StoreError> {
    if limit == 0 || limit > MAX_SEARCH_LIMIT {
        return Err(StoreError::Invalid(format!(
            "a search returns 1 to {MAX_SEARCH_LIMIT} hits, not {limit}"
        )));
    }
    Ok(i64::from(limit))
}

/// How many words of context a snippet holds.
pub(crate) const SNIPPET_WORDS: i64 = 24;

/// The most matches a search ranks and counts: the newest ones, in current threads. A word in
/// most of 100,000 messages would otherwise cost a rank and a thread lookup for each of them
/// (seconds, not milliseconds); what a person looks for is on the first page of the best of
/// the newest thousand, and past that a count says little more than "many".
pub const MAX_CANDIDATES: u32 = 1_000;
