//! Reads. Each is a single statement where consistency matters (a snapshot and its links,
//! messages in thread order), so no read needs a transaction.

use sqlx::PgPool;
use squash_core::{
    Conversation, ConversationId, Message, MessageId, Project, ProjectId, RecallRef,
    SquashOperation, SquashOperationId, Thread, ThreadId,
};
use uuid::Uuid;

use super::error::DbResult;
use super::fetch;
use super::rows::{
    to_u64, ConversationRow, MessageRow, OperationRow, ProjectRow, SnapshotRow, ThreadRow,
};
use super::sql::{
    conversation_select, is_current_thread, message_columns, operation_select, project_select,
    snapshot_select, thread_select,
};
use crate::segments::all_thread_links;
use crate::{
    normalize_prefix, Entity, RecallTarget, Result, StoreError, StoreStats, ThreadRef,
    ThreadSnapshot,
};

/// Enough to list candidates for an ambiguous prefix; same cap as the SQLite backend.
const PREFIX_LIMIT: i64 = 20;

pub(super) async fn projects(pool: &PgPool) -> Result<Vec<Project>> {
    fetch::all::<ProjectRow, _>(
        sqlx::query_as(concat!(project_select!(), " ORDER BY p.path")),
        pool,
    )
    .await
}

pub(super) async fn project(pool: &PgPool, id: ProjectId) -> Result<Project> {
    fetch::one::<ProjectRow, _>(
        sqlx::query_as(concat!(project_select!(), " WHERE p.id = $1")).bind(id.as_uuid()),
        pool,
        || StoreError::not_found(Entity::Project, id),
    )
    .await
}

pub(super) async fn conversation<'e, E>(executor: E, id: ConversationId) -> Result<Conversation>
where
    E: sqlx::PgExecutor<'e>,
{
    fetch::one::<ConversationRow, _>(
        sqlx::query_as(concat!(conversation_select!(), " WHERE c.id = $1")).bind(id.as_uuid()),
        executor,
        || StoreError::not_found(Entity::Conversation, id),
    )
    .await
}

pub(super) async fn conversations(
    pool: &PgPool,
    project: Option<ProjectId>,
) -> Result<Vec<Conversation>> {
    fetch::all::<ConversationRow, _>(
        sqlx::query_as(concat!(
            conversation_select!(),
            " WHERE $1::uuid IS NULL OR p.id = $1 ORDER BY c.updated_at DESC, c.key DESC"
        ))
        .bind(project.map(|p| *p.as_uuid())),
        pool,
    )
    .await
}

/// The key of a conversation, or `NotFound` — for reads that filter by key.
async fn conversation_key(pool: &PgPool, id: ConversationId) -> Result<i64> {
    let sql = "SELECT key FROM conversations WHERE id = $1";
    fetch::key(pool, sql, Entity::Conversation, id.as_uuid()).await
}

/// The condition that makes `thread` the threads' `t` (with the id bound as `$1`), and the
/// error when no row meets it.
pub(super) fn selecting(thread: ThreadRef) -> (&'static str, Uuid, StoreError) {
    match thread {
        ThreadRef::Current(conversation) => (
            is_current_thread!(),
            *conversation.as_uuid(),
            StoreError::not_found(Entity::Conversation, conversation),
        ),
        ThreadRef::Thread(thread) => (
            "t.id = $1",
            *thread.as_uuid(),
            StoreError::not_found(Entity::Thread, thread),
        ),
    }
}

/// The thread `thread` names, with its links.
pub(super) async fn thread(pool: &PgPool, thread: ThreadRef) -> Result<ThreadSnapshot> {
    let (which, id, missing) = selecting(thread);
    let sql = format!(concat!(snapshot_select!(), " WHERE {}"), which);
    fetch::one::<SnapshotRow, _>(sqlx::query_as(&sql).bind(id), pool, || missing).await
}

pub(super) async fn threads(pool: &PgPool, conversation: ConversationId) -> Result<Vec<Thread>> {
    let key = conversation_key(pool, conversation).await?;
    fetch::all::<ThreadRow, _>(
        sqlx::query_as(concat!(
            thread_select!(),
            " WHERE t.conversation_key = $1 ORDER BY t.key"
        ))
        .bind(key),
        pool,
    )
    .await
}

