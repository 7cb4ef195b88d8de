//! Writes to a conversation's current thread in place: messages, links, the append, and the
//! switches between threads.

use chrono::Utc;
use rusqlite::{params, OptionalExtension, ToSql, Transaction};
use squash_core::{Conversation, ConversationId, Message, ThreadId};

use super::conn::{map_err, taken, touched};
use super::links::position_in_thread;
use super::packed::pack;
use super::read::{current_of, load_conversation, thread_key, Current};
use super::rows::{self, micros};
use crate::error::{Entity, StoreError};
use crate::new_row::NewRow;
use crate::types::{Appended, Direction};
use crate::Result;

pub(super) fn now() -> i64 {
    micros(Utc::now())
}

pub(super) fn insert_message(
    tx: &Transaction<'_>,
    conversation_key: i64,
    m: &Message,
) -> Result<i64> {
    let keys = insert_messages(tx, conversation_key, std::slice::from_ref(m))?;
    keys.first()
        .copied()
        .ok_or_else(|| StoreError::Corrupt(format!("message {} was not inserted", m.id)))
}

/// [`insert_rows`] of `messages`, their rows made here.
pub(super) fn insert_messages(
    tx: &Transaction<'_>,
    conversation_key: i64,
    messages: &[Message],
) -> Result<Vec<i64>> {
    let rows = messages
        .iter()
        .map(NewRow::of)
        .collect::<Result<Vec<_>>>()?;
    insert_rows(tx, conversation_key, messages, &rows)
}

/// Terms a statement writes to FTS5: 2 parameters each, far under SQLite's 32,766.
const TERMS_CHUNK: usize = 1_000;

/// Inserts `messages`, whose rows' computed columns `rows` holds (one each, in order), and
/// returns their keys in order: the store's one insert of messages, their tool ids and their
/// terms (migration 0011). The terms go in one statement a chunk: FTS5 writes its pending
/// terms out at the end of every statement that changes its table, and a statement a row
/// made an import write a small index segment a message, and merge them.
pub(super) fn insert_rows(
    tx: &Transaction<'_>,
    conversation_key: i64,
    messages: &[Message],
    rows: &[NewRow],
) -> Result<Vec<i64>> {
    let mut keys = Vec::with_capacity(messages.len());
    for (m, row) in messages.iter().zip(rows) {
        let key = insert_one(tx, conversation_key, m, row)?;
        insert_tools(tx, conversation_key, key, m)?;
        keys.push(key);
    }
    let terms: Vec<(i64, &str)> = keys
        .iter()
        .zip(rows)
        .map(|(key, row)| (*key, row.terms.document()))
        .collect();
    for chunk in terms.chunks(TERMS_CHUNK) {
        let values = vec!["(?, ?)"; chunk.len()].join(", ");
        let mut params: Vec<&dyn ToSql> = Vec::with_capacity(chunk.len() * 2);
        for (key, terms) in chunk {
            params.push(key);
            params.push(terms);
        }
        tx.prepare_cached(&format!(
            "INSERT INTO message_terms (rowid, terms) VALUES {values}"
        ))
        .and_then(|mut s| s.execute(params.as_slice()))
        .map_err(map_err)?;
    }
    Ok(keys)
}

