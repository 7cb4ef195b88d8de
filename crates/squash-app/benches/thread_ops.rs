//! Thread operations on a 10,000-message conversation (`SQUASH_BENCH_MESSAGES` for another
//! size), through `ConversationService` on the
//! SQLite store, each next to its floor: a bare rusqlite program on the same schema and pragmas
//! doing the same rows in one transaction. Also reports the bytes the database grows per
//! copy-on-write operation. See BENCHMARKS.md at the workspace root for the command and results.
//!
//! Each benchmark works on a fresh copy of a template database and replaces it after a few
//! operations: the current thread stays within 0.5% of its length (append: 2%). The
//! first operation on each copy is an untimed warm-up (it fills the connection's page cache),
//! for the product and the floor alike.
//!
//! Parts, in order (select with `SQUASH_BENCH=growth,breakdown,paired,criterion`):
//! * growth — bytes per copy-on-write op (squash, edit, delete), product and floor;
//! * breakdown — the store calls each service operation makes, timed alone;
//! * paired — product and floor run alternately, wall clock and process CPU time, medians and
//!   ratios (`SQUASH_BENCH_OP=<group>` for one operation); the fair comparison on a shared,
//!   loaded machine;
//! * pg — the paired table on PostgreSQL (not in the default set; server at `SQUASH_TEST_PG`),
//!   against a bare sqlx floor sending the same statements (`thread_ops/pg.rs`);
//! * criterion — the usual criterion benchmarks (groups `append`, `squash3_text`,
//!   `squash3_concat`, `edit`, `undo`, `redo`, `load_current_thread`; functions `squash`,
//!   `floor`, `floor_rows`, `floor_rows_decode`), then a table of their medians.

#[path = "common/cpu.rs"]
mod cpu;
#[path = "thread_ops/pg.rs"]
mod pg;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use criterion::{Criterion, SamplingMode};
use rusqlite::{params, Connection, OpenFlags, TransactionBehavior};
use serde::Deserialize;
use squash_app::{ConversationService, EditRequest, ManualSquashRequest, PartnerPolicy};
use squash_core::sample::{self, prose, TextSize};
use squash_core::{
    render, ContentItem, ConversationId, Instruction, Message, MessageId, Role, SquashOperationId,
    ThreadId, ThreadOrigin,
};
use squash_store::sqlite::{SqliteStore, PRAGMAS};
use squash_store::ConversationStore;
use tempfile::TempDir;
use tokio::runtime::Runtime;

/// Messages in the benchmark conversation: `SQUASH_BENCH_MESSAGES`, 10,000 by default.
fn messages() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| {
        std::env::var("SQUASH_BENCH_MESSAGES")
            .ok()
            .and_then(|n| n.replace(['_', ','], "").parse().ok())
            .unwrap_or(10_000)
    })
}
/// The store's whole schema (every migration, in order), applied directly by the floor: its
/// search index and triggers, token column and thread layout are the floor's too.
const SCHEMA: [&str; 7] = [
    include_str!("../../squash-store/src/sqlite/migrations/0001_init.sql"),
    include_str!("../../squash-store/src/sqlite/migrations/0002_imports.sql"),
    include_str!("../../squash-store/src/sqlite/migrations/0003_styles.sql"),
    include_str!("../../squash-store/src/sqlite/migrations/0005_tokens.sql"),
    include_str!("../../squash-store/src/sqlite/migrations/0006_search.sql"),
    include_str!("../../squash-store/src/sqlite/migrations/0007_segments.sql"),
    include_str!("../../squash-store/src/sqlite/migrations/0008_operation_kinds.sql"),
];
/// Copy-on-write operations on one database copy before a fresh copy replaces it.
const COW_OPS_PER_COPY: usize = 25;
/// Appends on one database copy before a fresh copy replaces it.
const APPENDS_PER_COPY: usize = 200;
/// Operations per kind for the bytes-per-operation report.
const GROWTH_OPS: usize = 20;
/// Each copy-on-write op uses its own block of the original messages (see `slot_ids`).
const SLOT_SPAN: usize = 100;
const PROJECT: &str = "/bench/project";

/// The links of thread `?1` in the store's layout (segments, then the tail), as rows
/// `(position, message_key)`: the least a read of them can do.
macro_rules! floor_thread_links {
    () => {
        "(SELECT ru.start + tm.position - ru.off AS position, tm.message_key AS message_key \
          FROM (SELECT start, length, source_thread_key AS src, source_offset AS off \
                FROM thread_segments WHERE thread_key = ?1 \
                UNION ALL SELECT tail_start, message_count - tail_start, key, tail_offset \
                FROM threads WHERE key = ?1 AND message_count > tail_start) ru \
          JOIN thread_messages tm ON tm.thread_key = ru.src \
           AND tm.position BETWEEN ru.off AND ru.off + ru.length - 1)"
    };
}

// ---- content --------------------------------------------------------------------------------

/// The content of the n-th message of a realistic mixed conversation, at real size.
fn mixed_content(n: usize) -> (Role, Vec<ContentItem>) {
    sample::mixed_content(n, TextSize::RealSize)
}

fn appended_content() -> Vec<ContentItem> {
    vec![ContentItem::UserMessage {
        text: prose("One more question about the parser.", 200),
    }]
}

fn squash_text() -> String {
    prose("Squashed: the request, the warning and the answer.", 200)
}

fn edited_content(slot: usize) -> Vec<ContentItem> {
    vec![ContentItem::UserMessage {
        text: prose(
            &format!("Edited request {slot}: find the failing test."),
            200,
        ),
    }]
}

/// Original positions a copy-on-write op of `slot` works on, none holding a tool call or
/// result: squash sources (three, non-contiguous), the edit target, the delete targets.
fn slot_ids(ids: &[MessageId], slot: usize) -> ([MessageId; 3], MessageId, [MessageId; 2]) {
    let b = slot * SLOT_SPAN;
    (
        [ids[b], ids[b + 40], ids[b + 81]],
        ids[b + 10],
        [ids[b + 20], ids[b + 50]],
    )
}

// ---- fixtures -------------------------------------------------------------------------------

/// The two template databases, built once: one through the service, one by the floor.
struct Templates {
    _dir: TempDir,
    product: PathBuf,
    product_conv: ConversationId,
    product_ids: Vec<MessageId>,
    floor: PathBuf,
    floor_conv: ConversationId,
    floor_ids: Vec<MessageId>,
}

