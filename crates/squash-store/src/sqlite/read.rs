//! Reads: key lookups every transaction starts with, and the rows the store hands out.

use std::collections::HashMap;

use rusqlite::{params, OptionalExtension, Transaction};
use squash_core::{
    Conversation, ConversationId, Message, MessageId, RecallRef, SquashOperation,
    SquashOperationId, Thread, ThreadId,
};

use super::conn::map_err;
use super::fetch;
use super::rows::{self, col};
use crate::error::{Entity, StoreError};
use crate::segments::all_thread_links;
use crate::types::{RecallTarget, StoreStats, ThreadRef, ThreadSnapshot};
use crate::{normalize_prefix, Result};

pub(super) fn conversation_key(tx: &Transaction<'_>, id: ConversationId) -> Result<i64> {
    tx.prepare_cached("SELECT key FROM conversations WHERE id = ?1")
        .and_then(|mut s| s.query_row([id.as_bytes()], |r| r.get(0)).optional())
        .map_err(map_err)?
        .ok_or_else(|| StoreError::not_found(Entity::Conversation, id))
}

/// A conversation and its current thread, found with one statement: what every write starts
/// with.
pub(super) struct Current {
    pub conversation_key: i64,
    pub thread_key: i64,
    pub thread_id: ThreadId,
    pub revision: u64,
    pub message_count: u64,
}

pub(super) fn current_of(tx: &Transaction<'_>, id: ConversationId) -> Result<Current> {
    let row = tx
        .prepare_cached(
            "SELECT c.key, t.key, t.id, t.revision, t.message_count FROM conversations c \
             JOIN threads t ON t.key = c.current_thread_key WHERE c.id = ?1",
        )
        .and_then(|mut s| {
            s.query_row([id.as_bytes()], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, Vec<u8>>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            })
            .optional()
        })
        .map_err(map_err)?;
    let (conversation_key, thread_key, thread_id, revision, message_count) =
        row.ok_or_else(|| StoreError::not_found(Entity::Conversation, id))?;
    Ok(Current {
        conversation_key,
        thread_key,
        thread_id: rows::uuid(&thread_id)?.into(),
        revision: revision as u64,
        message_count: message_count as u64,
    })
}

