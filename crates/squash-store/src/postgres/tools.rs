//! The tool-pair closure: every message tied to the seed by a chain of shared tool-use ids.

use std::collections::HashMap;

use sqlx::PgPool;
use squash_core::{ContentItem, ConversationId, MessageId, ToolRefs};
use uuid::Uuid;

use super::error::DbResult;
use super::fetch;
use crate::{Entity, Result, StoreError};

#[derive(sqlx::FromRow)]
struct ClosureRow {
    id: Uuid,
    /// Only for messages that hold a tool id: the others' refs are empty, and their content may
    /// be large.
    content: Option<String>,
}

pub(super) async fn closure(
    pool: &PgPool,
    conversation: ConversationId,
    seed: &[MessageId],
) -> Result<HashMap<MessageId, ToolRefs>> {
    let seed_ids: Vec<Uuid> = seed.iter().map(|id| *id.as_uuid()).collect();
    // One round trip: the conversation's key is a subquery. No row is either an empty closure
    // or no conversation, which a second statement tells apart.
    let rows: Vec<ClosureRow> = sqlx::query_as(
        "WITH RECURSIVE conv AS (SELECT key FROM conversations WHERE id = $1), \
         closure(key) AS ( \
             SELECT m.key FROM messages m, conv \
             WHERE m.conversation_key = conv.key AND m.id = ANY($2::uuid[]) \
           UNION \
             SELECT other.message_key \
             FROM closure cl \
             JOIN message_tools mine ON mine.message_key = cl.key \
             JOIN message_tools other \
               ON other.conversation_key = (SELECT key FROM conv) \
              AND other.tool_use_id = mine.tool_use_id \
         ) \
         SELECT m.id, \
                CASE WHEN EXISTS (SELECT 1 FROM message_tools mt WHERE mt.message_key = m.key) \
                     THEN m.content END AS content \
         FROM closure cl JOIN messages m ON m.key = cl.key",
    )
    .bind(conversation.as_uuid())
    .bind(&seed_ids)
    .fetch_all(pool)
    .await
    .db()?;
    if rows.is_empty() {
        let sql = "SELECT 1 FROM conversations WHERE id = $1";
        fetch::exists(pool, sql, Entity::Conversation, conversation.as_uuid()).await?;
    }

    let mut refs = HashMap::with_capacity(rows.len());
    for row in rows {
        let message_refs = match &row.content {
            // Parsed rather than rebuilt from message_tools so that calls and results come in
            // content order, exactly as `Message::tool_refs` gives them.
            Some(text) => {
                let content: Vec<ContentItem> = serde_json::from_str(text).map_err(|e| {
                    StoreError::Corrupt(format!("message content of {}: {e}", row.id))
                })?;
                ToolRefs::of(&content)
            }
            None => ToolRefs::default(),
        };
        refs.insert(MessageId::from_uuid(row.id), message_refs);
    }
    if let Some(missing) = seed.iter().find(|id| !refs.contains_key(id)) {
        return Err(StoreError::not_found(Entity::Message, missing));
    }
    Ok(refs)
}
