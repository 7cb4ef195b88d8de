//! Full-text search over the conversations' current threads: the query a person typed, checked
//! and parsed once (`squash_core::search`), then run by the store.

use squash_core::search::SearchQuery;
use squash_core::ConversationId;
use squash_store::{SearchResults, MAX_SEARCH_LIMIT};

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
        let query = SearchQuery::parse(query).map_err(|e| ServiceError::Invalid(e.to_string()))?;
        let limit = limit.unwrap_or(DEFAULT_SEARCH_LIMIT);
        if limit == 0 || limit > MAX_SEARCH_LIMIT {
            return Err(ServiceError::Invalid(format!(
                "limit must be 1 to {MAX_SEARCH_LIMIT}, not {limit}"
            )));
        }
        if let Some(id) = conversation {
            // An unknown conversation is a mistake to report, not a search without hits.
            self.store().conversation(id).await?;
        }
        Ok(self.store().search(&query, conversation, limit).await?)
    }
}