fn checkpoint(path: &Path) {
    let conn = Connection::open(path).expect("open for checkpoint");
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .expect("checkpoint");
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

impl Templates {
    fn build(rt: &Runtime) -> Templates {
        let dir = tempfile::tempdir().expect("temp dir");
        let product = dir.path().join("product.db");
        let floor = dir.path().join("floor.db");

        let started = Instant::now();
        let (product_conv, product_ids) = rt.block_on(async {
            let store: Arc<dyn ConversationStore> =
                Arc::new(SqliteStore::open(&product).expect("open sqlite"));
            let service = ConversationService::new(store).with_actor(Some("bench".into()));
            let conv = service
                .create_conversation(PROJECT, "benchmark")
                .await
                .expect("create conversation");
            let mut ids = Vec::with_capacity(messages());
            for n in 0..messages() {
                let (role, content) = mixed_content(n);
                let (m, _) = service
                    .append(conv.id, role, content)
                    .await
                    .expect("append");
                ids.push(m.id);
            }
            (conv.id, ids)
        });
        let product_secs = started.elapsed().as_secs_f64();
        checkpoint(&product);

        let started = Instant::now();
        let (floor_conv, floor_ids) = build_floor_db(&floor);
        let floor_secs = started.elapsed().as_secs_f64();
        checkpoint(&floor);

        let json_bytes: usize = (0..messages())
            .map(|n| serde_json::to_string(&mixed_content(n).1).unwrap().len())
            .sum();
        eprintln!(
            "template: {} messages, content JSON {:.0} bytes/message on average; \
             via the service {product_secs:.1} s ({} bytes), bare {floor_secs:.2} s ({} bytes)",
            messages(),
            json_bytes as f64 / messages() as f64,
            file_len(&product),
            file_len(&floor),
        );
        Templates {
            _dir: dir,
            product,
            product_conv,
            product_ids,
            floor,
            floor_conv,
            floor_ids,
        }
    }
}

/// A private copy of a template database.
fn copy_of(template: &Path) -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.db");
    std::fs::copy(template, &path).expect("copy template");
    (dir, path)
}

struct Product {
    service: ConversationService,
    store: Arc<dyn ConversationStore>,
    conv: ConversationId,
    ids: Vec<MessageId>,
    path: PathBuf,
    // Dropped last: the store closes its connections before the directory goes.
    _dir: TempDir,
}

impl Product {
    fn open(t: &Templates) -> Product {
        let (dir, path) = copy_of(&t.product);
        let store: Arc<dyn ConversationStore> =
            Arc::new(SqliteStore::open(&path).expect("open sqlite"));
        Product {
            service: ConversationService::new(store.clone()).with_actor(Some("bench".into())),
            store,
            conv: t.product_conv,
            ids: t.product_ids.clone(),
            path,
            _dir: dir,
        }
    }
}

struct Floor {
    conn: Connection,
    conv: ConversationId,
    ids: Vec<MessageId>,
    path: PathBuf,
    _dir: TempDir,
}

impl Floor {
    fn open(t: &Templates) -> Floor {
        let (dir, path) = copy_of(&t.floor);
        Floor {
            conn: floor_connection(&path),
            conv: t.floor_conv,
            ids: t.floor_ids.clone(),
            path,
            _dir: dir,
        }
    }
}

/// A fixture that is replaced by a fresh copy after `per_copy` operations; the first operation
/// on each copy is an untimed warm-up.
struct Rotating<'t, T> {
    fresh: Box<dyn Fn() -> T + 't>,
    current: T,
    used: usize,
    per_copy: usize,
}

impl<'t, T> Rotating<'t, T> {
    fn new(per_copy: usize, fresh: impl Fn() -> T + 't) -> Rotating<'t, T> {
        Rotating {
            current: fresh(),
            fresh: Box::new(fresh),
            used: 0,
            per_copy,
        }
    }

    /// Runs `op(fixture, slot)` `iters` times; `op` times itself (to leave its own set-up
    /// out) and returns the timed part.
    fn run_timed(&mut self, iters: u64, mut op: impl FnMut(&mut T, usize) -> Duration) -> Duration {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            if self.used >= self.per_copy {
                self.current = (self.fresh)();
                self.used = 0;
            }
            if self.used == 0 {
                op(&mut self.current, 0);
                self.used = 1;
            }
            let slot = self.used;
            self.used += 1;
            total += op(&mut self.current, slot);
        }
        total
    }
}

// ---- the product's operations -----------------------------------------------------------------

fn product_append(rt: &Runtime, p: &Product) {
    rt.block_on(p.service.append(p.conv, Role::User, appended_content()))
        .expect("append");
}

fn product_squash(rt: &Runtime, p: &Product, slot: usize, text: Option<String>) {
    let (sources, _, _) = slot_ids(&p.ids, slot);
    let outcome = rt
        .block_on(p.service.squash_manual(
            p.conv,
            ManualSquashRequest {
                messages: sources.to_vec(),
                text,
                ..Default::default()
            },
        ))
        .expect("squash");
    assert_eq!(outcome.sources.len(), 3);
}

fn product_edit(rt: &Runtime, p: &Product, slot: usize) {
    let (_, target, _) = slot_ids(&p.ids, slot);
    rt.block_on(p.service.edit(
        p.conv,
        EditRequest {
            message: target,
            content: edited_content(slot),
        },
    ))
    .expect("edit");
}

fn product_delete(rt: &Runtime, p: &Product, slot: usize) {
    let (_, _, targets) = slot_ids(&p.ids, slot);
    rt.block_on(p.service.delete(p.conv, &targets, PartnerPolicy::default()))
        .expect("delete");
}

// ---- the floor: bare rusqlite, same schema, same pragmas, one transaction ---------------------

fn floor_connection(path: &Path) -> Connection {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .expect("open floor db");
    conn.execute_batch(PRAGMAS).expect("pragmas");
    conn
}

fn now_micros() -> i64 {
    Utc::now().timestamp_micros()
}

