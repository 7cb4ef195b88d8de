//! Copy-on-write: a derived thread with its new messages and provenance records, stored in one
//! transaction and only if its base is still current at the same revision.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use squash_core::{MessageId, SquashOperation, Thread, ThreadId};
use uuid::Uuid;

use super::error::{taken, DbResult};
use super::links;
use super::rows::{to_i64, to_json, to_u64, NewMessageRow};
use super::sql::insert_message_ctes;
use super::write::{bind_message, lock};
use crate::{check, Commit, Entity, NewLinks, Result, StoreError};

pub(super) async fn commit(pool: &PgPool, commit: &Commit) -> Result<Thread> {
    check::commit_shape(commit)?;
    let message_rows = commit
        .messages
        .iter()
        .map(NewMessageRow::of)
        .collect::<Result<Vec<_>>>()?;
    let mut tx = pool.begin().await.db()?;
    let locked = lock(&mut tx, commit.conversation_id).await?;
    if locked.thread_id != commit.base_thread_id
        || to_u64("thread revision", locked.revision)? != commit.base_revision
    {
        return Err(locked.conflict()?);
    }
    let conversation_key = locked.conversation_key;
    let base_count = to_u64("message count", locked.message_count)?;
    let message_count = check::new_link_count(commit, base_count)?;

    let mut message_keys = Vec::with_capacity(message_rows.len());
    for (message, row) in commit.messages.iter().zip(&message_rows) {
        let key: i64 = bind_message(
            sqlx::query_scalar(concat!(
                "WITH ",
                insert_message_ctes!(),
                " SELECT key FROM m"
            )),
            conversation_key,
            row,
        )
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| taken(e, "messages_id_key", Entity::Message, message.id))?;
        message_keys.push(key);
    }

    let (thread_key, created_at): (i64, DateTime<Utc>) = sqlx::query_as(
        "INSERT INTO threads (id, conversation_key, original_thread_key, origin, revision, \
                              message_count, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, 0, $5, $6, $6) RETURNING key, created_at",
    )
    .bind(commit.thread_id.as_uuid())
    .bind(conversation_key)
    .bind(locked.thread_key)
    .bind(to_json(&commit.origin)?)
    .bind(to_i64("link count", message_count)?)
    .bind(Utc::now())
    .fetch_one(&mut *tx)
    .await
    .map_err(|e| taken(e, "threads_id_key", Entity::Thread, commit.thread_id))?;

    match &commit.links {
        NewLinks::List(links) => {
            let linked = insert_links(
                &mut tx,
                "INSERT INTO thread_messages (thread_key, position, message_key)",
                thread_key,
                conversation_key,
                links,
            )
            .await?;
            if let Some(missing) = linked {
                return Err(check::not_in_conversation(missing, commit.conversation_id));
            }
        }
        NewLinks::Edit(edit) => {
            let runs = links::runs(&mut tx, locked.thread_key, base_count).await?;
            let written = links::write_derived(
                &mut tx,
                thread_key,
                locked.thread_key,
                &runs,
                edit,
                message_keys.first().copied(),
            )
            .await?;
            if written != message_count {
                return Err(StoreError::Corrupt(format!(
                    "thread {} has {written} of its {base_count} links",
                    commit.base_thread_id
                )));
            }
        }
    }

    for op in &commit.operations {
        let result_thread_key =
            (op.result_thread_id == Some(commit.thread_id)).then_some(thread_key);
        insert_operation(&mut tx, conversation_key, op, result_thread_key).await?;
    }

    sqlx::query("UPDATE conversations SET current_thread_key = $1, updated_at = $2 WHERE key = $3")
        .bind(thread_key)
        .bind(Utc::now())
        .bind(conversation_key)
        .execute(&mut *tx)
        .await
        .db()?;
    tx.commit().await.db()?;

    Ok(Thread {
        id: commit.thread_id,
        conversation_id: commit.conversation_id,
        original_thread_id: Some(commit.base_thread_id),
        origin: commit.origin.clone(),
        revision: 0,
        message_count,
        created_at,
        updated_at: created_at,
    })
}

