//! The paired table on PostgreSQL (`SQUASH_BENCH=pg`, server at `SQUASH_TEST_PG`): the service
//! on `PostgresStore` next to a bare sqlx floor that sends the same statements (same round
//! trips) on the same schema, each side in its own schema holding the same 10,000 messages.

use std::sync::atomic::Ordering;
use std::time::Duration;

use chrono::Utc;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{Executor, PgPool};
use squash_app::{ConversationService, EditRequest};
use squash_core::{ContentItem, ConversationId, Message, MessageId, Role, ThreadId, ThreadOrigin};
use squash_store::postgres::PostgresStore;
use squash_store::{ConversationStore, ImportBatch, ImportSource};
use tokio::runtime::Runtime;

use super::{
    appended_content, derived_columns, edited_content, last_cpu, median, mixed_content, paired_row,
    slot_ids, squash_text, timed, MEASURE_CPU,
};

const ROUNDS_SMALL: usize = 200;
const ROUNDS_LOAD: usize = 30;

struct Side {
    store: std::sync::Arc<PostgresStore>,
    service: ConversationService,
    conv: ConversationId,
    ids: Vec<MessageId>,
}

/// A schema with the 10,000-message conversation (imported in one transaction) and one edit, so
/// that undo and redo have a thread to switch to.
async fn side(url: &str, schema: &str) -> Side {
    let store = std::sync::Arc::new(
        PostgresStore::connect_in_schema(url, schema)
            .await
            .expect("PostgreSQL at SQUASH_TEST_PG"),
    );
    let service = ConversationService::new(store.clone()).with_actor(Some("bench".into()));
    let conv = ConversationId::new();
    let messages: Vec<Message> = (0..super::messages())
        .map(|n| {
            let (role, content) = mixed_content(n);
            Message::new(conv, role, content).expect("message")
        })
        .collect();
    let ids: Vec<MessageId> = messages.iter().map(|m| m.id).collect();
    let source = ImportSource {
        source_key: format!("bench:{schema}"),
        format: squash_core::SourceFormat::Squash,
        content_hash: "1".into(),
        metadata: None,
    };
    store
        .import_conversation(ImportBatch::single_thread(
            source,
            super::PROJECT,
            "bench",
            conv,
            messages,
        ))
        .await
        .expect("import");
    service
        .edit(
            conv,
            EditRequest {
                message: ids[0],
                content: vec![ContentItem::text_for(Role::User, "edited")],
            },
        )
        .await
        .expect("edit");
    Side {
        store,
        service,
        conv,
        ids,
    }
}

async fn floor_pool(url: &str, schema: &str) -> PgPool {
    let options: PgConnectOptions = url.parse().expect("url");
    // The store's own session settings (no JIT, generic plans, see `PostgresStore`), so that
    // both sides plan alike.
    let path = format!(
        "SET search_path TO \"{schema}\"; SET jit = off; \
         SET plan_cache_mode = force_generic_plan"
    );
    PgPoolOptions::new()
        .max_connections(2)
        .after_connect(move |conn, _| {
            let path = path.clone();
            Box::pin(async move {
                conn.execute(path.as_str()).await?;
                Ok(())
            })
        })
        .connect_with(options)
        .await
        .expect("floor pool")
}

/// The conversation row locked, then its current thread: what the store's writers start with.
async fn floor_lock(tx: &mut sqlx::PgConnection, conv: ConversationId) -> (i64, i64, i64) {
    let (conv_key, thread_key): (i64, i64) = sqlx::query_as(
        "SELECT key, current_thread_key FROM conversations WHERE id = $1 FOR UPDATE",
    )
    .bind(conv.as_uuid())
    .fetch_one(&mut *tx)
    .await
    .expect("lock");
    let (_, _, count): (uuid::Uuid, i64, i64) =
        sqlx::query_as("SELECT id, revision, message_count FROM threads WHERE key = $1")
            .bind(thread_key)
            .fetch_one(&mut *tx)
            .await
            .expect("thread");
    (conv_key, thread_key, count)
}