/// Builds the floor's template: the same conversation, inserted directly in one transaction.
fn build_floor_db(path: &Path) -> (ConversationId, Vec<MessageId>) {
    let mut conn = floor_connection(path);
    for migration in SCHEMA {
        conn.execute_batch(migration).expect("schema");
    }
    let tx = conn.transaction().expect("tx");
    let t = now_micros();
    let conv = ConversationId::new();
    tx.execute(
        "INSERT INTO projects (id, path, created_at) VALUES (?1, ?2, ?3)",
        params![squash_core::ProjectId::new().as_bytes(), PROJECT, t],
    )
    .unwrap();
    let project_key = tx.last_insert_rowid();
    tx.execute(
        "INSERT INTO conversations (id, project_key, display_name, created_at, updated_at) \
         VALUES (?1, ?2, 'benchmark', ?3, ?3)",
        params![conv.as_bytes(), project_key, t],
    )
    .unwrap();
    let conv_key = tx.last_insert_rowid();
    tx.execute(
        "INSERT INTO threads (id, conversation_key, origin, revision, message_count, created_at, \
         updated_at) VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?5)",
        params![
            ThreadId::new().as_bytes(),
            conv_key,
            serde_json::to_string(&ThreadOrigin::Initial).unwrap(),
            messages() as i64,
            t
        ],
    )
    .unwrap();
    let thread_key = tx.last_insert_rowid();
    tx.execute(
        "UPDATE conversations SET current_thread_key = ?2 WHERE key = ?1",
        params![conv_key, thread_key],
    )
    .unwrap();
    let mut ids = Vec::with_capacity(messages());
    {
        let mut msg = tx
            .prepare(
                "INSERT INTO messages (id, conversation_key, role, content, created_at, tokens, \
                 search_text) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )
            .unwrap();
        let mut tool = tx
            .prepare(
                "INSERT INTO message_tools (conversation_key, tool_use_id, message_key, \
                 is_result) VALUES (?1, ?2, ?3, ?4)",
            )
            .unwrap();
        let mut link = tx
            .prepare("INSERT INTO thread_messages (thread_key, position, message_key) VALUES (?1, ?2, ?3)")
            .unwrap();
        for n in 0..messages() {
            let (role, content) = mixed_content(n);
            let id = MessageId::new();
            let (tokens, search_text) = derived_columns(conv, role, &content);
            msg.execute(params![
                id.as_bytes(),
                conv_key,
                role.as_str(),
                serde_json::to_string(&content).unwrap(),
                now_micros(),
                tokens,
                search_text
            ])
            .unwrap();
            let key = tx.last_insert_rowid();
            for item in &content {
                match item {
                    ContentItem::ToolCall { id, .. } => {
                        tool.execute(params![conv_key, id, key, 0]).unwrap();
                    }
                    ContentItem::ToolResult { tool_use_id, .. } => {
                        tool.execute(params![conv_key, tool_use_id, key, 1])
                            .unwrap();
                    }
                    _ => {}
                }
            }
            link.execute(params![thread_key, n as i64, key]).unwrap();
            ids.push(id);
        }
    }
    tx.commit().unwrap();
    (conv, ids)
}

const FLOOR_CURRENT: &str =
    "SELECT c.key, c.current_thread_key FROM conversations c WHERE c.id = ?1";

/// The conversation's key and current thread key.
fn floor_current(tx: &rusqlite::Transaction<'_>, conv: ConversationId) -> (i64, i64) {
    tx.prepare_cached(FLOOR_CURRENT)
        .unwrap()
        .query_row([conv.as_bytes()], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
}

/// The thread's links in order: (message key, message id).
fn floor_links(tx: &rusqlite::Transaction<'_>, thread_key: i64) -> Vec<(i64, [u8; 16])> {
    let mut stmt = tx
        .prepare_cached(concat!(
            "SELECT l.message_key, m.id FROM ",
            floor_thread_links!(),
            " l JOIN messages m ON m.key = l.message_key ORDER BY l.position"
        ))
        .unwrap();
    let mut rows = stmt.query([thread_key]).unwrap();
    let mut out = Vec::with_capacity(messages() + 1);
    while let Some(row) = rows.next().unwrap() {
        let id = row.get_ref(1).unwrap().as_blob().unwrap();
        out.push((row.get(0).unwrap(), id.try_into().unwrap()));
    }
    out
}

/// The columns the store derives from a message in Rust (its token estimate and searchable
/// text), which the floor must compute too.
fn derived_columns(conv: ConversationId, role: Role, content: &[ContentItem]) -> (i64, String) {
    let m = Message {
        id: MessageId::new(),
        conversation_id: conv,
        squash_operation_id: None,
        reply_to: None,
        role,
        content: content.to_vec(),
        instructions: Vec::new(),
        metadata: None,
        created_at: Utc::now(),
    };
    (
        squash_core::tokens::message_tokens(&m) as i64,
        squash_core::search::searchable_text(&m),
    )
}

/// The position of message `key` in thread `thread_key`: its stored link, mapped through the
/// thread's tail or the one segment that could hold it (two index probes).
fn floor_position(tx: &rusqlite::Transaction<'_>, thread_key: i64, key: i64) -> i64 {
    tx.prepare_cached(
        "SELECT CASE \
            WHEN tm.thread_key = r.key AND tm.position >= r.tail_offset \
                 AND tm.position < r.tail_offset + r.message_count - r.tail_start \
            THEN r.tail_start + tm.position - r.tail_offset \
            ELSE (SELECT CASE WHEN tm.position < s.source_offset + s.length \
                              THEN s.start + tm.position - s.source_offset END \
                  FROM thread_segments s INDEXED BY thread_segments_by_source \
                  WHERE s.thread_key = r.key AND s.source_thread_key = tm.thread_key \
                    AND s.source_offset <= tm.position \
                  ORDER BY s.source_offset DESC LIMIT 1) END \
         FROM thread_messages tm INDEXED BY thread_messages_by_message \
         JOIN threads r ON r.key = ?1 WHERE tm.message_key = ?2",
    )
    .unwrap()
    .query_row(params![thread_key, key], |r| r.get::<_, Option<i64>>(0))
    .unwrap()
    .expect("the source is in the current thread")
}

/// The runs of thread `thread_key`: (start, length, source thread, source offset).
fn floor_runs(tx: &rusqlite::Transaction<'_>, thread_key: i64) -> Vec<[i64; 4]> {
    tx.prepare_cached(
        "SELECT start, length, source_thread_key, source_offset FROM thread_segments \
         WHERE thread_key = ?1 \
         UNION ALL SELECT tail_start, message_count - tail_start, key, tail_offset \
         FROM threads WHERE key = ?1 AND message_count > tail_start ORDER BY 1",
    )
    .unwrap()
    .query_map([thread_key], |r| {
        Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?])
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

struct NewMessage<'a> {
    role: Role,
    reply_to: Option<Vec<u8>>,
    instructions: Option<String>,
    content: &'a [ContentItem],
}

fn floor_insert_message(
    tx: &rusqlite::Transaction<'_>,
    conv: ConversationId,
    conv_key: i64,
    op: SquashOperationId,
    m: &NewMessage<'_>,
) -> i64 {
    let (tokens, search_text) = derived_columns(conv, m.role, m.content);
    tx.prepare_cached(
        "INSERT INTO messages (id, conversation_key, squash_operation_id, reply_to, role, \
         content, instructions, created_at, tokens, search_text) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )
    .unwrap()
    .execute(params![
        MessageId::new().as_bytes(),
        conv_key,
        op.as_bytes(),
        m.reply_to,
        m.role.as_str(),
        serde_json::to_string(m.content).unwrap(),
        m.instructions,
        now_micros(),
        tokens,
        search_text
    ])
    .unwrap();
    tx.last_insert_rowid()
}

/// What a floor copy-on-write operation does to the current thread.
enum FloorOp<'a> {
    /// Three sources, a result message in place of the first.
    Squash {
        sources: &'a [MessageId],
        content: Vec<ContentItem>,
    },
    /// One message replaced by an edited copy.
    Edit {
        target: MessageId,
        content: Vec<ContentItem>,
    },
    /// Messages left out of the new thread.
    Delete { targets: &'a [MessageId] },
}

/// One copy-on-write operation in one `BEGIN IMMEDIATE` transaction, as little as the store's
/// layout allows: find the sources' positions (two index probes each), read the base thread's
/// runs, insert the new message (if any), the new thread, its runs cut at the sources (and its
/// one own link, the new message), the operation record with its sources (if any), and make
/// the new thread current.
fn floor_cow(f: &mut Floor, op: FloorOp<'_>) {
    let tx = f
        .conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .unwrap();
    let (conv_key, base_key) = floor_current(&tx, f.conv);
    let targets: Vec<MessageId> = match &op {
        FloorOp::Squash { sources, .. } => sources.to_vec(),
        FloorOp::Edit { target, .. } => vec![*target],
        FloorOp::Delete { targets } => targets.to_vec(),
    };
    // Sources in thread order: (position, message key).
    let mut found: Vec<(i64, i64)> = targets
        .iter()
        .map(|id| {
            let key: i64 = tx
                .prepare_cached("SELECT key FROM messages WHERE id = ?1 AND conversation_key = ?2")
                .unwrap()
                .query_row(params![id.as_bytes(), conv_key], |r| r.get(0))
                .unwrap();
            (floor_position(&tx, base_key, key), key)
        })
        .collect();
    found.sort_unstable();

    let op_id = SquashOperationId::new();
    let (result_key, origin) = match op {
        FloorOp::Squash { content, .. } => {
            let key = floor_insert_message(
                &tx,
                f.conv,
                conv_key,
                op_id,
                &NewMessage {
                    role: Role::User,
                    reply_to: None,
                    instructions: None,
                    content: &content,
                },
            );
            (
                Some(key),
                ThreadOrigin::Squash {
                    operation_id: op_id,
                },
            )
        }
        FloorOp::Edit { target, content } => {
            let (role, reply_to, instructions, old): (String, _, _, String) = tx
                .prepare_cached(
                    "SELECT role, reply_to, instructions, content FROM messages \
                     WHERE id = ?1 AND conversation_key = ?2",
                )
                .unwrap()
                .query_row(params![target.as_bytes(), conv_key], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })
                .unwrap();
            assert_ne!(
                old,
                serde_json::to_string(&content).unwrap(),
                "the edit changes the content"
            );
            let key = floor_insert_message(
                &tx,
                f.conv,
                conv_key,
                op_id,
                &NewMessage {
                    role: Role::parse(&role).expect("role"),
                    reply_to,
                    instructions,
                    content: &content,
                },
            );
            (
                Some(key),
                ThreadOrigin::Edit {
                    operation_id: op_id,
                },
            )
        }
        FloorOp::Delete { targets } => (
            None,
            ThreadOrigin::Delete {
                message_ids: targets.to_vec(),
            },
        ),
    };

    let runs = floor_runs(&tx, base_key);
    let base_len: i64 = runs.iter().map(|r| r[1]).sum();
    let new_len = base_len - found.len() as i64 + i64::from(result_key.is_some());
    let t = now_micros();
    tx.prepare_cached(
        "INSERT INTO threads (id, conversation_key, original_thread_key, origin, revision, \
         message_count, created_at, updated_at, tail_start, tail_offset) \
         VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?6, ?5, ?7)",
    )
    .unwrap()
    .execute(params![
        ThreadId::new().as_bytes(),
        conv_key,
        base_key,
        serde_json::to_string(&origin).unwrap(),
        new_len,
        t,
        i64::from(result_key.is_some())
    ])
    .unwrap();
    let thread_key = tx.last_insert_rowid();
    {
        // Each run cut at the sources; the first source's place is the new message, the new
        // thread's own offset 0.
        let mut segment = tx
            .prepare_cached(
                "INSERT INTO thread_segments \
                 (thread_key, start, length, source_thread_key, source_offset) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .unwrap();
        let mut next = 0i64;
        let mut cuts = found.iter().map(|(p, _)| *p).enumerate().peekable();
        for [start, len, src, off] in runs {
            let mut done = 0i64;
            while let Some((i, p)) = cuts.next_if(|(_, p)| *p < start + len) {
                let skip = p - start;
                if skip > done {
                    segment
                        .execute(params![thread_key, next, skip - done, src, off + done])
                        .unwrap();
                    next += skip - done;
                }
                if i == 0 && result_key.is_some() {
                    segment
                        .execute(params![thread_key, next, 1, thread_key, 0])
                        .unwrap();
                    next += 1;
                }
                done = skip + 1;
            }
            if len > done {
                segment
                    .execute(params![thread_key, next, len - done, src, off + done])
                    .unwrap();
                next += len - done;
            }
        }
        assert_eq!(next, new_len);
        if let Some(key) = result_key {
            tx.prepare_cached(
                "INSERT INTO thread_messages (thread_key, position, message_key) \
                 VALUES (?1, 0, ?2)",
            )
            .unwrap()
            .execute(params![thread_key, key])
            .unwrap();
        }
    }
    if let Some(result_key) = result_key {
        tx.prepare_cached(
            "INSERT INTO squash_operations (id, conversation_key, result_message_key, \
             kind, performed_by, base_thread_key, result_thread_key, created_at) \
             VALUES (?1, ?2, ?3, 'manual', 'bench', ?4, ?5, ?6)",
        )
        .unwrap()
        .execute(params![
            op_id.as_bytes(),
            conv_key,
            result_key,
            base_key,
            thread_key,
            t
        ])
        .unwrap();
        let op_key = tx.last_insert_rowid();
        let mut source = tx
            .prepare_cached(
                "INSERT INTO squash_operation_sources (operation_key, position, message_key) \
                 VALUES (?1, ?2, ?3)",
            )
            .unwrap();
        for (pos, (_, key)) in found.iter().enumerate() {
            source.execute(params![op_key, pos as i64, key]).unwrap();
        }
    }
    tx.prepare_cached(
        "UPDATE conversations SET current_thread_key = ?2, updated_at = ?3 WHERE key = ?1",
    )
    .unwrap()
    .execute(params![conv_key, thread_key, t])
    .unwrap();
    tx.commit().unwrap();
}

/// Append in one transaction: the message, the thread's revision and count, one link, the
/// conversation's timestamp.
fn floor_append(f: &mut Floor) {
    let items = appended_content();
    let content = serde_json::to_string(&items).unwrap();
    let (tokens, search_text) = derived_columns(f.conv, Role::User, &items);
    let tx = f
        .conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .unwrap();
    let (conv_key, thread_key) = floor_current(&tx, f.conv);
    let t = now_micros();
    tx.prepare_cached(
        "INSERT INTO messages (id, conversation_key, role, content, created_at, tokens, \
         search_text) VALUES (?1, ?2, 'user', ?3, ?4, ?5, ?6)",
    )
    .unwrap()
    .execute(params![
        MessageId::new().as_bytes(),
        conv_key,
        content,
        t,
        tokens,
        search_text
    ])
    .unwrap();
    let message_key = tx.last_insert_rowid();
    // The link's offset in the thread's own storage: after its tail's last.
    let offset: i64 = tx
        .prepare_cached(
            "UPDATE threads SET revision = revision + 1, message_count = message_count + 1, \
             updated_at = ?2 WHERE key = ?1 \
             RETURNING tail_offset + message_count - 1 - tail_start",
        )
        .unwrap()
        .query_row(params![thread_key, t], |r| r.get(0))
        .unwrap();
    tx.prepare_cached(
        "INSERT INTO thread_messages (thread_key, position, message_key) VALUES (?1, ?2, ?3)",
    )
    .unwrap()
    .execute(params![thread_key, offset, message_key])
    .unwrap();
    tx.prepare_cached("UPDATE conversations SET updated_at = ?2 WHERE key = ?1")
        .unwrap()
        .execute(params![conv_key, t])
        .unwrap();
    tx.commit().unwrap();
}

/// Undo (`back`) or redo in one transaction: find the target thread, switch to it.
fn floor_switch(f: &mut Floor, back: bool) {
    let tx = f
        .conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .unwrap();
    let (conv_key, current) = floor_current(&tx, f.conv);
    let to: i64 = if back {
        tx.prepare_cached("SELECT original_thread_key FROM threads WHERE key = ?1")
            .unwrap()
            .query_row([current], |r| r.get(0))
            .unwrap()
    } else {
        tx.prepare_cached(
            "SELECT key FROM threads WHERE original_thread_key = ?1 ORDER BY key DESC LIMIT 1",
        )
        .unwrap()
        .query_row([current], |r| r.get(0))
        .unwrap()
    };
    tx.prepare_cached(
        "UPDATE conversations SET current_thread_key = ?2, updated_at = ?3 WHERE key = ?1",
    )
    .unwrap()
    .execute(params![conv_key, to, now_micros()])
    .unwrap();
    tx.commit().unwrap();
}

/// A message row as stored, not decoded.
#[allow(dead_code)] // Read only to make the copy; decoding them is the other floor.
struct RawMessage {
    id: Vec<u8>,
    squash_operation_id: Option<Vec<u8>>,
    reply_to: Option<Vec<u8>>,
    role: String,
    content: String,
    instructions: Option<String>,
    metadata: Option<String>,
    created_at: i64,
}

/// The current thread's messages in thread order, as rows (one read transaction).
fn floor_load_rows(f: &mut Floor) -> Vec<RawMessage> {
    let tx = f.conn.transaction().unwrap();
    let (_, thread_key) = floor_current(&tx, f.conv);
    let mut out = Vec::with_capacity(messages() + 1);
    {
        let mut stmt = tx
            .prepare_cached(concat!(
                "SELECT m.id, m.squash_operation_id, m.reply_to, m.role, m.content, \
                     m.instructions, m.metadata, m.created_at FROM ",
                floor_thread_links!(),
                " l JOIN messages m ON m.key = l.message_key ORDER BY l.position"
            ))
            .unwrap();
        let mut rows = stmt.query([thread_key]).unwrap();
        while let Some(r) = rows.next().unwrap() {
            out.push(RawMessage {
                id: r.get(0).unwrap(),
                squash_operation_id: r.get(1).unwrap(),
                reply_to: r.get(2).unwrap(),
                role: r.get(3).unwrap(),
                content: r.get(4).unwrap(),
                instructions: r.get(5).unwrap(),
                metadata: r.get(6).unwrap(),
                created_at: r.get(7).unwrap(),
            });
        }
    }
    tx.commit().unwrap();
    out
}

fn id_from<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> T {
    T::deserialize(serde::de::value::BytesDeserializer::<serde::de::value::Error>::new(bytes))
        .expect("16-byte id")
}

/// The same rows decoded into `squash_core::Message` (what the product has to return).
fn floor_load_decoded(f: &mut Floor) -> Vec<Message> {
    let conv = f.conv;
    floor_load_rows(f)
        .into_iter()
        .map(|r| Message {
            id: id_from(&r.id),
            conversation_id: conv,
            squash_operation_id: r.squash_operation_id.as_deref().map(id_from),
            reply_to: r.reply_to.as_deref().map(id_from),
            role: Role::parse(&r.role).expect("role"),
            content: serde_json::from_str(&r.content).expect("content"),
            instructions: r
                .instructions
                .map(|s| serde_json::from_str::<Vec<Instruction>>(&s).expect("instructions"))
                .unwrap_or_default(),
            metadata: r
                .metadata
                .map(|s| serde_json::from_str(&s).expect("metadata")),
            created_at: DateTime::from_timestamp_micros(r.created_at).expect("timestamp"),
        })
        .collect()
}

/// The floor's concatenation squash: read and decode the three sources, render them, squash.
fn floor_squash_concat(f: &mut Floor, sources: &[MessageId]) {
    // The product reads the sources in a read transaction before the write one; so does this.
    let messages: Vec<Message> = {
        let tx = f.conn.transaction().unwrap();
        let mut out = Vec::new();
        {
            let mut stmt = tx
                .prepare_cached(
                    "SELECT m.id, m.role, m.content, m.created_at FROM messages m \
                     WHERE m.id = ?1",
                )
                .unwrap();
            for id in sources {
                out.push(
                    stmt.query_row(params![id.as_bytes()], |r| {
                        let content: String = r.get(2)?;
                        let role: String = r.get(1)?;
                        Ok(Message {
                            id: *id,
                            conversation_id: f.conv,
                            squash_operation_id: None,
                            reply_to: None,
                            role: Role::parse(&role).expect("role"),
                            content: serde_json::from_str(&content).expect("content"),
                            instructions: Vec::new(),
                            metadata: None,
                            created_at: DateTime::from_timestamp_micros(r.get(3)?)
                                .expect("timestamp"),
                        })
                    })
                    .unwrap(),
                );
            }
        }
        tx.commit().unwrap();
        out
    };
    let text = render::concatenate(&messages);
    let content = vec![ContentItem::text_for(Role::User, text)];
    floor_cow(f, FloorOp::Squash { sources, content });
}

fn floor_squash(f: &mut Floor, slot: usize) {
    let (sources, _, _) = slot_ids(&f.ids, slot);
    let content = vec![ContentItem::text_for(Role::User, squash_text())];
    floor_cow(
        f,
        FloorOp::Squash {
            sources: &sources,
            content,
        },
    );
}

fn floor_edit(f: &mut Floor, slot: usize) {
    let (_, target, _) = slot_ids(&f.ids, slot);
    let content = edited_content(slot);
    floor_cow(f, FloorOp::Edit { target, content });
}

fn floor_delete(f: &mut Floor, slot: usize) {
    let (_, _, targets) = slot_ids(&f.ids, slot);
    floor_cow(f, FloorOp::Delete { targets: &targets });
}

// ---- the operations, product and floor ------------------------------------------------------

/// One benchmarked operation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Append,
    Squash3Text,
    Squash3Concat,
    Edit,
    Undo,
    Redo,
    Load,
}

const OPS: [Op; 7] = [
    Op::Append,
    Op::Squash3Text,
    Op::Squash3Concat,
    Op::Edit,
    Op::Undo,
    Op::Redo,
    Op::Load,
];

/// How the floor of an operation is taken (load has two).
#[derive(Clone, Copy, PartialEq, Eq)]
enum FloorKind {
    Same,
    RowsOnly,
    RowsDecode,
}

impl Op {
    /// The criterion group.
    fn group(self) -> &'static str {
        match self {
            Op::Append => "append",
            Op::Squash3Text => "squash3_text",
            Op::Squash3Concat => "squash3_concat",
            Op::Edit => "edit",
            Op::Undo => "undo",
            Op::Redo => "redo",
            Op::Load => "load_current_thread",
        }
    }

    fn label(self) -> String {
        match self {
            Op::Append => "append 1 message".into(),
            Op::Squash3Text => "squash 3 non-contiguous (explicit text)".into(),
            Op::Squash3Concat => "squash 3 non-contiguous (concatenation)".into(),
            Op::Edit => "edit 1 message".into(),
            Op::Undo => "undo (switch back)".into(),
            Op::Redo => "redo (switch forward)".into(),
            Op::Load => format!("load current thread ({} messages)", messages()),
        }
    }

    fn floors(self) -> &'static [(FloorKind, &'static str)] {
        match self {
            Op::Load => &[
                (FloorKind::RowsDecode, "floor_rows_decode"),
                (FloorKind::RowsOnly, "floor_rows"),
            ],
            _ => &[(FloorKind::Same, "floor")],
        }
    }

    /// Operations on one database copy before a fresh one.
    fn per_copy(self) -> usize {
        match self {
            Op::Append => APPENDS_PER_COPY,
            Op::Squash3Text | Op::Squash3Concat | Op::Edit => COW_OPS_PER_COPY,
            // Switching and reading grow nothing.
            Op::Undo | Op::Redo | Op::Load => usize::MAX,
        }
    }

    /// Rounds of the paired (interleaved) measurement.
    fn rounds(self) -> usize {
        match self {
            Op::Append => 400,
            Op::Undo | Op::Redo => 200,
            Op::Squash3Text | Op::Squash3Concat | Op::Edit => 50,
            Op::Load => 40,
        }
    }

    /// Undo and redo need a derived thread: one edit on every fresh copy.
    fn needs_edit(self) -> bool {
        matches!(self, Op::Undo | Op::Redo)
    }
}

