//! A thread's links in SQLite's terms: the segments and tail of `crate::segments`,
//! read as SQL, and a derived thread written from it.

use rusqlite::{params, Transaction};

use super::conn::map_err;
use crate::segments::{self, Derived, Run, Source};
use crate::{Result, StoreError};

/// The 0-based position of the message whose key is `$m` in the thread whose key is `$t`, NULL
/// when it is not there: the message's own-storage rows (`thread_messages_by_message`), each
/// mapped through the thread's tail or the last segment of its source that starts at or before
/// it (`thread_segments_by_source`). Two probes per stored copy, whatever the thread's length.
macro_rules! position_in_thread {
    ($m:literal, $t:literal) => {
        concat!(
            "(SELECT min(p) FROM (SELECT CASE \
                WHEN tm.thread_key = r.key AND tm.position >= r.tail_offset \
                     AND tm.position < r.tail_offset + r.message_count - r.tail_start \
                THEN r.tail_start + tm.position - r.tail_offset \
                ELSE (SELECT CASE WHEN tm.position < s.source_offset + s.length \
                                  THEN s.start + tm.position - s.source_offset END \
                      FROM thread_segments s INDEXED BY thread_segments_by_source \
                      WHERE s.thread_key = r.key AND s.source_thread_key = tm.thread_key \
                        AND s.source_offset <= tm.position \
                      ORDER BY s.source_offset DESC LIMIT 1) \
                END AS p \
              FROM thread_messages tm INDEXED BY thread_messages_by_message \
              JOIN threads r ON r.key = ",
            $t,
            " WHERE tm.message_key = ",
            $m,
            "))"
        )
    };
}

pub(super) use position_in_thread;

/// The runs of the thread `key` (`message_count` links long): its segments, then its tail.
pub(super) fn runs(tx: &Transaction<'_>, key: i64, message_count: u64) -> Result<Vec<Run>> {
    let rows = tx
        .prepare_cached(concat!(
            "SELECT start, length, src, off FROM ",
            crate::segments::thread_runs!("?1"),
            " ORDER BY start"
        ))
        .and_then(|mut s| {
            s.query_map([key], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect()
        })
        .map_err(map_err)?;
    segments::runs_from_rows(key, rows, message_count)
}

/// Stores the links of `thread_key` as `derived` from the thread `base_key` says (its row,
/// inserted with [`Derived::tail`], says the rest), with the replaced position pointing to
/// `replacement`.
pub(super) fn write_derived(
    tx: &Transaction<'_>,
    thread_key: i64,
    base_key: i64,
    derived: &Derived,
    replacement: Option<i64>,
) -> Result<()> {
    let own_link = |offset: u64| -> Result<()> {
        let key = segments::replacement(replacement)?;
        tx.prepare_cached(
            "INSERT INTO thread_messages (thread_key, position, message_key) VALUES (?1, ?2, ?3)",
        )
        .and_then(|mut s| s.execute(params![thread_key, offset as i64, key]))
        .map_err(map_err)?;
        Ok(())
    };
    match derived {
        Derived::Shared {
            segments,
            tail_offset,
            ..
        } => {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO thread_segments \
                     (thread_key, start, length, source_thread_key, source_offset) \
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(map_err)?;
            for s in segments {
                insert
                    .execute(params![
                        thread_key,
                        s.start as i64,
                        s.len as i64,
                        s.source.key(thread_key),
                        s.offset as i64
                    ])
                    .map_err(map_err)?;
            }
            if *tail_offset > 0 {
                own_link(0)?;
            }
            Ok(())
        }
        Derived::Copied {
            runs,
            message_count,
        } => {
            let mut copy = tx
                .prepare_cached(
                    "INSERT INTO thread_messages (thread_key, position, message_key) \
                     SELECT ?1, position - ?2 + ?3, message_key FROM thread_messages \
                     WHERE thread_key = ?4 AND position BETWEEN ?2 AND ?2 + ?5 - 1 \
                     ORDER BY position",
                )
                .map_err(map_err)?;
            let mut written = 0u64;
            for r in runs {
                let Source::Stored(source) = r.source else {
                    own_link(r.start)?;
                    written += 1;
                    continue;
                };
                written += copy
                    .execute(params![
                        thread_key,
                        r.offset as i64,
                        r.start as i64,
                        source,
                        r.len as i64
                    ])
                    .map_err(map_err)? as u64;
            }
            if written != *message_count {
                return Err(StoreError::Corrupt(format!(
                    "thread key {base_key}: {written} of {message_count} links copied"
                )));
            }
            Ok(())
        }
    }
}