async fn floor_append(pool: &PgPool, conv: ConversationId) {
    let items = appended_content();
    let content = serde_json::to_string(&items).expect("json");
    let (tokens, search_text) = derived_columns(conv, Role::User, &items);
    let mut tx = pool.begin().await.expect("begin");
    let (conv_key, thread_key, count) = floor_lock(&mut tx, conv).await;
    let now = Utc::now();
    let _: i64 = sqlx::query_scalar(
        "WITH m AS ( \
             INSERT INTO messages (id, conversation_key, role, content, created_at, tokens, \
                                   search_text) \
             VALUES ($1, $2, 'user', $3, $4, $7, $8) RETURNING key \
         ), link AS ( \
             INSERT INTO thread_messages (thread_key, position, message_key) \
             SELECT $5, t.tail_offset + $6 - t.tail_start, m.key FROM m, threads t \
             WHERE t.key = $5 \
         ), touch AS ( \
             UPDATE conversations SET updated_at = $4 WHERE key = $2 \
         ) \
         UPDATE threads SET revision = revision + 1, message_count = message_count + 1, \
                            updated_at = $4 \
         WHERE key = $5 RETURNING revision",
    )
    .bind(MessageId::new().as_uuid())
    .bind(conv_key)
    .bind(content)
    .bind(now)
    .bind(thread_key)
    .bind(count)
    .bind(tokens)
    .bind(search_text)
    .fetch_one(&mut *tx)
    .await
    .expect("append");
    tx.commit().await.expect("commit");
}

async fn floor_switch(pool: &PgPool, conv: ConversationId, back: bool) {
    let mut tx = pool.begin().await.expect("begin");
    let (conv_key, thread_key, _) = floor_lock(&mut tx, conv).await;
    let sql = if back {
        "SELECT original_thread_key FROM threads WHERE key = $1"
    } else {
        "SELECT key FROM threads WHERE original_thread_key = $1 ORDER BY key DESC LIMIT 1"
    };
    let to: Option<i64> = sqlx::query_scalar(sql)
        .bind(thread_key)
        .fetch_one(&mut *tx)
        .await
        .expect("target");
    sqlx::query("UPDATE conversations SET current_thread_key = $1, updated_at = $2 WHERE key = $3")
        .bind(to.expect("a thread to switch to"))
        .bind(Utc::now())
        .bind(conv_key)
        .execute(&mut *tx)
        .await
        .expect("switch");
    tx.commit().await.expect("commit");
}

/// The current thread's messages, rows decoded into messages (one statement).
async fn floor_load(pool: &PgPool, conv: ConversationId) -> Vec<Message> {
    type Row = (
        uuid::Uuid,
        Option<uuid::Uuid>,
        Option<uuid::Uuid>,
        String,
        String,
        Option<String>,
        Option<String>,
        chrono::DateTime<Utc>,
    );
    // The thread's key first: as a bound value it gives the planner the index plan.
    let thread_key: i64 =
        sqlx::query_scalar("SELECT current_thread_key FROM conversations WHERE id = $1")
            .bind(conv.as_uuid())
            .fetch_one(pool)
            .await
            .expect("current thread");
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT m.id, m.squash_operation_id, m.reply_to, m.role, m.content, m.instructions, \
                m.metadata, m.created_at \
         FROM (SELECT ru.start + tm.position - ru.off AS position, tm.message_key \
               FROM (SELECT s.start, s.length, s.source_thread_key AS src, \
                            s.source_offset AS off \
                     FROM thread_segments s WHERE s.thread_key = $1 \
                     UNION ALL SELECT r.tail_start, r.message_count - r.tail_start, r.key, \
                            r.tail_offset \
                     FROM threads r WHERE r.key = $1 AND r.message_count > r.tail_start) ru \
               JOIN thread_messages tm ON tm.thread_key = ru.src \
                AND tm.position BETWEEN ru.off + GREATEST($2 - ru.start, 0) \
                                    AND ru.off + LEAST($3 - ru.start, ru.length - 1) \
               WHERE ru.start <= $3 AND ru.start + ru.length > $2) l \
         JOIN messages m ON m.key = l.message_key ORDER BY l.position",
    )
    .bind(thread_key)
    .bind(0i64)
    .bind(i64::MAX)
    .fetch_all(pool)
    .await
    .expect("load");
    rows.into_iter()
        .map(|r| Message {
            id: r.0.into(),
            conversation_id: conv,
            squash_operation_id: r.1.map(Into::into),
            reply_to: r.2.map(Into::into),
            role: Role::parse(&r.3).expect("role"),
            content: serde_json::from_str(&r.4).expect("content"),
            instructions: r
                .5
                .map(|s| serde_json::from_str(&s).expect("instructions"))
                .unwrap_or_default(),
            metadata: r.6.map(|s| serde_json::from_str(&s).expect("metadata")),
            created_at: r.7,
        })
        .collect()
}