fn product_fixture<'t>(op: Op, rt: &'t Runtime, t: &'t Templates) -> Rotating<'t, Product> {
    Rotating::new(op.per_copy(), move || {
        let p = Product::open(t);
        if op.needs_edit() {
            product_edit(rt, &p, 0);
        }
        p
    })
}

fn floor_fixture(op: Op, t: &Templates) -> Rotating<'_, Floor> {
    Rotating::new(op.per_copy(), move || {
        let mut f = Floor::open(t);
        if op.needs_edit() {
            floor_edit(&mut f, 0);
        }
        f
    })
}

/// Whether `timed` also takes the process's CPU time (paired table only).
static MEASURE_CPU: AtomicBool = AtomicBool::new(false);
/// The CPU time of the last `timed` section, in nanoseconds.
static LAST_CPU_NS: AtomicU64 = AtomicU64::new(0);

/// Times `f` (wall clock; with `MEASURE_CPU`, also all threads' CPU time into `LAST_CPU_NS`).
/// Dropping the result is not timed.
fn timed<T>(f: impl FnOnce() -> T) -> Duration {
    let measure = MEASURE_CPU.load(Ordering::Relaxed);
    let cpu_before = if measure { cpu::process_cpu_ns() } else { None };
    let started = Instant::now();
    let out = f();
    let elapsed = started.elapsed();
    if let (Some(before), Some(after)) = (cpu_before, measure.then(cpu::process_cpu_ns).flatten()) {
        LAST_CPU_NS.store(after.saturating_sub(before), Ordering::Relaxed);
    }
    drop(out);
    elapsed
}

