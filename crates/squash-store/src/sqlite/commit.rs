//! Copy-on-write: a derived thread with its new messages and provenance records, stored in one
//! transaction and only if its base is still current at the same revision.

use std::collections::HashMap;

use rusqlite::{params, Transaction};
use squash_core::{MessageId, RecallRef, SquashOperation, Thread, ThreadId};

use super::conn::{map_err, taken};
use super::links;
use super::read::{current_of, link_keys, load_thread, message_key, thread_key};
use super::rows::micros;
use super::write::{insert_links, insert_messages, now, touch_conversation};
use crate::check;
use crate::error::{Entity, StoreError};
use crate::provenance::KindColumns;
use crate::segments::{self, NewThread};
use crate::types::{Commit, NewLinks};
use crate::Result;

pub(super) fn commit_in(tx: &Transaction<'_>, c: &Commit) -> Result<Thread> {
    let base = current_of(tx, c.conversation_id)?;
    if base.thread_id != c.base_thread_id || base.revision != c.base_revision {
        return Err(StoreError::Conflict {
            current: base.thread_id,
            revision: base.revision,
        });
    }
    let conv_key = base.conversation_key;
    let message_count = check::new_link_count(c, base.message_count)?;
    // Ids the links and the operations' sources resolve through without an index lookup each.
    let new_keys = insert_messages(tx, conv_key, &c.messages)?;
    let mut keys: HashMap<_, _> = c.messages.iter().map(|m| m.id).zip(new_keys).collect();
    // A derived thread's layout is cut before its row is written, which carries its tail.
    let new_thread = match &c.links {
        NewLinks::Edit(edit) => {
            let runs = links::runs(tx, base.thread_key, base.message_count)?;
            NewThread::Derived(segments::derive(&runs, edit))
        }
        NewLinks::List(links) => NewThread::List(links),
    };
    let (tail_start, tail_offset) = new_thread.tail();
    let t = now();
    let origin = serde_json::to_string(&c.origin)?;
    tx.prepare_cached(
        "INSERT INTO threads (id, conversation_key, original_thread_key, origin, revision, \
         message_count, created_at, updated_at, tail_start, tail_offset) \
         VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?6, ?7, ?8)",
    )
    .and_then(|mut s| {
        s.execute(params![
            c.thread_id.as_bytes(),
            conv_key,
            base.thread_key,
            origin,
            message_count as i64,
            t,
            tail_start as i64,
            tail_offset as i64
        ])
    })
    .map_err(|e| taken(e, Entity::Thread, c.thread_id))?;
    let thread_key = tx.last_insert_rowid();
    match &new_thread {
        NewThread::List(links) => {
            keys.extend(link_keys(tx, base.thread_key)?);
            let link_keys: Vec<i64> = links
                .iter()
                .map(|id| match keys.get(id) {
                    Some(k) => Ok(*k),
                    None => message_key(tx, conv_key, *id)
                        .map_err(|_| check::not_in_conversation(*id, c.conversation_id)),
                })
                .collect::<Result<_>>()?;
            insert_links(tx, thread_key, &link_keys, 0)?;
        }
        NewThread::Derived(derived) => {
            if derived.message_count() != message_count {
                return Err(StoreError::Corrupt(format!(
                    "thread {} has {} of its {} links",
                    base.thread_id,
                    derived.message_count(),
                    base.message_count
                )));
            }
            let replacement = c.messages.first().and_then(|m| keys.get(&m.id)).copied();
            links::write_derived(tx, thread_key, base.thread_key, derived, replacement)?;
        }
    }
    let known_threads = [
        (c.base_thread_id, base.thread_key),
        (c.thread_id, thread_key),
    ];
    for op in &c.operations {
        let result_key = match keys.get(&op.result_message_id) {
            Some(k) => *k,
            None => message_key(tx, conv_key, op.result_message_id)?,
        };
        insert_operation(tx, conv_key, op, result_key, &known_threads, &keys)?;
    }
    touch_conversation(tx, conv_key, Some(thread_key))?;
    load_thread(tx, thread_key)
}

pub(super) fn insert_operation(
    tx: &Transaction<'_>,
    conversation_key: i64,
    op: &SquashOperation,
    result_message_key: i64,
    known_threads: &[(ThreadId, i64)],
    keys: &HashMap<MessageId, i64>,
) -> Result<()> {
    // Both thread references must name threads of this conversation; the caller's own (the
    // commit's base and new thread) are known already.
    let in_conversation = |id: ThreadId| -> Result<i64> {
        if let Some((_, key)) = known_threads.iter().find(|(known, _)| *known == id) {
            return Ok(*key);
        }
        match thread_key(tx, id)? {
            (key, conv) if conv == conversation_key => Ok(key),
            _ => Err(StoreError::not_found(Entity::Thread, id)),
        }
    };
    let base_key = op.base_thread_id.map(in_conversation).transpose()?;
    let result_key = op.result_thread_id.map(in_conversation).transpose()?;
    let kind = KindColumns::of(&op.kind)?;
    tx.prepare_cached(
        "INSERT INTO squash_operations (id, conversation_key, result_message_key, performed_by, \
         base_thread_key, result_thread_key, created_at, kind, prompt, model, provider, \
         custom_instructions, input_tokens, output_tokens, duration_ms, style, prompt_style, \
         recall_ref) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
    )
    .and_then(|mut s| {
        s.execute(params![
            op.id.as_bytes(),
            conversation_key,
            result_message_key,
            op.performed_by,
            base_key,
            result_key,
            micros(op.created_at),
            kind.kind,
            kind.prompt,
            kind.model,
            kind.provider,
            kind.custom_instructions,
            kind.input_tokens,
            kind.output_tokens,
            kind.duration_ms,
            kind.style,
            kind.prompt_style,
            op.recall_ref.map(RecallRef::get),
        ])
    })
    .map_err(|e| taken(e, Entity::Operation, op.id))?;
    let op_key = tx.last_insert_rowid();
    let mut stmt = tx
        .prepare_cached(
            "INSERT INTO squash_operation_sources (operation_key, position, message_key) \
             VALUES (?1, ?2, ?3)",
        )
        .map_err(map_err)?;
    for (pos, source) in op.source_message_ids.iter().enumerate() {
        let key = match keys.get(source) {
            Some(k) => *k,
            None => message_key(tx, conversation_key, *source)?,
        };
        stmt.execute(params![op_key, pos as i64, key])
            .map_err(map_err)?;
    }
    Ok(())
}
