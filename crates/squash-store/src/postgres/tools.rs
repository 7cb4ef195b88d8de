//! The tool-pair closure: every message tied to the seed by a chain of shared tool-use ids.

use std::collections::HashMap;

use sqlx::PgPool;
use squash_core::{ContentItem, ConversationId, KnownPositions, MessageId, ToolRefs};
use uuid::Uuid;

use super::error::DbResult;
use super::fetch;
use super::rows::{to_u64, ThreadRow};
use super::sql::position_in_thread;
use super::sql::{is_current_thread, thread_columns, thread_from};
use crate::types::{ClosurePositions, ThreadPositions};
use crate::{Entity, Result, StoreError};

/// The closure of the seed ids `$2::uuid[]` in the conversation whose id is `$1`, as the CTE
/// `refs(id, key, content)`: each message of it, with its content only when it holds a tool id
/// (the others' refs are empty, and their content may be large). Follows `WITH RECURSIVE`.
///
/// Every step is an index probe whatever the planner estimates: a recursive CTE's size is a
/// guess (thousands of rows), and on a freshly imported conversation there are no statistics
/// yet, so a plain join planned hash joins over every message and tool row of the database
/// (~100 ms at 100,000 messages, against 0.5 ms this way). `OFFSET 0` keeps the lateral lookup
/// per row, `= ANY(ARRAY(…))` reads the result by primary key, and `LIMIT 1` keeps the "holds
/// a tool id" test a probe rather than a hashed scan of the whole table. The seeds are found by
/// id alone, their conversation checked after: with both conditions on `messages` the generic
/// plan ANDed a bitmap of the conversation's every row (100,000 at 100,000 messages, 4–5 ms of
/// a squash's 5 ms statement) with the ids' probes.
macro_rules! closure_refs_ctes {
    () => {
        "conv AS (SELECT key FROM conversations WHERE id = $1), \
         closure(key) AS ( \
             SELECT m.key FROM conv, UNNEST($2::uuid[]) AS seed(id) \
             CROSS JOIN LATERAL ( \
                 SELECT key, conversation_key FROM messages WHERE id = seed.id OFFSET 0) m \
             WHERE m.conversation_key = conv.key \
           UNION \
             SELECT tied.message_key FROM closure cl CROSS JOIN LATERAL ( \
                 SELECT other.message_key \
                 FROM message_tools mine \
                 JOIN message_tools other \
                   ON other.conversation_key = mine.conversation_key \
                  AND other.tool_use_id = mine.tool_use_id \
                 WHERE mine.message_key = cl.key OFFSET 0) tied \
         ), refs AS ( \
             SELECT m.id, m.key, CASE WHEN ht.has_tools THEN m.content END AS content \
             FROM messages m \
             LEFT JOIN LATERAL ( \
                 SELECT true AS has_tools FROM message_tools mt \
                 WHERE mt.message_key = m.key LIMIT 1 \
             ) ht ON true \
             WHERE m.key = ANY(ARRAY(SELECT key FROM closure)) \
         )"
    };
}

#[derive(sqlx::FromRow)]
struct ClosureRow {
    id: Uuid,
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
    let rows: Vec<ClosureRow> = sqlx::query_as(concat!(
        "WITH RECURSIVE ",
        closure_refs_ctes!(),
        " SELECT id, content FROM refs"
    ))
    .bind(conversation.as_uuid())
    .bind(&seed_ids)
    .fetch_all(pool)
    .await
    .db()?;
    if rows.is_empty() {
        let sql = "SELECT 1 FROM conversations WHERE id = $1";
        fetch::exists(pool, sql, Entity::Conversation, conversation.as_uuid()).await?;
    }
    refs_of(seed, rows.into_iter().map(|r| (r.id, r.content)))
}

#[derive(sqlx::FromRow)]
struct ClosurePositionsRow {
    #[sqlx(flatten)]
    thread: ThreadRow,
    ids: Option<Vec<Uuid>>,
    contents: Option<Vec<Option<String>>>,
    positions: Option<Vec<Option<i64>>>,
}

/// [`closure`] and the current thread's header with the positions of the closure's messages
/// (the seed among them) in one statement: one round trip and one snapshot where the two calls
/// took two. No row means no conversation (or no current thread), as for `thread_positions`.
pub(super) async fn closure_positions(
    pool: &PgPool,
    conversation: ConversationId,
    seed: &[MessageId],
) -> Result<ClosurePositions> {
    let seed_ids: Vec<Uuid> = seed.iter().map(|id| *id.as_uuid()).collect();
    let row: Option<ClosurePositionsRow> = sqlx::query_as(concat!(
        "WITH RECURSIVE ",
        closure_refs_ctes!(),
        " SELECT ",
        thread_columns!(),
        ", cl.ids, cl.contents, cl.positions",
        thread_from!(),
        " CROSS JOIN LATERAL ( \
              SELECT array_agg(refs.id) AS ids, array_agg(refs.content) AS contents, \
                     array_agg(",
        position_in_thread!("refs.key", "t.key"),
        ") AS positions FROM refs) cl \
          WHERE ",
        is_current_thread!()
    ))
    .bind(conversation.as_uuid())
    .bind(&seed_ids)
    .fetch_optional(pool)
    .await
    .db()?;
    let row = row.ok_or_else(|| StoreError::not_found(Entity::Conversation, conversation))?;
    let ids = row.ids.unwrap_or_default();
    let contents = row.contents.unwrap_or_default();
    let at = row.positions.unwrap_or_default();
    if ids.len() != contents.len() || ids.len() != at.len() {
        return Err(StoreError::Corrupt(
            "the closure's columns do not match".into(),
        ));
    }
    let mut positions = KnownPositions {
        asked: ids.iter().map(|id| MessageId::from_uuid(*id)).collect(),
        ..KnownPositions::default()
    };
    for (id, p) in ids.iter().zip(at) {
        if let Some(p) = p {
            let p = to_u64("a link position", p)?;
            positions.found.insert(MessageId::from_uuid(*id), p);
        }
    }
    let refs = refs_of(seed, ids.into_iter().zip(contents))?;
    Ok(ClosurePositions {
        refs,
        positions: ThreadPositions {
            thread: row.thread.try_into()?,
            positions,
        },
    })
}

/// The tool refs of the closure's messages `(id, content when it holds a tool id)`;
/// [`StoreError::NotFound`] for a seed id that is not among them (not a message of the
/// conversation).
fn refs_of(
    seed: &[MessageId],
    rows: impl ExactSizeIterator<Item = (Uuid, Option<String>)>,
) -> Result<HashMap<MessageId, ToolRefs>> {
    let mut refs = HashMap::with_capacity(rows.len());
    for (id, content) in rows {
        let message_refs = match &content {
            // Parsed rather than rebuilt from message_tools so that calls and results come in
            // content order, exactly as `Message::tool_refs` gives them.
            Some(text) => {
                let content: Vec<ContentItem> = serde_json::from_str(text)
                    .map_err(|e| StoreError::Corrupt(format!("message content of {id}: {e}")))?;
                ToolRefs::of(&content)
            }
            None => ToolRefs::default(),
        };
        refs.insert(MessageId::from_uuid(id), message_refs);
    }
    if let Some(missing) = seed.iter().find(|id| !refs.contains_key(id)) {
        return Err(StoreError::not_found(Entity::Message, missing));
    }
    Ok(refs)
}