fn last_cpu() -> Duration {
    Duration::from_nanos(LAST_CPU_NS.load(Ordering::Relaxed))
}

/// One run of `op` through the service; times only the operation itself.
fn product_op(op: Op, rt: &Runtime, p: &mut Product, slot: usize) -> Duration {
    let undo = |p: &Product| rt.block_on(p.service.undo(p.conv)).expect("undo");
    let redo = |p: &Product| rt.block_on(p.service.redo(p.conv)).expect("redo");
    match op {
        Op::Append => timed(|| product_append(rt, p)),
        Op::Squash3Text => timed(|| product_squash(rt, p, slot, Some(squash_text()))),
        Op::Squash3Concat => timed(|| product_squash(rt, p, slot, None)),
        Op::Edit => timed(|| product_edit(rt, p, slot)),
        Op::Undo => {
            let d = timed(|| undo(p));
            redo(p);
            d
        }
        Op::Redo => {
            undo(p);
            timed(|| redo(p))
        }
        Op::Load => timed(|| {
            let view = rt.block_on(p.service.current_thread(p.conv)).expect("load");
            assert_eq!(view.messages.len(), messages());
            view
        }),
    }
}

/// One run of the floor of `op`; times only the operation itself.
fn floor_op(op: Op, kind: FloorKind, f: &mut Floor, slot: usize) -> Duration {
    match op {
        Op::Append => timed(|| floor_append(f)),
        Op::Squash3Text => timed(|| floor_squash(f, slot)),
        Op::Squash3Concat => {
            let (sources, _, _) = slot_ids(&f.ids, slot);
            timed(|| floor_squash_concat(f, &sources))
        }
        Op::Edit => timed(|| floor_edit(f, slot)),
        Op::Undo => {
            let d = timed(|| floor_switch(f, true));
            floor_switch(f, false);
            d
        }
        Op::Redo => {
            floor_switch(f, true);
            timed(|| floor_switch(f, false))
        }
        Op::Load if kind == FloorKind::RowsOnly => timed(|| {
            let rows = floor_load_rows(f);
            assert_eq!(rows.len(), messages());
            rows
        }),
        Op::Load => timed(|| {
            let messages = floor_load_decoded(f);
            assert_eq!(messages.len(), self::messages());
            messages
        }),
    }
}