/// The thread `thread` names, without its links.
pub(super) async fn thread_header(pool: &PgPool, thread: ThreadRef) -> Result<Thread> {
    let (which, id, missing) = selecting(thread);
    let sql = format!(concat!(thread_select!(), " WHERE {}"), which);
    fetch::one::<ThreadRow, _>(sqlx::query_as(&sql).bind(id), pool, || missing).await
}

/// Redo's target: the newest thread derived from `thread` (keys grow with creation).
pub(super) async fn latest_derived_thread(
    pool: &PgPool,
    thread: ThreadId,
) -> Result<Option<Thread>> {
    let found: Option<(Option<Uuid>,)> = sqlx::query_as(
        "SELECT (SELECT d.id FROM threads d WHERE d.original_thread_key = t.key \
                 ORDER BY d.key DESC LIMIT 1) FROM threads t WHERE t.id = $1",
    )
    .bind(thread.as_uuid())
    .fetch_optional(pool)
    .await
    .db()?;
    match found.ok_or_else(|| StoreError::not_found(Entity::Thread, thread))? {
        (Some(child),) => thread_header(pool, ThreadRef::Thread(child.into()))
            .await
            .map(Some),
        (None,) => Ok(None),
    }
}

pub(super) async fn message(pool: &PgPool, id: MessageId) -> Result<Message> {
    fetch::one::<MessageRow, _>(
        sqlx::query_as(concat!(
            "SELECT ",
            message_columns!(),
            " FROM messages m JOIN conversations c ON c.key = m.conversation_key WHERE m.id = $1"
        ))
        .bind(id.as_uuid()),
        pool,
        || StoreError::not_found(Entity::Message, id),
    )
    .await
}

pub(super) async fn messages(pool: &PgPool, ids: &[MessageId]) -> Result<Vec<Message>> {
    let uuids: Vec<Uuid> = ids.iter().map(|id| *id.as_uuid()).collect();
    let rows: Vec<MessageRow> = sqlx::query_as(concat!(
        "SELECT ",
        message_columns!(),
        " FROM UNNEST($1::uuid[]) WITH ORDINALITY AS wanted(id, ord) \
          JOIN messages m ON m.id = wanted.id \
          JOIN conversations c ON c.key = m.conversation_key \
          ORDER BY wanted.ord"
    ))
    .bind(&uuids)
    .fetch_all(pool)
    .await
    .db()?;
    if rows.len() != ids.len() {
        let found: std::collections::HashSet<Uuid> = rows.iter().map(|r| r.id).collect();
        let missing = ids.iter().find(|id| !found.contains(id.as_uuid()));
        return Err(match missing {
            Some(id) => StoreError::not_found(Entity::Message, id),
            None => StoreError::Corrupt("a message was returned more than asked for".into()),
        });
    }
    rows.into_iter().map(TryInto::try_into).collect()
}

pub(super) async fn thread_messages(pool: &PgPool, thread: ThreadId) -> Result<Vec<Message>> {
    let messages: Vec<Message> = fetch::all::<MessageRow, _>(
        sqlx::query_as(concat!(
            "SELECT ",
            message_columns!(),
            " FROM ",
            all_thread_links!(postgres, "(SELECT key FROM threads WHERE id = $1)"),
            " tl JOIN messages m ON m.key = tl.message_key \
              JOIN conversations c ON c.key = m.conversation_key ORDER BY tl.position"
        ))
        .bind(thread.as_uuid()),
        pool,
    )
    .await?;
    if messages.is_empty() {
        // An empty result is either an empty thread or no thread at all.
        let sql = "SELECT 1 FROM threads WHERE id = $1";
        fetch::exists(pool, sql, Entity::Thread, thread.as_uuid()).await?;
    }
    Ok(messages)
}

pub(super) async fn conversation_messages(
    pool: &PgPool,
    conversation: ConversationId,
    after: Option<MessageId>,
    limit: u32,
) -> Result<Vec<Message>> {
    let key = conversation_key(pool, conversation).await?;
    fetch::all::<MessageRow, _>(
        sqlx::query_as(concat!(
            "SELECT ",
            message_columns!(),
            " FROM messages m JOIN conversations c ON c.key = m.conversation_key \
              WHERE m.conversation_key = $1 \
                AND m.key > CASE WHEN $2::uuid IS NULL THEN 0 \
                                 ELSE (SELECT key FROM messages WHERE id = $2) END \
              ORDER BY m.key LIMIT $3"
        ))
        .bind(key)
        .bind(after.map(|id| *id.as_uuid()))
        .bind(i64::from(limit)),
        pool,
    )
    .await
}

