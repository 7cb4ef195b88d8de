//! Token sums over the stored per-message estimates (see `crate::tokens`).

use rusqlite::{OptionalExtension, Transaction};
use squash_core::ThreadId;

use super::conn::map_err;
use crate::error::{Entity, StoreError};
use crate::tokens::sum_to_u64;
use crate::Result;

/// The estimated tokens of the thread whose key is the expression `$thread_key`: a correlated
/// subquery, so one statement sums one thread or a whole listing's. Through the covering
/// index `messages_tokens` (see migration 0005).
macro_rules! thread_tokens_sum {
    ($thread_key:literal) => {
        concat!(
            "(SELECT COALESCE(SUM(m.tokens), 0) FROM ",
            $crate::segments::all_thread_links!(sqlite, $thread_key),
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