// ---- criterion ------------------------------------------------------------------------------

fn criterion_benches(c: &mut Criterion, rt: &Runtime, t: &Templates) {
    for op in OPS {
        let mut g = c.benchmark_group(op.group());
        match op {
            Op::Append | Op::Undo | Op::Redo => {
                g.sample_size(20).measurement_time(Duration::from_secs(4));
            }
            _ => {
                g.sample_size(10)
                    .sampling_mode(SamplingMode::Flat)
                    .measurement_time(Duration::from_secs(6));
            }
        }
        g.bench_function("squash", |b| {
            let mut fx = product_fixture(op, rt, t);
            b.iter_custom(|iters| fx.run_timed(iters, |p, slot| product_op(op, rt, p, slot)));
        });
        for &(kind, name) in op.floors() {
            g.bench_function(name, |b| {
                let mut fx = floor_fixture(op, t);
                b.iter_custom(|iters| fx.run_timed(iters, |f, slot| floor_op(op, kind, f, slot)));
            });
        }
        g.finish();
    }
}

fn row_label(op: Op, kind: FloorKind) -> String {
    match kind {
        FloorKind::Same => op.label().to_owned(),
        FloorKind::RowsDecode => format!("{} — floor: rows + decode", op.label()),
        FloorKind::RowsOnly => format!("{} — floor: rows only", op.label()),
    }
}