/// A squash (`result` in place of the first of `sources`, the others leave) or an edit (one
/// source, `result` its edited copy) as little as the store's layout allows: the lock, the
/// sources' positions (one statement), the base thread's runs (one), then everything written
/// in one statement — the message, the thread, its runs cut at the sources, its own link, the
/// operation and its sources, the switch.
async fn floor_cow(
    pool: &PgPool,
    conv: ConversationId,
    sources: &[MessageId],
    role: Role,
    result: &[ContentItem],
    squash: bool,
) {
    let content = serde_json::to_string(result).expect("json");
    let (tokens, search_text) = derived_columns(conv, role, result);
    let mut tx = pool.begin().await.expect("begin");
    let (conv_key, base_key, _) = floor_lock(&mut tx, conv).await;
    let ids: Vec<uuid::Uuid> = sources.iter().map(|id| *id.as_uuid()).collect();
    let mut found: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT (SELECT min(CASE \
                    WHEN tm.thread_key = r.key AND tm.position >= r.tail_offset \
                         AND tm.position < r.tail_offset + r.message_count - r.tail_start \
                    THEN r.tail_start + tm.position - r.tail_offset \
                    ELSE (SELECT CASE WHEN tm.position < s.source_offset + s.length \
                                      THEN s.start + tm.position - s.source_offset END \
                          FROM thread_segments s \
                          WHERE s.thread_key = r.key AND s.source_thread_key = tm.thread_key \
                            AND s.source_offset <= tm.position \
                          ORDER BY s.source_offset DESC LIMIT 1) END) \
                 FROM thread_messages tm JOIN threads r ON r.key = $1 \
                 WHERE tm.message_key = m.key), m.key \
         FROM UNNEST($2::uuid[]) AS u(id) JOIN messages m ON m.id = u.id \
         WHERE m.conversation_key = $3",
    )
    .bind(base_key)
    .bind(&ids)
    .bind(conv_key)
    .fetch_all(&mut *tx)
    .await
    .expect("positions");
    found.sort_unstable();
    let runs: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT start, length, source_thread_key, source_offset FROM thread_segments \
         WHERE thread_key = $1 \
         UNION ALL SELECT tail_start, message_count - tail_start, key, tail_offset \
         FROM threads WHERE key = $1 AND message_count > tail_start ORDER BY 1",
    )
    .bind(base_key)
    .fetch_all(&mut *tx)
    .await
    .expect("runs");
    // The new runs; a source of NULL is the new thread (its own offset 0, the result).
    let (mut starts, mut lengths, mut srcs, mut offs) = (vec![], vec![], vec![], vec![]);
    let mut next = 0i64;
    let mut cuts = found.iter().map(|(p, _)| *p).enumerate().peekable();
    for (start, len, src, off) in runs {
        let mut done = 0i64;
        let mut piece = |at: i64, n: i64, src: Option<i64>, off: i64| {
            starts.push(at);
            lengths.push(n);
            srcs.push(src);
            offs.push(off);
        };
        while let Some((i, p)) = cuts.next_if(|(_, p)| *p < start + len) {
            let skip = p - start;
            if skip > done {
                piece(next, skip - done, Some(src), off + done);
                next += skip - done;
            }
            if i == 0 {
                piece(next, 1, None, 0);
                next += 1;
            }
            done = skip + 1;
        }
        if len > done {
            piece(next, len - done, Some(src), off + done);
            next += len - done;
        }
    }
    let op_id = squash_core::SquashOperationId::new();
    let origin = if squash {
        ThreadOrigin::Squash {
            operation_id: op_id,
        }
    } else {
        ThreadOrigin::Edit {
            operation_id: op_id,
        }
    };
    let source_keys: Vec<i64> = found.iter().map(|(_, k)| *k).collect();
    let now = Utc::now();
    sqlx::query(
        "WITH m AS ( \
             INSERT INTO messages (id, conversation_key, squash_operation_id, role, content, \
                                   created_at, tokens, search_text) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING key \
         ), t AS ( \
             INSERT INTO threads (id, conversation_key, original_thread_key, origin, revision, \
                                  message_count, created_at, updated_at, tail_start, tail_offset) \
             VALUES ($9, $2, $10, $11, 0, $12, $6, $6, $12, 1) RETURNING key \
         ), seg AS ( \
             INSERT INTO thread_segments \
                 (thread_key, start, length, source_thread_key, source_offset) \
             SELECT t.key, r.start, r.len, COALESCE(r.src, t.key), r.off \
             FROM t, UNNEST($13::bigint[], $14::bigint[], $15::bigint[], $16::bigint[]) \
                  AS r(start, len, src, off) \
         ), own AS ( \
             INSERT INTO thread_messages (thread_key, position, message_key) \
             SELECT t.key, 0, m.key FROM t, m \
         ), op AS ( \
             INSERT INTO squash_operations (id, conversation_key, result_message_key, \
                 kind, performed_by, base_thread_key, result_thread_key, created_at) \
             SELECT $3, $2, m.key, 'manual', 'bench', $10, t.key, $6 FROM m, t RETURNING key \
         ), src AS ( \
             INSERT INTO squash_operation_sources (operation_key, position, message_key) \
             SELECT op.key, s.ord - 1, s.key FROM op, \
                    UNNEST($17::bigint[]) WITH ORDINALITY AS s(key, ord) \
         ) \
         UPDATE conversations SET current_thread_key = t.key, updated_at = $6 \
         FROM t WHERE conversations.key = $2",
    )
    .bind(MessageId::new().as_uuid())
    .bind(conv_key)
    .bind(op_id.as_uuid())
    .bind(role.as_str())
    .bind(content)
    .bind(now)
    .bind(tokens)
    .bind(search_text)
    .bind(ThreadId::new().as_uuid())
    .bind(base_key)
    .bind(serde_json::to_string(&origin).expect("origin"))
    .bind(next)
    .bind(&starts)
    .bind(&lengths)
    .bind(&srcs)
    .bind(&offs)
    .bind(&source_keys)
    .execute(&mut *tx)
    .await
    .expect("commit");
    tx.commit().await.expect("commit");
}

