//! Provenance records written set-wise: every operation of a commit or an import and all their
//! sources in one statement, whatever their number (a fit commits one operation per step).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use squash_core::{MessageId, SquashOperation, ThreadId};
use uuid::Uuid;

use super::error::{taken, DbResult};
use crate::provenance::KindColumns;
use crate::{Entity, Result, StoreError};

/// Keys of rows this transaction wrote or locked, by id. What an operation refers to is bound
/// by key when it is known here; only the rest is looked up by id, one index probe each (a fit
/// of 100,000 messages refers to 26,000 new results and 40,000 sources: a join by id read every
/// message row of the conversation, 250 MB, to hash their ids).
#[derive(Default)]
pub(super) struct KnownKeys<'a> {
    pub messages: Option<&'a HashMap<MessageId, i64>>,
    pub threads: HashMap<ThreadId, i64>,
}

impl KnownKeys<'_> {
    fn message(&self, id: MessageId) -> Option<i64> {
        self.messages.and_then(|keys| keys.get(&id).copied())
    }

    fn thread(&self, id: Option<ThreadId>) -> Option<i64> {
        id.and_then(|id| self.threads.get(&id).copied())
    }
}

/// The operations' CTEs, `ops` (RETURNING id, key) and `srcs` (RETURNING 1): every operation
/// of `ops` and its sources, set-wise. `conv` is the conversation key's placeholder; the
/// operations' columns are `$first` on, bound by [`bind_operations`]. A reference whose key is
/// not bound is looked up by id in the conversation, or is one of the statement's own new rows:
/// `new_message` and `new_thread` are SQL expressions of the unnested row `o` (NULL when the
/// statement writes none). An operation whose reference is not found is left out, a source
/// likewise: the caller compares the counts. Each look-up is fenced with `OFFSET 0`, so that
/// it runs once a row (pulled up into the statement, it ran in the filter and in the value).
pub(super) fn operation_ctes(
    conv: &str,
    first: usize,
    new_message: &str,
    new_thread: &str,
) -> String {
    let p = |i: usize| format!("${}", first + i);
    format!(
        "ops AS ( \
             INSERT INTO squash_operations (id, conversation_key, result_message_key, \
                 performed_by, base_thread_key, result_thread_key, created_at, kind, prompt, \
                 model, provider, custom_instructions, input_tokens, output_tokens, \
                 duration_ms, style, prompt_style, recall_ref) \
             SELECT o.id, {conv}, k.rm, o.performed_by, k.bt, k.rt, o.created_at, o.kind, \
                    o.prompt, o.model, o.provider, o.custom, o.input, o.output, o.duration, \
                    o.style, o.prompt_style, o.recall_ref \
             FROM UNNEST({ids}::uuid[], {results}::uuid[], {performed}::text[], \
                         {bases}::uuid[], {result_threads}::uuid[], {created}::timestamptz[], \
                         {kinds}::text[], {prompts}::text[], {models}::text[], \
                         {providers}::text[], {custom}::text[], {inputs}::bigint[], \
                         {outputs}::bigint[], {durations}::bigint[], {styles}::text[], \
                         {prompt_styles}::text[], {recall_refs}::bigint[], \
                         {result_keys}::bigint[], {base_keys}::bigint[], \
                         {result_thread_keys}::bigint[]) \
                  WITH ORDINALITY AS o(id, result, performed_by, base, result_thread, \
                                       created_at, kind, prompt, model, provider, custom, \
                                       input, output, duration, style, prompt_style, \
                                       recall_ref, result_key, base_key, result_thread_key, ord) \
             CROSS JOIN LATERAL (SELECT \
                 COALESCE(o.result_key, {new_message}, \
                          (SELECT key FROM messages \
                           WHERE id = o.result AND conversation_key = {conv})) AS rm, \
                 COALESCE(o.base_key, \
                          (SELECT key FROM threads \
                           WHERE id = o.base AND conversation_key = {conv})) AS bt, \
                 COALESCE(o.result_thread_key, {new_thread}, \
                          (SELECT key FROM threads \
                           WHERE id = o.result_thread AND conversation_key = {conv})) AS rt \
                 OFFSET 0 \
             ) k \
             WHERE k.rm IS NOT NULL AND (o.base IS NULL OR k.bt IS NOT NULL) \
               AND (o.result_thread IS NULL OR k.rt IS NOT NULL) \
             ORDER BY o.ord \
             RETURNING id, key \
         ), srcs AS ( \
             INSERT INTO squash_operation_sources (operation_key, position, message_key) \
             SELECT ops.key, u.position, k.key \
             FROM UNNEST({source_ops}::uuid[], {positions}::int[], {sources}::uuid[], \
                         {source_keys}::bigint[]) AS u(op, position, source, source_key) \
             JOIN ops ON ops.id = u.op \
             CROSS JOIN LATERAL (SELECT COALESCE(u.source_key, \
                 (SELECT key FROM messages \
                  WHERE id = u.source AND conversation_key = {conv})) AS key OFFSET 0) k \
             WHERE k.key IS NOT NULL \
             RETURNING 1 \
         )",
        ids = p(0),
        results = p(1),
        performed = p(2),
        bases = p(3),
        result_threads = p(4),
        created = p(5),
        kinds = p(6),
        prompts = p(7),
        models = p(8),
        providers = p(9),
        custom = p(10),
        inputs = p(11),
        outputs = p(12),
        durations = p(13),
        styles = p(14),
        prompt_styles = p(15),
        recall_refs = p(16),
        result_keys = p(17),
        base_keys = p(18),
        result_thread_keys = p(19),
        source_ops = p(20),
        positions = p(21),
        sources = p(22),
        source_keys = p(23),
    )
}

