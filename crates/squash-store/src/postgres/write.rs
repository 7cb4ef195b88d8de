//! Writes to a conversation's threads. Each function is one transaction that first locks the
//! conversation row, which serializes the conversation's writers while readers go on.

use chrono::Utc;
use sqlx::postgres::PgArguments;
use sqlx::query::QueryScalar;
use sqlx::{PgConnection, PgPool, Postgres};
use squash_core::{Conversation, ConversationId, Message, ThreadId};
use uuid::Uuid;

use super::error::{taken, DbResult};
use super::read;
use super::rows::{to_u64, ConversationRow, NewMessageRow};
use super::sql::insert_message_ctes;
use super::sql::position_in_thread;
use crate::{Appended, Direction, Entity, Result, StoreError};

/// A conversation row locked for this transaction, and its current thread as of the lock.
pub(super) struct Locked {
    pub conversation_key: i64,
    pub thread_key: i64,
    pub thread_id: ThreadId,
    pub revision: i64,
    pub message_count: i64,
}

impl Locked {
    pub fn conflict(&self) -> Result<StoreError> {
        Ok(StoreError::Conflict {
            current: self.thread_id,
            revision: to_u64("thread revision", self.revision)?,
        })
    }

    /// What an append to the locked thread reports: its message at the old end, and the
    /// thread's `revision` after it.
    pub fn appended(&self, revision: i64) -> Result<Appended> {
        Ok(Appended {
            thread_id: self.thread_id,
            position: to_u64("thread message count", self.message_count)?,
            revision: to_u64("thread revision", revision)?,
        })
    }
}

pub(super) async fn lock(conn: &mut PgConnection, id: ConversationId) -> Result<Locked> {
    Ok(lock_reading(conn, id, false).await?.0)
}

/// [`lock`], and the current thread's runs (its layout, `crate::segments`) in the same round trip:
/// what a commit derives its new thread from.
pub(super) async fn lock_with_runs(
    conn: &mut PgConnection,
    id: ConversationId,
) -> Result<(Locked, Vec<(i64, i64, i64, i64)>)> {
    lock_reading(conn, id, true).await
}

#[derive(sqlx::FromRow)]
struct LockedThreadRow {
    id: Uuid,
    revision: i64,
    message_count: i64,
    starts: Option<Vec<i64>>,
    lengths: Option<Vec<i64>>,
    sources: Option<Vec<i64>>,
    offsets: Option<Vec<i64>>,
}

