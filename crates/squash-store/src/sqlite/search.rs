//! Full-text search over the FTS5 index `message_search` (migration 0006).

use rusqlite::{params, OptionalExtension, Transaction};
use squash_core::search::{snippet_parts, SearchQuery, MARK_END, MARK_START};
use squash_core::{ConversationId, Role};

use super::conn::map_err;
use super::links::position_in_thread;
use super::rows::uuid;
use crate::error::StoreError;
use crate::search::{check_limit, MAX_CANDIDATES, SNIPPET_WORDS};
use crate::types::{SearchHit, SearchResults};
use crate::Result;

/// A hit as the ranking statement returns it: key, message id, conversation id, conversation
/// name, position, role, rank, and the number of candidates.
type HitRow = (i64, Vec<u8>, Vec<u8>, String, i64, String, f64, i64);

/// The hits of `query` in current threads, best first. The ranking statement reads only the
/// index, the links and the conversations; snippets are made for the page alone, one indexed
/// probe each, since `snippet()` must run in a query of its own over the FTS table.
pub(super) fn search(
    tx: &Transaction<'_>,
    query: &SearchQuery,
    conversation: Option<ConversationId>,
    limit: u32,
) -> Result<SearchResults> {
    let limit = check_limit(limit)?;
    let fts = query.to_fts5();
    let scope = conversation.map(|c| *c.as_bytes());
    // A scope narrows the index scan to the conversation's key range (one probe of
    // `messages_by_conversation` each way); the join still checks each hit's conversation.
    let (low, high): (i64, i64) = match conversation {
        None => (i64::MIN, i64::MAX),
        Some(_) => tx
            .prepare_cached(
                "SELECT COALESCE(MIN(m.key), 0), COALESCE(MAX(m.key), -1) FROM messages m \
                 WHERE m.conversation_key = (SELECT key FROM conversations WHERE id = ?1)",
            )
            .and_then(|mut s| s.query_row([scope], |r| Ok((r.get(0)?, r.get(1)?))))
            .map_err(map_err)?,
    };
    let rows: Vec<HitRow> = tx
        .prepare_cached(
            // The candidates: the newest matches in current threads, found walking the index
            // newest first and stopping at MAX_CANDIDATES + 1 (the one past says "more").
            // Materialized: FTS5's rank cannot be read in the outer query's context.
            // The position is found twice for the rows kept (in the filter and the result),
            // once for the others: two index probes each (see `links::position_in_thread`).
            concat!(
                "WITH hits AS MATERIALIZED ( \
                     SELECT m.key, m.id, c.id AS conversation_id, c.display_name, ",
                position_in_thread!("m.key", "c.current_thread_key"),
                " AS position, m.role, -message_search.rank AS rank \
                 FROM message_search \
                 JOIN messages m ON m.key = message_search.rowid \
                 JOIN conversations c ON c.key = m.conversation_key \
                 WHERE message_search MATCH ?1 AND message_search.rowid BETWEEN ?4 AND ?5 \
                   AND (?2 IS NULL OR c.id = ?2) AND ",
                position_in_thread!("m.key", "c.current_thread_key"),
                " IS NOT NULL \
                 ORDER BY message_search.rowid DESC LIMIT ?6 \
             ) \
             SELECT key, id, conversation_id, display_name, position, role, rank, \
                    (SELECT count(*) FROM hits) \
             FROM hits ORDER BY rank DESC, key DESC LIMIT ?3"
            ),
        )
        .and_then(|mut s| {
            s.query_map(
                params![fts, scope, limit, low, high, i64::from(MAX_CANDIDATES) + 1],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                    ))
                },
            )?
            .collect()
        })
        .map_err(map_err)?;
    let total = rows.first().map_or(0, |r| r.7);
    let mut snippet = tx
        .prepare_cached(
            "SELECT snippet(message_search, 0, ?3, ?4, '…', ?5) FROM message_search \
             WHERE message_search MATCH ?1 AND rowid = ?2",
        )
        .map_err(map_err)?;
    let mut hits = Vec::with_capacity(rows.len());
    for (key, id, conv, name, position, role, rank, _) in rows {
        let marked: String = snippet
            .query_row(
                params![
                    fts,
                    key,
                    MARK_START.to_string(),
                    MARK_END.to_string(),
                    SNIPPET_WORDS
                ],
                |r| r.get(0),
            )
            .optional()
            .map_err(map_err)?
            .unwrap_or_default();
        hits.push(SearchHit {
            conversation_id: uuid(&conv)?.into(),
            conversation_name: name,
            message_id: uuid(&id)?.into(),
            // 1-based, as thread pages and the UI count (`@1` is the first message).
            position: u64::try_from(position)
                .map_err(|_| StoreError::Corrupt(format!("link position {position}")))?
                + 1,
            role: Role::parse(&role)
                .ok_or_else(|| StoreError::Corrupt(format!("message role {role:?}")))?,
            snippet: snippet_parts(&marked),
            rank,
        });
    }
    Ok(SearchResults::counted(
        hits,
        u64::try_from(total).unwrap_or(0),
    ))
}