/// Writes one row per id into the link table `insert` names — `(parent, position, message
/// key)` — in a single statement. Returns an id that is not a message of the conversation, if
/// any; the caller then drops the transaction.
async fn insert_links(
    conn: &mut PgConnection,
    insert: &str,
    parent_key: i64,
    conversation_key: i64,
    ids: &[MessageId],
) -> Result<Option<MessageId>> {
    let uuids: Vec<Uuid> = ids.iter().map(|id| *id.as_uuid()).collect();
    let statement = format!(
        "{insert} SELECT $1, l.ord - 1, m.key \
         FROM UNNEST($2::uuid[]) WITH ORDINALITY AS l(id, ord) \
         JOIN messages m ON m.id = l.id AND m.conversation_key = $3"
    );
    let written = sqlx::query(&statement)
        .bind(parent_key)
        .bind(&uuids)
        .bind(conversation_key)
        .execute(&mut *conn)
        .await
        .db()?
        .rows_affected();
    if written == ids.len() as u64 {
        return Ok(None);
    }
    let missing: Option<Uuid> = sqlx::query_scalar(
        "SELECT l.id FROM UNNEST($1::uuid[]) AS l(id) \
         WHERE NOT EXISTS (SELECT 1 FROM messages m \
                           WHERE m.id = l.id AND m.conversation_key = $2) \
         LIMIT 1",
    )
    .bind(&uuids)
    .bind(conversation_key)
    .fetch_optional(&mut *conn)
    .await
    .db()?;
    missing
        .map(|id| Some(id.into()))
        .ok_or_else(|| StoreError::Corrupt("link count does not match the messages found".into()))
}

pub(super) async fn insert_operation(
    conn: &mut PgConnection,
    conversation_key: i64,
    op: &SquashOperation,
    result_thread_key: Option<i64>,
) -> Result<()> {
    let (result_message_key, base_thread_key, other_result_thread_key): (
        Option<i64>,
        Option<i64>,
        Option<i64>,
    ) = sqlx::query_as(
        "SELECT (SELECT key FROM messages WHERE id = $1 AND conversation_key = $4), \
                (SELECT key FROM threads WHERE id = $2 AND conversation_key = $4), \
                (SELECT key FROM threads WHERE id = $3 AND conversation_key = $4)",
    )
    .bind(op.result_message_id.as_uuid())
    .bind(op.base_thread_id.map(|id| *id.as_uuid()))
    .bind(op.result_thread_id.map(|id| *id.as_uuid()))
    .bind(conversation_key)
    .fetch_one(&mut *conn)
    .await
    .db()?;
    let result_message_key = result_message_key
        .ok_or_else(|| StoreError::not_found(Entity::Message, op.result_message_id))?;
    let base_thread_key = thread_key_of(op.base_thread_id, base_thread_key)?;
    let result_thread_key = match result_thread_key {
        Some(key) => Some(key),
        None => thread_key_of(op.result_thread_id, other_result_thread_key)?,
    };
    let usage = op
        .usage
        .map(|u| {
            Ok::<_, StoreError>((
                to_i64("input tokens", u.input_tokens)?,
                to_i64("output tokens", u.output_tokens)?,
            ))
        })
        .transpose()?;
    let operation_key: i64 = sqlx::query_scalar(
        "INSERT INTO squash_operations (id, conversation_key, result_message_key, prompt, model, \
             performed_by_agent, performed_by, custom_instructions, provider, base_thread_key, \
             result_thread_key, input_tokens, output_tokens, duration_ms, created_at, style, \
             prompt_style) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) \
         RETURNING key",
    )
    .bind(op.id.as_uuid())
    .bind(conversation_key)
    .bind(result_message_key)
    .bind(&op.prompt)
    .bind(&op.model)
    .bind(op.performed_by_agent)
    .bind(&op.performed_by)
    .bind(&op.custom_instructions)
    .bind(&op.provider)
    .bind(base_thread_key)
    .bind(result_thread_key)
    .bind(usage.map(|u| u.0))
    .bind(usage.map(|u| u.1))
    .bind(op.duration_ms.map(|d| to_i64("duration", d)).transpose()?)
    .bind(op.created_at)
    .bind(op.style.map(|s| s.as_str()))
    .bind(op.prompt_style.map(|s| s.as_str()))
    .fetch_one(&mut *conn)
    .await
    .map_err(|e| taken(e, "squash_operations_id_key", Entity::Operation, op.id))?;
    let missing = insert_links(
        conn,
        "INSERT INTO squash_operation_sources (operation_key, position, message_key)",
        operation_key,
        conversation_key,
        &op.source_message_ids,
    )
    .await?;
    match missing {
        Some(id) => Err(StoreError::not_found(Entity::Message, id)),
        None => Ok(()),
    }
}

/// A thread reference the operation names must be a thread of the conversation.
fn thread_key_of(id: Option<ThreadId>, key: Option<i64>) -> Result<Option<i64>> {
    match (id, key) {
        (None, _) => Ok(None),
        (Some(_), Some(key)) => Ok(Some(key)),
        (Some(id), None) => Err(StoreError::not_found(Entity::Thread, id)),
    }
}