/// Binds [`Columns`] to a statement built on [`operation_ctes`], in its order (a macro: sqlx's
/// query types share `bind` by name, not by a trait).
macro_rules! bind_operations {
    ($query:expr, $columns:expr) => {{
        let c: &$crate::postgres::operations::Columns<'_> = $columns;
        $query
            .bind(&c.ids)
            .bind(&c.results)
            .bind(&c.performed_by)
            .bind(&c.bases)
            .bind(&c.result_threads)
            .bind(&c.created)
            .bind(&c.kinds)
            .bind(&c.prompts)
            .bind(&c.models)
            .bind(&c.providers)
            .bind(&c.custom)
            .bind(&c.inputs)
            .bind(&c.outputs)
            .bind(&c.durations)
            .bind(&c.styles)
            .bind(&c.prompt_styles)
            .bind(&c.recall_refs)
            .bind(&c.result_keys)
            .bind(&c.base_keys)
            .bind(&c.result_thread_keys)
            .bind(&c.source_ops)
            .bind(&c.positions)
            .bind(&c.sources)
            .bind(&c.source_keys)
    }};
}

pub(super) use bind_operations;

/// The operations statement on its own: the conversation key `$1`, the columns from `$2`.
static INSERT_OPERATIONS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH {} SELECT (SELECT count(*) FROM ops), (SELECT count(*) FROM srcs)",
        operation_ctes("$1", 2, "NULL::bigint", "NULL::bigint")
    )
});

/// Inserts `ops` (each naming a result message and threads of the conversation, all stored
/// already in this transaction) and their sources, binding the keys `known` holds. A
/// reference to something the conversation does not hold fails with
/// [`StoreError::NotFound`]; the caller then drops the transaction.
pub(super) async fn insert_operations(
    conn: &mut PgConnection,
    conversation_key: i64,
    ops: &[SquashOperation],
    known: &KnownKeys<'_>,
) -> Result<()> {
    if ops.is_empty() {
        return Ok(());
    }
    let columns = Columns::of(ops, known)?;
    let (written, linked): (i64, i64) = bind_operations!(
        sqlx::query_as(INSERT_OPERATIONS.as_str()).bind(conversation_key),
        &columns
    )
    .fetch_one(&mut *conn)
    .await
    .map_err(operation_taken)?;
    check_written(conn, conversation_key, ops, &columns, written, linked).await
}

/// A taken operation id, as the error names it.
pub(super) fn operation_taken(e: sqlx::Error) -> StoreError {
    taken(
        e,
        "squash_operations_id_key",
        Entity::Operation,
        "of this commit",
    )
}

/// Checks the counts an operations statement returned: fewer operations or sources than
/// given is a reference the conversation does not hold, found and named here.
pub(super) async fn check_written(
    conn: &mut PgConnection,
    conversation_key: i64,
    ops: &[SquashOperation],
    columns: &Columns<'_>,
    written: i64,
    linked: i64,
) -> Result<()> {
    if written != ops.len() as i64 {
        return Err(missing_reference(conn, conversation_key, ops).await);
    }
    if linked != columns.sources.len() as i64 {
        let missing: Option<Uuid> = sqlx::query_scalar(
            "SELECT u.id FROM UNNEST($1::uuid[]) AS u(id) \
             WHERE NOT EXISTS (SELECT 1 FROM messages m \
                               WHERE m.id = u.id AND m.conversation_key = $2) LIMIT 1",
        )
        .bind(&columns.sources)
        .bind(conversation_key)
        .fetch_optional(&mut *conn)
        .await
        .db()?;
        return Err(match missing {
            Some(id) => StoreError::not_found(Entity::Message, id),
            None => StoreError::Corrupt("operation sources do not match the messages".into()),
        });
    }
    Ok(())
}

