//! Conversations imported from parts of another's source (Claude Code's sub-agent runs), found
//! by their source keys: a part's key is its whole's followed by `/`.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use squash_core::ConversationId;

use super::error::DbResult;
use super::import::RecordRow;
use super::rows::{to_u64, ConversationRow};
use super::sql::{conversation_columns, conversation_from, thread_tokens_sum};
use crate::tokens::sum_to_u64;
use crate::types::{ConversationSummary, ImportedPart};
use crate::Result;

#[derive(sqlx::FromRow)]
struct PartRow {
    #[sqlx(flatten)]
    conversation: ConversationRow,
    message_count: Option<i64>,
    tokens: i64,
    source_key: String,
    format: String,
    content_hash: String,
    metadata: Option<String>,
    imported_at: DateTime<Utc>,
}

pub(super) async fn import_parts_of(
    pool: &PgPool,
    conversation: ConversationId,
) -> Result<Vec<ImportedPart>> {
    // `starts_with` compares bytes, whatever the database's collation; a key may hold `%`.
    let rows: Vec<PartRow> = sqlx::query_as(concat!(
        "SELECT ",
        conversation_columns!(),
        ", t.message_count, ",
        thread_tokens_sum!("t.key"),
        " AS tokens, i.source_key, i.format, i.content_hash, i.metadata, i.imported_at",
        conversation_from!(),
        " JOIN imports i ON i.conversation_key = c.key \
          JOIN imports w ON starts_with(i.source_key, w.source_key || '/') \
          JOIN conversations wc ON wc.key = w.conversation_key \
          WHERE wc.id = $1 ORDER BY i.key"
    ))
    .bind(conversation.as_uuid())
    .fetch_all(pool)
    .await
    .db()?;
    rows.into_iter()
        .map(|row| {
            let record = RecordRow {
                source_key: row.source_key,
                format: row.format,
                content_hash: row.content_hash,
                metadata: row.metadata,
                conversation_id: row.conversation.id,
                imported_at: row.imported_at,
            };
            Ok(ImportedPart {
                record: record.try_into()?,
                summary: ConversationSummary {
                    conversation: row.conversation.try_into()?,
                    message_count: to_u64("thread message count", row.message_count.unwrap_or(0))?,
                    tokens: sum_to_u64(row.tokens)?,
                },
            })
        })
        .collect()
}
