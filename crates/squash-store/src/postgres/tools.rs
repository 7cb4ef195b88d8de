//! The tool-pair closure: every message tied to the seed by a chain of shared tool-use ids.

use std::collections::HashMap;

use sqlx::PgPool;
use squash_core::{ContentItem, ConversationId, MessageId, ToolRefs};
use uuid::Uuid;

use super::error::DbResult;
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
    let conversation_key: i64 = sqlx::query_scalar("SELECT key FROM conversations WHERE id = $1")
        .bind(conversation.as_uuid())
        .fetch_optional(pool)
        .await
        .db()?
        .ok_or_else(|| StoreError::not_found(Entity::Conversation, conversation))?;
    let seed_ids: Vec<Uuid> = seed.iter().map(|id| *id.as_uuid()).collect();
    // The recursive term sees only the messages the previous round added, and UNION drops the
    // ones already found, so this is the fixpoint iteration done in one round trip.
    let rows: Vec<ClosureRow> = sqlx::query_as(
        "WITH RECURSIVE closure(key) AS ( \
             SELECT m.key FROM messages m \
             WHERE m.conversation_key = $1 AND m.id = ANY($2::uuid[]) \
           UNION \
             SELECT other.message_key \
             FROM closure cl \
             JOIN message_tools mine ON mine.message_key = cl.key \
             JOIN message_tools other \
               ON other.conversation_key = $1 AND other.tool_use_id = mine.tool_use_id \
         ) \
         SELECT m.id, \
                CASE WHEN EXISTS (SELECT 1 FROM message_tools mt WHERE mt.message_key = m.key) \
                     THEN m.content END AS content \
         FROM closure cl JOIN messages m ON m.key = cl.key",
    )
    .bind(conversation_key)
    .bind(&seed_ids)
    .fetch_all(pool)
    .await
    .db()?;

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
