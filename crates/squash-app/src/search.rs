//! Full-text search: over the conversations' current threads, or over the whole history of one
//! conversation (what a squash, edit, delete or fit took out of its thread too). The query a
//! person or an agent typed is checked and parsed once (`squash_core::search`), then run by
//! the store.

use squash_core::search::SearchQuery;
use squash_core::ConversationId;
use squash_store::{HistoryResults, SearchResults, MAX_SEARCH_CANDIDATES, MAX_SEARCH_LIMIT};

use crate::conversations::ConversationService;
use crate::error::ServiceError;

type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// Hits per search when the caller names no limit.
pub const DEFAULT_SEARCH_LIMIT: u32 = 20;

impl ConversationService {
    /// The messages of current threads (of `conversation`, or of all conversations) that
    /// contain every word and `"quoted phrase"` of `query`, best first: at most `limit` (1 to
    /// [`MAX_SEARCH_LIMIT`], default [`DEFAULT_SEARCH_LIMIT`]) and the total. A message that an
    /// edit, delete or squash took out of the current thread is no hit. An empty query, one
    /// without a letter or digit, or an unknown conversation is refused.
    pub async fn search(
        &self,
        query: &str,
        conversation: Option<ConversationId>,
        limit: Option<u32>,
    ) -> Result<SearchResults> {
        let (query, limit) = checked(query, limit)?;
        if let Some(id) = conversation {
            // An unknown conversation is a mistake to report, not a search without hits.
            self.store().conversation(id).await?;
        }
        Ok(self.store().search(&query, conversation, limit).await?)
    }

    /// The messages of `conversation`'s whole history — its current thread and every message
    /// an edit, delete, squash or fit took out of it — that contain every word and `"quoted
    /// phrase"` of `query`, best first: `limit` (1 to [`MAX_SEARCH_LIMIT`], default
    /// [`DEFAULT_SEARCH_LIMIT`]) of them from `offset` (default 0, below
    /// [`MAX_SEARCH_CANDIDATES`]), and the total. Each hit says where its message is now: its
    /// position in the current thread, or the operation that took it out; and the operation
    /// that made it, when it is a squash's, edit's or fit's result. An empty query, one without
    /// a letter or digit, a limit or offset out of range, or an unknown conversation is refused.
    pub async fn search_history(
        &self,
        conversation: ConversationId,
        query: &str,
        limit: Option<u32>,
        offset: Option<u32>,
    ) -> Result<HistoryResults> {
        let (query, limit) = checked(query, limit)?;
        let offset = offset.unwrap_or(0);
        if offset >= MAX_SEARCH_CANDIDATES {
            return Err(ServiceError::Invalid(format!(
                "offset must be below {MAX_SEARCH_CANDIDATES} (a search pages through its best \
                 {MAX_SEARCH_CANDIDATES} hits), not {offset}"
            )));
        }
        Ok(self
            .store()
            .search_history(&query, conversation, limit, offset)
            .await?)
    }
}

/// The query parsed and the limit checked (default [`DEFAULT_SEARCH_LIMIT`]).
fn checked(query: &str, limit: Option<u32>) -> Result<(SearchQuery, u32)> {
    let query = SearchQuery::parse(query).map_err(|e| ServiceError::Invalid(e.to_string()))?;
    let limit = limit.unwrap_or(DEFAULT_SEARCH_LIMIT);
    if limit == 0 || limit > MAX_SEARCH_LIMIT {
        return Err(ServiceError::Invalid(format!(
            "limit must be 1 to {MAX_SEARCH_LIMIT}, not {limit}"
        )));
    }
    Ok((query, limit))
}
