//! A page of a thread: its header, one range of links and the thread's token sum, read in one
//! read-only REPEATABLE READ transaction so that the three agree even while another
//! connection appends.

use sqlx::{PgConnection, PgPool};
use squash_core::{KnownPositions, Message, MessageId, Thread, ThreadId};

use super::error::DbResult;
use super::fetch;
use super::read::selecting;
use super::rows::{to_i64, to_u64, MessageRow, ThreadRow};
use super::sql::position_in_thread;
use super::sql::{message_columns, thread_columns, thread_from};
use super::tokens;
use crate::segments::thread_links;
use crate::stored_message::{StoredColumns, StoredMessage};
use crate::tokens::read_tokens;
use crate::types::{MessageRange, PageRequest, ThreadPage, ThreadPositions, ThreadRef};
use crate::{Entity, Result, StoreError};

#[derive(sqlx::FromRow)]
struct KeyedThreadRow {
    key: i64,
    #[sqlx(flatten)]
    thread: ThreadRow,
}

/// How a page's rows become its messages with their token estimates: parsed ([`parsed`]) or
/// as stored ([`stored`]).
pub(super) type MakeMessage<M> = fn(PageRow) -> Result<(M, u64)>;

pub(super) async fn thread_page<M>(
    pool: &PgPool,
    request: &PageRequest,
    make: MakeMessage<M>,
) -> Result<ThreadPage<M>> {
    // The isolation level in the BEGIN itself: a round trip less than a separate SET.
    let mut tx = pool
        .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .await
        .db()?;
    let (key, thread) = header(&mut tx, request.thread).await?;
    let anchor = match request.anchor_message() {
        Some(message) => Some(position_of(&mut tx, key, message).await?),
        None => None,
    };
    let range = request.link_range(thread.message_count, anchor);
    let read = match &range {
        Some(r) => links(&mut tx, key, *r.start(), *r.end(), make).await?,
        None => (Vec::new(), Vec::new()),
    };
    let tokens = match request.tokens_for(&thread) {
        Some(tokens) => tokens,
        None => tokens::thread_key_tokens(&mut tx, key).await?,
    };
    tx.commit().await.db()?;
    Ok(ThreadPage::at(thread, range, read, tokens))
}

impl TryFrom<KeyedThreadRow> for (i64, Thread) {
    type Error = StoreError;

    fn try_from(row: KeyedThreadRow) -> Result<Self> {
        Ok((row.key, row.thread.try_into()?))
    }
}

async fn header(tx: &mut PgConnection, which: ThreadRef) -> Result<(i64, Thread)> {
    let (which, id, missing) = selecting(which);
    let sql = format!(
        concat!(
            "SELECT t.key, ",
            thread_columns!(),
            thread_from!(),
            " WHERE {}"
        ),
        which
    );
    fetch::one::<KeyedThreadRow, _>(sqlx::query_as(&sql).bind(id), &mut *tx, || missing).await
}

/// The messages at positions `start..start + limit` of a thread: one statement.
pub(super) async fn thread_range(
    pool: &PgPool,
    thread: ThreadId,
    start: u64,
    limit: u32,
) -> Result<MessageRange> {
    let mut conn = pool.acquire().await.db()?;
    let sql = "SELECT key FROM threads WHERE id = $1";
    let key = fetch::key(&mut *conn, sql, Entity::Thread, thread.as_uuid()).await?;
    let (messages, message_tokens) = match limit {
        0 => (Vec::new(), Vec::new()),
        _ => {
            let last = start
                .saturating_add(u64::from(limit) - 1)
                .min(i64::MAX as u64);
            links(&mut conn, key, start, last, parsed).await?
        }
    };
    Ok(MessageRange {
        start,
        messages,
        message_tokens,
    })
}

#[derive(sqlx::FromRow)]
struct PositionsRow {
    #[sqlx(flatten)]
    thread: ThreadRow,
    ids: Option<Vec<uuid::Uuid>>,
    positions: Option<Vec<i64>>,
}