#[derive(Clone, Copy)]
enum PgOp {
    Append,
    Squash3Text,
    Edit,
    Undo,
    Redo,
    Load,
}

impl PgOp {
    fn label(self) -> &'static str {
        match self {
            PgOp::Append => "append 1 message",
            PgOp::Squash3Text => "squash 3 non-contiguous (explicit text)",
            PgOp::Edit => "edit 1 message",
            PgOp::Undo => "undo (switch back)",
            PgOp::Redo => "redo (switch forward)",
            PgOp::Load => "load current thread — vs floor rows + decode",
        }
    }
}

fn product_op(rt: &Runtime, p: &Side, op: PgOp, slot: usize) -> Duration {
    let s = &p.service;
    match op {
        PgOp::Squash3Text => {
            let (sources, _, _) = slot_ids(&p.ids, slot);
            timed(|| {
                rt.block_on(s.squash_manual(
                    p.conv,
                    squash_app::ManualSquashRequest {
                        messages: sources.to_vec(),
                        text: Some(squash_text()),
                        ..Default::default()
                    },
                ))
                .expect("squash")
            })
        }
        PgOp::Edit => {
            let (_, target, _) = slot_ids(&p.ids, slot);
            timed(|| {
                rt.block_on(s.edit(
                    p.conv,
                    EditRequest {
                        message: target,
                        content: edited_content(slot),
                    },
                ))
                .expect("edit")
            })
        }
        PgOp::Append => timed(|| {
            rt.block_on(s.append(p.conv, Role::User, appended_content()))
                .expect("append")
        }),
        PgOp::Undo => {
            let d = timed(|| rt.block_on(s.undo(p.conv)).expect("undo"));
            rt.block_on(s.redo(p.conv)).expect("redo");
            d
        }
        PgOp::Redo => {
            rt.block_on(s.undo(p.conv)).expect("undo");
            timed(|| rt.block_on(s.redo(p.conv)).expect("redo"))
        }
        PgOp::Load => timed(|| {
            let view = rt.block_on(s.current_thread(p.conv)).expect("load");
            // Squashes take two messages out each, appends add one.
            assert!(view.messages.len() >= super::messages() * 9 / 10);
            view
        }),
    }
}