/// The conversation's current thread: (thread key, thread id, revision).
pub(super) fn current_state(
    tx: &Transaction<'_>,
    conversation_key: i64,
) -> Result<(i64, ThreadId, u64)> {
    let (key, id, revision): (i64, Vec<u8>, i64) = tx
        .prepare_cached(
            "SELECT t.key, t.id, t.revision FROM conversations c \
             JOIN threads t ON t.key = c.current_thread_key WHERE c.key = ?1",
        )
        .and_then(|mut s| {
            s.query_row([conversation_key], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
        })
        .map_err(map_err)?;
    Ok((key, rows::uuid(&id)?.into(), revision as u64))
}

/// (thread key, conversation key) of a thread.
pub(super) fn thread_key(tx: &Transaction<'_>, id: ThreadId) -> Result<(i64, i64)> {
    tx.prepare_cached("SELECT key, conversation_key FROM threads WHERE id = ?1")
        .and_then(|mut s| {
            s.query_row([id.as_bytes()], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()
        })
        .map_err(map_err)?
        .ok_or_else(|| StoreError::not_found(Entity::Thread, id))
}

pub(super) fn load_conversation(tx: &Transaction<'_>, id: ConversationId) -> Result<Conversation> {
    let sql = format!(
        "SELECT {} FROM {} WHERE c.id = ?1",
        rows::CONVERSATION_COLUMNS,
        rows::CONVERSATION_FROM
    );
    fetch::one(tx, &sql, [id.as_bytes()], rows::conversation, || {
        StoreError::not_found(Entity::Conversation, id)
    })
}

pub(super) fn load_thread(tx: &Transaction<'_>, key: i64) -> Result<Thread> {
    let sql = format!(
        "SELECT {} FROM {} WHERE t.key = ?1",
        rows::THREAD_COLUMNS,
        rows::THREAD_FROM
    );
    fetch::one(tx, &sql, [key], rows::thread, || {
        StoreError::not_found(Entity::Thread, key)
    })
}

pub(super) fn links(tx: &Transaction<'_>, thread_key: i64) -> Result<Vec<MessageId>> {
    let sql = concat!(
        "SELECT m.id FROM ",
        all_thread_links!(sqlite, "?1"),
        " l JOIN messages m ON m.key = l.message_key ORDER BY l.position"
    );
    fetch::all(tx, sql, [thread_key], |row| {
        // Borrowed, not a Vec<u8> per row: 10,000 allocations fewer per thread read.
        let bytes = row
            .get_ref(0)
            .and_then(|v| v.as_blob().map_err(Into::into))
            .map_err(map_err)?;
        Ok(rows::uuid(bytes)?.into())
    })
}

pub(super) fn snapshot(tx: &Transaction<'_>, thread_key: i64) -> Result<ThreadSnapshot> {
    Ok(ThreadSnapshot {
        thread: load_thread(tx, thread_key)?,
        links: links(tx, thread_key)?,
    })
}

/// Message id → key for the messages of a thread: resolves most links of a derived thread
/// with one scan instead of one index lookup per link.
pub(super) fn link_keys(tx: &Transaction<'_>, thread_key: i64) -> Result<HashMap<MessageId, i64>> {
    let sql = concat!(
        "SELECT m.id, l.message_key FROM ",
        all_thread_links!(sqlite, "?1"),
        " l JOIN messages m ON m.key = l.message_key"
    );
    let mut out = HashMap::new();
    fetch::each(tx, sql, [thread_key], |row| {
        let bytes: Vec<u8> = col(row, 0)?;
        out.insert(rows::uuid(&bytes)?.into(), col(row, 1)?);
        Ok(())
    })?;
    Ok(out)
}

pub(super) fn message_key(
    tx: &Transaction<'_>,
    conversation_key: i64,
    id: MessageId,
) -> Result<i64> {
    tx.prepare_cached("SELECT key FROM messages WHERE id = ?1 AND conversation_key = ?2")
        .and_then(|mut s| {
            s.query_row(params![id.as_bytes(), conversation_key], |r| r.get(0))
                .optional()
        })
        .map_err(map_err)?
        .ok_or_else(|| StoreError::not_found(Entity::Message, id))
}

pub(super) fn operation_sources(tx: &Transaction<'_>, op_key: i64) -> Result<Vec<MessageId>> {
    let mut stmt = tx
        .prepare_cached(
            "SELECT m.id FROM squash_operation_sources s JOIN messages m ON m.key = s.message_key \
             WHERE s.operation_key = ?1 ORDER BY s.position",
        )
        .map_err(map_err)?;
    let mut rows = stmt.query([op_key]).map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        let bytes: Vec<u8> = col(row, 0)?;
        out.push(rows::uuid(&bytes)?.into());
    }
    Ok(out)
}

pub(super) fn load_operations(
    tx: &Transaction<'_>,
    filter: &str,
    params: &[&dyn rusqlite::ToSql],
) -> Result<Vec<SquashOperation>> {
    let sql = format!(
        "SELECT {} FROM {} WHERE {filter} ORDER BY o.key",
        rows::OPERATION_COLUMNS,
        rows::OPERATION_FROM
    );
    let mut stmt = tx.prepare_cached(&sql).map_err(map_err)?;
    let mut rows = stmt.query(params).map_err(map_err)?;
    let mut found = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        found.push(rows::operation(row)?);
    }
    drop(rows);
    found
        .into_iter()
        .map(|(key, mut op)| {
            op.source_message_ids = operation_sources(tx, key)?;
            Ok(op)
        })
        .collect()
}

pub(super) fn load_messages(
    tx: &Transaction<'_>,
    sql_tail: &str,
    param: &dyn rusqlite::ToSql,
) -> Result<Vec<Message>> {
    let sql = format!("SELECT {} FROM {sql_tail}", rows::MESSAGE_COLUMNS);
    fetch::all(tx, &sql, [param], rows::message)
}

pub(super) fn prefix_query(
    tx: &Transaction<'_>,
    sql: &str,
    prefix: &str,
) -> Result<Vec<uuid::Uuid>> {
    let Some(hex) = normalize_prefix(prefix) else {
        return Ok(Vec::new());
    };
    let pattern = format!("{}%", hex.to_ascii_uppercase());
    fetch::all(tx, sql, [pattern], |row| {
        rows::uuid(&col::<Vec<u8>>(row, 0)?)
    })
}

/// The key of the thread `thread` names.
pub(super) fn key_of(tx: &Transaction<'_>, thread: ThreadRef) -> Result<i64> {
    Ok(match thread {
        ThreadRef::Current(conversation) => current_of(tx, conversation)?.thread_key,
        ThreadRef::Thread(id) => thread_key(tx, id)?.0,
    })
}

