//! Imports: a whole conversation in one transaction, the append of a grown source, and the
//! `imports` records that make a second import of the same source a no-op.

use std::collections::HashMap;

use rusqlite::{params, OptionalExtension, Transaction};
use squash_core::{ConversationId, MessageId, ThreadId};

use super::commit::insert_operation;
use super::conn::{map_err, taken};
use super::conversations::insert_project;
use super::fetch;
use super::read::{conversation_key, current_state};
use super::rows::{self, col, micros};
use super::write::{insert_links, insert_messages, insert_rows, now, touch_conversation};
use crate::check::{self, ImportCheck};
use crate::error::{Entity, StoreError};
use crate::types::{
    Appended, ImportAppend, ImportBatch, ImportOutcome, ImportRecord, ImportSource, MessageChunks,
};
use crate::Result;

/// The record of `source_key`: (content hash, conversation id).
fn existing(tx: &Transaction<'_>, source_key: &str) -> Result<Option<(String, ConversationId)>> {
    let found: Option<(String, Vec<u8>)> = tx
        .prepare_cached(
            "SELECT i.content_hash, c.id FROM imports i \
             JOIN conversations c ON c.key = i.conversation_key WHERE i.source_key = ?1",
        )
        .and_then(|mut s| {
            s.query_row([source_key], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()
        })
        .map_err(map_err)?;
    found
        .map(|(hash, id)| Ok((hash, rows::uuid(&id)?.into())))
        .transpose()
}

fn upsert_record(
    tx: &Transaction<'_>,
    source: &ImportSource,
    conversation_key: i64,
    replace: bool,
) -> Result<()> {
    let metadata = source
        .metadata
        .as_ref()
        .map(serde_json::to_string)
        .transpose()?;
    let sql = if replace {
        "UPDATE imports SET format = ?2, conversation_key = ?3, content_hash = ?4, metadata = ?5, \
         imported_at = ?6 WHERE source_key = ?1"
    } else {
        "INSERT INTO imports (source_key, format, conversation_key, content_hash, metadata, \
         imported_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    };
    tx.prepare_cached(sql)
        .and_then(|mut s| {
            s.execute(params![
                source.source_key,
                source.format.as_str(),
                conversation_key,
                source.content_hash,
                metadata,
                now()
            ])
        })
        .map_err(map_err)?;
    Ok(())
}

/// The caller started `check`; the chunks of `more` are checked as they come.
pub(super) fn import_conversation(
    tx: &Transaction<'_>,
    batch: &ImportBatch,
    mut check: ImportCheck,
    more: &mut MessageChunks,
) -> Result<ImportOutcome> {
    let previous = existing(tx, &batch.source.source_key)?;
    if let Some((hash, conversation_id)) = &previous {
        if *hash == batch.source.content_hash {
            return Ok(ImportOutcome::AlreadyImported {
                conversation_id: *conversation_id,
            });
        }
    }

    insert_project(tx, &batch.project_path)?;
    let project_key: i64 = tx
        .prepare_cached("SELECT key FROM projects WHERE path = ?1")
        .and_then(|mut s| s.query_row([&batch.project_path], |r| r.get(0)))
        .map_err(map_err)?;

    tx.prepare_cached(
        "INSERT INTO conversations (id, project_key, display_name, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )
    .and_then(|mut s| {
        s.execute(params![
            batch.conversation_id.as_bytes(),
            project_key,
            batch.display_name,
            micros(batch.created_at),
            micros(batch.updated_at)
        ])
    })
    .map_err(|e| taken(e, Entity::Conversation, batch.conversation_id))?;
    let conv_key = tx.last_insert_rowid();

    let keys = insert_messages(tx, conv_key, &batch.messages)?;
    let mut message_keys: HashMap<MessageId, i64> =
        batch.messages.iter().map(|m| m.id).zip(keys).collect();
    while let Some(chunk) = more.next_blocking()? {
        check.messages(&chunk.messages)?;
        let keys = insert_rows(tx, conv_key, &chunk.messages, &chunk.rows)?;
        message_keys.extend(chunk.messages.iter().map(|m| m.id).zip(keys));
    }
    check.finish(batch)?;
    let thread_keys = insert_threads(tx, conv_key, batch, &message_keys)?;
    finish_import(tx, conv_key, batch, &message_keys, &thread_keys)?;
    upsert_record(tx, &batch.source, conv_key, previous.is_some())?;
    Ok(ImportOutcome::Imported {
        conversation_id: batch.conversation_id,
        replaced: previous.map(|(_, id)| id),
    })
}

fn insert_threads(
    tx: &Transaction<'_>,
    conv_key: i64,
    batch: &ImportBatch,
    message_keys: &HashMap<MessageId, i64>,
) -> Result<HashMap<ThreadId, i64>> {
    let mut thread_keys: HashMap<ThreadId, i64> = HashMap::with_capacity(batch.threads.len());
    for t in &batch.threads {
        let (original, links) = check::thread_keys(t, &thread_keys, message_keys)?;
        let origin = serde_json::to_string(&t.origin)?;
        tx.prepare_cached(
            "INSERT INTO threads (id, conversation_key, original_thread_key, origin, revision, \
             message_count, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )
        .and_then(|mut s| {
            s.execute(params![
                t.id.as_bytes(),
                conv_key,
                original,
                origin,
                t.revision as i64,
                links.len() as i64,
                micros(t.created_at),
                micros(t.updated_at)
            ])
        })
        .map_err(|e| taken(e, Entity::Thread, t.id))?;
        let key = tx.last_insert_rowid();
        insert_links(tx, key, &links, 0)?;
        thread_keys.insert(t.id, key);
    }
    Ok(thread_keys)
}

/// The operations and the current thread.
fn finish_import(
    tx: &Transaction<'_>,
    conv_key: i64,
    batch: &ImportBatch,
    message_keys: &HashMap<MessageId, i64>,
    thread_keys: &HashMap<ThreadId, i64>,
) -> Result<()> {
    for op in &batch.operations {
        let result_key = *message_keys.get(&op.result_message_id).ok_or_else(|| {
            StoreError::Invalid(format!(
                "operation {} results in message {}, which is not imported",
                op.id, op.result_message_id
            ))
        })?;
        // The imported threads are known: no lookup by id for them.
        let known: Vec<(ThreadId, i64)> = [op.base_thread_id, op.result_thread_id]
            .into_iter()
            .flatten()
            .filter_map(|id| thread_keys.get(&id).map(|k| (id, *k)))
            .collect();
        insert_operation(tx, conv_key, op, result_key, &known, message_keys)?;
    }

    let current = *thread_keys
        .get(&batch.current_thread_id)
        .ok_or_else(|| StoreError::Invalid("the current thread is not imported".into()))?;
    tx.prepare_cached("UPDATE conversations SET current_thread_key = ?2 WHERE key = ?1")
        .and_then(|mut s| s.execute(params![conv_key, current]))
        .map_err(map_err)?;
    Ok(())
}

/// The caller started `check` with the append's own messages; the chunks of `more` are
/// checked as they come.
pub(super) fn import_append(
    tx: &Transaction<'_>,
    append: &ImportAppend,
    mut check: ImportCheck,
    more: &mut MessageChunks,
) -> Result<Appended> {
    let conv_key = conversation_key(tx, append.conversation_id)?;
    check::append_record(append, existing(tx, &append.source.source_key)?)?;
    let (thread_key, thread_id, mut revision) = current_state(tx, conv_key)?;
    let mut keys = insert_messages(tx, conv_key, &append.messages)?;
    while let Some(chunk) = more.next_blocking()? {
        check.messages(&chunk.messages)?;
        keys.extend(insert_rows(tx, conv_key, &chunk.messages, &chunk.rows)?);
    }
    // The links go to the thread's own storage after its tail's last, as an append's do
    // (crate::segments): a squashed thread's positions are not its own storage's offsets.
    let (count, offset): (i64, i64) = tx
        .prepare_cached(
            "SELECT message_count, tail_offset + message_count - tail_start \
             FROM threads WHERE key = ?1",
        )
        .and_then(|mut s| s.query_row([thread_key], |r| Ok((r.get(0)?, r.get(1)?))))
        .map_err(map_err)?;
    if !keys.is_empty() {
        insert_links(tx, thread_key, &keys, offset as usize)?;
        revision = tx
            .prepare_cached(
                "UPDATE threads SET revision = revision + 1, message_count = message_count + ?2, \
                 updated_at = ?3 WHERE key = ?1 RETURNING revision",
            )
            .and_then(|mut s| {
                s.query_row(params![thread_key, keys.len() as i64, now()], |r| {
                    r.get::<_, i64>(0)
                })
            })
            .map_err(map_err)? as u64;
        touch_conversation(tx, conv_key, None)?;
    }
    upsert_record(tx, &append.source, conv_key, true)?;
    Ok(Appended {
        thread_id,
        position: count as u64,
        revision,
    })
}

const RECORD_SELECT: &str = "SELECT i.source_key, i.format, i.content_hash, i.metadata, c.id, \
     i.imported_at FROM imports i JOIN conversations c ON c.key = i.conversation_key";
/// The columns [`record_at`] reads, of the import `i` of the conversation `c`.
pub(super) const RECORD_COLUMNS: &str =
    "i.source_key, i.format, i.content_hash, i.metadata, c.id, i.imported_at";

fn record(row: &rusqlite::Row<'_>) -> Result<ImportRecord> {
    record_at(row, 0)
}

/// The record whose columns ([`RECORD_COLUMNS`]) start at column `at`.
pub(super) fn record_at(row: &rusqlite::Row<'_>, at: usize) -> Result<ImportRecord> {
    let metadata: Option<String> = col(row, at + 3)?;
    let source_key: String = col(row, at)?;
    let format: String = col(row, at + 1)?;
    let format = format
        .parse()
        .map_err(|e| StoreError::Corrupt(format!("import record of {source_key}: {e}")))?;
    Ok(ImportRecord {
        source: ImportSource {
            source_key,
            format,
            content_hash: col(row, at + 2)?,
            metadata: metadata.map(|s| serde_json::from_str(&s)).transpose()?,
        },
        conversation_id: rows::uuid(&col::<Vec<u8>>(row, at + 4)?)?.into(),
        imported_at: rows::time(col(row, at + 5)?)?,
    })
}

pub(super) fn import_record(
    tx: &Transaction<'_>,
    source_key: &str,
) -> Result<Option<ImportRecord>> {
    let sql = format!("{RECORD_SELECT} WHERE i.source_key = ?1");
    fetch::first(tx, &sql, [source_key], record)
}

pub(super) fn import_records_of(
    tx: &Transaction<'_>,
    conversation: ConversationId,
) -> Result<Vec<ImportRecord>> {
    let sql = format!("{RECORD_SELECT} WHERE c.id = ?1 ORDER BY i.imported_at DESC, i.key DESC");
    fetch::all(tx, &sql, [conversation.as_bytes()], record)
}
