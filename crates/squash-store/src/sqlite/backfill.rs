//! The fill of `crate::backfill` in SQLite's terms: a batch of NULL rows through their partial
//! index, each row's value written back (the `messages_terms_fill` trigger indexes its terms).

use rusqlite::{params, Transaction};

use super::conn::map_err;
use crate::backfill::{report, Filled, BATCH, SEARCH_TEXT, TOKENS};
use crate::Result;

/// Fills every column of `crate::backfill` in `tx`.
pub(super) fn fill(tx: &Transaction<'_>) -> Result<()> {
    let tokens = fill_column(tx, &TOKENS)?;
    let search = fill_column(tx, &SEARCH_TEXT)?;
    report(tokens, search);
    Ok(())
}

/// Fills `fill`'s column where it is NULL, a batch at a time. Returns how many rows it filled.
fn fill_column<V: rusqlite::ToSql>(tx: &Transaction<'_>, fill: &Filled<V>) -> Result<u64> {
    let (column, pending) = (fill.column, fill.pending);
    let mut select = tx
        .prepare(&format!(
            "SELECT key, role, content FROM messages INDEXED BY {pending} \
             WHERE {column} IS NULL AND key > ?1 ORDER BY key LIMIT ?2"
        ))
        .map_err(map_err)?;
    let mut update = tx
        .prepare(&format!("UPDATE messages SET {column} = ?2 WHERE key = ?1"))
        .map_err(map_err)?;
    let (mut after, mut count) = (i64::MIN, 0u64);
    loop {
        let batch: Vec<(i64, String, String)> = select
            .query_map(params![after, BATCH], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .and_then(Iterator::collect)
            .map_err(map_err)?;
        let Some(last) = batch.last() else {
            return Ok(count);
        };
        after = last.0;
        for (key, role, content) in &batch {
            update
                .execute(params![key, (fill.value)(*key, role, content)?])
                .map_err(map_err)?;
        }
        count += batch.len() as u64;
    }
}
