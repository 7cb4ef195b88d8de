//! A thread's links in PostgreSQL's terms: the segments and tail of `crate::segments`, read as
//! SQL, and a derived thread written from it in one statement.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use sqlx::postgres::PgArguments;
use sqlx::query::QueryAs;
use sqlx::{PgConnection, Postgres};
use squash_core::ThreadId;

use super::error::{taken, violates, DbResult};
use super::operations::{bind_operations, operation_ctes, operation_taken, Columns};
use super::rows::{to_i64, NewMessageRow};
use super::sql::insert_message_ctes;
use super::write::bind_message_row;
use crate::segments::{Derived, NewThread, Run, Source};
use crate::{Entity, Result, StoreError};

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

/// The message a new thread's own link holds (its replacement, see `crate::segments`).
pub(super) enum Replacement<'a> {
    /// Already stored, by key; none for a delete.
    Stored(Option<i64>),
    /// The commit's one new message (a squash's or edit's), inserted by the thread's own
    /// statement with the commit's operations: one round trip for all three.
    New(&'a NewMessageRow, &'a Columns<'a>),
}

/// The thread insert's CTEs: the row `t`, its segments, its own link and the switch of the
/// conversation's current thread. Parameters: the thread id `$id`; the conversation key `$2`;
/// from `$rest` on, the base key, origin, link count, now, tail start, tail offset, the four
/// run columns and whether it has its own link; the own link's message key is `replacement`.
/// Built at run time because the numbering depends on what precedes the thread in the
/// statement; each statement is built once (see the statics below).
fn thread_ctes(id: usize, rest: usize, replacement: &str) -> String {
    let p = |i: usize| format!("${}", rest + i);
    let now = p(3);
    format!(
        "t AS ( \
             INSERT INTO threads (id, conversation_key, original_thread_key, origin, revision, \
                                  message_count, created_at, updated_at, tail_start, \
                                  tail_offset) \
             VALUES (${id}, $2, {base}, {origin}, 0, {count}, {now}, {now}, {tail_start}, \
                     {tail_offset}) RETURNING key, created_at \
         ), seg AS ( \
             INSERT INTO thread_segments \
                 (thread_key, start, length, source_thread_key, source_offset) \
             SELECT t.key, r.start, r.len, COALESCE(r.src, t.key), r.off \
             FROM t, UNNEST({starts}::bigint[], {lengths}::bigint[], {sources}::bigint[], \
                            {offsets}::bigint[]) AS r(start, len, src, off) \
         ), own AS ( \
             INSERT INTO thread_messages (thread_key, position, message_key) \
             SELECT t.key, 0, {replacement} FROM t WHERE {own} \
         ), switch AS ( \
             UPDATE conversations SET current_thread_key = t.key, updated_at = {now} \
             FROM t WHERE conversations.key = $2 \
         )",
        base = p(0),
        origin = p(1),
        count = p(2),
        tail_start = p(4),
        tail_offset = p(5),
        starts = p(6),
        lengths = p(7),
        sources = p(8),
        offsets = p(9),
        own = p(10),
    )
}

/// The thread alone: id `$1`, conversation key `$2`, the rest from `$3`, the own link's
/// message `$14`.
static THREAD_INSERT: LazyLock<String> = LazyLock::new(|| {
    format!(
        "WITH {} SELECT key, created_at FROM t",
        thread_ctes(1, 3, "$14::bigint")
    )
});

/// The message (`insert_message_ctes`, `$1`–`$14`), the thread that holds it (id `$15`, the
/// rest from `$16`) and the commit's operations (`operation_ctes`, from `$27`): a squash or an
/// edit in one round trip. An operation's result is this message, its result thread this
/// thread, bound by id since neither key is known before the statement.
static THREAD_WITH_MESSAGE_INSERT: LazyLock<String> = LazyLock::new(|| {
    format!(
        concat!(
            "WITH ",
            insert_message_ctes!(),
            ", {}, {} SELECT t.key, t.created_at, m.key, (SELECT count(*) FROM ops), \
                 (SELECT count(*) FROM srcs) FROM t, m"
        ),
        thread_ctes(15, 16, "(SELECT key FROM m)"),
        operation_ctes(
            "$2",
            27,
            "CASE WHEN o.result = $1 THEN (SELECT key FROM m) END",
            "CASE WHEN o.result_thread = $15 THEN (SELECT key FROM t) END"
        )
    )
});