/// The UUID range a hex prefix covers. UUIDs compare bytewise, i.e. like their hex text, so a
/// prefix match is a range scan on the unique index instead of a scan of every id as text.
fn prefix_range(prefix: &str) -> Option<(Uuid, Uuid)> {
    let hex = normalize_prefix(prefix)?;
    let pad = 32 - hex.len();
    let low = Uuid::parse_str(&format!("{hex}{}", "0".repeat(pad))).ok()?;
    let high = Uuid::parse_str(&format!("{hex}{}", "f".repeat(pad))).ok()?;
    Some((low, high))
}

pub(super) async fn message_ids_with_prefix(
    pool: &PgPool,
    conversation: Option<ConversationId>,
    prefix: &str,
) -> Result<Vec<MessageId>> {
    let key = match conversation {
        Some(id) => Some(conversation_key(pool, id).await?),
        None => None,
    };
    let Some((low, high)) = prefix_range(prefix) else {
        return Ok(Vec::new());
    };
    let ids: Vec<Uuid> = sqlx::query_scalar(
        "SELECT id FROM messages \
         WHERE id BETWEEN $1 AND $2 AND ($3::bigint IS NULL OR conversation_key = $3) \
         ORDER BY id LIMIT $4",
    )
    .bind(low)
    .bind(high)
    .bind(key)
    .bind(PREFIX_LIMIT)
    .fetch_all(pool)
    .await
    .db()?;
    Ok(ids.into_iter().map(Into::into).collect())
}

/// What [`ids_with_prefix`] runs for conversations: ids in a range, in order, at most `$3`.
pub(super) const CONVERSATION_IDS: &str =
    "SELECT id FROM conversations WHERE id BETWEEN $1 AND $2 ORDER BY id LIMIT $3";
/// What [`ids_with_prefix`] runs for operations.
pub(super) const OPERATION_IDS: &str =
    "SELECT id FROM squash_operations WHERE id BETWEEN $1 AND $2 ORDER BY id LIMIT $3";

/// The ids `sql` ([`CONVERSATION_IDS`], [`OPERATION_IDS`]) finds in the range of `prefix`.
pub(super) async fn ids_with_prefix<T: From<Uuid>>(
    pool: &PgPool,
    sql: &'static str,
    prefix: &str,
) -> Result<Vec<T>> {
    let Some((low, high)) = prefix_range(prefix) else {
        return Ok(Vec::new());
    };
    let ids: Vec<Uuid> = sqlx::query_scalar(sql)
        .bind(low)
        .bind(high)
        .bind(PREFIX_LIMIT)
        .fetch_all(pool)
        .await
        .db()?;
    Ok(ids.into_iter().map(Into::into).collect())
}

pub(super) async fn operation(pool: &PgPool, id: SquashOperationId) -> Result<SquashOperation> {
    fetch::one::<OperationRow, _>(
        sqlx::query_as(concat!(operation_select!(), " WHERE o.id = $1")).bind(id.as_uuid()),
        pool,
        || StoreError::not_found(Entity::Operation, id),
    )
    .await
}

pub(super) async fn operations(
    pool: &PgPool,
    conversation: ConversationId,
) -> Result<Vec<SquashOperation>> {
    let key = conversation_key(pool, conversation).await?;
    fetch::all::<OperationRow, _>(
        sqlx::query_as(concat!(
            operation_select!(),
            " WHERE o.conversation_key = $1 ORDER BY o.key"
        ))
        .bind(key),
        pool,
    )
    .await
}

