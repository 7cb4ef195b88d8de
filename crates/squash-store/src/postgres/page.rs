//! A page of a thread: its header, one range of links and the thread's token sum, read in one
//! read-only REPEATABLE READ transaction so that the three agree even while another
//! connection appends.

use sqlx::{PgConnection, PgPool};
use squash_core::{Conversation, KnownPositions, Message, MessageId, Thread, ThreadId};

use super::error::DbResult;
use super::fetch;
use super::read::selecting;
use super::rows::{to_i64, to_u64, ConversationRow, MessageRow, ThreadRow};
use super::sql::position_in_thread;
use super::sql::{message_columns, thread_columns, thread_from, thread_tokens_sum};
use super::tokens;
use crate::segments::thread_links;
use crate::stored_message::{StoredColumns, StoredMessage};
use crate::tokens::{read_tokens, sum_to_u64};
use crate::types::{
    ConversationPage, MessageRange, PageRequest, ThreadPage, ThreadPositions, ThreadRef,
};
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
    let mut tx = begin(pool).await?;
    let (key, thread) = header(&mut tx, request.thread).await?;
    let page = page_in(&mut tx, request, key, thread, make).await?;
    tx.commit().await.db()?;
    Ok(page)
}

/// [`thread_page`] with the thread's conversation. A page of a thread read before, at the
/// revision it had then, is one statement ([`guessed_page`]). Other pages take two statements
/// and no transaction: the conversation with the thread's header, then the page's links with
/// the thread's revision (and its token sum when it is not known). The links a thread holds below
/// its length never change and an append moves its revision in the transaction that adds the
/// link, so when the second statement sees the first's revision it saw the same thread. When
/// it does not (an append came between), and for a page anchored on a message or holding no
/// link, the page is read in one transaction as [`thread_page`] reads it.
pub(super) async fn conversation_page<M>(
    pool: &PgPool,
    request: &PageRequest,
    make: MakeMessage<M>,
) -> Result<ConversationPage<M>> {
    if request.anchor_message().is_none() {
        if let Some(page) = guessed_page(pool, request, make).await? {
            return Ok(page);
        }
        let (key, thread, conversation) = head(pool, request.thread).await?;
        if let Some(range) = request.link_range(thread.message_count, None) {
            let known = request.tokens_for(&thread);
            if let Some(read) = guarded_links(pool, key, &thread, &range, known, make).await? {
                let (read, tokens) = read;
                let page = ThreadPage::at(thread, Some(range), read, tokens);
                return Ok(ConversationPage { conversation, page });
            }
        }
    }
    let mut tx = begin(pool).await?;
    let (key, thread, conversation) = head(&mut *tx, request.thread).await?;
    let page = page_in(&mut tx, request, key, thread, make).await?;
    tx.commit().await.db()?;
    Ok(ConversationPage { conversation, page })
}

/// A read-only REPEATABLE READ transaction; the isolation level in the BEGIN itself: a round
/// trip less than a separate SET.
async fn begin(pool: &PgPool) -> Result<sqlx::Transaction<'static, sqlx::Postgres>> {
    pool.begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .await
        .db()
}

/// The page `request` asks of the thread `thread` (whose key is `key`), in `tx`.
async fn page_in<M>(
    tx: &mut PgConnection,
    request: &PageRequest,
    key: i64,
    thread: Thread,
    make: MakeMessage<M>,
) -> Result<ThreadPage<M>> {
    let anchor = match request.anchor_message() {
        Some(message) => Some(position_of(&mut *tx, key, message).await?),
        None => None,
    };
    let range = request.link_range(thread.message_count, anchor);
    let read = match &range {
        Some(r) => links(&mut *tx, key, *r.start(), *r.end(), make).await?,
        None => (Vec::new(), Vec::new()),
    };
    let tokens = match request.tokens_for(&thread) {
        Some(tokens) => tokens,
        None => tokens::thread_key_tokens(&mut *tx, key).await?,
    };
    Ok(ThreadPage::at(thread, range, read, tokens))
}

/// The columns of a thread `t` with its key and its conversation `c` (project `p`, current
/// thread `ct`): see [`head_from`].
macro_rules! head_columns {
    () => {
        concat!(
            "t.key AS thread_key, ",
            thread_columns!(),
            ", p.id AS project_id, c.display_name, ct.id AS current_thread_id, \
               c.created_at AS conversation_created_at, \
               c.updated_at AS conversation_updated_at"
        )
    };
}

