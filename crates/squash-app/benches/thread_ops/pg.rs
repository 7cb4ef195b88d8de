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
use squash_store::{ConversationStore, ImportBatch, ImportSource, ImportThread};
use tokio::runtime::Runtime;

use super::{appended_content, human, last_cpu, median, mixed_content, timed, MEASURE_CPU};

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
    let messages: Vec<Message> = (0..super::MESSAGES)
        .map(|n| {
            let (role, content) = mixed_content(n);
            Message::new(conv, role, content).expect("message")
        })
        .collect();
    let ids: Vec<MessageId> = messages.iter().map(|m| m.id).collect();
    let now = Utc::now();
    let thread = ThreadId::new();
    store
        .import_conversation(ImportBatch {
            source: ImportSource {
                source_key: format!("bench:{schema}"),
                format: squash_core::SourceFormat::Squash,
                content_hash: "1".into(),
                metadata: None,
            },
            project_path: super::PROJECT.into(),
            conversation_id: conv,
            display_name: "bench".into(),
            created_at: now,
            updated_at: now,
            messages,
            threads: vec![ImportThread {
                id: thread,
                original_thread_id: None,
                origin: ThreadOrigin::Initial,
                revision: 0,
                links: ids.clone(),
                created_at: now,
                updated_at: now,
            }],
            current_thread_id: thread,
            operations: Vec::new(),
        })
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
    let path = format!("SET search_path TO \"{schema}\"");
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
    let content = serde_json::to_string(&appended_content()).expect("json");
    let mut tx = pool.begin().await.expect("begin");
    let (conv_key, thread_key, count) = floor_lock(&mut tx, conv).await;
    let now = Utc::now();
    let _: i64 = sqlx::query_scalar(
        "WITH m AS ( \
             INSERT INTO messages (id, conversation_key, role, content, created_at) \
             VALUES ($1, $2, 'user', $3, $4) RETURNING key \
         ), link AS ( \
             INSERT INTO thread_messages (thread_key, position, message_key) \
             SELECT $5, $6, key FROM m \
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
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT m.id, m.squash_operation_id, m.reply_to, m.role, m.content, m.instructions, \
                m.metadata, m.created_at \
         FROM conversations c JOIN thread_messages tm ON tm.thread_key = c.current_thread_key \
         JOIN messages m ON m.key = tm.message_key WHERE c.id = $1 ORDER BY tm.position",
    )
    .bind(conv.as_uuid())
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

#[derive(Clone, Copy)]
enum PgOp {
    Append,
    Undo,
    Redo,
    Load,
}

impl PgOp {
    fn label(self) -> &'static str {
        match self {
            PgOp::Append => "append 1 message",
            PgOp::Undo => "undo (switch back)",
            PgOp::Redo => "redo (switch forward)",
            PgOp::Load => "load current thread — vs floor rows + decode",
        }
    }
}

fn product_op(rt: &Runtime, p: &Side, op: PgOp) -> Duration {
    let s = &p.service;
    match op {
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
            assert!(view.messages.len() >= super::MESSAGES);
            view
        }),
    }
}

fn floor_op(rt: &Runtime, pool: &PgPool, conv: ConversationId, op: PgOp) -> Duration {
    match op {
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
            assert!(messages.len() >= super::MESSAGES);
            messages
        }),
    }
}

/// The paired table for PostgreSQL, printed like the SQLite one.
pub fn paired_table(rt: &Runtime) {
    let url = std::env::var("SQUASH_TEST_PG")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned());
    let tag = uuid::Uuid::now_v7().simple().to_string();
    let (product_schema, floor_schema) = (format!("bench_p_{tag}"), format!("bench_f_{tag}"));
    let product = rt.block_on(side(&url, &product_schema));
    let floor_side = rt.block_on(side(&url, &floor_schema));
    let pool = rt.block_on(floor_pool(&url, &floor_schema));
    let conv = floor_side.conv;
    debug_assert_eq!(product.ids.len(), floor_side.ids.len());

    MEASURE_CPU.store(true, Ordering::Relaxed);
    println!();
    println!("PostgreSQL paired (interleaved) medians; wall clock, and CPU time of this process:");
    println!();
    println!(
        "| operation | Squash (median) | floor (median) | ratio | goal ≤ 1.5× met? \
         | Squash CPU | floor CPU | CPU ratio |"
    );
    println!("|---|---:|---:|---:|---|---:|---:|---:|");
    for op in [PgOp::Append, PgOp::Undo, PgOp::Redo, PgOp::Load] {
        let rounds = if matches!(op, PgOp::Load) {
            ROUNDS_LOAD
        } else {
            ROUNDS_SMALL
        };
        // Untimed warm-up of both sides.
        product_op(rt, &product, op);
        floor_op(rt, &pool, conv, op);
        let (mut ps, mut pc, mut fs, mut fc) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let mut run_product = || {
                ps.push(product_op(rt, &product, op));
                pc.push(last_cpu());
            };
            if round % 2 == 0 {
                run_product();
            }
            fs.push(floor_op(rt, &pool, conv, op));
            fc.push(last_cpu());
            if round % 2 == 1 {
                run_product();
            }
        }
        let (p, p_cpu, f, f_cpu) = (median(ps), median(pc), median(fs), median(fc));
        let ratio = p.as_secs_f64() / f.as_secs_f64();
        println!(
            "| {} | {} | {} | {ratio:.2}× | {} | {} | {} | {:.2}× |",
            op.label(),
            human(p),
            human(f),
            if ratio <= 1.5 { "yes" } else { "**no**" },
            human(p_cpu),
            human(f_cpu),
            p_cpu.as_secs_f64() / f_cpu.as_secs_f64(),
        );
    }
    println!();
    MEASURE_CPU.store(false, Ordering::Relaxed);
    rt.block_on(async {
        drop(pool);
        product.store.drop_schema().await.expect("drop schema");
        floor_side.store.drop_schema().await.expect("drop schema");
    });
}
