//! Projects and conversations: created, renamed, deleted. Each function is one transaction.

use chrono::Utc;
use sqlx::{PgExecutor, PgPool};
use squash_core::{Conversation, ConversationId, Project, ProjectId, ThreadId, ThreadOrigin};

use super::error::DbResult;
use super::fetch;
use super::read;
use super::rows::{to_json, ConversationRow, ProjectRow};
use super::sql::project_select;
use crate::{Entity, Result, StoreError};

pub(super) async fn ensure_project(pool: &PgPool, path: &str) -> Result<Project> {
    insert_project(pool, path).await?;
    fetch::one::<ProjectRow, _>(
        sqlx::query_as(concat!(project_select!(), " WHERE p.path = $1")).bind(path),
        pool,
        || StoreError::not_found(Entity::Project, path),
    )
    .await
}

/// Inserts a project at `path` unless there is one. Whoever needs its row reads it in a second
/// statement, not in one with a CTE: after a concurrent insert of the same path, only a new
/// statement's snapshot sees the winner's row.
pub(super) async fn insert_project<'e>(executor: impl PgExecutor<'e>, path: &str) -> Result<()> {
    sqlx::query(
        "INSERT INTO projects (id, path, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (path) DO NOTHING",
    )
    .bind(ProjectId::new().as_uuid())
    .bind(path)
    .bind(Utc::now())
    .execute(executor)
    .await
    .db()?;
    Ok(())
}

pub(super) async fn create_conversation(
    pool: &PgPool,
    project: ProjectId,
    name: &str,
) -> Result<Conversation> {
    let mut tx = pool.begin().await.db()?;
    let sql = "SELECT key FROM projects WHERE id = $1";
    let project_key = fetch::key(&mut *tx, sql, Entity::Project, project.as_uuid()).await?;
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
    set_current_thread(&mut *tx, conversation_key, thread_key).await?;
    let conversation = read::conversation(&mut *tx, id).await?;
    tx.commit().await.db()?;
    Ok(conversation)
}

/// Makes the thread `thread_key` current in the new conversation `conversation_key`, once its
/// threads are in; its `updated_at` stays the one it was inserted with.
pub(super) async fn set_current_thread<'e>(
    executor: impl PgExecutor<'e>,
    conversation_key: i64,
    thread_key: i64,
) -> Result<()> {
    sqlx::query("UPDATE conversations SET current_thread_key = $1 WHERE key = $2")
        .bind(thread_key)
        .bind(conversation_key)
        .execute(executor)
        .await
        .db()?;
    Ok(())
}

pub(super) async fn rename_conversation(
    pool: &PgPool,
    id: ConversationId,
    name: &str,
) -> Result<Conversation> {
    let query = sqlx::query_as(
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
    .bind(Utc::now());
    fetch::one::<ConversationRow, _>(query, pool, || {
        StoreError::not_found(Entity::Conversation, id)
    })
    .await
}

pub(super) async fn delete_conversation(pool: &PgPool, id: ConversationId) -> Result<()> {
    let mut tx = pool.begin().await.db()?;
    let sql = "SELECT key FROM conversations WHERE id = $1 FOR UPDATE";
    let key = fetch::key(&mut *tx, sql, Entity::Conversation, id.as_uuid()).await?;
    // Referencing rows before referenced ones; the threads' references to each other go in the
    // one statement that deletes them all.
    for statement in [
        "DELETE FROM imports WHERE conversation_key = $1",
        "DELETE FROM thread_messages WHERE thread_key IN \
         (SELECT key FROM threads WHERE conversation_key = $1)",
        "DELETE FROM thread_segments WHERE thread_key IN \
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