/// The thread `thread` names, with its links.
pub(super) fn thread(tx: &Transaction<'_>, thread: ThreadRef) -> Result<ThreadSnapshot> {
    snapshot(tx, key_of(tx, thread)?)
}

pub(super) fn threads(tx: &Transaction<'_>, conversation: ConversationId) -> Result<Vec<Thread>> {
    let conv_key = conversation_key(tx, conversation)?;
    let sql = format!(
        "SELECT {} FROM {} WHERE t.conversation_key = ?1 ORDER BY t.key",
        rows::THREAD_COLUMNS,
        rows::THREAD_FROM
    );
    fetch::all(tx, &sql, [conv_key], rows::thread)
}

/// The thread `thread` names, without its links.
pub(super) fn thread_header(tx: &Transaction<'_>, thread: ThreadRef) -> Result<Thread> {
    load_thread(tx, key_of(tx, thread)?)
}

pub(super) fn latest_derived_thread(
    tx: &Transaction<'_>,
    thread: ThreadId,
) -> Result<Option<Thread>> {
    let (key, _) = thread_key(tx, thread)?;
    // `threads_by_original` serves this; keys grow with creation, so the highest is the most
    // recent.
    let child: Option<i64> = tx
        .prepare_cached(
            "SELECT key FROM threads WHERE original_thread_key = ?1 ORDER BY key DESC LIMIT 1",
        )
        .and_then(|mut s| s.query_row([key], |r| r.get(0)).optional())
        .map_err(map_err)?;
    child.map(|k| load_thread(tx, k)).transpose()
}

/// The messages with `ids`, in the order given.
pub(super) fn messages(tx: &Transaction<'_>, ids: &[MessageId]) -> Result<Vec<Message>> {
    let tail = "messages m JOIN conversations c ON c.key = m.conversation_key WHERE m.id = ?1";
    ids.iter()
        .map(|id| {
            load_messages(tx, tail, &id.as_bytes().as_slice())?
                .pop()
                .ok_or_else(|| StoreError::not_found(Entity::Message, id))
        })
        .collect()
}

pub(super) fn thread_messages(tx: &Transaction<'_>, thread: ThreadId) -> Result<Vec<Message>> {
    let (key, _) = thread_key(tx, thread)?;
    load_messages(
        tx,
        concat!(
            all_thread_links!(sqlite, "?1"),
            " l JOIN messages m ON m.key = l.message_key \
              JOIN conversations c ON c.key = m.conversation_key ORDER BY l.position"
        ),
        &key,
    )
}

pub(super) fn conversation_messages(
    tx: &Transaction<'_>,
    conversation: ConversationId,
    after: Option<MessageId>,
    limit: u32,
) -> Result<Vec<Message>> {
    let key = conversation_key(tx, conversation)?;
    let sql = format!(
        "SELECT {} FROM messages m JOIN conversations c ON c.key = m.conversation_key \
         WHERE m.conversation_key = ?1 \
           AND m.key > CASE WHEN ?2 IS NULL THEN 0 ELSE (SELECT key FROM messages WHERE id = ?2) END \
         ORDER BY m.key LIMIT ?3",
        rows::MESSAGE_COLUMNS
    );
    let after = after.map(|id| id.as_bytes().to_vec());
    fetch::all(tx, &sql, params![key, after, limit], rows::message)
}

pub(super) fn message_ids_with_prefix(
    tx: &Transaction<'_>,
    conversation: Option<ConversationId>,
    prefix: &str,
) -> Result<Vec<MessageId>> {
    let found = prefix_query(
        tx,
        "SELECT id FROM messages WHERE hex(id) LIKE ?1 LIMIT 20",
        prefix,
    )?;
    let ids: Vec<MessageId> = found.into_iter().map(Into::into).collect();
    match conversation {
        None => Ok(ids),
        Some(conv) => {
            let key = conversation_key(tx, conv)?;
            let mut out = Vec::new();
            for id in ids {
                if message_key(tx, key, id).is_ok() {
                    out.push(id);
                }
            }
            Ok(out)
        }
    }
}

/// What [`ids_with_prefix`] runs for conversations: ids whose hex starts with `?1`.
pub(super) const CONVERSATION_IDS: &str =
    "SELECT id FROM conversations WHERE hex(id) LIKE ?1 LIMIT 20";