pub(super) async fn recall_target(
    pool: &PgPool,
    conversation: ConversationId,
    recall: RecallRef,
) -> Result<RecallTarget> {
    let row: Option<(Uuid, String, Option<i32>)> = sqlx::query_as(
        "SELECT o.id, o.kind, (SELECT max(s.position) FROM squash_operation_sources s \
                               WHERE s.operation_key = o.key) \
         FROM squash_operations o \
         WHERE o.conversation_key = (SELECT key FROM conversations WHERE id = $1) \
           AND o.recall_ref = $2",
    )
    .bind(conversation.as_uuid())
    .bind(i64::from(recall.get()))
    .fetch_optional(pool)
    .await
    .db()?;
    match row {
        Some((id, kind, last)) => crate::provenance::recall_target(id, &kind, last.map(i64::from)),
        None => {
            // Tell an unknown conversation from an unknown reference.
            conversation_key(pool, conversation).await?;
            Err(StoreError::not_found(Entity::Operation, recall))
        }
    }
}

pub(super) async fn operation_source_ids(
    pool: &PgPool,
    id: SquashOperationId,
    offset: u64,
    limit: u32,
) -> Result<Vec<MessageId>> {
    let op_key: Option<i64> = sqlx::query_scalar("SELECT key FROM squash_operations WHERE id = $1")
        .bind(id.as_uuid())
        .fetch_optional(pool)
        .await
        .db()?;
    let op_key = op_key.ok_or_else(|| StoreError::not_found(Entity::Operation, id))?;
    let ids: Vec<Uuid> = sqlx::query_scalar(
        "SELECT m.id FROM squash_operation_sources s JOIN messages m ON m.key = s.message_key \
         WHERE s.operation_key = $1 AND s.position >= $2 ORDER BY s.position LIMIT $3",
    )
    .bind(op_key)
    .bind(i32::try_from(offset).unwrap_or(i32::MAX))
    .bind(i64::from(limit))
    .fetch_all(pool)
    .await
    .db()?;
    Ok(ids.into_iter().map(Into::into).collect())
}

pub(super) async fn next_recall_ref(
    pool: &PgPool,
    conversation: ConversationId,
) -> Result<RecallRef> {
    let key = conversation_key(pool, conversation).await?;
    let highest: Option<i64> = sqlx::query_scalar(
        "SELECT max(recall_ref) FROM squash_operations WHERE conversation_key = $1",
    )
    .bind(key)
    .fetch_one(pool)
    .await
    .db()?;
    crate::provenance::next_recall_ref(highest)
}

#[derive(sqlx::FromRow)]
struct StatsRow {
    conversations: i64,
    threads: i64,
    messages: i64,
    thread_links: i64,
    operations: i64,
    bytes: i64,
}

pub(super) async fn stats(pool: &PgPool) -> Result<StoreStats> {
    // Table names resolve through search_path, so a store in its own schema measures only
    // its own tables.
    let row: StatsRow = sqlx::query_as(
        "SELECT (SELECT count(*) FROM conversations) AS conversations, \
                (SELECT count(*) FROM threads) AS threads, \
                (SELECT count(*) FROM messages) AS messages, \
                (SELECT count(*) FROM thread_messages) AS thread_links, \
                (SELECT count(*) FROM squash_operations) AS operations, \
                (SELECT sum(pg_total_relation_size(t::regclass))::bigint FROM unnest(ARRAY[ \
                    'projects', 'conversations', 'threads', 'messages', 'thread_messages', \
                    'message_tools', 'squash_operations', 'squash_operation_sources']) AS t \
                ) AS bytes",
    )
    .fetch_one(pool)
    .await
    .db()?;
    Ok(StoreStats {
        conversations: to_u64("conversation count", row.conversations)?,
        threads: to_u64("thread count", row.threads)?,
        messages: to_u64("message count", row.messages)?,
        thread_links: to_u64("link count", row.thread_links)?,
        operations: to_u64("operation count", row.operations)?,
        bytes: to_u64("size", row.bytes)?,
    })
}

#[cfg(test)]
mod tests {
    use super::prefix_range;

    #[test]
    fn prefixes_cover_a_uuid_range() {
        let (low, high) = prefix_range("0192-AB").unwrap_or_default();
        assert_eq!(low.to_string(), "0192ab00-0000-0000-0000-000000000000");
        assert_eq!(high.to_string(), "0192abff-ffff-ffff-ffff-ffffffffffff");
        assert!(prefix_range("xyz").is_none());
        assert!(prefix_range("").is_none());
    }
}
