//! Projects and conversations: creation, listing, renaming, deletion.

use rusqlite::{params, OptionalExtension, Transaction};
use squash_core::{Conversation, ConversationId, Project, ProjectId, ThreadId, ThreadOrigin};

use super::conn::{map_err, taken};
use super::fetch;
use super::read::{conversation_key, load_conversation};
use super::rows;
use super::tokens::thread_tokens_sum;
use super::write::{now, touch_conversation};
use crate::error::{Entity, StoreError};
use crate::types::ConversationSummary;
use crate::Result;

/// The project for `path`, created on first use.
pub(super) fn ensure_project(tx: &Transaction<'_>, path: &str) -> Result<Project> {
    insert_project(tx, path)?;
    let sql = format!(
        "SELECT {} FROM projects WHERE path = ?1",
        rows::PROJECT_COLUMNS
    );
    fetch::one(tx, &sql, [path], rows::project, || {
        StoreError::not_found(Entity::Project, path)
    })
}

/// Inserts a project at `path` unless there is one.
pub(super) fn insert_project(tx: &Transaction<'_>, path: &str) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO projects (id, path, created_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (path) DO NOTHING",
    )
    .and_then(|mut s| s.execute(params![ProjectId::new().as_bytes(), path, now()]))
    .map_err(map_err)?;
    Ok(())
}

pub(super) fn projects(tx: &Transaction<'_>) -> Result<Vec<Project>> {
    let sql = format!(
        "SELECT {} FROM projects ORDER BY path",
        rows::PROJECT_COLUMNS
    );
    fetch::all(tx, &sql, [], rows::project)
}

pub(super) fn project(tx: &Transaction<'_>, id: ProjectId) -> Result<Project> {
    let sql = format!(
        "SELECT {} FROM projects WHERE id = ?1",
        rows::PROJECT_COLUMNS
    );
    fetch::one(tx, &sql, [id.as_bytes()], rows::project, || {
        StoreError::not_found(Entity::Project, id)
    })
}

/// A conversation with an empty initial thread that is current.
pub(super) fn create_conversation(
    tx: &Transaction<'_>,
    project: ProjectId,
    name: &str,
) -> Result<Conversation> {
    let project_key: i64 = tx
        .prepare_cached("SELECT key FROM projects WHERE id = ?1")
        .and_then(|mut s| s.query_row([project.as_bytes()], |r| r.get(0)).optional())
        .map_err(map_err)?
        .ok_or_else(|| StoreError::not_found(Entity::Project, project))?;
    let id = ConversationId::new();
    let t = now();
    tx.execute(
        "INSERT INTO conversations (id, project_key, display_name, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?4)",
        params![id.as_bytes(), project_key, name, t],
    )
    .map_err(|e| taken(e, Entity::Conversation, id))?;
    let conv_key = tx.last_insert_rowid();
    let thread_id = ThreadId::new();
    tx.execute(
        "INSERT INTO threads (id, conversation_key, origin, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?4)",
        params![
            thread_id.as_bytes(),
            conv_key,
            serde_json::to_string(&ThreadOrigin::Initial)?,
            t
        ],
    )
    .map_err(|e| taken(e, Entity::Thread, thread_id))?;
    touch_conversation(tx, conv_key, Some(tx.last_insert_rowid()))?;
    load_conversation(tx, id)
}

/// Conversations, most recently updated first; all projects when `project` is `None`.
pub(super) fn conversations(
    tx: &Transaction<'_>,
    project: Option<ProjectId>,
) -> Result<Vec<Conversation>> {
    let sql = format!(
        "SELECT {} FROM {} WHERE ?1 IS NULL OR p.id = ?1 ORDER BY c.updated_at DESC, c.key DESC",
        rows::CONVERSATION_COLUMNS,
        rows::CONVERSATION_FROM
    );
    let project = project.as_ref().map(|p| p.as_bytes());
    fetch::all(tx, &sql, [project], rows::conversation)
}

/// [`conversations`] with each current thread's size, in the same order.
pub(super) fn summaries(
    tx: &Transaction<'_>,
    project: Option<ProjectId>,
) -> Result<Vec<ConversationSummary>> {
    let sql = format!(
        "SELECT {}, t.message_count, {} FROM {} WHERE ?1 IS NULL OR p.id = ?1 \
         ORDER BY c.updated_at DESC, c.key DESC",
        rows::CONVERSATION_COLUMNS,
        thread_tokens_sum!("t.key"),
        rows::CONVERSATION_FROM
    );
    let project = project.as_ref().map(|p| p.as_bytes());
    fetch::all(tx, &sql, [project], rows::summary)
}

pub(super) fn rename_conversation(
    tx: &Transaction<'_>,
    id: ConversationId,
    name: &str,
) -> Result<Conversation> {
    let changed = tx
        .execute(
            "UPDATE conversations SET display_name = ?2, updated_at = ?3 WHERE id = ?1",
            params![id.as_bytes(), name, now()],
        )
        .map_err(map_err)?;
    if changed == 0 {
        return Err(StoreError::not_found(Entity::Conversation, id));
    }
    load_conversation(tx, id)
}

/// Removes the conversation with all its threads, messages, operations and import records.
pub(super) fn delete_conversation(tx: &Transaction<'_>, id: ConversationId) -> Result<()> {
    let key = conversation_key(tx, id)?;
    for sql in [
        "DELETE FROM imports WHERE conversation_key = ?1",
        "DELETE FROM thread_messages WHERE thread_key IN \
         (SELECT key FROM threads WHERE conversation_key = ?1)",
        "DELETE FROM thread_segments WHERE thread_key IN \
         (SELECT key FROM threads WHERE conversation_key = ?1)",
        "DELETE FROM squash_operation_sources WHERE operation_key IN \
         (SELECT key FROM squash_operations WHERE conversation_key = ?1)",
        "DELETE FROM squash_operations WHERE conversation_key = ?1",
        "DELETE FROM message_tools WHERE conversation_key = ?1",
        "DELETE FROM messages WHERE conversation_key = ?1",
        "UPDATE conversations SET current_thread_key = NULL WHERE key = ?1",
        "UPDATE threads SET original_thread_key = NULL WHERE conversation_key = ?1",
        "DELETE FROM threads WHERE conversation_key = ?1",
        "DELETE FROM conversations WHERE key = ?1",
    ] {
        tx.execute(sql, [key]).map_err(map_err)?;
    }
    Ok(())
}
