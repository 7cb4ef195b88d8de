//! Copy-on-write: a derived thread with its new messages and provenance records, stored in one
//! transaction and only if its base is still current at the same revision.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use squash_core::{Message, MessageId, Thread};
use uuid::Uuid;

use super::error::DbResult;
use super::import::insert_messages;
use super::links;
use super::links::{Replacement, ThreadInsert};
use super::operations::insert_operations;
use super::rows::{to_json, to_u64, NewMessageRow};
use super::write::lock_with_runs;
use crate::segments::{self, Derived, NewThread};
use crate::{check, Commit, NewLinks, Result, StoreError};

pub(super) async fn commit(pool: &PgPool, commit: &Commit) -> Result<Thread> {
    check::commit_shape(commit)?;
    let mut tx = pool.begin().await.db()?;
    // The base's runs come with the lock: a derived thread is cut from them.
    let (locked, run_rows) = lock_with_runs(&mut tx, commit.conversation_id).await?;
    if locked.thread_id != commit.base_thread_id
        || to_u64("thread revision", locked.revision)? != commit.base_revision
    {
        return Err(locked.conflict()?);
    }
    let conversation_key = locked.conversation_key;
    let base_count = to_u64("message count", locked.message_count)?;
    let message_count = check::new_link_count(commit, base_count)?;

    // A derived thread's layout is cut before its row is written, which carries its tail.
    let new_thread = match &commit.links {
        NewLinks::Edit(edit) => {
            let runs = segments::runs_from_rows(locked.thread_key, run_rows, base_count)?;
            NewThread::Derived(segments::derive(&runs, edit))
        }
        NewLinks::List(links) => NewThread::List(links),
    };
    let origin = to_json(&commit.origin)?;
    let row = ThreadInsert {
        id: commit.thread_id,
        conversation_key,
        base_key: locked.thread_key,
        origin: &origin,
        message_count,
    };
    let (thread_key, created_at, replacement) =
        write_thread(&mut tx, &row, &new_thread, &commit.messages).await?;
    match &new_thread {
        NewThread::List(links) => {
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
        NewThread::Derived(derived) if derived.message_count() != message_count => {
            return Err(StoreError::Corrupt(format!(
                "thread {} has {} of its {base_count} links",
                commit.base_thread_id,
                derived.message_count()
            )));
        }
        NewThread::Derived(Derived::Copied {
            runs,
            message_count,
        }) => {
            links::write_copied(
                &mut tx,
                thread_key,
                locked.thread_key,
                runs,
                *message_count,
                replacement,
            )
            .await?;
        }
        NewThread::Derived(Derived::Shared { .. }) => {}
    }
    insert_operations(&mut tx, conversation_key, &commit.operations).await?;
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

/// Inserts the new thread row and `messages`, each table in one statement however many
/// messages (a fit has one per step); the one message of a squash or edit, with its tool ids,
/// in the thread's statement. Returns the thread's key and creation time and the key of the
/// first message, the replacement its own link holds.
async fn write_thread(
    tx: &mut PgConnection,
    row: &ThreadInsert<'_>,
    new_thread: &NewThread<'_>,
    messages: &[Message],
) -> Result<(i64, DateTime<Utc>, Option<i64>)> {
    if let [message] = messages {
        let message_row = NewMessageRow::of(message)?;
        let new = Replacement::New(&message_row);
        let (key, created_at, message_key) = links::insert_thread(tx, row, new_thread, new).await?;
        let message_key = message_key.ok_or_else(|| {
            StoreError::Corrupt("the inserted message did not return its key".into())
        })?;
        return Ok((key, created_at, Some(message_key)));
    }
    let first = first_key(tx, row.conversation_key, messages).await?;
    let stored = Replacement::Stored(first);
    let (key, created_at, _) = links::insert_thread(tx, row, new_thread, stored).await?;
    Ok((key, created_at, first))
}

/// Inserts `messages` (none for a delete) and returns the key of the first, the replacement a
/// derived thread's own link holds.
async fn first_key(
    tx: &mut PgConnection,
    conversation_key: i64,
    messages: &[Message],
) -> Result<Option<i64>> {
    let keys = insert_messages(tx, conversation_key, messages).await?;
    let mut first = None;
    for m in messages.iter().rev() {
        first = Some(keys.get(&m.id).copied().ok_or_else(|| {
            StoreError::Corrupt("an inserted message did not return its key".into())
        })?);
    }
    Ok(first)
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