async fn lock_reading(
    conn: &mut PgConnection,
    id: ConversationId,
    with_runs: bool,
) -> Result<(Locked, Vec<(i64, i64, i64, i64)>)> {
    let row: Option<(i64, Option<i64>)> = sqlx::query_as(
        "SELECT key, current_thread_key FROM conversations WHERE id = $1 FOR UPDATE",
    )
    .bind(id.as_uuid())
    .fetch_optional(&mut *conn)
    .await
    .db()?;
    let (conversation_key, thread_key) =
        row.ok_or_else(|| StoreError::not_found(Entity::Conversation, id))?;
    let thread_key = thread_key
        .ok_or_else(|| StoreError::Corrupt(format!("conversation {id} has no current thread")))?;
    // A separate statement on purpose: under READ COMMITTED it takes a fresh snapshot after the
    // lock was granted, so it sees the thread as the previous lock holder committed it. Joined
    // into the locking query, the thread columns would come from the snapshot taken before
    // waiting.
    //
    // Every write of a conversation takes this lock: the one place its change is announced, in
    // the same round trip. PostgreSQL delivers the notification when the transaction commits,
    // never if it rolls back (a conflict, a failed check), and once however often it was sent.
    let row: LockedThreadRow = sqlx::query_as(concat!(
        "SELECT t.id, t.revision, t.message_count, r.starts, r.lengths, r.sources, r.offsets \
         FROM threads t CROSS JOIN (SELECT pg_notify($2, $3)) AS announced \
         CROSS JOIN LATERAL ( \
             SELECT array_agg(ru.start ORDER BY ru.start) AS starts, \
                    array_agg(ru.length ORDER BY ru.start) AS lengths, \
                    array_agg(ru.src ORDER BY ru.start) AS sources, \
                    array_agg(ru.off ORDER BY ru.start) AS offsets \
             FROM ",
        crate::segments::thread_runs!("t.key"),
        " ru WHERE $4) r WHERE t.key = $1"
    ))
    .bind(thread_key)
    .bind(crate::changes::CHANNEL)
    .bind(id.to_string())
    .bind(with_runs)
    .fetch_one(&mut *conn)
    .await
    .db()?;
    // array_agg over no row is NULL: a thread without runs (or none asked for).
    let (starts, lengths, sources, offsets) = (
        row.starts.unwrap_or_default(),
        row.lengths.unwrap_or_default(),
        row.sources.unwrap_or_default(),
        row.offsets.unwrap_or_default(),
    );
    let runs = (0..starts.len())
        .map(|i| {
            match (
                starts.get(i),
                lengths.get(i),
                sources.get(i),
                offsets.get(i),
            ) {
                (Some(s), Some(l), Some(k), Some(o)) => Ok((*s, *l, *k, *o)),
                _ => Err(StoreError::Corrupt("a thread run is incomplete".into())),
            }
        })
        .collect::<Result<_>>()?;
    Ok((
        Locked {
            conversation_key,
            thread_key,
            thread_id: row.id.into(),
            revision: row.revision,
            message_count: row.message_count,
        },
        runs,
    ))
}

pub(super) type Scalar<'q> = QueryScalar<'q, Postgres, i64, PgArguments>;

/// Binds a new message's row to a statement built on `insert_message_ctes` ($1–$14), whatever
/// kind of query it is (a macro: sqlx's query types share `bind` by name, not by a trait).
macro_rules! bind_message_row {
    ($query:expr, $conversation_key:expr, $row:expr) => {{
        let row: &NewMessageRow = $row;
        $query
            .bind(row.id)
            .bind($conversation_key)
            .bind(row.squash_operation_id)
            .bind(row.reply_to)
            .bind(row.role)
            .bind(&row.content)
            .bind(&row.instructions)
            .bind(&row.metadata)
            .bind(row.created_at)
            .bind(&row.tool_ids)
            .bind(&row.tool_is_result)
            .bind(row.tokens)
            .bind(&row.search_text)
            .bind(&row.search_terms)
    }};
}

pub(super) use bind_message_row;

pub(super) fn bind_message<'q>(
    query: Scalar<'q>,
    conversation_key: i64,
    row: &'q NewMessageRow,
) -> Scalar<'q> {
    bind_message_row!(query, conversation_key, row)
}

pub(super) async fn append(pool: &PgPool, message: &Message) -> Result<Appended> {
    let row = NewMessageRow::of(message)?;
    let mut tx = pool.begin().await.db()?;
    let locked = lock(&mut tx, message.conversation_id).await?;
    if let Some(question) = message.reply_to {
        let holds: bool = sqlx::query_scalar(concat!(
            "SELECT EXISTS (SELECT 1 FROM messages m WHERE m.id = $2 AND ",
            position_in_thread!("m.key", "$1"),
            " IS NOT NULL)"
        ))
        .bind(locked.thread_key)
        .bind(question.as_uuid())
        .fetch_one(&mut *tx)
        .await
        .db()?;
        if !holds {
            return Err(locked.conflict()?);
        }
    }
    // Everything else in one round trip: the lock above is what makes the position safe.
    let revision: i64 = bind_message(
        sqlx::query_scalar(concat!(
            "WITH ",
            insert_message_ctes!(),
            ", link AS ( \
                 INSERT INTO thread_messages (thread_key, position, message_key) \
                 SELECT $15, t.tail_offset + $16 - t.tail_start, m.key \
                 FROM m, threads t WHERE t.key = $15 \
             ), touch AS ( \
                 UPDATE conversations SET updated_at = $17 WHERE key = $2 \
             ) \
             UPDATE threads SET revision = revision + 1, message_count = message_count + 1, \
                                updated_at = $17 \
             WHERE key = $15 RETURNING revision"
        )),
        locked.conversation_key,
        &row,
    )
    .bind(locked.thread_key)
    .bind(locked.message_count)
    .bind(Utc::now())
    .fetch_one(&mut *tx)
    .await
    .map_err(|e| taken(e, "messages_id_key", Entity::Message, message.id))?;
    tx.commit().await.db()?;
    locked.appended(revision)
}