/// What [`head_columns`] needs besides `thread_from!()`.
macro_rules! head_from {
    () => {
        " JOIN projects p ON p.key = c.project_key \
          LEFT JOIN threads ct ON ct.key = c.current_thread_key"
    };
}

#[derive(sqlx::FromRow)]
struct HeadRow {
    #[sqlx(rename = "thread_key")]
    key: i64,
    #[sqlx(flatten)]
    thread: ThreadRow,
    project_id: uuid::Uuid,
    display_name: String,
    current_thread_id: Option<uuid::Uuid>,
    conversation_created_at: chrono::DateTime<chrono::Utc>,
    conversation_updated_at: chrono::DateTime<chrono::Utc>,
}

/// The thread `which` names (its key and header) with its conversation: one statement.
async fn head<'c, E>(executor: E, which: ThreadRef) -> Result<(i64, Thread, Conversation)>
where
    E: sqlx::PgExecutor<'c>,
{
    let (which, id, missing) = selecting(which);
    let sql = format!(
        concat!(
            "SELECT ",
            head_columns!(),
            thread_from!(),
            head_from!(),
            " WHERE {}"
        ),
        which
    );
    let row: Option<HeadRow> = sqlx::query_as(&sql)
        .bind(id)
        .fetch_optional(executor)
        .await
        .db()?;
    row.ok_or(missing)?.into_parts()
}

impl HeadRow {
    fn into_parts(self) -> Result<(i64, Thread, Conversation)> {
        let row = self;
        let conversation = ConversationRow {
            id: row.thread.conversation_id,
            project_id: row.project_id,
            display_name: row.display_name,
            current_thread_id: row.current_thread_id,
            created_at: row.conversation_created_at,
            updated_at: row.conversation_updated_at,
        }
        .try_into()?;
        Ok((row.key, row.thread.try_into()?, conversation))
    }
}

/// A row of [`guessed_page`]: the head, and a message whose columns the head's names would
/// shadow (`id`, `conversation_id`, `created_at`) under names of their own.
#[derive(sqlx::FromRow)]
struct HeadPageRow {
    #[sqlx(flatten)]
    head: HeadRow,
    message_id: uuid::Uuid,
    message_conversation_id: uuid::Uuid,
    squash_operation_id: Option<uuid::Uuid>,
    reply_to: Option<uuid::Uuid>,
    role: String,
    content: String,
    instructions: Option<String>,
    metadata: Option<String>,
    message_created_at: chrono::DateTime<chrono::Utc>,
    tokens: Option<i64>,
    key: i64,
}

impl HeadPageRow {
    /// The head (every row holds the same) and the message's row.
    fn split(self) -> (HeadRow, PageRow) {
        let page = PageRow {
            message: MessageRow {
                id: self.message_id,
                conversation_id: self.message_conversation_id,
                squash_operation_id: self.squash_operation_id,
                reply_to: self.reply_to,
                role: self.role,
                content: self.content,
                instructions: self.instructions,
                metadata: self.metadata,
                created_at: self.message_created_at,
            },
            tokens: self.tokens,
            key: self.key,
        };
        (self.head, page)
    }
}

/// The page in one statement, when the thread was read before (`request.known_tokens`): the
/// header with the conversation and the links of the page the thread's known length gives.
/// `None` when the header is not the known one (the thread moved on, or the conversation's
/// current thread is another): the links were then not the page's, and the caller reads it
/// again from the header.
async fn guessed_page<M>(
    pool: &PgPool,
    request: &PageRequest,
    make: MakeMessage<M>,
) -> Result<Option<ConversationPage<M>>> {
    let Some(known) = request.known_tokens else {
        return Ok(None);
    };
    let Some(range) = request.link_range(known.message_count, None) else {
        return Ok(None);
    };
    let (which, id, _) = selecting(request.thread);
    let sql = format!(
        concat!(
            "SELECT ",
            head_columns!(),
            ", m.id AS message_id, c.id AS message_conversation_id, m.squash_operation_id, \
               m.reply_to, m.role, m.content, m.instructions, m.metadata, \
               m.created_at AS message_created_at, m.tokens, m.key",
            thread_from!(),
            head_from!(),
            " CROSS JOIN LATERAL ",
            thread_links!(postgres, "t.key", "$2", "$3"),
            " tl JOIN messages m ON m.key = tl.message_key \
              WHERE {} ORDER BY tl.position"
        ),
        which
    );
    let rows: Vec<HeadPageRow> = range_rows(pool, &sql, id, &range).await?;
    let expected = range.end() - range.start() + 1;
    let mut rows = rows.into_iter();
    let Some(first) = rows.next() else {
        return Ok(None);
    };
    let (head, row) = first.split();
    let (_, thread, conversation) = head.into_parts()?;
    let tokens = match request.tokens_for(&thread) {
        Some(tokens) if thread.message_count == known.message_count => tokens,
        _ => return Ok(None),
    };
    if rows.len() as u64 + 1 != expected {
        return Ok(None);
    }
    let (mut messages, mut message_tokens) = (Vec::with_capacity(expected as usize), Vec::new());
    for row in std::iter::once(row).chain(rows.map(|r| r.split().1)) {
        let (message, t) = make(row)?;
        message_tokens.push(t);
        messages.push(message);
    }
    let page = ThreadPage::at(thread, Some(range), (messages, message_tokens), tokens);
    Ok(Some(ConversationPage { conversation, page }))
}

