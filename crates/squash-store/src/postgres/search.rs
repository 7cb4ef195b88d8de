//! Full-text search over the GIN-indexed `messages.search_vector` (migration 0006).

use sqlx::PgPool;
use squash_core::search::{snippet_parts, SearchQuery, MARK_END, MARK_START};
use squash_core::{ConversationId, Role};
use uuid::Uuid;

use super::error::DbResult;
use super::links::position_in_thread;
use super::rows::to_u64;
use crate::search::{check_limit, MAX_CANDIDATES, SNIPPET_WORDS};
use crate::{Result, SearchHit, SearchResults, StoreError};

#[derive(sqlx::FromRow)]
struct HitRow {
    message_id: Uuid,
    conversation_id: Uuid,
    conversation_name: String,
    position: i64,
    role: String,
    rank: f32,
    total: i64,
    snippet: Option<String>,
}

/// The hits of `query` in current threads, best first, in one statement: the matches come
/// from the GIN index, each is kept if the link index finds it in its conversation's current
/// thread, and `ts_headline` (which parses the whole text again) runs for the page only.
pub(super) async fn search(
    pool: &PgPool,
    query: &SearchQuery,
    conversation: Option<ConversationId>,
    limit: u32,
) -> Result<SearchResults> {
    let limit = check_limit(limit)?;
    let options = format!(
        "StartSel={MARK_START}, StopSel={MARK_END}, MaxWords={SNIPPET_WORDS}, \
         MinWords={}, MaxFragments=1, FragmentDelimiter=\" … \"",
        SNIPPET_WORDS / 2
    );
    // With a scope, the conversation's own messages (`messages_by_conversation`) are ANDed
    // with the text index; two statements, as an `OR $2 IS NULL` would hide that from the
    // planner.
    let scope = if conversation.is_some() {
        "m.conversation_key = (SELECT key FROM conversations WHERE id = $2)"
    } else {
        "$2::uuid IS NULL"
    };
    // `matches` is materialized on purpose: it makes the text index find the matches. Left to
    // itself, the planner walks the primary key newest first for `ORDER BY key DESC LIMIT`
    // and tests every row's tsvector, which for a rare word is a scan of the whole table.
    // The position is a LATERAL probe per match (`links::position_in_thread`), newest first,
    // stopping at the candidate limit; as a plain join the planner hashes all 600,000 links.
    let position = position_in_thread!("m.key", "c.current_thread_key");
    let sql = format!(
        "WITH q AS (SELECT websearch_to_tsquery('english', $1) AS q), \
         matches AS MATERIALIZED ( \
             SELECT m.key FROM q JOIN messages m ON m.search_vector @@ q.q WHERE {scope} \
         ), \
         hits AS MATERIALIZED ( \
             SELECT m.key, m.id AS message_id, c.id AS conversation_id, \
                    c.display_name AS conversation_name, tm.position, m.role, m.search_vector \
             FROM (SELECT key FROM matches ORDER BY key DESC) mk \
             JOIN messages m ON m.key = mk.key \
             JOIN conversations c ON c.key = m.conversation_key \
             CROSS JOIN LATERAL (SELECT {position} AS position) tm \
             WHERE tm.position IS NOT NULL \
             ORDER BY mk.key DESC LIMIT $5 \
         ), page AS ( \
             SELECT hits.key, hits.message_id, hits.conversation_id, hits.conversation_name, \
                    hits.position, hits.role, ts_rank(hits.search_vector, q.q) AS rank, \
                    count(*) OVER () AS total \
             FROM hits, q ORDER BY rank DESC, key DESC LIMIT $3 \
         ) \
         SELECT page.message_id, page.conversation_id, page.conversation_name, page.position, \
                page.role, page.rank, page.total, \
                ts_headline('english', m.search_text, q.q, $4) AS snippet \
         FROM page JOIN messages m ON m.key = page.key, q \
         ORDER BY page.rank DESC, page.key DESC"
    );
    let rows: Vec<HitRow> = sqlx::query_as(&sql)
        .bind(query.to_websearch())
        .bind(conversation.map(|c| *c.as_uuid()))
        .bind(limit)
        .bind(options)
        .bind(i64::from(MAX_CANDIDATES) + 1)
        .fetch_all(pool)
        .await
        .db()?;
    let total = rows.first().map_or(0, |r| r.total);
    let hits = rows
        .into_iter()
        .map(|row| {
            Ok(SearchHit {
                conversation_id: row.conversation_id.into(),
                conversation_name: row.conversation_name,
                message_id: row.message_id.into(),
                // 1-based, as thread pages and the UI count (`@1` is the first message).
                position: to_u64("link position", row.position)? + 1,
                role: Role::parse(&row.role)
                    .ok_or_else(|| StoreError::Corrupt(format!("message role {:?}", row.role)))?,
                snippet: snippet_parts(row.snippet.as_deref().unwrap_or_default()),
                rank: f64::from(row.rank),
            })
        })
        .collect::<Result<_>>()?;
    Ok(SearchResults::counted(hits, to_u64("hit count", total)?))
}