pub(super) async fn switch_thread(
    pool: &PgPool,
    conversation: ConversationId,
    to: ThreadId,
    expected: ThreadId,
) -> Result<Conversation> {
    let mut tx = pool.begin().await.db()?;
    let locked = lock(&mut tx, conversation).await?;
    if locked.thread_id != expected {
        return Err(locked.conflict()?);
    }
    let to_key: i64 =
        sqlx::query_scalar("SELECT key FROM threads WHERE id = $1 AND conversation_key = $2")
            .bind(to.as_uuid())
            .bind(locked.conversation_key)
            .fetch_optional(&mut *tx)
            .await
            .db()?
            .ok_or_else(|| StoreError::not_found(Entity::Thread, to))?;
    sqlx::query("UPDATE conversations SET current_thread_key = $1, updated_at = $2 WHERE key = $3")
        .bind(to_key)
        .bind(Utc::now())
        .bind(locked.conversation_key)
        .execute(&mut *tx)
        .await
        .db()?;
    let updated = read::conversation(&mut *tx, conversation).await?;
    tx.commit().await.db()?;
    Ok(updated)
}

/// The tail of a switch statement after its `target` CTE (one row, the thread key, possibly
/// NULL): makes the target current ($2 the time, $3 the conversation key) and returns the
/// conversation as `conversation_select!` does.
macro_rules! switch_to_target {
    () => {
        "u AS ( \
             UPDATE conversations SET current_thread_key = target.key, updated_at = $2 \
             FROM target WHERE conversations.key = $3 AND target.key IS NOT NULL \
             RETURNING conversations.* \
         ) \
         SELECT u.id, p.id AS project_id, u.display_name, t.id AS current_thread_id, \
                u.created_at, u.updated_at \
         FROM u JOIN projects p ON p.key = u.project_key \
         LEFT JOIN threads t ON t.key = u.current_thread_key"
    };
}

/// Undo/redo with the target found under the conversation's lock, from the thread current then.
pub(super) async fn switch_relative(
    pool: &PgPool,
    conversation: ConversationId,
    direction: Direction,
) -> Result<Option<Conversation>> {
    let mut tx = pool.begin().await.db()?;
    let locked = lock(&mut tx, conversation).await?;
    // Target, switch and the conversation the caller gets back in one round trip: no row
    // when there is no thread that way (then nothing was updated).
    let sql = match direction {
        Direction::Back => concat!(
            "WITH target AS (SELECT original_thread_key AS key FROM threads WHERE key = $1), ",
            switch_to_target!()
        ),
        // `threads_by_original`; keys grow with creation: the highest is the newest.
        Direction::Forward => concat!(
            "WITH target AS (SELECT key FROM threads WHERE original_thread_key = $1 \
                             ORDER BY key DESC LIMIT 1), ",
            switch_to_target!()
        ),
    };
    let row: Option<ConversationRow> = sqlx::query_as(sql)
        .bind(locked.thread_key)
        .bind(Utc::now())
        .bind(locked.conversation_key)
        .fetch_optional(&mut *tx)
        .await
        .db()?;
    let Some(row) = row else {
        return Ok(None);
    };
    tx.commit().await.db()?;
    Ok(Some(row.try_into()?))
}
