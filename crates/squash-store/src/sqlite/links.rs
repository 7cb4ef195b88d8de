//! A thread's links in SQLite's terms: the layout of `crate::layout` (segments, then the tail),
//! read as SQL, and a derived thread written from it.

use rusqlite::{params, Transaction};

use super::conn::map_err;
use crate::layout::{self, Derived, Run, Source};
use crate::{Result, StoreError};

/// The runs of the thread whose key is the expression `$t`: its segments, then its tail, as
/// rows `(start, length, src, off)`.
macro_rules! thread_runs {
    ($t:literal) => {
        concat!(
            "(SELECT s.start AS start, s.length AS length, s.source_thread_key AS src, \
                     s.source_offset AS off \
              FROM thread_segments s WHERE s.thread_key = ",
            $t,
            " UNION ALL SELECT r.tail_start, r.message_count - r.tail_start, r.key, r.tail_offset \
              FROM threads r WHERE r.key = ",
            $t,
            " AND r.message_count > r.tail_start)"
        )
    };
}

/// The links at positions `$low..=$high` of the thread whose key is `$t`, as rows
/// `(position, message_key)`: each overlapping run an index range scan of its source's own
/// storage, clipped to the range. Unordered: the caller orders by `position`.
macro_rules! thread_links {
    ($t:literal, $low:literal, $high:literal) => {
        concat!(
            "(SELECT ru.start + tm.position - ru.off AS position, tm.message_key AS message_key \
              FROM ",
            $crate::sqlite::links::thread_runs!($t),
            " ru JOIN thread_messages tm ON tm.thread_key = ru.src \
               AND tm.position BETWEEN ru.off + max(",
            $low,
            " - ru.start, 0) AND ru.off + min(",
            $high,
            " - ru.start, ru.length - 1) \
              WHERE ru.start <= ",
            $high,
            " AND ru.start + ru.length > ",
            $low,
            ")"
        )
    };
}

/// Every link of the thread whose key is `$t` (see [`thread_links`]).
macro_rules! all_thread_links {
    ($t:literal) => {
        $crate::sqlite::links::thread_links!($t, "0", "9223372036854775807")
    };
}

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

pub(super) use {all_thread_links, position_in_thread, thread_links, thread_runs};

/// The runs of the thread `key` (`message_count` links long): its segments, then its tail.
pub(super) fn runs(tx: &Transaction<'_>, key: i64, message_count: u64) -> Result<Vec<Run>> {
    let rows = tx
        .prepare_cached(concat!(
            "SELECT start, length, src, off FROM ",
            thread_runs!("?1"),
            " ORDER BY start"
        ))
        .and_then(|mut s| {
            s.query_map([key], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect()
        })
        .map_err(map_err)?;
    layout::runs_from_rows(key, rows, message_count)
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
        let key = replacement.ok_or_else(|| {
            StoreError::Invalid("a replaced position needs the commit's message".into())
        })?;
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