fn floor_op(rt: &Runtime, pool: &PgPool, f: &Side, op: PgOp, slot: usize) -> Duration {
    let conv = f.conv;
    match op {
        PgOp::Squash3Text => {
            let (sources, _, _) = slot_ids(&f.ids, slot);
            let result = [ContentItem::text_for(Role::User, squash_text())];
            timed(|| rt.block_on(floor_cow(pool, conv, &sources, Role::User, &result, true)))
        }
        PgOp::Edit => {
            let (_, target, _) = slot_ids(&f.ids, slot);
            let (role, _) = mixed_content(f.ids.iter().position(|id| *id == target).unwrap());
            let result = edited_content(slot);
            timed(|| rt.block_on(floor_cow(pool, conv, &[target], role, &result, false)))
        }
        PgOp::Append => timed(|| rt.block_on(floor_append(pool, conv))),
        PgOp::Undo => {
            let d = timed(|| rt.block_on(floor_switch(pool, conv, true)));
            rt.block_on(floor_switch(pool, conv, false));
            d
        }
        PgOp::Redo => {
            rt.block_on(floor_switch(pool, conv, true));
            timed(|| rt.block_on(floor_switch(pool, conv, false)))
        }
        PgOp::Load => timed(|| {
            let messages = rt.block_on(floor_load(pool, conv));
            assert!(messages.len() >= super::messages() * 9 / 10);
            messages
        }),
    }
}

/// Where an operation's source slots start: squashes use the first half of the conversation
/// (after slot 0, whose first message the set-up edited), edits the second, so neither finds
/// a source the other took away.
fn slot_base(op: PgOp) -> usize {
    match op {
        PgOp::Edit => super::messages() / super::SLOT_SPAN / 2,
        _ => 1,
    }
}

/// The paired table for PostgreSQL, printed like the SQLite one; `filter` (`SQUASH_BENCH_OP`, a
/// comma-separated list) keeps the operations whose label contains one of its words.
pub fn paired_table(rt: &Runtime, filter: Option<&str>) {
    let url = std::env::var("SQUASH_TEST_PG")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned());
    let tag = uuid::Uuid::now_v7().simple().to_string();
    let (product_schema, floor_schema) = (format!("bench_p_{tag}"), format!("bench_f_{tag}"));
    let product = rt.block_on(side(&url, &product_schema));
    let floor_side = rt.block_on(side(&url, &floor_schema));
    let pool = rt.block_on(floor_pool(&url, &floor_schema));
    debug_assert_eq!(product.ids.len(), floor_side.ids.len());

    super::paired_head(
        "PostgreSQL paired (interleaved) medians; wall clock, and CPU time of this process:",
    );
    for op in [
        PgOp::Append,
        PgOp::Squash3Text,
        PgOp::Edit,
        PgOp::Undo,
        PgOp::Redo,
        PgOp::Load,
    ] {
        if filter.is_some_and(|f| !f.split(',').any(|w| op.label().contains(w.trim()))) {
            continue;
        }
        let rounds = if matches!(op, PgOp::Load) {
            ROUNDS_LOAD
        } else {
            ROUNDS_SMALL
        };
        // Untimed warm-up of both sides; copy-on-write ops each take their own slot of
        // sources (a squash's leave the thread).
        let rounds = match op {
            PgOp::Squash3Text | PgOp::Edit => {
                rounds.min(super::messages() / super::SLOT_SPAN / 2 - 2)
            }
            _ => rounds,
        };
        let mut slot = slot_base(op);
        product_op(rt, &product, op, slot);
        floor_op(rt, &pool, &floor_side, op, slot);
        let (mut ps, mut pc, mut fs, mut fc) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            slot += 1;
            let mut run_product = || {
                ps.push(product_op(rt, &product, op, slot));
                pc.push(last_cpu());
            };
            if round % 2 == 0 {
                run_product();
            }
            fs.push(floor_op(rt, &pool, &floor_side, op, slot));
            fc.push(last_cpu());
            if round % 2 == 1 {
                run_product();
            }
        }
        let product = (median(ps), median(pc));
        paired_row(op.label(), product, (median(fs), median(fc)));
    }
    println!();
    MEASURE_CPU.store(false, Ordering::Relaxed);
    rt.block_on(async {
        drop(pool);
        product.store.drop_schema().await.expect("drop schema");
        floor_side.store.drop_schema().await.expect("drop schema");
    });
}