/// Why fewer operations were written than given: the first reference the conversation does
/// not hold.
async fn missing_reference(
    conn: &mut PgConnection,
    conversation_key: i64,
    ops: &[SquashOperation],
) -> StoreError {
    for op in ops {
        let found: std::result::Result<(bool, bool, bool), sqlx::Error> = sqlx::query_as(
            "SELECT EXISTS (SELECT 1 FROM messages WHERE id = $1 AND conversation_key = $4), \
                    $2::uuid IS NULL OR EXISTS (SELECT 1 FROM threads \
                                                WHERE id = $2 AND conversation_key = $4), \
                    $3::uuid IS NULL OR EXISTS (SELECT 1 FROM threads \
                                                WHERE id = $3 AND conversation_key = $4)",
        )
        .bind(op.result_message_id.as_uuid())
        .bind(op.base_thread_id.map(|id| *id.as_uuid()))
        .bind(op.result_thread_id.map(|id| *id.as_uuid()))
        .bind(conversation_key)
        .fetch_one(&mut *conn)
        .await;
        match found {
            Err(e) => return super::error::classify(e),
            Ok((false, _, _)) => {
                return StoreError::not_found(Entity::Message, op.result_message_id)
            }
            Ok((_, false, _)) => {
                if let Some(id) = op.base_thread_id {
                    return StoreError::not_found(Entity::Thread, id);
                }
            }
            Ok((_, _, false)) => {
                if let Some(id) = op.result_thread_id {
                    return StoreError::not_found(Entity::Thread, id);
                }
            }
            Ok(_) => {}
        }
    }
    StoreError::Corrupt("fewer operations were written than given".into())
}

/// The operations as columns, for UNNEST, with the keys already known (NULL where not).
#[derive(Default)]
pub(super) struct Columns<'a> {
    pub ids: Vec<Uuid>,
    pub results: Vec<Uuid>,
    pub performed_by: Vec<Option<&'a str>>,
    pub bases: Vec<Option<Uuid>>,
    pub result_threads: Vec<Option<Uuid>>,
    pub created: Vec<DateTime<Utc>>,
    pub kinds: Vec<String>,
    pub prompts: Vec<Option<String>>,
    pub models: Vec<Option<String>>,
    pub providers: Vec<Option<String>>,
    pub custom: Vec<Option<String>>,
    pub inputs: Vec<Option<i64>>,
    pub outputs: Vec<Option<i64>>,
    pub durations: Vec<Option<i64>>,
    pub styles: Vec<Option<String>>,
    pub prompt_styles: Vec<Option<String>>,
    pub recall_refs: Vec<Option<i64>>,
    pub result_keys: Vec<Option<i64>>,
    pub base_keys: Vec<Option<i64>>,
    pub result_thread_keys: Vec<Option<i64>>,
    pub source_ops: Vec<Uuid>,
    pub positions: Vec<i32>,
    pub sources: Vec<Uuid>,
    pub source_keys: Vec<Option<i64>>,
}

impl<'a> Columns<'a> {
    pub fn of(ops: &'a [SquashOperation], known: &KnownKeys<'_>) -> Result<Columns<'a>> {
        let mut c = Columns::default();
        for op in ops {
            c.push(op, known)?;
        }
        Ok(c)
    }

    fn push(&mut self, op: &'a SquashOperation, known: &KnownKeys<'_>) -> Result<()> {
        self.ids.push(*op.id.as_uuid());
        self.results.push(*op.result_message_id.as_uuid());
        self.performed_by.push(op.performed_by.as_deref());
        self.bases.push(op.base_thread_id.map(|id| *id.as_uuid()));
        self.result_threads
            .push(op.result_thread_id.map(|id| *id.as_uuid()));
        self.created.push(op.created_at);
        let kind = KindColumns::of(&op.kind)?;
        self.kinds.push(kind.kind);
        self.prompts.push(kind.prompt);
        self.models.push(kind.model);
        self.providers.push(kind.provider);
        self.custom.push(kind.custom_instructions);
        self.inputs.push(kind.input_tokens);
        self.outputs.push(kind.output_tokens);
        self.durations.push(kind.duration_ms);
        self.styles.push(kind.style);
        self.prompt_styles.push(kind.prompt_style);
        self.recall_refs
            .push(op.recall_ref.map(|r| i64::from(r.get())));
        self.result_keys.push(known.message(op.result_message_id));
        self.base_keys.push(known.thread(op.base_thread_id));
        self.result_thread_keys
            .push(known.thread(op.result_thread_id));
        for (position, source) in op.source_message_ids.iter().enumerate() {
            self.source_ops.push(*op.id.as_uuid());
            self.positions.push(i32::try_from(position).map_err(|_| {
                StoreError::Invalid(format!("operation {} has too many sources", op.id))
            })?);
            self.sources.push(*source.as_uuid());
            self.source_keys.push(known.message(*source));
        }
        Ok(())
    }
}
