//! Token sums over the stored per-message estimates (see `crate::tokens`).

use sqlx::PgPool;
use squash_core::{ProjectId, ThreadId};

use super::error::DbResult;
use super::rows::{to_u64, ConversationRow};
use super::sql::{conversation_from, summary_columns, thread_tokens_sum};
use crate::tokens::sum_to_u64;
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

/// A row of [`summary_columns`].
#[derive(sqlx::FromRow)]
pub(super) struct SummaryRow {
    #[sqlx(flatten)]
    pub conversation: ConversationRow,
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
        summary_columns!(),
        conversation_from!(),
        " WHERE $1::uuid IS NULL OR p.id = $1 ORDER BY c.updated_at DESC, c.key DESC"
    ))
    .bind(project.map(|p| *p.as_uuid()))
    .fetch_all(pool)
    .await
    .db()?;
    rows.into_iter()
        .map(ConversationSummary::try_from)
        .collect()
}

impl TryFrom<SummaryRow> for ConversationSummary {
    type Error = StoreError;

    fn try_from(row: SummaryRow) -> Result<Self> {
        Ok(ConversationSummary {
            conversation: row.conversation.try_into()?,
            message_count: to_u64("thread message count", row.message_count.unwrap_or(0))?,
            tokens: sum_to_u64(row.tokens)?,
        })
    }
}