/// The rows `sql` selects for the link positions `range` (`$2`, `$3`) of the thread `$1`
/// names (`thread`: its id or its key).
async fn range_rows<'q, R, T>(
    pool: &PgPool,
    sql: &'q str,
    thread: T,
    range: &std::ops::RangeInclusive<u64>,
) -> Result<Vec<R>>
where
    R: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
    T: 'q + sqlx::Encode<'q, sqlx::Postgres> + sqlx::Type<sqlx::Postgres> + Send,
{
    sqlx::query_as(sql)
        .bind(thread)
        .bind(to_i64("a link position", *range.start())?)
        .bind(to_i64("a link position", *range.end())?)
        .fetch_all(pool)
        .await
        .db()
}

#[derive(sqlx::FromRow)]
struct GuardedRow {
    #[sqlx(flatten)]
    row: PageRow,
    /// The thread's revision as this statement saw it.
    revision: Option<i64>,
    /// The thread's token sum, when asked for.
    thread_tokens: Option<i64>,
}

/// The links of `range` of `thread` (whose key is `key`) with the thread's token sum (`known`,
/// else summed in the same statement), if the statement saw the thread at `thread`'s revision:
/// `None` when it did not.
async fn guarded_links<M>(
    pool: &PgPool,
    key: i64,
    thread: &Thread,
    range: &std::ops::RangeInclusive<u64>,
    known: Option<u64>,
    make: MakeMessage<M>,
) -> Result<Option<((Vec<M>, Vec<u64>), u64)>> {
    macro_rules! guarded {
        ($tokens:expr) => {
            concat!(
                "SELECT ",
                message_columns!(),
                ", m.tokens, m.key, (SELECT revision FROM threads WHERE key = $1) AS revision, ",
                $tokens,
                " AS thread_tokens FROM ",
                thread_links!(postgres, "$1", "$2", "$3"),
                " tl JOIN messages m ON m.key = tl.message_key \
                  JOIN conversations c ON c.key = m.conversation_key ORDER BY tl.position"
            )
        };
    }
    let sql = match known {
        Some(_) => guarded!("NULL::bigint"),
        None => guarded!(thread_tokens_sum!("$1")),
    };
    let rows: Vec<GuardedRow> = range_rows(pool, sql, key, range).await?;
    let expected = range.end() - range.start() + 1;
    let same = rows.len() as u64 == expected
        && rows
            .iter()
            .all(|r| r.revision == Some(thread.revision as i64));
    let tokens = match (known, rows.first().and_then(|r| r.thread_tokens)) {
        (Some(t), _) => t,
        (None, Some(sum)) => sum_to_u64(sum)?,
        (None, None) => return Ok(None),
    };
    if !same {
        return Ok(None);
    }
    let (mut messages, mut message_tokens) = (Vec::with_capacity(rows.len()), Vec::new());
    for r in rows {
        let (message, t) = make(r.row)?;
        message_tokens.push(t);
        messages.push(message);
    }
    Ok(Some(((messages, message_tokens), tokens)))
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
        role: &m.role,
        content: m.content,
        instructions: m.instructions,
        metadata: m.metadata,
        created_at: m.created_at,
        tokens: row.tokens,
    }
    .into_message()
}
