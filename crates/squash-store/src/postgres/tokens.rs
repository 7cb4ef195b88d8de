//! Token sums over the stored per-message estimates, and the fill of rows stored before there
//! were any (see `crate::tokens`).

use sqlx::{PgPool, Postgres, Transaction};
use squash_core::{ProjectId, ThreadId};

use super::error::DbResult;
use super::rows::{to_u64, ConversationRow};
use super::sql::{conversation_columns, conversation_from, thread_tokens_sum};
use crate::tokens::{row_tokens, sum_to_u64, BACKFILL_BATCH};
use crate::{ConversationSummary, Entity, Result, StoreError};

/// The estimated tokens of the thread whose key is `thread_key`.
pub(super) async fn thread_key_tokens(
    conn: &mut sqlx::PgConnection,
    thread_key: i64,
) -> Result<u64> {
    let sum: i64 = sqlx::query_scalar(concat!("SELECT ", thread_tokens_sum!("$1")))
        .bind(thread_key)
        .fetch_one(conn)
        .await
        .db()?;
    sum_to_u64(sum)
}

pub(super) async fn thread_tokens(pool: &PgPool, id: ThreadId) -> Result<u64> {
    let sum: Option<i64> = sqlx::query_scalar(concat!(
        "SELECT ",
        thread_tokens_sum!("t.key"),
        " FROM threads t WHERE t.id = $1"
    ))
    .bind(id.as_uuid())
    .fetch_optional(pool)
    .await
    .db()?;
    sum_to_u64(sum.ok_or_else(|| StoreError::not_found(Entity::Thread, id))?)
}

#[derive(sqlx::FromRow)]
struct SummaryRow {
    #[sqlx(flatten)]
    conversation: ConversationRow,
    /// NULL only if the conversation has no current thread, which the conversion refuses.
    message_count: Option<i64>,
    tokens: i64,
}

/// The conversations as `read::conversations` lists them, with their current threads' sizes.
pub(super) async fn summaries(
    pool: &PgPool,
    project: Option<ProjectId>,
) -> Result<Vec<ConversationSummary>> {
    let rows: Vec<SummaryRow> = sqlx::query_as(concat!(
        "SELECT ",
        conversation_columns!(),
        ", t.message_count, ",
        thread_tokens_sum!("t.key"),
        " AS tokens",
        conversation_from!(),
        " WHERE $1::uuid IS NULL OR p.id = $1 ORDER BY c.updated_at DESC, c.key DESC"
    ))
    .bind(project.map(|p| *p.as_uuid()))
    .fetch_all(pool)
    .await
    .db()?;
    rows.into_iter()
        .map(|row| {
            Ok(ConversationSummary {
                conversation: row.conversation.try_into()?,
                message_count: to_u64("thread message count", row.message_count.unwrap_or(0))?,
                tokens: sum_to_u64(row.tokens)?,
            })
        })
        .collect()
}

/// Fills `tokens` where it is NULL, a batch at a time, in `tx`. Returns how many rows it
/// filled. Another instance filling at the same time is harmless: both compute the same
/// numbers, and a row already filled is skipped.
pub(super) async fn backfill(tx: &mut Transaction<'_, Postgres>) -> Result<u64> {
    let (mut after, mut filled) = (i64::MIN, 0u64);
    loop {
        let batch: Vec<(i64, String, String)> = sqlx::query_as(
            "SELECT key, role, content FROM messages \
             WHERE tokens IS NULL AND key > $1 ORDER BY key LIMIT $2",
        )
        .bind(after)
        .bind(BACKFILL_BATCH)
        .fetch_all(&mut **tx)
        .await
        .db()?;
        let Some(last) = batch.last() else {
            return Ok(filled);
        };
        after = last.0;
        let keys: Vec<i64> = batch.iter().map(|(key, _, _)| *key).collect();
        let tokens: Vec<i64> = batch
            .iter()
            .map(|(key, role, content)| row_tokens(*key, role, content))
            .collect::<Result<_>>()?;
        sqlx::query(
            "UPDATE messages SET tokens = u.tokens \
             FROM UNNEST($1::bigint[], $2::bigint[]) AS u(key, tokens) \
             WHERE messages.key = u.key AND messages.tokens IS NULL",
        )
        .bind(&keys)
        .bind(&tokens)
        .execute(&mut **tx)
        .await
        .db()?;
        filled += batch.len() as u64;
    }
}
