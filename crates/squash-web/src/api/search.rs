//! Full-text search: `GET /api/search?q=…&conversation=…&limit=…`. The query rules (words,
//! quoted phrases, nothing else is syntax) and the meaning of a hit (a message of a current
//! thread) are the service's; this file maps HTTP onto it.

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use squash_core::ConversationId;

use super::{given, parse_id, Query};
use crate::error::ApiError;
use crate::state::AppState;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchQuery {
    /// Words and "quoted phrases", all of which a hit contains.
    q: Option<String>,
    /// Only this conversation's current thread.
    conversation: Option<String>,
    /// 1 to 200 hits (default 20).
    limit: Option<u32>,
}

pub async fn search(
    State(state): State<AppState>,
    Query(q): Query<SearchQuery>,
) -> Result<Json<Value>, ApiError> {
    let Some(text) = q.q else {
        return Err(ApiError::invalid(
            "the search needs a query: q=words or \"a phrase\"",
        ));
    };
    let conversation: Option<ConversationId> = given(q.conversation.as_deref())
        .map(|c| parse_id(c, "conversation"))
        .transpose()?;
    let results = state.service().search(&text, conversation, q.limit).await?;
    Ok(Json(json!({
        "query": text,
        "hits": results.hits,
        "total": results.total,
        "more": results.more,
    })))
}