/// What [`ids_with_prefix`] runs for operations.
pub(super) const OPERATION_IDS: &str =
    "SELECT id FROM squash_operations WHERE hex(id) LIKE ?1 LIMIT 20";

/// Ids of the rows `sql` ([`CONVERSATION_IDS`], [`OPERATION_IDS`]) selects by a hex prefix of
/// their id.
pub(super) fn ids_with_prefix<T: From<uuid::Uuid>>(
    tx: &Transaction<'_>,
    sql: &str,
    prefix: &str,
) -> Result<Vec<T>> {
    Ok(prefix_query(tx, sql, prefix)?
        .into_iter()
        .map(Into::into)
        .collect())
}

pub(super) fn operation(tx: &Transaction<'_>, id: SquashOperationId) -> Result<SquashOperation> {
    load_operations(tx, "o.id = ?1", &[&id.as_bytes().as_slice()])?
        .pop()
        .ok_or_else(|| StoreError::not_found(Entity::Operation, id))
}

pub(super) fn operations(
    tx: &Transaction<'_>,
    conversation: ConversationId,
) -> Result<Vec<SquashOperation>> {
    let key = conversation_key(tx, conversation)?;
    load_operations(tx, "o.conversation_key = ?1", &[&key])
}

pub(super) fn recall_target(
    tx: &Transaction<'_>,
    conversation: ConversationId,
    recall: RecallRef,
) -> Result<RecallTarget> {
    let key = conversation_key(tx, conversation)?;
    let row: Option<(Vec<u8>, String, Option<i64>)> = tx
        .prepare_cached(
            "SELECT o.id, o.kind, (SELECT max(s.position) FROM squash_operation_sources s \
                                   WHERE s.operation_key = o.key) \
             FROM squash_operations o WHERE o.conversation_key = ?1 AND o.recall_ref = ?2",
        )
        .and_then(|mut s| {
            s.query_row(params![key, recall.get()], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()
        })
        .map_err(map_err)?;
    let (id, kind, last) = row.ok_or_else(|| StoreError::not_found(Entity::Operation, recall))?;
    crate::provenance::recall_target(rows::uuid(&id)?, &kind, last)
}

pub(super) fn operation_source_ids(
    tx: &Transaction<'_>,
    id: SquashOperationId,
    offset: u64,
    limit: u32,
) -> Result<Vec<MessageId>> {
    let op_key: i64 = tx
        .prepare_cached("SELECT key FROM squash_operations WHERE id = ?1")
        .and_then(|mut s| {
            s.query_row([id.as_bytes().as_slice()], |r| r.get(0))
                .optional()
        })
        .map_err(map_err)?
        .ok_or_else(|| StoreError::not_found(Entity::Operation, id))?;
    let mut stmt = tx
        .prepare_cached(
            "SELECT m.id FROM squash_operation_sources s JOIN messages m ON m.key = s.message_key \
             WHERE s.operation_key = ?1 AND s.position >= ?2 ORDER BY s.position LIMIT ?3",
        )
        .map_err(map_err)?;
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let ids = stmt
        .query_map(params![op_key, offset, limit], |r| r.get::<_, Vec<u8>>(0))
        .map_err(map_err)?
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(map_err)?;
    ids.iter().map(|b| Ok(rows::uuid(b)?.into())).collect()
}

pub(super) fn next_recall_ref(
    tx: &Transaction<'_>,
    conversation: ConversationId,
) -> Result<RecallRef> {
    let key = conversation_key(tx, conversation)?;
    let last: Option<i64> = tx
        .prepare_cached("SELECT max(recall_ref) FROM squash_operations WHERE conversation_key = ?1")
        .and_then(|mut s| s.query_row([key], |r| r.get(0)))
        .map_err(map_err)?;
    crate::provenance::next_recall_ref(last)
}

pub(super) fn stats(tx: &Transaction<'_>) -> Result<StoreStats> {
    let count = |table: &str| -> Result<u64> {
        tx.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| {
            r.get::<_, i64>(0)
        })
        .map(|n| n as u64)
        .map_err(map_err)
    };
    let pages: i64 = tx
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .map_err(map_err)?;
    let page_size: i64 = tx
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .map_err(map_err)?;
    Ok(StoreStats {
        conversations: count("conversations")?,
        threads: count("threads")?,
        messages: count("messages")?,
        thread_links: count("thread_messages")?,
        operations: count("squash_operations")?,
        bytes: (pages * page_size) as u64,
    })
}
