//! Test support: every backend, each fresh (a temp SQLite file; a new PostgreSQL schema).
#![allow(dead_code)]

use std::sync::Arc;

use squash_app::ConversationService;
use squash_core::{ContentItem, ImageSource, Role, StructuredText, SystemLevel, ToolResultData};
use squash_store::postgres::PostgresStore;
use squash_store::sqlite::SqliteStore;
use squash_store::ConversationStore;

pub struct Backend {
    pub name: &'static str,
    pub store: Arc<dyn ConversationStore>,
    pub service: ConversationService,
    pub sqlite_path: Option<std::path::PathBuf>,
    pub pg_schema: Option<String>,
    pg: Option<Arc<PostgresStore>>,
    _dir: Option<tempfile::TempDir>,
}

impl Backend {
    pub async fn cleanup(self) {
        if let Some(pg) = self.pg {
            pg.drop_schema().await.expect("drop test schema");
        }
    }
}

pub fn pg_url() -> String {
    std::env::var("SQUASH_TEST_PG")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

pub async fn sqlite() -> Backend {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("squash.db");
    let store: Arc<dyn ConversationStore> =
        Arc::new(SqliteStore::open(&path).expect("open sqlite"));
    Backend {
        name: "sqlite",
        service: ConversationService::new(store.clone()).with_actor(Some("tester".into())),
        store,
        sqlite_path: Some(path),
        pg_schema: None,
        pg: None,
        _dir: Some(dir),
    }
}

pub async fn postgres() -> Backend {
    let schema = format!("t_{}", uuid_simple());
    let pg = Arc::new(
        PostgresStore::connect_in_schema(&pg_url(), &schema)
            .await
            .expect("PostgreSQL must be running at SQUASH_TEST_PG (default 127.0.0.1:5432/test)"),
    );
    let store: Arc<dyn ConversationStore> = pg.clone();
    Backend {
        name: "postgres",
        service: ConversationService::new(store.clone()).with_actor(Some("tester".into())),
        store,
        sqlite_path: None,
        pg_schema: Some(schema),
        pg: Some(pg),
        _dir: None,
    }
}

fn uuid_simple() -> String {
    squash_core::MessageId::new().as_uuid().simple().to_string()
}

/// Runs the same async test body against every backend.
#[macro_export]
macro_rules! on_every_backend {
    ($body:ident) => {
        for backend in [common::sqlite().await, common::postgres().await] {
            let name = backend.name;
            $body(&backend).await;
            eprintln!("{name}: ok");
            backend.cleanup().await;
        }
    };
}

/// The content of the n-th message of a realistic mixed conversation (20 kinds cycling).
pub fn mixed_content(n: usize) -> (Role, Vec<ContentItem>) {
    let tool = format!("toolu_{n:03}");
    match n % 10 {
        0 => (
            Role::User,
            vec![ContentItem::UserMessage {
                text: format!("Request {n}: find the failing test in src/lib.rs"),
            }],
        ),
        1 => (
            Role::Assistant,
            vec![ContentItem::AssistantMessage {
                structured: StructuredText {
                    full_text: format!("Answer {n}: looking at src/lib.rs"),
                    ..Default::default()
                },
            }],
        ),
        2 => (
            Role::Assistant,
            vec![
                ContentItem::Thinking {
                    signature: format!("sig{n}"),
                    thinking: "check both src/ and tests/".into(),
                },
                ContentItem::ToolCall {
                    id: tool,
                    name: "Grep".into(),
                    input: serde_json::json!({"pattern": "fn test_", "path": "src"}),
                },
            ],
        ),
        3 => (
            Role::User,
            vec![ContentItem::ToolResult {
                tool_use_id: format!("toolu_{:03}", n - 1),
                tool_name: "Grep".into(),
                result: vec![ToolResultData::Text {
                    text: "src/lib.rs:42: fn test_parse()".into(),
                }],
                is_error: false,
            }],
        ),
        4 => (
            Role::System,
            vec![ContentItem::System {
                level: SystemLevel::Warning,
                content: "large file ignored".into(),
                tool_use_id: None,
            }],
        ),
        5 => (
            Role::Assistant,
            vec![ContentItem::ToolCall {
                id: tool,
                name: "Bash".into(),
                input: serde_json::json!({"command": "cargo test"}),
            }],
        ),
        6 => (
            Role::User,
            vec![ContentItem::ToolResult {
                tool_use_id: format!("toolu_{:03}", n - 1),
                tool_name: "Bash".into(),
                result: vec![ToolResultData::Text {
                    text: "error[E0308]: mismatched types".into(),
                }],
                is_error: true,
            }],
        ),
        7 => (
            Role::User,
            vec![
                ContentItem::UserMessage {
                    text: "here is a screenshot".into(),
                },
                ContentItem::Image {
                    source: ImageSource::Base64 {
                        media_type: "image/png".into(),
                        data: "iVBORw0KGgo=".into(),
                    },
                },
            ],
        ),
        8 => (
            Role::Assistant,
            vec![ContentItem::UnknownJson {
                json: serde_json::json!({"type": "server_tool_use", "n": n}),
            }],
        ),
        _ => (
            Role::User,
            vec![ContentItem::UserMessage {
                text: format!("Thanks, message {n}"),
            }],
        ),
    }
}

/// Checks every stored invariant of one conversation; returns what is wrong.
pub async fn violations(b: &Backend, conv: squash_core::ConversationId) -> Vec<String> {
    use std::collections::HashSet;
    let mut bad = Vec::new();
    let all = b.store.all_messages(conv).await.expect("all messages");
    let known: HashSet<_> = all.iter().map(|m| m.id).collect();
    let threads = b.store.threads(conv).await.expect("threads");
    let current = b
        .store
        .conversation(conv)
        .await
        .expect("conversation")
        .current_thread_id;
    if !threads.iter().any(|t| t.id == current) {
        bad.push(format!(
            "current thread {current} is not a thread of the conversation"
        ));
    }
    for t in &threads {
        let snap = b.store.thread(t.id).await.expect("thread");
        if snap.links.len() as u64 != t.message_count {
            bad.push(format!(
                "thread {} has {} links but message_count {}",
                t.id,
                snap.links.len(),
                t.message_count
            ));
        }
        let unique: HashSet<_> = snap.links.iter().collect();
        if unique.len() != snap.links.len() {
            bad.push(format!("thread {} links a message twice", t.id));
        }
        for l in &snap.links {
            if !known.contains(l) {
                bad.push(format!("thread {} links unknown message {l}", t.id));
            }
        }
        if let Some(o) = t.original_thread_id {
            if !threads.iter().any(|p| p.id == o) {
                bad.push(format!("thread {} derives from unknown thread {o}", t.id));
            }
        }
    }
    for op in b.store.operations(conv).await.expect("operations") {
        for s in op.source_message_ids.iter().chain([&op.result_message_id]) {
            if !known.contains(s) {
                bad.push(format!("operation {} names unknown message {s}", op.id));
            }
        }
        match all.iter().find(|m| m.id == op.result_message_id) {
            Some(m) if m.squash_operation_id == Some(op.id) => {}
            _ => bad.push(format!(
                "operation {}'s result does not point back to it",
                op.id
            )),
        }
    }
    bad.extend(dense_positions(b).await);
    bad
}

/// Positions of every thread are 0..n-1, read from the tables themselves.
pub async fn dense_positions(b: &Backend) -> Vec<String> {
    const SQL: &str = "SELECT thread_key, count(*), min(position), max(position) FROM thread_messages GROUP BY thread_key";
    let rows: Vec<(i64, i64, i64, i64)> = if let Some(path) = &b.sqlite_path {
        let conn = rusqlite::Connection::open(path).expect("open sqlite");
        let mut stmt = conn.prepare(SQL).expect("prepare");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    } else {
        let schema = b.pg_schema.clone().expect("pg schema");
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(1)
            .connect(&pg_url())
            .await
            .expect("connect");
        sqlx::query_as::<_, (i64, i64, i64, i64)>(
            &SQL.replace("thread_messages", &format!("{schema}.thread_messages"))
                .replace("min(position)", "min(position)::bigint")
                .replace("max(position)", "max(position)::bigint"),
        )
        .fetch_all(&pool)
        .await
        .expect("query")
    };
    rows.into_iter()
        .filter(|(_, n, lo, hi)| *lo != 0 || *hi != n - 1)
        .map(|(t, n, lo, hi)| format!("thread key {t}: {n} links at positions {lo}..={hi}"))
        .collect()
}

impl Backend {
    /// Wraps an already open SQLite store (the crash test reopens the same file).
    pub fn from_sqlite(store: Arc<SqliteStore>, path: std::path::PathBuf) -> Backend {
        let store: Arc<dyn ConversationStore> = store;
        Backend {
            name: "sqlite",
            service: ConversationService::new(store.clone()),
            store,
            sqlite_path: Some(path),
            pg_schema: None,
            pg: None,
            _dir: None,
        }
    }
}

/// The lines a resumed Claude Code session is made of: from its last user or assistant line up
/// through `parentUuid` (and `logicalParentUuid` across a compaction) to the root, in order.
pub fn claude_chain(session: &str) -> Vec<serde_json::Value> {
    use serde_json::Value;
    let lines: Vec<Value> = session
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let by_uuid: std::collections::HashMap<&str, &Value> = lines
        .iter()
        .filter_map(|l| Some((l["uuid"].as_str()?, l)))
        .collect();
    let mut chain = Vec::new();
    let mut at = lines
        .iter()
        .rev()
        .find(|l| matches!(l["type"].as_str(), Some("user" | "assistant")));
    while let Some(line) = at {
        chain.push(line.clone());
        let parent = line["parentUuid"]
            .as_str()
            .or_else(|| line["logicalParentUuid"].as_str());
        at = parent.and_then(|p| by_uuid.get(p).copied());
    }
    chain.reverse();
    chain
}

/// The messages a Claude Code session sends to the API: the user and assistant lines of its
/// chain, consecutive lines of one role merged into one message (as the CLI and the API do).
pub fn claude_api_messages(session: &str) -> Vec<serde_json::Value> {
    use serde_json::{json, Value};
    let mut out: Vec<Value> = Vec::new();
    for v in claude_chain(session) {
        let role = match v["type"].as_str() {
            Some(r @ ("user" | "assistant")) => r,
            _ => continue,
        };
        let blocks = match &v["message"]["content"] {
            Value::String(s) => vec![json!({"type": "text", "text": s})],
            Value::Array(b) => b.clone(),
            _ => Vec::new(),
        };
        match out.last_mut() {
            Some(last) if last["role"] == role => {
                if let Some(content) = last["content"].as_array_mut() {
                    content.extend(blocks);
                }
            }
            _ => out.push(json!({"role": role, "content": blocks})),
        }
    }
    out
}

// The Messages API's pairing rule, shared with the tests that drive the real agents.
#[path = "../agents/pairing.rs"]
mod pairing;
// Not every test that includes this module checks pairing.
#[allow(unused_imports)]
pub use pairing::assert_api_pairing;

/// SQL that takes migration 0007 (thread segments) back out of a database, either backend:
/// every thread's links are written out whole, as before it, then the layout goes.
macro_rules! undo_segments {
    () => {
        "CREATE TEMP TABLE whole_links AS \
         SELECT ru.thread_key, ru.start + tm.position - ru.off AS position, tm.message_key \
         FROM (SELECT thread_key, start, length, source_thread_key AS src, source_offset AS off \
               FROM thread_segments \
               UNION ALL SELECT key, tail_start, message_count - tail_start, key, tail_offset \
               FROM threads WHERE message_count > tail_start) ru \
         JOIN thread_messages tm ON tm.thread_key = ru.src \
          AND tm.position BETWEEN ru.off AND ru.off + ru.length - 1; \
         DELETE FROM thread_messages; \
         INSERT INTO thread_messages (thread_key, position, message_key) \
         SELECT thread_key, position, message_key FROM whole_links; \
         DROP TABLE whole_links; DROP TABLE thread_segments; \
         ALTER TABLE threads DROP COLUMN tail_start; ALTER TABLE threads DROP COLUMN tail_offset; "
    };
}

/// SQL that takes migrations 0007 (segments) and 0006 (search) back out of a SQLite database,
/// for tests that make a database look as it did before a migration; then `PRAGMA
/// user_version` says which.
pub const SQLITE_UNDO_SEARCH: &str = concat!(
    undo_segments!(),
    "DROP TRIGGER messages_search_insert; \
     DROP TRIGGER messages_search_fill; DROP TRIGGER messages_search_delete; \
     DROP TABLE message_search; DROP INDEX messages_without_search; \
     DROP INDEX thread_messages_by_message; ALTER TABLE messages DROP COLUMN search_text;"
);

/// The same for PostgreSQL (with its migration records).
pub const PG_UNDO_SEARCH: &str = concat!(
    undo_segments!(),
    "DELETE FROM _sqlx_migrations WHERE version = 7; \
     ALTER TABLE messages DROP COLUMN search_vector; \
     ALTER TABLE messages DROP COLUMN search_text; DROP INDEX thread_messages_by_message; \
     DELETE FROM _sqlx_migrations WHERE version = 6;"
);
