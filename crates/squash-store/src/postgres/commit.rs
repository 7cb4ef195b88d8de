//! Copy-on-write: a derived thread with its new messages and provenance records, stored in one
//! transaction and only if its base is still current at the same revision.

use std::collections::HashMap;

use sqlx::{PgConnection, PgPool};
use squash_core::{Message, MessageId, Thread};
use uuid::Uuid;

use super::error::DbResult;
use super::import::insert_messages;
use super::links;
use super::links::{InsertedThread, Replacement, ThreadInsert};
use super::operations::{check_written, insert_operations, Columns, KnownKeys};
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
    let written = write_thread(&mut tx, &row, &new_thread, commit).await?;
    let thread_key = written.inserted.key;
    match &new_thread {
        NewThread::List(links) => {
            let linked = insert_links(
                &mut tx,
                thread_key,
                conversation_key,
                links,
                written.message_keys.as_ref(),
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
                written.replacement,
            )
            .await?;
        }
        NewThread::Derived(Derived::Shared { .. }) => {}
    }
    if written.inserted.operations.is_none() {
        let known = KnownKeys {
            messages: written.message_keys.as_ref(),
            threads: HashMap::from([
                (commit.base_thread_id, locked.thread_key),
                (commit.thread_id, thread_key),
            ]),
        };
        insert_operations(&mut tx, conversation_key, &commit.operations, &known).await?;
    }
    tx.commit().await.db()?;

    Ok(Thread {
        id: commit.thread_id,
        conversation_id: commit.conversation_id,
        original_thread_id: Some(commit.base_thread_id),
        origin: commit.origin.clone(),
        revision: 0,
        message_count,
        created_at: written.inserted.created_at,
        updated_at: written.inserted.created_at,
    })
}

/// What [`write_thread`] wrote.
struct Written {
    inserted: InsertedThread,
    /// The key of the first new message: the replacement a derived thread's own link holds.
    replacement: Option<i64>,
    /// Every new message's key, when they were inserted on their own (a fit's).
    message_keys: Option<HashMap<MessageId, i64>>,
}

/// Inserts the new thread row and the commit's messages, each table in one statement however
/// many messages (a fit has one per step). The one message of a squash or edit, with its tool
/// ids, and the commit's operations go in the thread's statement, whose counts are checked
/// here; otherwise the operations are the caller's.
async fn write_thread(
    tx: &mut PgConnection,
    row: &ThreadInsert<'_>,
    new_thread: &NewThread<'_>,
    commit: &Commit,
) -> Result<Written> {
    if let [message] = commit.messages.as_slice() {
        let message_row = NewMessageRow::of(message)?;
        // The base is locked; the message and the new thread are the statement's own rows,
        // which its operations find by id.
        let known = KnownKeys {
            messages: None,
            threads: HashMap::from([(commit.base_thread_id, row.base_key)]),
        };
        let columns = Columns::of(&commit.operations, &known)?;
        let new = Replacement::New(&message_row, &columns);
        let inserted = links::insert_thread(tx, row, new_thread, new).await?;
        let message_key = inserted.message_key.ok_or_else(|| {
            StoreError::Corrupt("the inserted message did not return its key".into())
        })?;
        if let Some((written, linked)) = inserted.operations {
            let ops = &commit.operations;
            check_written(tx, row.conversation_key, ops, &columns, written, linked).await?;
        }
        return Ok(Written {
            inserted,
            replacement: Some(message_key),
            message_keys: None,
        });
    }
    let keys = insert_messages(tx, row.conversation_key, &commit.messages).await?;
    let first = first_key(&keys, &commit.messages)?;
    let inserted = links::insert_thread(tx, row, new_thread, Replacement::Stored(first)).await?;
    Ok(Written {
        inserted,
        replacement: first,
        message_keys: Some(keys),
    })
}

/// The key of the first of `messages` (none for a delete), the replacement a derived thread's
/// own link holds.
fn first_key(keys: &HashMap<MessageId, i64>, messages: &[Message]) -> Result<Option<i64>> {
    messages
        .first()
        .map(|m| {
            keys.get(&m.id).copied().ok_or_else(|| {
                StoreError::Corrupt("an inserted message did not return its key".into())
            })
        })
        .transpose()
}

/// Writes the new thread's links, one row per id, in a single statement: the keys of the
/// commit's new messages bound (`new`), the others looked up by id in the conversation, one
/// index probe each (a join read every message row of the conversation to hash its id). Returns
/// an id that is not a message of the conversation, if any; the caller then drops the
/// transaction.
async fn insert_links(
    conn: &mut PgConnection,
    thread_key: i64,
    conversation_key: i64,
    ids: &[MessageId],
    new: Option<&HashMap<MessageId, i64>>,
) -> Result<Option<MessageId>> {
    let uuids: Vec<Uuid> = ids.iter().map(|id| *id.as_uuid()).collect();
    let keys: Vec<Option<i64>> = ids
        .iter()
        .map(|id| new.and_then(|new| new.get(id).copied()))
        .collect();
    // `OFFSET 0` keeps the lateral look-up a subquery of its own: pulled up into the
    // statement, it ran twice a link, in the filter and in the value (`auto_explain`: 2 ×
    // 60,201 index probes in a fit of 100,000 messages).
    let written = sqlx::query(
        "INSERT INTO thread_messages (thread_key, position, message_key) \
         SELECT $1, l.ord - 1, k.key \
         FROM UNNEST($2::uuid[], $4::bigint[]) WITH ORDINALITY AS l(id, key, ord) \
         CROSS JOIN LATERAL (SELECT COALESCE(l.key, \
             (SELECT key FROM messages WHERE id = l.id AND conversation_key = $3)) AS key \
             OFFSET 0) k \
         WHERE k.key IS NOT NULL",
    )
    .bind(thread_key)
    .bind(&uuids)
    .bind(conversation_key)
    .bind(&keys)
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
