//! Imports: a whole conversation in one transaction with set-wise inserts (`UNNEST`, a few
//! statements whatever the size), the append of a grown source, and the `imports` records that
//! make a second import of the same source a no-op.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use squash_core::{ConversationId, Message, MessageId, ThreadId};
use uuid::Uuid;

use super::conversations::insert_project;
use super::error::{classify, taken, DbResult};
use super::fetch;
use super::operations::{insert_operations, KnownKeys};
use super::rows::{to_i64, to_json, NewMessageRow, TsVector};
use super::write::lock;
use crate::types::{
    Appended, ImportAppend, ImportBatch, ImportOutcome, ImportRecord, ImportSource, MessageChunks,
    PreparedChunk,
};
use crate::{check, Entity, Result, StoreError};

/// Messages per INSERT: bounds the size of one statement's parameter arrays.
const CHUNK: usize = 2_000;

/// The record of `source_key`, locked for this transaction: (content hash, conversation id).
async fn existing(
    conn: &mut PgConnection,
    source_key: &str,
) -> Result<Option<(String, ConversationId)>> {
    let row: Option<(String, Uuid)> = sqlx::query_as(
        "SELECT i.content_hash, c.id FROM imports i \
         JOIN conversations c ON c.key = i.conversation_key \
         WHERE i.source_key = $1 FOR UPDATE OF i",
    )
    .bind(source_key)
    .fetch_optional(&mut *conn)
    .await
    .db()?;
    Ok(row.map(|(hash, id)| (hash, id.into())))
}

/// Inserts `messages` and their tool ids; returns each message's key.
pub(super) async fn insert_messages(
    conn: &mut PgConnection,
    conversation_key: i64,
    messages: &[Message],
) -> Result<HashMap<MessageId, i64>> {
    let mut keys = HashMap::with_capacity(messages.len());
    insert_messages_into(conn, conversation_key, messages, &mut keys).await?;
    Ok(keys)
}

/// Inserts `messages` and their tool ids, adding each message's key to `keys`. The rows'
/// computed columns (JSON, tokens, search terms: a fit's 26,000 results take this process
/// 0.4–0.6 s) are made on a blocking thread one chunk ahead, so that the server inserts a
/// chunk while the next is made rather than waiting for all of them.
async fn insert_messages_into(
    conn: &mut PgConnection,
    conversation_key: i64,
    messages: &[Message],
    keys: &mut HashMap<MessageId, i64>,
) -> Result<()> {
    if messages.len() <= CHUNK {
        // Nothing to overlap: made here, without a copy.
        let rows: Vec<NewMessageRow> = messages
            .iter()
            .map(NewMessageRow::of)
            .collect::<Result<_>>()?;
        return insert_rows(conn, conversation_key, &rows, keys).await;
    }
    let mut chunks = messages.chunks(CHUNK);
    let mut ahead = chunks.next().map(prepare_rows);
    while let Some(prepared) = ahead.take() {
        let rows = prepared
            .await
            .map_err(|e| StoreError::Backend(format!("making the message rows: {e}")))??;
        ahead = chunks.next().map(prepare_rows);
        insert_rows(conn, conversation_key, &rows, keys).await?;
    }
    Ok(())
}

/// The rows of `chunk`, made on a blocking thread (a copy of the chunk goes with it).
fn prepare_rows(chunk: &[Message]) -> tokio::task::JoinHandle<Result<Vec<NewMessageRow>>> {
    let chunk = chunk.to_vec();
    tokio::task::spawn_blocking(move || chunk.iter().map(NewMessageRow::of).collect())
}