/// Criterion's medians (from its saved estimates) as one table.
fn criterion_summary() {
    // Where criterion saves its estimates: $CRITERION_HOME, else <target dir>/criterion.
    let dir = std::env::var_os("CRITERION_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"))
                .join("criterion")
        });
    let median_of = |group: &str, function: &str| -> Option<Duration> {
        let path = dir.join(group).join(function).join("new/estimates.json");
        let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
        Some(Duration::from_nanos(
            json["median"]["point_estimate"].as_f64()? as u64,
        ))
    };
    println!();
    println!("criterion medians (one benchmark after the other):");
    println!();
    println!("| operation | Squash (median) | floor (median) | ratio |");
    println!("|---|---:|---:|---:|");
    for op in OPS {
        for &(kind, name) in op.floors() {
            let label = row_label(op, kind);
            match (median_of(op.group(), "squash"), median_of(op.group(), name)) {
                (Some(p), Some(f)) => println!(
                    "| {label} | {} | {} | {:.2}× |",
                    human(p),
                    human(f),
                    p.as_secs_f64() / f.as_secs_f64()
                ),
                _ => println!("| {label} | (not run) | | |"),
            }
        }
    }
    println!();
}

// ---- the paired measurement -------------------------------------------------------------------

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn human(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.1} µs", ns / 1e3)
    }
}

/// Turns on the CPU time measuring and prints a paired table's `title` and head.
fn paired_head(title: &str) {
    MEASURE_CPU.store(true, Ordering::Relaxed);
    println!();
    println!("{title}");
    println!();
    println!(
        "| operation | Squash (median) | floor (median) | ratio | goal ≤ 1.5× met? \
         | Squash CPU | floor CPU | CPU ratio |"
    );
    println!("|---|---:|---:|---:|---|---:|---:|---:|");
}

/// Product and floor run alternately (which goes first alternates too), so that both see the
/// same machine load; the medians of each and their ratio. On a shared, loaded machine this is
/// the fairer comparison than criterion's one-after-the-other runs.
fn paired_table(rt: &Runtime, t: &Templates, filter: Option<&str>) {
    paired_head("paired (interleaved) medians; wall clock, and CPU time of all threads:");
    for op in OPS {
        if filter.is_some_and(|f| !op.group().contains(f)) {
            continue;
        }
        let mut product = product_fixture(op, rt, t);
        let mut floors: Vec<_> = op.floors().iter().map(|_| floor_fixture(op, t)).collect();
        let (mut ps, mut pc) = (Vec::new(), Vec::new());
        let mut fs: Vec<(Vec<Duration>, Vec<Duration>)> = vec![Default::default(); floors.len()];
        for round in 0..op.rounds() {
            let mut run_product = || {
                ps.push(product.run_timed(1, |p, slot| product_op(op, rt, p, slot)));
                pc.push(last_cpu());
            };
            if round % 2 == 0 {
                run_product();
            }
            for (i, &(kind, _)) in op.floors().iter().enumerate() {
                let wall = floors[i].run_timed(1, |f, slot| floor_op(op, kind, f, slot));
                fs[i].0.push(wall);
                fs[i].1.push(last_cpu());
            }
            if round % 2 == 1 {
                run_product();
            }
        }
        let (p, p_cpu) = (median(ps), median(pc));
        for (i, &(kind, _)) in op.floors().iter().enumerate() {
            let (wall, cpu) = std::mem::take(&mut fs[i]);
            let (f, f_cpu) = (median(wall), median(cpu));
            paired_row(&row_label(op, kind), (p, p_cpu), (f, f_cpu));
        }
    }
    println!();
    MEASURE_CPU.store(false, Ordering::Relaxed);
}

/// One row of a paired table: the product's and the floor's medians (wall, CPU), their ratios
/// and whether the wall ratio is within the goal (1.5×).
fn paired_row(label: &str, product: (Duration, Duration), floor: (Duration, Duration)) {
    let ((p, p_cpu), (f, f_cpu)) = (product, floor);
    let ratio = p.as_secs_f64() / f.as_secs_f64();
    println!(
        "| {label} | {} | {} | {ratio:.2}× | {} | {} | {} | {:.2}× |",
        human(p),
        human(f),
        if ratio <= 1.5 { "yes" } else { "**no**" },
        human(p_cpu),
        human(f_cpu),
        p_cpu.as_secs_f64() / f_cpu.as_secs_f64(),
    );
}

/// Where the service's time goes: the store calls its operations make, each timed alone.
fn breakdown(rt: &Runtime, t: &Templates) {
    const ROUNDS: usize = 30;
    let p = Product::open(t);
    let store = p.store.clone();
    let conv = p.conv;
    let (sources, _, _) = slot_ids(&p.ids, 1);
    let thread_id = rt
        .block_on(store.current_thread(conv))
        .expect("current")
        .thread
        .id;
    let mut f = Floor::open(t);
    let snap = rt.block_on(store.current_thread(conv)).expect("current");

    MEASURE_CPU.store(true, Ordering::Relaxed);
    let row = |label: &str, mut run: Box<dyn FnMut() -> Duration + '_>| {
        run();
        let (wall, cpu): (Vec<_>, Vec<_>) = (0..ROUNDS).map(|_| (run(), last_cpu())).unzip();
        println!(
            "| {label} | {} | {} |",
            human(median(wall)),
            human(median(cpu))
        );
    };
    // One store call a row, timed through the runtime as the service makes it.
    macro_rules! store_row {
        ($label:expr, $call:expr) => {
            row($label, Box::new(|| timed(|| rt.block_on($call).unwrap())))
        };
    }
    println!();
    println!("where the time goes (medians of {ROUNDS} runs, each step alone):");
    println!();
    println!("| step | wall | CPU (all threads) |");
    println!("|---|---:|---:|");
    row(
        "tokio spawn_blocking round trip, empty (each store call pays one)",
        Box::new(|| {
            timed(|| rt.block_on(async { tokio::task::spawn_blocking(|| ()).await.unwrap() }))
        }),
    );
    store_row!("store.conversation", store.conversation(conv));
    store_row!(
        "store.current_thread (thread + 10,000 link ids)",
        store.current_thread(conv)
    );
    store_row!("store.threads", store.threads(conv));
    store_row!(
        "store.thread_messages (10,000 messages, decoded)",
        store.thread_messages(thread_id)
    );
    store_row!(
        "store.tool_refs_closure (3 ids)",
        store.tool_refs_closure(conv, &sources)
    );
    store_row!("store.messages (3 ids)", store.messages(&sources));
    store_row!(
        "store.closure_positions (3 ids: their tool closure and positions, what a squash reads)",
        store.closure_positions(conv, &sources)
    );
    row(
        "plan: thread_ops order + partners + squash on 10,000 links",
        Box::new(|| {
            timed(|| {
                let refs = std::collections::HashMap::new();
                let ordered =
                    squash_core::thread_ops::order_by_thread(&snap.links, &sources).expect("order");
                let added = squash_core::thread_ops::tool_partners(&snap.links, &ordered, &refs);
                assert!(added.is_empty());
                squash_core::thread_ops::squash(&snap.links, &ordered, MessageId::new())
                    .expect("squash")
            })
        }),
    );
    row(
        "floor: read 10,000 links (key + id) in a read transaction",
        Box::new(|| {
            timed(|| {
                let tx = f.conn.transaction().unwrap();
                let (_, thread_key) = floor_current(&tx, f.conv);
                let links = floor_links(&tx, thread_key);
                tx.commit().unwrap();
                links
            })
        }),
    );
    drop(p);

    // The squash's write transaction alone: through the store and the floor's; interleaved.
    let mut product = Rotating::new(COW_OPS_PER_COPY, || Product::open(t));
    let mut service = Rotating::new(COW_OPS_PER_COPY, || Product::open(t));
    let mut floor = Rotating::new(COW_OPS_PER_COPY, || Floor::open(t));
    let mut rows: [(Vec<Duration>, Vec<Duration>); 3] = Default::default();
    for _ in 0..ROUNDS {
        let wall = product.run_timed(1, |p, slot| timed_squash_commit(rt, p, slot));
        rows[0].0.push(wall);
        rows[0].1.push(last_cpu());
        let wall = service.run_timed(1, |p, slot| {
            timed(|| product_squash(rt, p, slot, Some(squash_text())))
        });
        rows[1].0.push(wall);
        rows[1].1.push(last_cpu());
        let wall = floor.run_timed(1, |f, slot| timed(|| floor_squash(f, slot)));
        rows[2].0.push(wall);
        rows[2].1.push(last_cpu());
    }
    let labels = [
        "store.commit of a 3-message squash (the write transaction alone)",
        "service.squash_manual of the same, explicit text (its read, plan and commit)",
        "floor: the same squash (positions probed, runs cut, one link)",
    ];
    for (label, (wall, cpu)) in labels.iter().zip(rows) {
        println!(
            "| {label} | {} | {} |",
            human(median(wall)),
            human(median(cpu))
        );
    }
    println!();
    MEASURE_CPU.store(false, Ordering::Relaxed);
}