type ThreadQuery<'q, O> = QueryAs<'q, Postgres, O, PgArguments>;

/// What [`insert_thread`] wrote: the thread's key and creation time, the key of the message
/// inserted with it, and how many operations and sources it inserted (when it did).
pub(super) struct InsertedThread {
    pub key: i64,
    pub created_at: DateTime<Utc>,
    pub message_key: Option<i64>,
    pub operations: Option<(i64, i64)>,
}

/// Inserts the thread, makes it its conversation's current one and, when it shares its base's
/// links ([`Derived::Shared`]), writes its segments and own link — one statement, which also
/// inserts the new message and the commit's operations when there is one message
/// ([`Replacement::New`]). The links of a list or a copy follow with [`write_copied`].
pub(super) async fn insert_thread(
    conn: &mut PgConnection,
    row: &ThreadInsert<'_>,
    new_thread: &NewThread<'_>,
    replacement: Replacement<'_>,
) -> Result<InsertedThread> {
    let (segments, own) = match new_thread {
        NewThread::Derived(Derived::Shared {
            segments,
            tail_offset,
            ..
        }) => (segments.as_slice(), *tail_offset > 0),
        _ => (&[][..], false),
    };
    let cols = columns(segments)?;
    match replacement {
        Replacement::Stored(key) => {
            if own {
                crate::segments::replacement(key)?;
            }
            let query = sqlx::query_as(THREAD_INSERT.as_str())
                .bind(row.id.as_uuid())
                .bind(row.conversation_key);
            let (key, created_at): (i64, DateTime<Utc>) =
                bind_thread(query, row, new_thread, cols, own)?
                    .bind(key)
                    .fetch_one(&mut *conn)
                    .await
                    .map_err(|e| taken(e, "threads_id_key", Entity::Thread, row.id))?;
            Ok(InsertedThread {
                key,
                created_at,
                message_key: None,
                operations: None,
            })
        }
        Replacement::New(message, operations) => {
            let query = bind_message_row!(
                sqlx::query_as(THREAD_WITH_MESSAGE_INSERT.as_str()),
                row.conversation_key,
                message
            )
            .bind(row.id.as_uuid());
            let query = bind_thread(query, row, new_thread, cols, own)?;
            let (key, created_at, message_key, written, linked): (
                i64,
                DateTime<Utc>,
                i64,
                i64,
                i64,
            ) = bind_operations!(query, operations)
                .fetch_one(&mut *conn)
                .await
                .map_err(|e| new_rows_taken(e, message, row.id))?;
            Ok(InsertedThread {
                key,
                created_at,
                message_key: Some(message_key),
                operations: Some((written, linked)),
            })
        }
    }
}

/// Which of a statement's new rows had its id taken: the message's, the operation's or the
/// thread's (each was checked by a statement of its own before they shared one).
fn new_rows_taken(e: sqlx::Error, message: &NewMessageRow, thread: ThreadId) -> StoreError {
    if violates(&e, "messages_id_key") {
        let id = squash_core::MessageId::from_uuid(message.id);
        return taken(e, "messages_id_key", Entity::Message, id);
    }
    if violates(&e, "squash_operations_id_key") {
        return operation_taken(e);
    }
    taken(e, "threads_id_key", Entity::Thread, thread)
}

/// Binds the thread's parameters after its id and conversation key (see [`thread_ctes`]).
fn bind_thread<'q, O>(
    query: ThreadQuery<'q, O>,
    row: &ThreadInsert<'q>,
    new_thread: &NewThread<'_>,
    cols: RunColumns,
    own: bool,
) -> Result<ThreadQuery<'q, O>> {
    let (tail_start, tail_offset) = new_thread.tail();
    Ok(query
        .bind(row.base_key)
        .bind(row.origin)
        .bind(to_i64("link count", row.message_count)?)
        .bind(Utc::now())
        .bind(to_i64("tail start", tail_start)?)
        .bind(to_i64("tail offset", tail_offset)?)
        .bind(cols.starts)
        .bind(cols.lengths)
        .bind(cols.sources)
        .bind(cols.offsets)
        .bind(own))
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
