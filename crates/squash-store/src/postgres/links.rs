//! A thread's links in PostgreSQL's terms: the layout of `crate::layout` (segments, then the
//! tail), read as SQL, and a derived thread written from it in one statement.

use sqlx::PgConnection;

use super::error::DbResult;
use super::rows::to_i64;
use crate::layout::{self, Derived, Run, Source};
use crate::{Result, StoreError};

/// The runs of the thread whose key is the expression `$t`: its segments, then its tail, as
/// rows `(start, length, src, off)`.
macro_rules! thread_runs {
    ($t:literal) => {
        concat!(
            "(SELECT s.start, s.length, s.source_thread_key AS src, s.source_offset AS off \
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
            "(SELECT ru.start + tm.position - ru.off AS position, tm.message_key \
              FROM ",
            $crate::postgres::links::thread_runs!($t),
            " ru JOIN thread_messages tm ON tm.thread_key = ru.src \
               AND tm.position BETWEEN ru.off + GREATEST(",
            $low,
            " - ru.start, 0) AND ru.off + LEAST(",
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
        $crate::postgres::links::thread_links!($t, "0", "9223372036854775807")
    };
}

/// The 0-based position of the message whose key is `$m` in the thread whose key is `$t`, NULL
/// when it is not there: the message's own-storage rows (`thread_messages_by_message`), each
/// mapped through the thread's tail or the last segment of its source that starts at or before
/// it (`thread_segments_by_source`). Two probes per stored copy, whatever the thread's length.
macro_rules! position_in_thread {
    ($m:literal, $t:literal) => {
        concat!(
            "(SELECT min(CASE \
                WHEN tm.thread_key = r.key AND tm.position >= r.tail_offset \
                     AND tm.position < r.tail_offset + r.message_count - r.tail_start \
                THEN r.tail_start + tm.position - r.tail_offset \
                ELSE (SELECT CASE WHEN tm.position < s.source_offset + s.length \
                                  THEN s.start + tm.position - s.source_offset END \
                      FROM thread_segments s \
                      WHERE s.thread_key = r.key AND s.source_thread_key = tm.thread_key \
                        AND s.source_offset <= tm.position \
                      ORDER BY s.source_offset DESC LIMIT 1) \
                END) \
              FROM thread_messages tm JOIN threads r ON r.key = ",
            $t,
            " WHERE tm.message_key = ",
            $m,
            ")"
        )
    };
}

pub(super) use {all_thread_links, position_in_thread, thread_links, thread_runs};

/// The runs of the thread `key` (`message_count` links long): its segments, then its tail.
pub(super) async fn runs(
    conn: &mut PgConnection,
    key: i64,
    message_count: u64,
) -> Result<Vec<Run>> {
    let rows: Vec<(i64, i64, i64, i64)> = sqlx::query_as(concat!(
        "SELECT start, length, src, off FROM ",
        thread_runs!("$1"),
        " ru ORDER BY start"
    ))
    .bind(key)
    .fetch_all(&mut *conn)
    .await
    .db()?;
    layout::runs_from_rows(key, rows, message_count)
}

/// The columns of `runs`, as UNNEST takes them; a run of the new thread has a NULL source.
fn columns(runs: &[Run]) -> Result<(Vec<i64>, Vec<i64>, Vec<Option<i64>>, Vec<i64>)> {
    let mut out = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for r in runs {
        out.0.push(to_i64("a run start", r.start)?);
        out.1.push(to_i64("a run length", r.len)?);
        out.2.push(match r.source {
            Source::Stored(key) => Some(key),
            Source::New => None,
        });
        out.3.push(to_i64("a run offset", r.offset)?);
    }
    Ok(out)
}

/// Stores the links of `thread_key` as `derived` from the thread `base_key` says (its row,
/// inserted with [`Derived::tail`], says the rest), with the replaced position pointing to
/// `replacement`: one statement.
pub(super) async fn write_derived(
    conn: &mut PgConnection,
    thread_key: i64,
    base_key: i64,
    derived: &Derived,
    replacement: Option<i64>,
) -> Result<()> {
    let needs_replacement = match derived {
        Derived::Shared { tail_offset, .. } => *tail_offset > 0,
        Derived::Copied { runs, .. } => runs.iter().any(|r| r.source == Source::New),
    };
    if needs_replacement && replacement.is_none() {
        return Err(StoreError::Invalid(
            "a replaced position needs the commit's message".into(),
        ));
    }
    match derived {
        Derived::Shared {
            segments,
            tail_offset,
            ..
        } => {
            let (starts, lengths, sources, offsets) = columns(segments)?;
            sqlx::query(
                "WITH seg AS ( \
                     INSERT INTO thread_segments \
                         (thread_key, start, length, source_thread_key, source_offset) \
                     SELECT $1, r.start, r.len, COALESCE(r.src, $1), r.off \
                     FROM UNNEST($2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[]) \
                          AS r(start, len, src, off) \
                 ) \
                 INSERT INTO thread_messages (thread_key, position, message_key) \
                 SELECT $1, 0, $6::bigint WHERE $7",
            )
            .bind(thread_key)
            .bind(&starts)
            .bind(&lengths)
            .bind(&sources)
            .bind(&offsets)
            .bind(replacement)
            .bind(*tail_offset > 0)
            .execute(&mut *conn)
            .await
            .db()?;
            Ok(())
        }
        Derived::Copied {
            runs,
            message_count,
        } => {
            let (starts, lengths, sources, offsets) = columns(runs)?;
            let written = sqlx::query(
                "WITH r AS ( \
                     SELECT * FROM UNNEST($2::bigint[], $3::bigint[], $4::bigint[], \
                                          $5::bigint[]) AS r(start, len, src, off) \
                 ) \
                 INSERT INTO thread_messages (thread_key, position, message_key) \
                 SELECT $1, r.start + tm.position - r.off, tm.message_key FROM r \
                 JOIN thread_messages tm ON tm.thread_key = r.src \
                  AND tm.position BETWEEN r.off AND r.off + r.len - 1 \
                 UNION ALL SELECT $1, r.start, $6::bigint FROM r WHERE r.src IS NULL",
            )
            .bind(thread_key)
            .bind(&starts)
            .bind(&lengths)
            .bind(&sources)
            .bind(&offsets)
            .bind(replacement)
            .execute(&mut *conn)
            .await
            .db()?
            .rows_affected();
            if written != *message_count {
                return Err(StoreError::Corrupt(format!(
                    "thread key {base_key}: {written} of {message_count} links copied"
                )));
            }
            Ok(())
        }
    }
}
