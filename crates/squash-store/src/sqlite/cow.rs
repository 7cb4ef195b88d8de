//! Copy-on-write of a thread's links inside SQLite: the new thread's rows are copied from the
//! base thread's with `INSERT … SELECT`, so a change of a few links on a 10,000-link thread
//! neither reads the links into Rust nor executes 10,000 inserts.

use rusqlite::{params, Transaction};

use super::conn::map_err;
use crate::Result;
use squash_core::LinkEdit;

/// Writes the links of `thread_key`: those of `base_key` (which has `base_count` links) without
/// the dropped positions, renumbered densely, with the replaced position pointing to
/// `replacement`. The caller checked the edit with [`LinkEdit::new_count`].
pub fn copy_edited_links(
    tx: &Transaction<'_>,
    thread_key: i64,
    base_key: i64,
    base_count: u64,
    edit: &LinkEdit,
    replacement: Option<i64>,
) -> Result<u64> {
    // One range copy per run of kept positions between two dropped ones: each run shifts by
    // the number of dropped positions before it. Ranges keep the work linear in the thread's
    // length however many positions are dropped (a `NOT IN` list with a per-row count would
    // not be).
    let mut stmt = tx
        .prepare_cached(
            "INSERT INTO thread_messages (thread_key, position, message_key) \
             SELECT ?1, position - ?2, CASE WHEN position = ?3 THEN ?4 ELSE message_key END \
             FROM thread_messages WHERE thread_key = ?5 AND position > ?6 AND position < ?7 \
             ORDER BY position",
        )
        .map_err(map_err)?;
    // -1 never matches a position: no replacement in this commit.
    let replaced = edit.replaced.map_or(-1, |p| p as i64);
    let bounds = std::iter::once(-1)
        .chain(edit.dropped.iter().map(|p| *p as i64))
        .chain(std::iter::once(base_count as i64));
    let mut written = 0u64;
    let mut previous: Option<i64> = None;
    for (shift, bound) in bounds.enumerate() {
        if let Some(low) = previous.filter(|low| bound - low > 1) {
            written += stmt
                .execute(params![
                    thread_key,
                    shift as i64 - 1,
                    replaced,
                    replacement,
                    base_key,
                    low,
                    bound
                ])
                .map_err(map_err)? as u64;
        }
        previous = Some(bound);
    }
    Ok(written)
}