/// The row of one message.
fn insert_one(
    tx: &Transaction<'_>,
    conversation_key: i64,
    m: &Message,
    row: &NewRow,
) -> Result<i64> {
    tx.prepare_cached(
        "INSERT INTO messages (id, conversation_key, squash_operation_id, reply_to, role, content, \
         instructions, metadata, created_at, tokens, search_text) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )
    .and_then(|mut s| {
        s.execute(params![
            m.id.as_bytes(),
            conversation_key,
            m.squash_operation_id.as_ref().map(|i| i.as_bytes()),
            m.reply_to.as_ref().map(|i| i.as_bytes()),
            m.role.as_str(),
            row.content,
            row.instructions,
            row.metadata.as_deref().map(pack),
            micros(m.created_at),
            row.tokens,
            pack(&row.search_text),
        ])
    })
    .map_err(|e| taken(e, Entity::Message, m.id))?;
    Ok(tx.last_insert_rowid())
}

/// The tool-use ids message `key` opens and closes.
fn insert_tools(tx: &Transaction<'_>, conversation_key: i64, key: i64, m: &Message) -> Result<()> {
    let refs = m.tool_refs();
    if !refs.is_empty() {
        let mut stmt = tx
            .prepare_cached(
                "INSERT OR IGNORE INTO message_tools (conversation_key, tool_use_id, message_key, is_result) \
                 VALUES (?1, ?2, ?3, ?4)",
            )
            .map_err(map_err)?;
        for (id, is_result) in refs
            .calls
            .iter()
            .map(|c| (c, 0))
            .chain(refs.results.iter().map(|r| (r, 1)))
        {
            stmt.execute(params![conversation_key, id, key, is_result])
                .map_err(map_err)?;
        }
    }
    Ok(())
}

pub(super) fn insert_links(
    tx: &Transaction<'_>,
    thread_key: i64,
    keys: &[i64],
    start: usize,
) -> Result<()> {
    let mut stmt = tx
        .prepare_cached(
            "INSERT INTO thread_messages (thread_key, position, message_key) VALUES (?1, ?2, ?3)",
        )
        .map_err(map_err)?;
    for (i, key) in keys.iter().enumerate() {
        stmt.execute(params![thread_key, (start + i) as i64, key])
            .map_err(map_err)?;
    }
    Ok(())
}

pub(super) fn touch_conversation(
    tx: &Transaction<'_>,
    key: i64,
    current_thread: Option<i64>,
) -> Result<()> {
    let id: Vec<u8> = match current_thread {
        Some(t) => tx
            .prepare_cached(
                "UPDATE conversations SET current_thread_key = ?2, updated_at = ?3 WHERE key = ?1 \
                 RETURNING id",
            )
            .and_then(|mut s| s.query_row(params![key, t, now()], |r| r.get(0))),
        None => tx
            .prepare_cached("UPDATE conversations SET updated_at = ?2 WHERE key = ?1 RETURNING id")
            .and_then(|mut s| s.query_row(params![key, now()], |r| r.get(0))),
    }
    .map_err(map_err)?;
    // Every write of a conversation passes here: the one place its change is recorded.
    touched::add(rows::uuid(&id)?.into());
    Ok(())
}

/// Stores `message` and appends it to its conversation's current thread in place.
pub(super) fn append(tx: &Transaction<'_>, message: &Message) -> Result<Appended> {
    let Current {
        conversation_key: conv_key,
        thread_key,
        thread_id,
        revision,
        ..
    } = current_of(tx, message.conversation_id)?;
    if let Some(question) = message.reply_to {
        let holds: bool = tx
            .prepare_cached(concat!(
                "SELECT EXISTS (SELECT 1 FROM messages m WHERE m.id = ?2 AND ",
                position_in_thread!("m.key", "?1"),
                " IS NOT NULL)"
            ))
            .and_then(|mut s| s.query_row(params![thread_key, question.as_bytes()], |r| r.get(0)))
            .map_err(map_err)?;
        if !holds {
            return Err(StoreError::Conflict {
                current: thread_id,
                revision,
            });
        }
    }
    let msg_key = insert_message(tx, conv_key, message)?;
    // The link goes to the thread's own storage, after the tail's last (crate::segments).
    let (count, revision, offset): (i64, i64, i64) = tx
        .prepare_cached(
            "UPDATE threads SET revision = revision + 1, message_count = message_count + 1, \
             updated_at = ?2 WHERE key = ?1 \
             RETURNING message_count, revision, tail_offset + message_count - 1 - tail_start",
        )
        .and_then(|mut s| {
            s.query_row(params![thread_key, now()], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
        })
        .map_err(map_err)?;
    let position = (count - 1) as usize;
    insert_links(tx, thread_key, &[msg_key], offset as usize)?;
    touch_conversation(tx, conv_key, None)?;
    Ok(Appended {
        thread_id,
        position: position as u64,
        revision: revision as u64,
    })
}

/// Makes `to` current if the current thread is still `expected`.
pub(super) fn switch_thread(
    tx: &Transaction<'_>,
    conversation: ConversationId,
    to: ThreadId,
    expected: ThreadId,
) -> Result<Conversation> {
    let now_current = current_of(tx, conversation)?;
    let conv_key = now_current.conversation_key;
    if now_current.thread_id != expected {
        return Err(StoreError::Conflict {
            current: now_current.thread_id,
            revision: now_current.revision,
        });
    }
    let (to_key, to_conv) = thread_key(tx, to)?;
    if to_conv != conv_key {
        return Err(StoreError::not_found(Entity::Thread, to));
    }
    touch_conversation(tx, conv_key, Some(to_key))?;
    load_conversation(tx, conversation)
}

/// Undo or redo: the target is found from the thread current inside this transaction.
pub(super) fn switch_relative(
    tx: &Transaction<'_>,
    conversation: ConversationId,
    direction: Direction,
) -> Result<Option<Conversation>> {
    let current = current_of(tx, conversation)?;
    let sql = match direction {
        Direction::Back => "SELECT original_thread_key FROM threads WHERE key = ?1",
        // `threads_by_original`; keys grow with creation: the highest is the newest.
        Direction::Forward => {
            "SELECT key FROM threads WHERE original_thread_key = ?1 ORDER BY key DESC LIMIT 1"
        }
    };
    let target: Option<i64> = tx
        .prepare_cached(sql)
        .and_then(|mut s| s.query_row([current.thread_key], |r| r.get(0)).optional())
        .map_err(map_err)?
        .flatten();
    match target {
        None => Ok(None),
        Some(key) => {
            touch_conversation(tx, current.conversation_key, Some(key))?;
            load_conversation(tx, conversation).map(Some)
        }
    }
}
