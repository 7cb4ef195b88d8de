//! Writes. Each function is one transaction; those that touch a conversation lock its row
//! first, which serializes its writers while readers go on.

use chrono::{DateTime, Utc};
use sqlx::postgres::PgArguments;
use sqlx::query::QueryScalar;
use sqlx::{PgConnection, PgPool, Postgres};
use squash_core::{
    Conversation, ConversationId, Message, MessageId, Project, ProjectId, SquashOperation, Thread,
    ThreadId, ThreadOrigin,
};
use uuid::Uuid;

use super::error::{taken, DbResult};
use super::read;
use super::rows::{to_i64, to_json, to_u64, NewMessageRow, ProjectRow};
use super::sql::project_select;
use crate::{Appended, Commit, Entity, Result, StoreError};

pub(super) async fn ensure_project(pool: &PgPool, path: &str) -> Result<Project> {
    // Two statements, not one with a CTE: after a concurrent insert of the same path, only a
    // new statement's snapshot sees the winner's row.
    sqlx::query(
        "INSERT INTO projects (id, path, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (path) DO NOTHING",
    )
    .bind(ProjectId::new().as_uuid())
    .bind(path)
    .bind(Utc::now())
    .execute(pool)
    .await
    .db()?;
    let row: Option<ProjectRow> = sqlx::query_as(concat!(project_select!(), " WHERE p.path = $1"))
        .bind(path)
        .fetch_optional(pool)
        .await
        .db()?;
    row.map(Into::into)
        .ok_or_else(|| StoreError::not_found(Entity::Project, path))
}

pub(super) async fn create_conversation(
    pool: &PgPool,
    project: ProjectId,
    name: &str,
) -> Result<Conversation> {
    let mut tx = pool.begin().await.db()?;
    let project_key: i64 = sqlx::query_scalar("SELECT key FROM projects WHERE id = $1")
        .bind(project.as_uuid())
        .fetch_optional(&mut *tx)
        .await
        .db()?
        .ok_or_else(|| StoreError::not_found(Entity::Project, project))?;
    let id = ConversationId::new();
    let now = Utc::now();
    let conversation_key: i64 = sqlx::query_scalar(
        "INSERT INTO conversations (id, project_key, display_name, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $4) RETURNING key",
    )
    .bind(id.as_uuid())
    .bind(project_key)
    .bind(name)
    .bind(now)
    .fetch_one(&mut *tx)
    .await
    .db()?;
    let thread_key: i64 = sqlx::query_scalar(
        "INSERT INTO threads (id, conversation_key, origin, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $4) RETURNING key",
    )
    .bind(ThreadId::new().as_uuid())
    .bind(conversation_key)
    .bind(to_json(&ThreadOrigin::Initial)?)
    .bind(now)
    .fetch_one(&mut *tx)
    .await
    .db()?;
    sqlx::query("UPDATE conversations SET current_thread_key = $1 WHERE key = $2")
        .bind(thread_key)
        .bind(conversation_key)
        .execute(&mut *tx)
        .await
        .db()?;
    let conversation = read::conversation(&mut *tx, id).await?;
    tx.commit().await.db()?;
    Ok(conversation)
}

pub(super) async fn rename_conversation(
    pool: &PgPool,
    id: ConversationId,
    name: &str,
) -> Result<Conversation> {
    let row: Option<super::rows::ConversationRow> = sqlx::query_as(
        "WITH c AS ( \
             UPDATE conversations SET display_name = $2, updated_at = $3 WHERE id = $1 \
             RETURNING id, project_key, display_name, current_thread_key, created_at, updated_at \
         ) \
         SELECT c.id, p.id AS project_id, c.display_name, t.id AS current_thread_id, \
                c.created_at, c.updated_at \
         FROM c JOIN projects p ON p.key = c.project_key \
         LEFT JOIN threads t ON t.key = c.current_thread_key",
    )
    .bind(id.as_uuid())
    .bind(name)
    .bind(Utc::now())
    .fetch_optional(pool)
    .await
    .db()?;
    row.ok_or_else(|| StoreError::not_found(Entity::Conversation, id))?
        .try_into()
}

