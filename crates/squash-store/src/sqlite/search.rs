//! Full-text search over the FTS5 index `message_terms` (migrations 0006 and 0010): the
//! candidates from one statement that walks the index newest first, then what the page shows
//! read for the page alone, one indexed probe per hit.

use rusqlite::types::Value;
use rusqlite::{params, OptionalExtension, Transaction};
use squash_core::search::SearchQuery;
use squash_core::ConversationId;

use super::conn::map_err;
use super::links::position_in_thread;
use super::packed::unpack;
use super::read::conversation_key;
use super::rows::{opt_uuid, uuid};
use crate::error::StoreError;
use crate::search::{
    check_limit, check_offset, fts5_query, hit_role, hit_snippet, operation_ref, page_of,
    CANDIDATES_READ,
};
use crate::types::{
    HistoryHit, HistoryPlace, HistoryResults, OperationRef, SearchHit, SearchResults,
};
use crate::Result;

/// The key range of a conversation's messages (one probe of `messages_by_conversation` each
/// way): it narrows the index walk to them; the join still checks each match's conversation.
fn key_range(tx: &Transaction<'_>, conversation: Option<i64>) -> Result<(i64, i64)> {
    match conversation {
        None => Ok((i64::MIN, i64::MAX)),
        Some(key) => tx
            .prepare_cached(
                // Two subqueries: each is one probe; MIN and MAX in one SELECT read every key.
                "SELECT COALESCE((SELECT MIN(key) FROM messages WHERE conversation_key = ?1), 0), \
                        COALESCE((SELECT MAX(key) FROM messages WHERE conversation_key = ?1), -1)",
            )
            .and_then(|mut s| s.query_row([key], |r| Ok((r.get(0)?, r.get(1)?))))
            .map_err(map_err),
    }
}

/// The newest matches of `fts` (at most `CANDIDATES_READ`) that `filter` keeps, as (key,
/// rank). Materialized: FTS5's rank cannot be read in the outer query's context.
fn candidates(
    tx: &Transaction<'_>,
    sql: &str,
    fts: &str,
    conversation: Option<i64>,
) -> Result<Vec<(i64, f64)>> {
    let (low, high) = key_range(tx, conversation)?;
    tx.prepare_cached(sql)
        .and_then(|mut s| {
            s.query_map(
                params![fts, conversation, low, high, CANDIDATES_READ],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?
            .collect()
        })
        .map_err(map_err)
}

/// The index walk both searches start from: matches of `?1` among keys `?3..=?4`, newest
/// first; `$filter` keeps a match of message `m` in conversation `c` (`?2` the scope's key or
/// NULL).
macro_rules! candidates_sql {
    ($filter:expr) => {
        concat!(
            "SELECT m.key, -message_terms.rank FROM message_terms \
             JOIN messages m ON m.key = message_terms.rowid \
             JOIN conversations c ON c.key = m.conversation_key \
             WHERE message_terms MATCH ?1 AND message_terms.rowid BETWEEN ?3 AND ?4 \
               AND (?2 IS NULL OR c.key = ?2) AND ",
            $filter,
            " ORDER BY message_terms.rowid DESC LIMIT ?5"
        )
    };
}

/// A 0-based link position as thread pages and the UI count it (`@1` is the first message).
fn from_one(position: i64) -> Result<u64> {
    u64::try_from(position)
        .map(|p| p + 1)
        .map_err(|_| StoreError::Corrupt(format!("link position {position}")))
}

/// The hits of `query` in current threads, best first.
pub(super) fn search(
    tx: &Transaction<'_>,
    query: &SearchQuery,
    conversation: Option<ConversationId>,
    limit: u32,
) -> Result<SearchResults> {
    let limit = check_limit(limit)?;
    let scope = conversation
        .map(|id| conversation_key(tx, id))
        .transpose()?;
    // The position is two index probes per match (see `links::position_in_thread`).
    let sql = candidates_sql!(concat!(
        position_in_thread!("m.key", "c.current_thread_key"),
        " IS NOT NULL"
    ));
    let found = candidates(tx, sql, &fts5_query(query), scope)?;
    let (page, counted) = page_of(found, 0, limit);
    let mut read = tx
        .prepare_cached(concat!(
            "SELECT m.id, c.id, c.display_name, ",
            position_in_thread!("m.key", "c.current_thread_key"),
            ", m.role, m.search_text FROM messages m \
             JOIN conversations c ON c.key = m.conversation_key WHERE m.key = ?1"
        ))
        .map_err(map_err)?;
    let mut hits = Vec::with_capacity(page.len());
    for (key, rank) in page {
        type Row = (Vec<u8>, Vec<u8>, String, i64, String, Value);
        let (id, conv, name, position, role_name, text): Row = read
            .query_row([key], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })
            .map_err(map_err)?;
        hits.push(SearchHit {
            conversation_id: uuid(&conv)?.into(),
            conversation_name: name,
            message_id: uuid(&id)?.into(),
            position: from_one(position)?,
            role: hit_role(&role_name)?,
            snippet: hit_snippet(unpack((&text).into(), "search_text")?.as_deref(), query),
            rank,
        });
    }
    Ok(SearchResults::counted(hits, counted))
}