/// The header of a thread and the positions of those of `ids` it holds: one statement, so one
/// snapshot, without a transaction around it.
pub(super) async fn thread_positions(
    pool: &PgPool,
    thread: ThreadRef,
    ids: &[MessageId],
) -> Result<ThreadPositions> {
    let (which, id, missing) = selecting(thread);
    let sql = format!(
        concat!(
            "SELECT ",
            thread_columns!(),
            ", p.ids, p.positions",
            thread_from!(),
            " CROSS JOIN LATERAL ( \
                  SELECT array_agg(x.id) AS ids, array_agg(x.position) AS positions \
                  FROM (SELECT m.id, ",
            position_in_thread!("m.key", "t.key"),
            " AS position FROM UNNEST($2::uuid[]) AS u(id) \
                        JOIN messages m ON m.id = u.id) x \
                  WHERE x.position IS NOT NULL) p \
              WHERE {}"
        ),
        which
    );
    let uuids: Vec<uuid::Uuid> = ids.iter().map(|id| *id.as_uuid()).collect();
    let row: Option<PositionsRow> = sqlx::query_as(&sql)
        .bind(id)
        .bind(&uuids)
        .fetch_optional(pool)
        .await
        .db()?;
    let row = row.ok_or(missing)?;
    let mut positions = KnownPositions {
        asked: ids.iter().copied().collect(),
        ..KnownPositions::default()
    };
    let found = row.ids.unwrap_or_default();
    let at = row.positions.unwrap_or_default();
    if found.len() != at.len() {
        return Err(StoreError::Corrupt(
            "positions do not match their ids".into(),
        ));
    }
    for (id, p) in found.into_iter().zip(at) {
        positions
            .found
            .insert(id.into(), to_u64("a link position", p)?);
    }
    Ok(ThreadPositions {
        thread: row.thread.try_into()?,
        positions,
    })
}

/// The 0-based position of `message` in the thread; not found when it is not linked there.
async fn position_of(tx: &mut PgConnection, thread_key: i64, message: MessageId) -> Result<u64> {
    let position: Option<Option<i64>> = sqlx::query_scalar(concat!(
        "SELECT ",
        position_in_thread!("m.key", "$1"),
        " FROM messages m WHERE m.id = $2"
    ))
    .bind(thread_key)
    .bind(message.as_uuid())
    .fetch_optional(&mut *tx)
    .await
    .db()?;
    let position = position
        .flatten()
        .ok_or_else(|| StoreError::not_found(Entity::Message, message))?;
    to_u64("a link position", position)
}

#[derive(sqlx::FromRow)]
pub(super) struct PageRow {
    #[sqlx(flatten)]
    message: MessageRow,
    tokens: Option<i64>,
    key: i64,
}

/// The messages at 0-based positions `first..=last` with their stored token estimates.
async fn links<M>(
    tx: &mut PgConnection,
    thread_key: i64,
    first: u64,
    last: u64,
    make: MakeMessage<M>,
) -> Result<(Vec<M>, Vec<u64>)> {
    let rows: Vec<PageRow> = sqlx::query_as(concat!(
        "SELECT ",
        message_columns!(),
        ", m.tokens, m.key FROM ",
        thread_links!(postgres, "$1", "$2", "$3"),
        " tl JOIN messages m ON m.key = tl.message_key \
          JOIN conversations c ON c.key = m.conversation_key ORDER BY tl.position"
    ))
    .bind(thread_key)
    .bind(to_i64("a link position", first)?)
    .bind(to_i64("a link position", last)?)
    .fetch_all(&mut *tx)
    .await
    .db()?;
    let (mut messages, mut tokens) = (Vec::with_capacity(rows.len()), Vec::new());
    for row in rows {
        let (message, t) = make(row)?;
        tokens.push(t);
        messages.push(message);
    }
    Ok((messages, tokens))
}

/// A page's row as a parsed message.
pub(super) fn parsed(row: PageRow) -> Result<(Message, u64)> {
    let message: Message = row.message.try_into()?;
    let tokens = read_tokens(row.tokens, &message)?;
    Ok((message, tokens))
}

/// A page's row as stored: its JSON columns unparsed.
pub(super) fn stored(row: PageRow) -> Result<(StoredMessage, u64)> {
    let m = row.message;
    StoredColumns {
        key: row.key,
        id: m.id,
        conversation_id: m.conversation_id,
        squash_operation_id: m.squash_operation_id,
        reply_to: m.reply_to,
        role: m.role,
        content: m.content,
        instructions: m.instructions,
        metadata: m.metadata,
        created_at: m.created_at,
        tokens: row.tokens,
    }
    .into_message()
}