pub(super) async fn delete_conversation(pool: &PgPool, id: ConversationId) -> Result<()> {
    let mut tx = pool.begin().await.db()?;
    let key: i64 = sqlx::query_scalar("SELECT key FROM conversations WHERE id = $1 FOR UPDATE")
        .bind(id.as_uuid())
        .fetch_optional(&mut *tx)
        .await
        .db()?
        .ok_or_else(|| StoreError::not_found(Entity::Conversation, id))?;
    // Referencing rows before referenced ones; the threads' references to each other go in the
    // one statement that deletes them all.
    for statement in [
        "DELETE FROM thread_messages WHERE thread_key IN \
         (SELECT key FROM threads WHERE conversation_key = $1)",
        "DELETE FROM squash_operation_sources WHERE operation_key IN \
         (SELECT key FROM squash_operations WHERE conversation_key = $1)",
        "DELETE FROM squash_operations WHERE conversation_key = $1",
        "DELETE FROM message_tools WHERE conversation_key = $1",
        "DELETE FROM messages WHERE conversation_key = $1",
        "UPDATE conversations SET current_thread_key = NULL WHERE key = $1",
        "DELETE FROM threads WHERE conversation_key = $1",
        "DELETE FROM conversations WHERE key = $1",
    ] {
        sqlx::query(statement)
            .bind(key)
            .execute(&mut *tx)
            .await
            .db()?;
    }
    tx.commit().await.db()
}

/// A conversation row locked for this transaction, and its current thread as of the lock.
struct Locked {
    conversation_key: i64,
    thread_key: i64,
    thread_id: ThreadId,
    revision: i64,
    message_count: i64,
}

impl Locked {
    fn conflict(&self) -> Result<StoreError> {
        Ok(StoreError::Conflict {
            current: self.thread_id,
            revision: to_u64("thread revision", self.revision)?,
        })
    }
}

async fn lock(conn: &mut PgConnection, id: ConversationId) -> Result<Locked> {
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
    let (thread_id, revision, message_count): (Uuid, i64, i64) =
        sqlx::query_as("SELECT id, revision, message_count FROM threads WHERE key = $1")
            .bind(thread_key)
            .fetch_one(&mut *conn)
            .await
            .db()?;
    Ok(Locked {
        conversation_key,
        thread_key,
        thread_id: thread_id.into(),
        revision,
        message_count,
    })
}

/// Inserts the message ($1–$9) and its tool ids ($10, $11) in one statement; `m` holds the new
/// key. Parameter $2 is the conversation key.
macro_rules! insert_message_ctes {
    () => {
        "m AS ( \
             INSERT INTO messages (id, conversation_key, squash_operation_id, reply_to, role, \
                                   content, instructions, metadata, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING key \
         ), tools AS ( \
             INSERT INTO message_tools (conversation_key, tool_use_id, message_key, is_result) \
             SELECT $2, u.tool_use_id, m.key, u.is_result \
             FROM m, UNNEST($10::text[], $11::boolean[]) AS u(tool_use_id, is_result) \
             ON CONFLICT DO NOTHING \
         )"
    };
}

type Scalar<'q> = QueryScalar<'q, Postgres, i64, PgArguments>;

fn bind_message<'q>(
    query: Scalar<'q>,
    conversation_key: i64,
    row: &'q NewMessageRow,
) -> Scalar<'q> {
    query
        .bind(row.id)
        .bind(conversation_key)
        .bind(row.squash_operation_id)
        .bind(row.reply_to)
        .bind(row.role)
        .bind(&row.content)
        .bind(&row.instructions)
        .bind(&row.metadata)
        .bind(row.created_at)
        .bind(&row.tool_ids)
        .bind(&row.tool_is_result)
}

fn message_taken(id: MessageId) -> impl FnOnce() -> String {
    move || format!("message {id} already exists")
}