/// Builds the commit the service would build for a squash of `slot`'s sources and times only
/// `store.commit`.
fn timed_squash_commit(rt: &Runtime, p: &Product, slot: usize) -> Duration {
    let (sources, _, _) = slot_ids(&p.ids, slot);
    let snap = rt
        .block_on(
            p.store
                .thread_positions(squash_store::ThreadRef::Current(p.conv), &sources),
        )
        .expect("positions");
    let op_id = SquashOperationId::new();
    let mut result = Message::new(
        p.conv,
        Role::User,
        vec![ContentItem::text_for(Role::User, squash_text())],
    )
    .expect("message");
    result.squash_operation_id = Some(op_id);
    let edit = squash_core::thread_ops::plan_squash(&snap.positions, &sources).expect("squash");
    let thread_id = ThreadId::new();
    let operation = squash_core::SquashOperation {
        base_thread_id: Some(snap.thread.id),
        result_thread_id: Some(thread_id),
        ..squash_core::SquashOperation::new(
            op_id,
            p.conv,
            sources.to_vec(),
            result.id,
            squash_core::OperationKind::Manual,
            Some("bench".into()),
        )
    };
    let commit = squash_store::Commit {
        conversation_id: p.conv,
        base_thread_id: snap.thread.id,
        base_revision: snap.thread.revision,
        thread_id,
        origin: ThreadOrigin::Squash {
            operation_id: op_id,
        },
        links: squash_store::NewLinks::Edit(edit),
        messages: vec![result],
        operations: vec![operation],
    };
    timed(|| rt.block_on(p.store.commit(&commit)).expect("commit"))
}

// ---- bytes per copy-on-write operation ----------------------------------------------------------

/// File size after a full checkpoint, and the logical size (page_count × page_size).
fn db_bytes(path: &Path) -> (u64, u64) {
    checkpoint(path);
    let conn = Connection::open(path).expect("open");
    let pages: i64 = conn
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .unwrap();
    let size: i64 = conn
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .unwrap();
    (file_len(path), (pages * size) as u64)
}

fn growth_report(rt: &Runtime, t: &Templates) {
    println!();
    println!(
        "bytes the database grows per copy-on-write op ({GROWTH_OPS} ops each on the \
         {}-message conversation; file size after wal_checkpoint(TRUNCATE)):",
        messages()
    );
    println!();
    println!("| operation | Squash bytes/op | floor bytes/op | links written/op |");
    println!("|---|---:|---:|---:|");
    for name in ["squash 3", "edit 1", "delete 2"] {
        let p = Product::open(t);
        let (before, _) = db_bytes(&p.path);
        let stats_before = rt.block_on(p.store.stats()).expect("stats");
        for slot in 0..GROWTH_OPS {
            match name {
                "squash 3" => product_squash(rt, &p, slot, Some(squash_text())),
                "edit 1" => product_edit(rt, &p, slot),
                _ => product_delete(rt, &p, slot),
            }
        }
        let stats_after = rt.block_on(p.store.stats()).expect("stats");
        let (after, logical) = db_bytes(&p.path);
        assert_eq!(logical, after, "the checkpointed file is the database");

        let mut f = Floor::open(t);
        let (floor_before, _) = db_bytes(&f.path);
        for slot in 0..GROWTH_OPS {
            match name {
                "squash 3" => floor_squash(&mut f, slot),
                "edit 1" => floor_edit(&mut f, slot),
                _ => floor_delete(&mut f, slot),
            }
        }
        let (floor_after, _) = db_bytes(&f.path);
        println!(
            "| {name} | {} | {} | {} |",
            (after - before) / GROWTH_OPS as u64,
            (floor_after - floor_before) / GROWTH_OPS as u64,
            (stats_after.thread_links - stats_before.thread_links) / GROWTH_OPS as u64,
        );
    }
    println!();
}

// ---- main -----------------------------------------------------------------------------------

/// `SQUASH_BENCH=criterion|paired|growth|breakdown` (comma-separated) selects the parts; all by
/// default. `SQUASH_BENCH_OP=<group>` restricts the paired table to one operation.
fn main() {
    let parts = std::env::var("SQUASH_BENCH")
        .unwrap_or_else(|_| "growth,breakdown,paired,criterion".into());
    // `--test` / `--list` (criterion's quick modes) run only the criterion part.
    let quick = std::env::args().any(|a| a == "--test" || a == "--list");
    let on =
        |part: &str| parts.split(',').any(|p| p.trim() == part) && (!quick || part == "criterion");
    let op_filter = std::env::var("SQUASH_BENCH_OP").ok();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .configure_from_args();
    // The SQLite templates only for the parts that use them (`pg` builds its own).
    let sqlite_parts = ["growth", "breakdown", "paired", "criterion"];
    let templates = sqlite_parts
        .iter()
        .any(|p| on(p))
        .then(|| Templates::build(&rt));
    if let Some(templates) = &templates {
        if on("growth") {
            growth_report(&rt, templates);
        }
        if on("breakdown") {
            breakdown(&rt, templates);
        }
        if on("paired") {
            paired_table(&rt, templates, op_filter.as_deref());
        }
    }
    if on("pg") {
        pg::paired_table(&rt, op_filter.as_deref());
    }
    if let Some(templates) = templates.as_ref().filter(|_| on("criterion")) {
        criterion_benches(&mut c, &rt, templates);
        c.final_summary();
        if !quick {
            criterion_summary();
        }
    }
}