/// An operation named by id (bytes) and kind columns that a LEFT JOIN may leave NULL.
fn operation(
    (id, kind, recall_ref): (Option<Vec<u8>>, Option<String>, Option<i64>),
) -> Result<Option<OperationRef>> {
    operation_ref(opt_uuid(id)?, kind, recall_ref)
}

/// The hits of `query` among every message of `conversation`, best first, from `offset`.
pub(super) fn search_history(
    tx: &Transaction<'_>,
    query: &SearchQuery,
    conversation: ConversationId,
    limit: u32,
    offset: u32,
) -> Result<HistoryResults> {
    let limit = check_limit(limit)?;
    let offset = check_offset(offset)?;
    let scope = conversation_key(tx, conversation)?;
    let found = candidates(tx, candidates_sql!("1"), &fts5_query(query), Some(scope))?;
    let (page, counted) = page_of(found, offset, limit);
    // The operation that took a message out: the newest whose sources hold it
    // (`squash_operation_sources_by_message`); the one that made it: its own column.
    let mut read = tx
        .prepare_cached(concat!(
            "SELECT m.id, m.role, m.search_text, ",
            position_in_thread!("m.key", "c.current_thread_key"),
            ", taken.id, taken.kind, taken.recall_ref, made.id, made.kind, made.recall_ref \
             FROM messages m \
             JOIN conversations c ON c.key = m.conversation_key \
             LEFT JOIN squash_operations taken ON taken.key = ( \
                 SELECT s.operation_key FROM squash_operation_sources s \
                 WHERE s.message_key = m.key ORDER BY s.operation_key DESC LIMIT 1) \
             LEFT JOIN squash_operations made ON made.id = m.squash_operation_id \
             WHERE m.key = ?1"
        ))
        .map_err(map_err)?;
    let mut hits = Vec::with_capacity(page.len());
    for (key, rank) in page {
        let row = read
            .query_row([key], |r| {
                Ok((
                    r.get::<_, Vec<u8>>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Value>(2)?,
                    r.get::<_, Option<i64>>(3)?,
                    (r.get(4)?, r.get(5)?, r.get(6)?),
                    (r.get(7)?, r.get(8)?, r.get(9)?),
                ))
            })
            .optional()
            .map_err(map_err)?
            .ok_or_else(|| StoreError::Corrupt(format!("message key {key} left the index")))?;
        let (id, role_name, text, position, taken, made) = row;
        let place = match position {
            Some(p) => HistoryPlace::InCurrentThread {
                position: from_one(p)?,
            },
            None => HistoryPlace::OutOfThread {
                taken_out_by: operation(taken)?,
            },
        };
        hits.push(HistoryHit {
            message_id: uuid(&id)?.into(),
            role: hit_role(&role_name)?,
            snippet: hit_snippet(unpack((&text).into(), "search_text")?.as_deref(), query),
            rank,
            place,
            result_of: operation(made)?,
        });
    }
    Ok(HistoryResults::counted(hits, offset, counted))
}