pub(super) async fn append(pool: &PgPool, message: &Message) -> Result<Appended> {
    let row = NewMessageRow::of(message)?;
    let mut tx = pool.begin().await.db()?;
    let locked = lock(&mut *tx, message.conversation_id).await?;
    // Everything else in one round trip: the lock above is what makes the position safe.
    let revision: i64 = bind_message(
        sqlx::query_scalar(concat!(
            "WITH ",
            insert_message_ctes!(),
            ", link AS ( \
                 INSERT INTO thread_messages (thread_key, position, message_key) \
                 SELECT $12, $13, key FROM m \
             ), touch AS ( \
                 UPDATE conversations SET updated_at = $14 WHERE key = $2 \
             ) \
             UPDATE threads SET revision = revision + 1, message_count = message_count + 1, \
                                updated_at = $14 \
             WHERE key = $12 RETURNING revision"
        )),
        locked.conversation_key,
        &row,
    )
    .bind(locked.thread_key)
    .bind(locked.message_count)
    .bind(Utc::now())
    .fetch_one(&mut *tx)
    .await
    .map_err(|e| taken(e, "messages_id_key", message_taken(message.id)))?;
    tx.commit().await.db()?;
    Ok(Appended {
        thread_id: locked.thread_id,
        position: to_u64("thread message count", locked.message_count)?,
        revision: to_u64("thread revision", revision)?,
    })
}

pub(super) async fn commit(pool: &PgPool, commit: &Commit) -> Result<Thread> {
    let message_row = match &commit.message {
        Some(message) if message.conversation_id != commit.conversation_id => {
            return Err(StoreError::Invalid(format!(
                "message {} belongs to conversation {}, not {}",
                message.id, message.conversation_id, commit.conversation_id
            )));
        }
        Some(message) => Some(NewMessageRow::of(message)?),
        None => None,
    };
    if let Some(op) = &commit.operation {
        if op.conversation_id != commit.conversation_id {
            return Err(StoreError::Invalid(format!(
                "operation {} belongs to conversation {}, not {}",
                op.id, op.conversation_id, commit.conversation_id
            )));
        }
    }
    let message_count = to_i64("link count", commit.links.len() as u64)?;

    let mut tx = pool.begin().await.db()?;
    let locked = lock(&mut *tx, commit.conversation_id).await?;
    if locked.thread_id != commit.base_thread_id
        || to_u64("thread revision", locked.revision)? != commit.base_revision
    {
        return Err(locked.conflict()?);
    }
    let conversation_key = locked.conversation_key;

    if let (Some(message), Some(row)) = (&commit.message, &message_row) {
        bind_message(
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
        .map_err(|e| taken(e, "messages_id_key", message_taken(message.id)))?;
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
    .bind(message_count)
    .bind(Utc::now())
    .fetch_one(&mut *tx)
    .await
    .map_err(|e| {
        taken(e, "threads_id_key", || {
            format!("thread {} already exists", commit.thread_id)
        })
    })?;

    let linked = insert_links(
        &mut *tx,
        "INSERT INTO thread_messages (thread_key, position, message_key)",
        thread_key,
        conversation_key,
        &commit.links,
    )
    .await?;
    if let Some(missing) = linked {
        return Err(StoreError::Invalid(format!(
            "message {missing} is not in conversation {}",
            commit.conversation_id
        )));
    }

    if let Some(op) = &commit.operation {
        let result_thread_key =
            (op.result_thread_id == Some(commit.thread_id)).then_some(thread_key);
        insert_operation(&mut *tx, conversation_key, op, result_thread_key).await?;
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
        message_count: commit.links.len() as u64,
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

async fn insert_operation(
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
             result_thread_key, input_tokens, output_tokens, duration_ms, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
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
    .fetch_one(&mut *conn)
    .await
    .map_err(|e| {
        taken(e, "squash_operations_id_key", || {
            format!("operation {} already exists", op.id)
        })
    })?;
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

pub(super) async fn switch_thread(
    pool: &PgPool,
    conversation: ConversationId,
    to: ThreadId,
    expected: ThreadId,
) -> Result<Conversation> {
    let mut tx = pool.begin().await.db()?;
    let locked = lock(&mut *tx, conversation).await?;
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
