//! Token sums over the stored per-message estimates, and the fill of rows stored before there
//! were any (see `crate::tokens`).

use rusqlite::{params, OptionalExtension, Transaction};
use squash_core::ThreadId;

use super::conn::map_err;
use crate::error::{Entity, StoreError};
use crate::tokens::{row_tokens, sum_to_u64, BACKFILL_BATCH};
use crate::Result;

/// The estimated tokens of the thread whose key is the expression `$thread_key`: a correlated
/// subquery, so one statement sums one thread or a whole listing's. Through the covering
/// index `messages_tokens` (see migration 0005).
macro_rules! thread_tokens_sum {
    ($thread_key:literal) => {
        concat!(
            "(SELECT COALESCE(SUM(m.tokens), 0) FROM ",
            $crate::sqlite::links::all_thread_links!($thread_key),
            " l JOIN messages m INDEXED BY messages_tokens ON m.key = l.message_key)"
        )
    };
}
pub(super) use thread_tokens_sum;

/// The estimated tokens of the thread whose key is `thread_key`.
pub(super) fn thread_key_tokens(tx: &Transaction<'_>, thread_key: i64) -> Result<u64> {
    let sum: i64 = tx
        .prepare_cached(concat!("SELECT ", thread_tokens_sum!("?1")))
        .and_then(|mut s| s.query_row([thread_key], |r| r.get(0)))
        .map_err(map_err)?;
    sum_to_u64(sum)
}

pub(super) fn thread_tokens(tx: &Transaction<'_>, id: ThreadId) -> Result<u64> {
    let sum: i64 = tx
        .prepare_cached(concat!(
            "SELECT ",
            thread_tokens_sum!("t.key"),
            " FROM threads t WHERE t.id = ?1"
        ))
        .and_then(|mut s| s.query_row([id.as_bytes()], |r| r.get(0)).optional())
        .map_err(map_err)?
        .ok_or_else(|| StoreError::not_found(Entity::Thread, id))?;
    sum_to_u64(sum)
}

/// Fills `tokens` where it is NULL, a batch at a time, in the caller's transaction. Returns
/// how many rows it filled.
pub(super) fn backfill(tx: &Transaction<'_>) -> Result<u64> {
    let mut select = tx
        .prepare(
            "SELECT key, role, content FROM messages INDEXED BY messages_without_tokens \
             WHERE tokens IS NULL AND key > ?1 ORDER BY key LIMIT ?2",
        )
        .map_err(map_err)?;
    let mut update = tx
        .prepare("UPDATE messages SET tokens = ?2 WHERE key = ?1")
        .map_err(map_err)?;
    let (mut after, mut filled) = (i64::MIN, 0u64);
    loop {
        let batch: Vec<(i64, String, String)> = select
            .query_map(params![after, BACKFILL_BATCH], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .and_then(Iterator::collect)
            .map_err(map_err)?;
        let Some(last) = batch.last() else {
            return Ok(filled);
        };
        after = last.0;
        for (key, role, content) in &batch {
            update
                .execute(params![key, row_tokens(*key, role, content)?])
                .map_err(map_err)?;
        }
        filled += batch.len() as u64;
    }
}
