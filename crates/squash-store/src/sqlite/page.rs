//! A page of a thread: its header, one range of links and the thread's token sum, read in one
//! transaction so that the three agree even while another connection appends.

use std::borrow::Cow;

use rusqlite::types::ValueRef;
use rusqlite::{params, OptionalExtension, Row, Transaction};
use squash_core::{KnownPositions, Message, MessageId, ThreadId};

use super::conn::map_err;
use super::fetch;
use super::links::position_in_thread;
use super::packed::unpack;
use super::read::{key_of, load_conversation, load_thread, thread_key};
use super::rows::{self, MESSAGE_COLUMN_COUNT};
use super::tokens;
use crate::error::{Entity, StoreError};
use crate::segments::thread_links;
use crate::stored_message::{StoredColumns, StoredMessage};
use crate::tokens::read_tokens;
use crate::types::{
    ConversationPage, MessageRange, PageRequest, ThreadPage, ThreadPositions, ThreadRef,
};
use crate::Result;

/// How a page's rows become its messages with their token estimates: parsed ([`parsed`]) or
/// as stored ([`stored`]).
pub(super) type MakeMessage<M> = fn(&Row<'_>) -> Result<(M, u64)>;

pub(super) fn thread_page<M>(
    tx: &Transaction<'_>,
    request: &PageRequest,
    make: MakeMessage<M>,
) -> Result<ThreadPage<M>> {
    let key = key_of(tx, request.thread)?;
    let thread = load_thread(tx, key)?;
    let anchor = request
        .anchor_message()
        .map(|m| position_of(tx, key, m)?.ok_or_else(|| StoreError::not_found(Entity::Message, m)))
        .transpose()?;
    let range = request.link_range(thread.message_count, anchor);
    let read = match &range {
        Some(r) => links(tx, key, *r.start(), *r.end(), make)?,
        None => (Vec::new(), Vec::new()),
    };
    let tokens = match request.tokens_for(&thread) {
        Some(tokens) => tokens,
        None => tokens::thread_key_tokens(tx, key)?,
    };
    Ok(ThreadPage::at(thread, range, read, tokens))
}

/// The messages at 0-based positions `first..=last` with their stored token estimates.
fn links<M>(
    tx: &Transaction<'_>,
    thread_key: i64,
    first: u64,
    last: u64,
    make: MakeMessage<M>,
) -> Result<(Vec<M>, Vec<u64>)> {
    let sql = format!(
        "SELECT {}, m.tokens, m.key FROM {} l JOIN messages m ON m.key = l.message_key \
         JOIN conversations c ON c.key = m.conversation_key ORDER BY l.position",
        rows::MESSAGE_COLUMNS,
        thread_links!(sqlite, "?1", "?2", "?3"),
    );
    let (mut messages, mut tokens) = (Vec::new(), Vec::new());
    let range = params![thread_key, first as i64, last as i64];
    fetch::each(tx, &sql, range, |r| {
        let (message, t) = make(r)?;
        tokens.push(t);
        messages.push(message);
        Ok(())
    })?;
    Ok((messages, tokens))
}

/// A page's row as a parsed message.
pub(super) fn parsed(row: &Row<'_>) -> Result<(Message, u64)> {
    let message = rows::message(row)?;
    let stored: Option<i64> = rows::col(row, MESSAGE_COLUMN_COUNT)?;
    let tokens = read_tokens(stored, &message)?;
    Ok((message, tokens))
}

/// A page's row as stored: its JSON columns unparsed, the ids and the role read where the row
/// holds them (no buffer of their own a row).
pub(super) fn stored(row: &Row<'_>) -> Result<(StoredMessage, u64)> {
    let id = |i| blob(row, i).and_then(rows::uuid);
    let opt_id = |i| opt_blob(row, i)?.map(rows::uuid).transpose();
    StoredColumns {
        id: id(0)?,
        conversation_id: id(1)?,
        squash_operation_id: opt_id(2)?,
        reply_to: opt_id(3)?,
        role: text(row, 4)?,
        content: text(row, 5)?.to_owned(),
        instructions: opt_text(row, 6)?.map(str::to_owned),
        metadata: unpack(value(row, 7)?, "metadata")?.map(Cow::into_owned),
        created_at: rows::time(rows::col(row, 8)?)?,
        tokens: rows::col(row, MESSAGE_COLUMN_COUNT)?,
        key: rows::col(row, MESSAGE_COLUMN_COUNT + 1)?,
    }
    .into_message()
}

fn value<'r>(row: &'r Row<'_>, i: usize) -> Result<ValueRef<'r>> {
    row.get_ref(i).map_err(map_err)
}

fn blob<'r>(row: &'r Row<'_>, i: usize) -> Result<&'r [u8]> {
    value(row, i)?.as_blob().map_err(|e| map_err(e.into()))
}

fn opt_blob<'r>(row: &'r Row<'_>, i: usize) -> Result<Option<&'r [u8]>> {
    value(row, i)?
        .as_blob_or_null()
        .map_err(|e| map_err(e.into()))
}

fn text<'r>(row: &'r Row<'_>, i: usize) -> Result<&'r str> {
    value(row, i)?.as_str().map_err(|e| map_err(e.into()))
}

fn opt_text<'r>(row: &'r Row<'_>, i: usize) -> Result<Option<&'r str>> {
    value(row, i)?
        .as_str_or_null()
        .map_err(|e| map_err(e.into()))
}

/// [`thread_page`] with the thread's conversation, in the same transaction.
pub(super) fn conversation_page<M>(
    tx: &Transaction<'_>,
    request: &PageRequest,
    make: MakeMessage<M>,
) -> Result<ConversationPage<M>> {
    let page = thread_page(tx, request, make)?;
    let conversation = load_conversation(tx, page.thread.conversation_id)?;
    Ok(ConversationPage { conversation, page })
}

/// The messages at positions `start..start + limit` of a thread.
pub(super) fn thread_range(
    tx: &Transaction<'_>,
    thread: ThreadId,
    start: u64,
    limit: u32,
) -> Result<MessageRange> {
    let (key, _) = thread_key(tx, thread)?;
    let (messages, message_tokens) = match limit {
        0 => (Vec::new(), Vec::new()),
        _ => links(
            tx,
            key,
            start,
            start.saturating_add(u64::from(limit) - 1),
            parsed,
        )?,
    };
    Ok(MessageRange {
        start,
        messages,
        message_tokens,
    })
}

/// The header of a thread and the positions of those of `ids` it holds.
pub(super) fn thread_positions(
    tx: &Transaction<'_>,
    thread: ThreadRef,
    ids: &[MessageId],
) -> Result<ThreadPositions> {
    let key = key_of(tx, thread)?;
    let mut positions = KnownPositions::default();
    for id in ids {
        positions.asked.insert(*id);
        if let Some(p) = position_of(tx, key, *id)? {
            positions.found.insert(*id, p);
        }
    }
    Ok(ThreadPositions {
        thread: load_thread(tx, key)?,
        positions,
    })
}

/// The 0-based position of `message` in the thread, if it is linked there.
fn position_of(tx: &Transaction<'_>, thread_key: i64, message: MessageId) -> Result<Option<u64>> {
    let position: Option<i64> = tx
        .prepare_cached(concat!(
            "SELECT ",
            position_in_thread!("m.key", "?1"),
            " FROM messages m WHERE m.id = ?2"
        ))
        .and_then(|mut s| {
            s.query_row(params![thread_key, message.as_bytes()], |r| r.get(0))
                .optional()
        })
        .map_err(map_err)?
        .flatten();
    position
        .map(|p| {
            u64::try_from(p)
                .map_err(|_| StoreError::Corrupt(format!("a link position is negative: {p}")))
        })
        .transpose()
}
