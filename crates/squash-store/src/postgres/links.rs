//! A thread's links in PostgreSQL's terms: the segments and tail of `crate::segments`, read as
//! SQL, and a derived thread written from it in one statement.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use squash_core::ThreadId;

use super::error::{taken, DbResult};
use super::rows::to_i64;
use crate::segments::{Derived, NewThread, Run, Source};
use crate::{Entity, Result, StoreError};

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

pub(super) use position_in_thread;

/// Runs as the columns UNNEST takes; a run of the new thread has a NULL source.
#[derive(Default)]
struct RunColumns {
    starts: Vec<i64>,
    lengths: Vec<i64>,
    sources: Vec<Option<i64>>,
    offsets: Vec<i64>,
}

fn columns(runs: &[Run]) -> Result<RunColumns> {
    let mut out = RunColumns::default();
    for r in runs {
        out.starts.push(to_i64("a run start", r.start)?);
        out.lengths.push(to_i64("a run length", r.len)?);
        out.sources.push(match r.source {
            Source::Stored(key) => Some(key),
            Source::New => None,
        });
        out.offsets.push(to_i64("a run offset", r.offset)?);
    }
    Ok(out)
}

/// A commit's new thread row.
pub(super) struct ThreadInsert<'a> {
    pub id: ThreadId,
    pub conversation_key: i64,
    pub base_key: i64,
    pub origin: &'a str,
    pub message_count: u64,
}

/// Inserts the thread, makes it its conversation's current one and, when it shares its base's
/// links ([`Derived::Shared`]), writes its segments and own link — one statement. The links of
/// a list or a copy follow with [`write_own_links`]. Returns the key and creation time.
pub(super) async fn insert_thread(
    conn: &mut PgConnection,
    row: &ThreadInsert<'_>,
    new_thread: &NewThread<'_>,
    replacement: Option<i64>,
) -> Result<(i64, DateTime<Utc>)> {
    let (tail_start, tail_offset) = new_thread.tail();
    let (segments, own) = match new_thread {
        NewThread::Derived(Derived::Shared {
            segments,
            tail_offset,
            ..
        }) => (segments.as_slice(), *tail_offset > 0),
        _ => (&[][..], false),
    };
    if own {
        crate::segments::replacement(replacement)?;
    }
    let cols = columns(segments)?;
    let now = Utc::now();
    sqlx::query_as(
        "WITH t AS ( \
             INSERT INTO threads (id, conversation_key, original_thread_key, origin, revision, \
                                  message_count, created_at, updated_at, tail_start, \
                                  tail_offset) \
             VALUES ($1, $2, $3, $4, 0, $5, $6, $6, $7, $8) RETURNING key, created_at \
         ), seg AS ( \
             INSERT INTO thread_segments \
                 (thread_key, start, length, source_thread_key, source_offset) \
             SELECT t.key, r.start, r.len, COALESCE(r.src, t.key), r.off \
             FROM t, UNNEST($9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[]) \
                  AS r(start, len, src, off) \
         ), own AS ( \
             INSERT INTO thread_messages (thread_key, position, message_key) \
             SELECT t.key, 0, $13::bigint FROM t WHERE $14 \
         ), switch AS ( \
             UPDATE conversations SET current_thread_key = t.key, updated_at = $6 \
             FROM t WHERE conversations.key = $2 \
         ) \
         SELECT key, created_at FROM t",
    )
    .bind(row.id.as_uuid())
    .bind(row.conversation_key)
    .bind(row.base_key)
    .bind(row.origin)
    .bind(to_i64("link count", row.message_count)?)
    .bind(now)
    .bind(to_i64("tail start", tail_start)?)
    .bind(to_i64("tail offset", tail_offset)?)
    .bind(&cols.starts)
    .bind(&cols.lengths)
    .bind(&cols.sources)
    .bind(&cols.offsets)
    .bind(replacement)
    .bind(own)
    .fetch_one(&mut *conn)
    .await
    .map_err(|e| taken(e, "threads_id_key", Entity::Thread, row.id))
}

/// The links of a derived thread stored as a copy ([`Derived::Copied`]): every run copied into
/// its own storage in one `INSERT … SELECT`, the replacement among them.
pub(super) async fn write_copied(
    conn: &mut PgConnection,
    thread_key: i64,
    base_key: i64,
    runs: &[Run],
    message_count: u64,
    replacement: Option<i64>,
) -> Result<()> {
    if runs.iter().any(|r| r.source == Source::New) {
        crate::segments::replacement(replacement)?;
    }
    let cols = columns(runs)?;
    let written = sqlx::query(
        "WITH r AS ( \
             SELECT * FROM UNNEST($2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[]) \
                  AS r(start, len, src, off) \
         ) \
         INSERT INTO thread_messages (thread_key, position, message_key) \
         SELECT $1, r.start + tm.position - r.off, tm.message_key FROM r \
         JOIN thread_messages tm ON tm.thread_key = r.src \
          AND tm.position BETWEEN r.off AND r.off + r.len - 1 \
         UNION ALL SELECT $1, r.start, $6::bigint FROM r WHERE r.src IS NULL",
    )
    .bind(thread_key)
    .bind(&cols.starts)
    .bind(&cols.lengths)
    .bind(&cols.sources)
    .bind(&cols.offsets)
    .bind(replacement)
    .execute(&mut *conn)
    .await
    .db()?
    .rows_affected();
    if written != message_count {
        return Err(StoreError::Corrupt(format!(
            "thread key {base_key}: {written} of {message_count} links copied"
        )));
    }
    Ok(())
}