/// Inserts the messages of `rows` and their tool ids, adding each message's key to `keys`.
async fn insert_rows(
    conn: &mut PgConnection,
    conversation_key: i64,
    rows: &[NewMessageRow],
    keys: &mut HashMap<MessageId, i64>,
) -> Result<()> {
    for rows in rows.chunks(CHUNK) {
        let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
        let ops: Vec<Option<Uuid>> = rows.iter().map(|r| r.squash_operation_id).collect();
        let replies: Vec<Option<Uuid>> = rows.iter().map(|r| r.reply_to).collect();
        let roles: Vec<&str> = rows.iter().map(|r| r.role).collect();
        let contents: Vec<&str> = rows.iter().map(|r| r.content.as_str()).collect();
        let instructions: Vec<Option<&str>> =
            rows.iter().map(|r| r.instructions.as_deref()).collect();
        let metadata: Vec<Option<&str>> = rows.iter().map(|r| r.metadata.as_deref()).collect();
        let created: Vec<DateTime<Utc>> = rows.iter().map(|r| r.created_at).collect();
        let tokens: Vec<i64> = rows.iter().map(|r| r.tokens).collect();
        let search: Vec<&str> = rows.iter().map(|r| r.search_text.as_str()).collect();
        let terms: Vec<&TsVector> = rows.iter().map(|r| &r.search_terms).collect();
        // A taken id aborts the transaction, after which nothing can say which one it was:
        // ask first (one index probe per id), so the answer names it as SQLite's does.
        let stored: Option<Uuid> =
            sqlx::query_scalar("SELECT id FROM messages WHERE id = ANY($1) LIMIT 1")
                .bind(&ids)
                .fetch_optional(&mut *conn)
                .await
                .db()?;
        if let Some(id) = stored {
            return Err(StoreError::already_exists(Entity::Message, id));
        }
        let inserted: Vec<(Uuid, i64)> = sqlx::query_as(
            "INSERT INTO messages (id, conversation_key, squash_operation_id, reply_to, role, \
                                   content, instructions, metadata, created_at, tokens, \
                                   search_text, search_terms) \
             SELECT u.id, $1, u.op, u.reply, u.role, u.content, u.instructions, u.metadata, \
                    u.created_at, u.tokens, u.search_text, u.search_terms \
             FROM UNNEST($2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], \
                         $7::text[], $8::text[], $9::timestamptz[], $10::bigint[], \
                         $11::text[], $12::tsvector[]) \
                  WITH ORDINALITY \
                  AS u(id, op, reply, role, content, instructions, metadata, created_at, tokens, \
                       search_text, search_terms, ord) \
             ORDER BY u.ord \
             RETURNING id, key",
        )
        .bind(conversation_key)
        .bind(&ids)
        .bind(&ops)
        .bind(&replies)
        .bind(&roles)
        .bind(&contents)
        .bind(&instructions)
        .bind(&metadata)
        .bind(&created)
        .bind(&tokens)
        .bind(&search)
        .bind(&terms)
        .fetch_all(&mut *conn)
        .await
        // A concurrent writer took an id since the probe above.
        .map_err(|e| taken(e, "messages_id_key", Entity::Message, "of this import"))?;
        for (id, key) in inserted {
            keys.insert(MessageId::from(id), key);
        }
        let mut tool_ids = Vec::new();
        let mut tool_keys = Vec::new();
        let mut tool_results = Vec::new();
        for row in rows {
            let key = keys.get(&MessageId::from(row.id)).copied().ok_or_else(|| {
                StoreError::Corrupt("an inserted message did not return its key".into())
            })?;
            for (tool, is_result) in row.tool_ids.iter().zip(&row.tool_is_result) {
                tool_ids.push(tool.as_str());
                tool_keys.push(key);
                tool_results.push(*is_result);
            }
        }
        if !tool_ids.is_empty() {
            sqlx::query(
                "INSERT INTO message_tools (conversation_key, tool_use_id, message_key, is_result) \
                 SELECT $1, u.tool, u.key, u.is_result \
                 FROM UNNEST($2::text[], $3::bigint[], $4::boolean[]) AS u(tool, key, is_result) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(conversation_key)
            .bind(&tool_ids)
            .bind(&tool_keys)
            .bind(&tool_results)
            .execute(&mut *conn)
            .await
            .db()?;
        }
    }
    Ok(())
}

async fn insert_links(
    conn: &mut PgConnection,
    thread_key: i64,
    start: i64,
    keys: &[i64],
) -> Result<()> {
    sqlx::query(
        "INSERT INTO thread_messages (thread_key, position, message_key) \
         SELECT $1, $2 + l.ord - 1, l.key FROM UNNEST($3::bigint[]) WITH ORDINALITY AS l(key, ord)",
    )
    .bind(thread_key)
    .bind(start)
    .bind(keys)
    .execute(&mut *conn)
    .await
    .db()?;
    Ok(())
}

/// Inserts or (with `replace`) updates the record of `source`; `metadata` is its JSON text.
async fn write_record(
    conn: &mut PgConnection,
    source: &ImportSource,
    metadata: Option<String>,
    conversation_key: i64,
    replace: bool,
) -> std::result::Result<(), sqlx::Error> {
    let sql = if replace {
        "UPDATE imports SET format = $2, conversation_key = $3, content_hash = $4, metadata = $5, \
         imported_at = $6 WHERE source_key = $1"
    } else {
        "INSERT INTO imports (source_key, format, conversation_key, content_hash, metadata, \
         imported_at) VALUES ($1, $2, $3, $4, $5, $6)"
    };
    sqlx::query(sql)
        .bind(&source.source_key)
        .bind(source.format.as_str())
        .bind(conversation_key)
        .bind(&source.content_hash)
        .bind(metadata)
        .bind(Utc::now())
        .execute(&mut *conn)
        .await?;
    Ok(())
}

pub(super) async fn import_conversation(
    pool: &PgPool,
    batch: ImportBatch,
    more: MessageChunks,
) -> Result<ImportOutcome> {
    let check = check::ImportCheck::before(&batch, &more)?;
    let mut tx = begin_import(pool).await?;
    match import_in(&mut tx, &batch, check, more).await? {
        Stored::Outcome(outcome) => {
            tx.commit().await.db()?;
            Ok(outcome)
        }
        Stored::SourceTaken => {
            // A concurrent import of the same source committed first: drop ours and report it.
            drop(tx);
            let winner = import_record(pool, &batch.source.source_key).await?;
            match winner {
                Some(r) if r.source.content_hash == batch.source.content_hash => {
                    Ok(ImportOutcome::AlreadyImported {
                        conversation_id: r.conversation_id,
                    })
                }
                _ => Err(concurrent(&batch)),
            }
        }
    }
}

/// Each of `batches` as [`import_conversation`] stores it, in one transaction.
pub(super) async fn import_conversations(
    pool: &PgPool,
    batches: Vec<(ImportBatch, MessageChunks)>,
) -> Result<Vec<ImportOutcome>> {
    let checks = batches
        .iter()
        .map(|(batch, more)| check::ImportCheck::before(batch, more))
        .collect::<Result<Vec<_>>>()?;
    let mut tx = begin_import(pool).await?;
    let mut outcomes = Vec::with_capacity(batches.len());
    for ((batch, more), check) in batches.into_iter().zip(checks) {
        match import_in(&mut tx, &batch, check, more).await? {
            Stored::Outcome(outcome) => outcomes.push(outcome),
            Stored::SourceTaken => return Err(concurrent(&batch)),
        }
    }
    tx.commit().await.db()?;
    Ok(outcomes)
}

fn concurrent(batch: &ImportBatch) -> StoreError {
    StoreError::Busy(format!(
        "another import of {} ran at the same time; try again",
        batch.source.source_key
    ))
}

/// What storing a conversation in an open transaction came to.
enum Stored {
    Outcome(ImportOutcome),
    /// A concurrent import of the same source committed its record first: the transaction
    /// is aborted.
    SourceTaken,
}

/// Stores `batch` (and the messages of `more`) in the open transaction `tx`; the caller
/// started `check`.
async fn import_in(
    tx: &mut PgConnection,
    batch: &ImportBatch,
    mut check: check::ImportCheck,
    more: MessageChunks,
) -> Result<Stored> {
    let previous = existing(&mut *tx, &batch.source.source_key).await?;
    if let Some((hash, conversation_id)) = &previous {
        if *hash == batch.source.content_hash {
            return Ok(Stored::Outcome(ImportOutcome::AlreadyImported {
                conversation_id: *conversation_id,
            }));
        }
    }

    if !batch
        .threads
        .iter()
        .any(|t| t.id == batch.current_thread_id)
    {
        return Err(StoreError::Invalid(
            "the current thread is not imported".into(),
        ));
    }
    let conversation_key = insert_conversation(&mut *tx, batch).await?;
    let mut message_keys = insert_messages(&mut *tx, conversation_key, &batch.messages).await?;
    let mut chunks = ChunksAhead::new(more);
    while let Some((_, rows)) = chunks.next(&mut check).await? {
        insert_rows(&mut *tx, conversation_key, &rows, &mut message_keys).await?;
    }
    check.finish(batch)?;
    let thread_keys = insert_threads(&mut *tx, conversation_key, batch, &message_keys).await?;

    let known = KnownKeys {
        messages: Some(&message_keys),
        threads: thread_keys,
    };
    insert_operations(&mut *tx, conversation_key, &batch.operations, &known).await?;

    let metadata = batch.source.metadata.as_ref().map(to_json).transpose()?;
    let written = write_record(
        &mut *tx,
        &batch.source,
        metadata,
        conversation_key,
        previous.is_some(),
    )
    .await;
    match written {
        Ok(()) => Ok(Stored::Outcome(ImportOutcome::Imported {
            conversation_id: batch.conversation_id,
            replaced: previous.map(|(_, id)| id),
        })),
        Err(sqlx::Error::Database(db))
            if db.code().as_deref() == Some("23505")
                && db.constraint() == Some("imports_source_key_key") =>
        {
            Ok(Stored::SourceTaken)
        }
        Err(e) => Err(classify(e)),
    }
}

/// The conversation of `batch` in its project (made if it is new); returns its key.
async fn insert_conversation(tx: &mut PgConnection, batch: &ImportBatch) -> Result<i64> {
    insert_project(&mut *tx, &batch.project_path).await?;
    sqlx::query_scalar(
        "INSERT INTO conversations (id, project_key, display_name, created_at, updated_at) \
         SELECT $1, p.key, $3, $4, $5 FROM projects p WHERE p.path = $2 RETURNING key",
    )
    .bind(batch.conversation_id.as_uuid())
    .bind(&batch.project_path)
    .bind(&batch.display_name)
    .bind(batch.created_at)
    .bind(batch.updated_at)
    .fetch_one(&mut *tx)
    .await
    .map_err(|e| {
        taken(
            e,
            "conversations_id_key",
            Entity::Conversation,
            batch.conversation_id,
        )
    })
}

/// The threads of `batch`, each with its links (and, for the current one, the conversation's
/// pointer to it) in one statement; returns their keys.
async fn insert_threads(
    tx: &mut PgConnection,
    conversation_key: i64,
    batch: &ImportBatch,
    message_keys: &HashMap<MessageId, i64>,
) -> Result<HashMap<ThreadId, i64>> {
    let mut thread_keys: HashMap<ThreadId, i64> = HashMap::with_capacity(batch.threads.len());
    for t in &batch.threads {
        let (original, links) = check::thread_keys(t, &thread_keys, message_keys)?;
        let key: i64 = sqlx::query_scalar(
            "WITH t AS ( \
                 INSERT INTO threads (id, conversation_key, original_thread_key, origin, \
                                      revision, message_count, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING key), \
             l AS ( \
                 INSERT INTO thread_messages (thread_key, position, message_key) \
                 SELECT t.key, l.ord - 1, l.key \
                 FROM t, UNNEST($9::bigint[]) WITH ORDINALITY AS l(key, ord)), \
             c AS ( \
                 UPDATE conversations SET current_thread_key = t.key FROM t \
                 WHERE conversations.key = $2 AND $10) \
             SELECT key FROM t",
        )
        .bind(t.id.as_uuid())
        .bind(conversation_key)
        .bind(original)
        .bind(to_json(&t.origin)?)
        .bind(to_i64("thread revision", t.revision)?)
        .bind(to_i64("link count", links.len() as u64)?)
        .bind(t.created_at)
        .bind(t.updated_at)
        .bind(&links)
        .bind(t.id == batch.current_thread_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| taken(e, "threads_id_key", Entity::Thread, t.id))?;
        thread_keys.insert(t.id, key);
    }
    Ok(thread_keys)
}

pub(super) async fn import_append(
    pool: &PgPool,
    append: ImportAppend,
    more: MessageChunks,
) -> Result<Appended> {
    let mut check = check::ImportCheck::appending(&append)?;
    let mut tx = begin_import(pool).await?;
    let locked = lock(&mut tx, append.conversation_id).await?;
    check::append_record(&append, existing(&mut tx, &append.source.source_key).await?)?;
    let keys = insert_messages(&mut tx, locked.conversation_key, &append.messages).await?;
    let mut ordered = in_order(&append.messages, &keys)?;
    let mut chunks = ChunksAhead::new(more);
    while let Some((messages, rows)) = chunks.next(&mut check).await? {
        let mut keys = HashMap::with_capacity(messages.len());
        insert_rows(&mut tx, locked.conversation_key, &rows, &mut keys).await?;
        ordered.extend(in_order(&messages, &keys)?);
    }
    let mut revision = locked.revision;
    if !ordered.is_empty() {
        // After the tail's last link, as an append's (crate::segments): a squashed thread's
        // positions are not its own storage's offsets.
        let offset: i64 = sqlx::query_scalar(
            "SELECT tail_offset + message_count - tail_start FROM threads WHERE key = $1",
        )
        .bind(locked.thread_key)
        .fetch_one(&mut *tx)
        .await
        .db()?;
        insert_links(&mut tx, locked.thread_key, offset, &ordered).await?;
        let now = Utc::now();
        revision = sqlx::query_scalar(
            "UPDATE threads SET revision = revision + 1, message_count = message_count + $2, \
                                updated_at = $3 WHERE key = $1 RETURNING revision",
        )
        .bind(locked.thread_key)
        .bind(to_i64("link count", ordered.len() as u64)?)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .db()?;
        sqlx::query("UPDATE conversations SET updated_at = $2 WHERE key = $1")
            .bind(locked.conversation_key)
            .bind(now)
            .execute(&mut *tx)
            .await
            .db()?;
    }
    let metadata = append.source.metadata.as_ref().map(to_json).transpose()?;
    write_record(
        &mut tx,
        &append.source,
        metadata,
        locked.conversation_key,
        true,
    )
    .await
    .db()?;
    tx.commit().await.db()?;
    locked.appended(revision)
}

/// The chunks of a streamed import with their rows, each chunk checked as it arrives and its
/// rows made (the `tsvector`s sorted and encoded) on a blocking thread while the chunk before
/// it is inserted: the thread that binds, and the server that waits on it, never wait for that
/// work (a fifth of this thread's time in a 200 MB import, `perf`).
struct ChunksAhead {
    more: MessageChunks,
    ahead: Option<tokio::task::JoinHandle<(Vec<Message>, Vec<NewMessageRow>)>>,
}

impl ChunksAhead {
    fn new(more: MessageChunks) -> ChunksAhead {
        ChunksAhead { more, ahead: None }
    }

    /// The next chunk's messages and rows, `None` after the last; the one after it starts.
    async fn next(
        &mut self,
        check: &mut check::ImportCheck,
    ) -> Result<Option<(Vec<Message>, Vec<NewMessageRow>)>> {
        if self.ahead.is_none() {
            self.ahead = self.receive(check).await?;
        }
        let Some(current) = self.ahead.take() else {
            return Ok(None);
        };
        self.ahead = self.receive(check).await?;
        let made = current
            .await
            .map_err(|e| StoreError::Backend(format!("making the message rows: {e}")))?;
        Ok(Some(made))
    }

    /// The next chunk from the source, checked, its rows being made.
    async fn receive(
        &mut self,
        check: &mut check::ImportCheck,
    ) -> Result<Option<tokio::task::JoinHandle<(Vec<Message>, Vec<NewMessageRow>)>>> {
        let Some(chunk) = self.more.next().await? else {
            return Ok(None);
        };
        check.messages(&chunk.messages)?;
        let PreparedChunk { messages, rows } = chunk;
        Ok(Some(tokio::task::spawn_blocking(move || {
            let rows = messages
                .iter()
                .zip(rows)
                .map(|(m, row)| NewMessageRow::with(m, row))
                .collect();
            (messages, rows)
        })))
    }
}

/// The keys of `messages`, in their order, from what inserting them gave.
fn in_order(messages: &[Message], keys: &HashMap<MessageId, i64>) -> Result<Vec<i64>> {
    messages
        .iter()
        .map(|m| {
            keys.get(&m.id)
                .copied()
                .ok_or_else(|| StoreError::Corrupt("an inserted message lost its key".into()))
        })
        .collect()
}

#[derive(sqlx::FromRow)]
pub(super) struct RecordRow {
    pub source_key: String,
    pub format: String,
    pub content_hash: String,
    pub metadata: Option<String>,
    pub conversation_id: Uuid,
    pub imported_at: DateTime<Utc>,
}

impl TryFrom<RecordRow> for ImportRecord {
    type Error = StoreError;

    fn try_from(row: RecordRow) -> Result<Self> {
        let metadata = row
            .metadata
            .map(|text| {
                serde_json::from_str(&text).map_err(|e| {
                    StoreError::Corrupt(format!("import metadata of {}: {e}", row.source_key))
                })
            })
            .transpose()?;
        let format = row.format.parse().map_err(|e| {
            StoreError::Corrupt(format!("import record of {}: {e}", row.source_key))
        })?;
        Ok(ImportRecord {
            source: ImportSource {
                source_key: row.source_key,
                format,
                content_hash: row.content_hash,
                metadata,
            },
            conversation_id: row.conversation_id.into(),
            imported_at: row.imported_at,
        })
    }
}

const RECORD_SELECT: &str = "SELECT i.source_key, i.format, i.content_hash, i.metadata, \
     c.id AS conversation_id, i.imported_at \
     FROM imports i JOIN conversations c ON c.key = i.conversation_key";

pub(super) async fn import_record(pool: &PgPool, source_key: &str) -> Result<Option<ImportRecord>> {
    let row: Option<RecordRow> =
        sqlx::query_as(&format!("{RECORD_SELECT} WHERE i.source_key = $1"))
            .bind(source_key)
            .fetch_optional(pool)
            .await
            .db()?;
    row.map(TryInto::try_into).transpose()
}

pub(super) async fn import_records_of(
    pool: &PgPool,
    conversation: ConversationId,
) -> Result<Vec<ImportRecord>> {
    let sql = format!("{RECORD_SELECT} WHERE c.id = $1 ORDER BY i.imported_at DESC, i.key DESC");
    fetch::all::<RecordRow, _>(sqlx::query_as(&sql).bind(conversation.as_uuid()), pool).await
}

/// An import's transaction, its statements planned for their arguments: with the session's
/// generic plans (`PostgresStore::open`) the import's inserts of many rows at once ran 1.3–1.7×
/// slower (BENCHMARKS.md, "Generic plans on PostgreSQL").
async fn begin_import(pool: &PgPool) -> Result<sqlx::Transaction<'static, sqlx::Postgres>> {
    let mut tx = pool.begin().await.db()?;
    sqlx::query("SET LOCAL plan_cache_mode = auto")
        .execute(&mut *tx)
        .await
        .db()?;
    Ok(tx)
}
