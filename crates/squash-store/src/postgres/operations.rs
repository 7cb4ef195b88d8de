//! Provenance records written set-wise: every operation of a commit or an import and all their
//! sources in one statement, whatever their number (a fit commits one operation per step).

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use squash_core::SquashOperation;
use uuid::Uuid;

use super::error::{taken, DbResult};
use crate::provenance::KindColumns;
use crate::{Entity, Result, StoreError};

/// Inserts `ops` (each naming a result message and threads of the conversation, all stored
/// already in this transaction) and their sources. A reference to something the conversation
/// does not hold fails with [`StoreError::NotFound`]; the caller then drops the transaction.
pub(super) async fn insert_operations(
    conn: &mut PgConnection,
    conversation_key: i64,
    ops: &[SquashOperation],
) -> Result<()> {
    if ops.is_empty() {
        return Ok(());
    }
    let columns = Columns::of(ops)?;
    let (mut op_ids, mut positions, mut sources) = (Vec::new(), Vec::new(), Vec::new());
    for op in ops {
        for (position, source) in op.source_message_ids.iter().enumerate() {
            op_ids.push(*op.id.as_uuid());
            positions.push(i32::try_from(position).map_err(|_| {
                StoreError::Invalid(format!("operation {} has too many sources", op.id))
            })?);
            sources.push(*source.as_uuid());
        }
    }
    let (written, linked): (i64, i64) = sqlx::query_as(
        "WITH o AS ( \
             INSERT INTO squash_operations (id, conversation_key, result_message_key, \
                 performed_by, base_thread_key, result_thread_key, created_at, kind, prompt, \
                 model, provider, custom_instructions, input_tokens, output_tokens, \
                 duration_ms, style, prompt_style, recall_ref) \
             SELECT o.id, $1, rm.key, o.performed_by, bt.key, rt.key, o.created_at, o.kind, \
                    o.prompt, o.model, o.provider, o.custom, o.input, o.output, o.duration, \
                    o.style, o.prompt_style, o.recall_ref \
             FROM UNNEST($2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::uuid[], \
                         $7::timestamptz[], $8::text[], $9::text[], $10::text[], $11::text[], \
                         $12::text[], $13::bigint[], $14::bigint[], $15::bigint[], \
                         $16::text[], $17::text[], $21::bigint[]) \
                  WITH ORDINALITY AS o(id, result, performed_by, base, result_thread, \
                                       created_at, kind, prompt, model, provider, custom, \
                                       input, output, duration, style, prompt_style, \
                                       recall_ref, ord) \
             JOIN messages rm ON rm.id = o.result AND rm.conversation_key = $1 \
             LEFT JOIN threads bt ON bt.id = o.base AND bt.conversation_key = $1 \
             LEFT JOIN threads rt ON rt.id = o.result_thread AND rt.conversation_key = $1 \
             WHERE (o.base IS NULL OR bt.key IS NOT NULL) \
               AND (o.result_thread IS NULL OR rt.key IS NOT NULL) \
             ORDER BY o.ord \
             RETURNING id, key \
         ), s AS ( \
             INSERT INTO squash_operation_sources (operation_key, position, message_key) \
             SELECT o.key, u.position, m.key \
             FROM UNNEST($18::uuid[], $19::int[], $20::uuid[]) AS u(op, position, source) \
             JOIN o ON o.id = u.op \
             JOIN messages m ON m.id = u.source AND m.conversation_key = $1 \
             RETURNING 1 \
         ) \
         SELECT (SELECT count(*) FROM o), (SELECT count(*) FROM s)",
    )
    .bind(conversation_key)
    .bind(&columns.ids)
    .bind(&columns.results)
    .bind(&columns.performed_by)
    .bind(&columns.bases)
    .bind(&columns.result_threads)
    .bind(&columns.created)
    .bind(&columns.kinds)
    .bind(&columns.prompts)
    .bind(&columns.models)
    .bind(&columns.providers)
    .bind(&columns.custom)
    .bind(&columns.inputs)
    .bind(&columns.outputs)
    .bind(&columns.durations)
    .bind(&columns.styles)
    .bind(&columns.prompt_styles)
    .bind(&op_ids)
    .bind(&positions)
    .bind(&sources)
    .bind(&columns.recall_refs)
    .fetch_one(&mut *conn)
    .await
    .map_err(|e| {
        taken(
            e,
            "squash_operations_id_key",
            Entity::Operation,
            "of this commit",
        )
    })?;
    if written != ops.len() as i64 {
        return Err(missing_reference(conn, conversation_key, ops).await);
    }
    if linked != sources.len() as i64 {
        let missing: Option<Uuid> = sqlx::query_scalar(
            "SELECT u.id FROM UNNEST($1::uuid[]) AS u(id) \
             WHERE NOT EXISTS (SELECT 1 FROM messages m \
                               WHERE m.id = u.id AND m.conversation_key = $2) LIMIT 1",
        )
        .bind(&sources)
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

/// The operations as columns, for UNNEST.
#[derive(Default)]
struct Columns<'a> {
    ids: Vec<Uuid>,
    results: Vec<Uuid>,
    performed_by: Vec<Option<&'a str>>,
    bases: Vec<Option<Uuid>>,
    result_threads: Vec<Option<Uuid>>,
    created: Vec<DateTime<Utc>>,
    kinds: Vec<String>,
    prompts: Vec<Option<String>>,
    models: Vec<Option<String>>,
    providers: Vec<Option<String>>,
    custom: Vec<Option<String>>,
    inputs: Vec<Option<i64>>,
    outputs: Vec<Option<i64>>,
    durations: Vec<Option<i64>>,
    styles: Vec<Option<String>>,
    prompt_styles: Vec<Option<String>>,
    recall_refs: Vec<Option<i64>>,
}

impl<'a> Columns<'a> {
    fn of(ops: &'a [SquashOperation]) -> Result<Columns<'a>> {
        let mut c = Columns::default();
        for op in ops {
            c.ids.push(*op.id.as_uuid());
            c.results.push(*op.result_message_id.as_uuid());
            c.performed_by.push(op.performed_by.as_deref());
            c.bases.push(op.base_thread_id.map(|id| *id.as_uuid()));
            c.result_threads
                .push(op.result_thread_id.map(|id| *id.as_uuid()));
            c.created.push(op.created_at);
            let kind = KindColumns::of(&op.kind)?;
            c.kinds.push(kind.kind);
            c.prompts.push(kind.prompt);
            c.models.push(kind.model);
            c.providers.push(kind.provider);
            c.custom.push(kind.custom_instructions);
            c.inputs.push(kind.input_tokens);
            c.outputs.push(kind.output_tokens);
            c.durations.push(kind.duration_ms);
            c.styles.push(kind.style);
            c.prompt_styles.push(kind.prompt_style);
            c.recall_refs
                .push(op.recall_ref.map(|r| i64::from(r.get())));
        }
        Ok(c)
    }
}
