//! The embedded default backend: a SQLite file in WAL mode.

mod conn;
mod cow;
mod import;
mod rows;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use async_trait::async_trait;
use chrono::Utc;
use rusqlite::{params, OptionalExtension, Transaction};
use rusqlite_migration::{Migrations, M};
use squash_core::{
    Conversation, ConversationId, Message, MessageId, Project, ProjectId, SquashOperation,
    SquashOperationId, Thread, ThreadId, ThreadOrigin, ToolRefs,
};

use crate::error::{Entity, StoreError};
use crate::types::{
    Appended, Commit, Direction, ImportAppend, ImportBatch, ImportOutcome, ImportRecord, NewLinks,
    StoreStats, ThreadSnapshot,
};
use crate::{normalize_prefix, ConversationStore, RefsByMessage, Result};

pub use conn::PRAGMAS;
use conn::{map_err, open_connection, Pool};
use rows::{col, micros};

/// The schema, in order. Applied automatically on open; `user_version` records the level.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("migrations/0001_init.sql")),
        M::up(include_str!("migrations/0002_imports.sql")),
        M::up(include_str!("migrations/0003_styles.sql")),
    ])
}

pub struct SqliteStore {
    pool: Pool,
}

impl SqliteStore {
    /// Opens (creating if needed) the database file at `path` and migrates it.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore> {
        let path = path.as_ref();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::Backend(format!("cannot create {}: {e}", dir.display()))
            })?;
        }
        let mut writer = open_connection(path, rusqlite::OpenFlags::empty())?;
        migrations()
            .to_latest(&mut writer)
            .map_err(|e| StoreError::Migration(e.to_string()))?;
        Ok(SqliteStore {
            pool: Pool::open(path, writer),
        })
    }

    pub fn path(&self) -> &Path {
        self.pool.path()
    }

    /// `PRAGMA integrity_check`, for crash tests and `squash doctor`.
    pub fn integrity_check(&self) -> Result<String> {
        self.pool.read(|tx| {
            tx.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
                .map_err(map_err)
        })
    }

    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Pool) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || f(&pool))
            .await
            .map_err(|e| StoreError::Backend(format!("storage task failed: {e}")))?
    }
}

fn now() -> i64 {
    micros(Utc::now())
}

fn conversation_key(tx: &Transaction<'_>, id: ConversationId) -> Result<i64> {
    tx.prepare_cached("SELECT key FROM conversations WHERE id = ?1")
        .and_then(|mut s| s.query_row([id.as_bytes()], |r| r.get(0)).optional())
        .map_err(map_err)?
        .ok_or_else(|| StoreError::not_found(Entity::Conversation, id))
}

/// A conversation and its current thread, found with one statement: what every write starts
/// with.
struct Current {
    conversation_key: i64,
    thread_key: i64,
    thread_id: ThreadId,
    revision: u64,
    message_count: u64,
}

fn current_of(tx: &Transaction<'_>, id: ConversationId) -> Result<Current> {
    let row = tx
        .prepare_cached(
            "SELECT c.key, t.key, t.id, t.revision, t.message_count FROM conversations c \
             JOIN threads t ON t.key = c.current_thread_key WHERE c.id = ?1",
        )
        .and_then(|mut s| {
            s.query_row([id.as_bytes()], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, Vec<u8>>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            })
            .optional()
        })
        .map_err(map_err)?;
    let (conversation_key, thread_key, thread_id, revision, message_count) =
        row.ok_or_else(|| StoreError::not_found(Entity::Conversation, id))?;
    Ok(Current {
        conversation_key,
        thread_key,
        thread_id: rows::uuid(&thread_id)?.into(),
        revision: revision as u64,
        message_count: message_count as u64,
    })
}

/// The conversation's current thread: (thread key, thread id, revision).
fn current_state(tx: &Transaction<'_>, conversation_key: i64) -> Result<(i64, ThreadId, u64)> {
    let (key, id, revision): (i64, Vec<u8>, i64) = tx
        .prepare_cached(
            "SELECT t.key, t.id, t.revision FROM conversations c \
             JOIN threads t ON t.key = c.current_thread_key WHERE c.key = ?1",
        )
        .and_then(|mut s| {
            s.query_row([conversation_key], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
        })
        .map_err(map_err)?;
    Ok((key, rows::uuid(&id)?.into(), revision as u64))
}

/// (thread key, conversation key) of a thread.
fn thread_key(tx: &Transaction<'_>, id: ThreadId) -> Result<(i64, i64)> {
    tx.prepare_cached("SELECT key, conversation_key FROM threads WHERE id = ?1")
        .and_then(|mut s| {
            s.query_row([id.as_bytes()], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()
        })
        .map_err(map_err)?
        .ok_or_else(|| StoreError::not_found(Entity::Thread, id))
}

fn load_conversation(tx: &Transaction<'_>, id: ConversationId) -> Result<Conversation> {
    let sql = format!(
        "SELECT {} FROM {} WHERE c.id = ?1",
        rows::CONVERSATION_COLUMNS,
        rows::CONVERSATION_FROM
    );
    let mut stmt = tx.prepare_cached(&sql).map_err(map_err)?;
    let mut rows = stmt.query([id.as_bytes()]).map_err(map_err)?;
    match rows.next().map_err(map_err)? {
        Some(row) => rows::conversation(row),
        None => Err(StoreError::not_found(Entity::Conversation, id)),
    }
}

fn load_thread(tx: &Transaction<'_>, key: i64) -> Result<Thread> {
    let sql = format!(
        "SELECT {} FROM {} WHERE t.key = ?1",
        rows::THREAD_COLUMNS,
        rows::THREAD_FROM
    );
    let mut stmt = tx.prepare_cached(&sql).map_err(map_err)?;
    let mut rows = stmt.query([key]).map_err(map_err)?;
    match rows.next().map_err(map_err)? {
        Some(row) => rows::thread(row),
        None => Err(StoreError::not_found(Entity::Thread, key)),
    }
}

fn links(tx: &Transaction<'_>, thread_key: i64) -> Result<Vec<MessageId>> {
    let mut stmt = tx
        .prepare_cached(
            "SELECT m.id FROM thread_messages tm JOIN messages m ON m.key = tm.message_key \
             WHERE tm.thread_key = ?1 ORDER BY tm.position",
        )
        .map_err(map_err)?;
    let mut rows = stmt.query([thread_key]).map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        // Borrowed, not a Vec<u8> per row: 10,000 allocations fewer per thread read.
        let bytes = row
            .get_ref(0)
            .and_then(|v| v.as_blob().map_err(Into::into))
            .map_err(map_err)?;
        out.push(rows::uuid(bytes)?.into());
    }
    Ok(out)
}

fn snapshot(tx: &Transaction<'_>, thread_key: i64) -> Result<ThreadSnapshot> {
    Ok(ThreadSnapshot {
        thread: load_thread(tx, thread_key)?,
        links: links(tx, thread_key)?,
    })
}

/// Message id → key for the messages of a thread: resolves most links of a derived thread
/// with one scan instead of one index lookup per link.
fn link_keys(tx: &Transaction<'_>, thread_key: i64) -> Result<HashMap<MessageId, i64>> {
    let mut stmt = tx
        .prepare_cached(
            "SELECT m.id, tm.message_key FROM thread_messages tm \
             JOIN messages m ON m.key = tm.message_key WHERE tm.thread_key = ?1",
        )
        .map_err(map_err)?;
    let mut rows = stmt.query([thread_key]).map_err(map_err)?;
    let mut out = HashMap::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        let bytes: Vec<u8> = col(row, 0)?;
        out.insert(rows::uuid(&bytes)?.into(), col(row, 1)?);
    }
    Ok(out)
}

fn message_key(tx: &Transaction<'_>, conversation_key: i64, id: MessageId) -> Result<i64> {
    tx.prepare_cached("SELECT key FROM messages WHERE id = ?1 AND conversation_key = ?2")
        .and_then(|mut s| {
            s.query_row(params![id.as_bytes(), conversation_key], |r| r.get(0))
                .optional()
        })
        .map_err(map_err)?
        .ok_or_else(|| StoreError::not_found(Entity::Message, id))
}

fn insert_message(tx: &Transaction<'_>, conversation_key: i64, m: &Message) -> Result<i64> {
    let content = serde_json::to_string(&m.content)?;
    let instructions = if m.instructions.is_empty() {
        None
    } else {
        Some(serde_json::to_string(&m.instructions)?)
    };
    let metadata = m.metadata.as_ref().map(serde_json::to_string).transpose()?;
    tx.prepare_cached(
        "INSERT INTO messages (id, conversation_key, squash_operation_id, reply_to, role, content, \
         instructions, metadata, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )
    .and_then(|mut s| {
        s.execute(params![
            m.id.as_bytes(),
            conversation_key,
            m.squash_operation_id.as_ref().map(|i| i.as_bytes()),
            m.reply_to.as_ref().map(|i| i.as_bytes()),
            m.role.as_str(),
            content,
            instructions,
            metadata,
            micros(m.created_at),
        ])
    })
    .map_err(|e| match map_err(e) {
        StoreError::Invalid(_) => StoreError::Invalid(format!("message {} already exists", m.id)),
        other => other,
    })?;
    let key = tx.last_insert_rowid();
    let refs = m.tool_refs();
    if !refs.is_empty() {
        let mut stmt = tx
            .prepare_cached(
                "INSERT OR IGNORE INTO message_tools (conversation_key, tool_use_id, message_key, is_result) \
                 VALUES (?1, ?2, ?3, ?4)",
            )
            .map_err(map_err)?;
        for (id, is_result) in refs
            .calls
            .iter()
            .map(|c| (c, 0))
            .chain(refs.results.iter().map(|r| (r, 1)))
        {
            stmt.execute(params![conversation_key, id, key, is_result])
                .map_err(map_err)?;
        }
    }
    Ok(key)
}

fn insert_links(tx: &Transaction<'_>, thread_key: i64, keys: &[i64], start: usize) -> Result<()> {
    let mut stmt = tx
        .prepare_cached(
            "INSERT INTO thread_messages (thread_key, position, message_key) VALUES (?1, ?2, ?3)",
        )
        .map_err(map_err)?;
    for (i, key) in keys.iter().enumerate() {
        stmt.execute(params![thread_key, (start + i) as i64, key])
            .map_err(map_err)?;
    }
    Ok(())
}

fn insert_operation(
    tx: &Transaction<'_>,
    conversation_key: i64,
    op: &SquashOperation,
    result_message_key: i64,
    result_thread_key: i64,
    result_thread_id: ThreadId,
    keys: &HashMap<MessageId, i64>,
) -> Result<()> {
    // Both thread references must name threads of this conversation.
    let in_conversation = |id: ThreadId| -> Result<i64> {
        match thread_key(tx, id)? {
            (key, conv) if conv == conversation_key => Ok(key),
            _ => Err(StoreError::not_found(Entity::Thread, id)),
        }
    };
    let base_key = op.base_thread_id.map(in_conversation).transpose()?;
    let result_key = op
        .result_thread_id
        .map(|id| {
            if id == result_thread_id {
                Ok(result_thread_key)
            } else {
                in_conversation(id)
            }
        })
        .transpose()?;
    tx.prepare_cached(
        "INSERT INTO squash_operations (id, conversation_key, result_message_key, prompt, model, \
         performed_by_agent, performed_by, custom_instructions, provider, base_thread_key, \
         result_thread_key, input_tokens, output_tokens, duration_ms, created_at, style, \
         prompt_style) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
    )
    .and_then(|mut s| {
        s.execute(params![
            op.id.as_bytes(),
            conversation_key,
            result_message_key,
            op.prompt,
            op.model,
            op.performed_by_agent as i64,
            op.performed_by,
            op.custom_instructions,
            op.provider,
            base_key,
            result_key,
            op.usage.map(|u| u.input_tokens as i64),
            op.usage.map(|u| u.output_tokens as i64),
            op.duration_ms.map(|d| d as i64),
            micros(op.created_at),
            op.style.map(|s| s.as_str()),
            op.prompt_style.map(|s| s.as_str()),
        ])
    })
    .map_err(map_err)?;
    let op_key = tx.last_insert_rowid();
    let mut stmt = tx
        .prepare_cached(
            "INSERT INTO squash_operation_sources (operation_key, position, message_key) \
             VALUES (?1, ?2, ?3)",
        )
        .map_err(map_err)?;
    for (pos, source) in op.source_message_ids.iter().enumerate() {
        let key = match keys.get(source) {
            Some(k) => *k,
            None => message_key(tx, conversation_key, *source)?,
        };
        stmt.execute(params![op_key, pos as i64, key])
            .map_err(map_err)?;
    }
    Ok(())
}

fn operation_sources(tx: &Transaction<'_>, op_key: i64) -> Result<Vec<MessageId>> {
    let mut stmt = tx
        .prepare_cached(
            "SELECT m.id FROM squash_operation_sources s JOIN messages m ON m.key = s.message_key \
             WHERE s.operation_key = ?1 ORDER BY s.position",
        )
        .map_err(map_err)?;
    let mut rows = stmt.query([op_key]).map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        let bytes: Vec<u8> = col(row, 0)?;
        out.push(rows::uuid(&bytes)?.into());
    }
    Ok(out)
}

fn load_operations(
    tx: &Transaction<'_>,
    filter: &str,
    param: &dyn rusqlite::ToSql,
) -> Result<Vec<SquashOperation>> {
    let sql = format!(
        "SELECT {} FROM {} WHERE {filter} ORDER BY o.key",
        rows::OPERATION_COLUMNS,
        rows::OPERATION_FROM
    );
    let mut stmt = tx.prepare_cached(&sql).map_err(map_err)?;
    let mut rows = stmt.query([param]).map_err(map_err)?;
    let mut found = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        found.push(rows::operation(row)?);
    }
    drop(rows);
    found
        .into_iter()
        .map(|(key, mut op)| {
            op.source_message_ids = operation_sources(tx, key)?;
            Ok(op)
        })
        .collect()
}

fn load_messages(
    tx: &Transaction<'_>,
    sql_tail: &str,
    param: &dyn rusqlite::ToSql,
) -> Result<Vec<Message>> {
    let sql = format!("SELECT {} FROM {sql_tail}", rows::MESSAGE_COLUMNS);
    let mut stmt = tx.prepare_cached(&sql).map_err(map_err)?;
    let mut rows = stmt.query([param]).map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        out.push(rows::message(row)?);
    }
    Ok(out)
}

fn touch_conversation(tx: &Transaction<'_>, key: i64, current_thread: Option<i64>) -> Result<()> {
    match current_thread {
        Some(t) => tx
            .prepare_cached(
                "UPDATE conversations SET current_thread_key = ?2, updated_at = ?3 WHERE key = ?1",
            )
            .and_then(|mut s| s.execute(params![key, t, now()])),
        None => tx
            .prepare_cached("UPDATE conversations SET updated_at = ?2 WHERE key = ?1")
            .and_then(|mut s| s.execute(params![key, now()])),
    }
    .map_err(map_err)?;
    Ok(())
}

fn prefix_query(tx: &Transaction<'_>, sql: &str, prefix: &str) -> Result<Vec<uuid::Uuid>> {
    let Some(hex) = normalize_prefix(prefix) else {
        return Ok(Vec::new());
    };
    let mut stmt = tx.prepare_cached(sql).map_err(map_err)?;
    let mut rows = stmt
        .query([format!("{}%", hex.to_ascii_uppercase())])
        .map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        let bytes: Vec<u8> = col(row, 0)?;
        out.push(rows::uuid(&bytes)?);
    }
    Ok(out)
}

#[async_trait]
impl ConversationStore for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    async fn ensure_project(&self, path: &str) -> Result<Project> {
        let path = path.to_owned();
        self.run(move |pool| {
            pool.write(|tx| {
                tx.prepare_cached(
                    "INSERT INTO projects (id, path, created_at) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (path) DO NOTHING",
                )
                .and_then(|mut s| s.execute(params![ProjectId::new().as_bytes(), path, now()]))
                .map_err(map_err)?;
                let sql = format!(
                    "SELECT {} FROM projects WHERE path = ?1",
                    rows::PROJECT_COLUMNS
                );
                let mut stmt = tx.prepare_cached(&sql).map_err(map_err)?;
                let mut rows = stmt.query([&path]).map_err(map_err)?;
                match rows.next().map_err(map_err)? {
                    Some(row) => rows::project(row),
                    None => Err(StoreError::not_found(Entity::Project, &path)),
                }
            })
        })
        .await
    }

    async fn projects(&self) -> Result<Vec<Project>> {
        self.run(|pool| {
            pool.read(|tx| {
                let sql = format!(
                    "SELECT {} FROM projects ORDER BY path",
                    rows::PROJECT_COLUMNS
                );
                let mut stmt = tx.prepare_cached(&sql).map_err(map_err)?;
                let mut rows = stmt.query([]).map_err(map_err)?;
                let mut out = Vec::new();
                while let Some(row) = rows.next().map_err(map_err)? {
                    out.push(rows::project(row)?);
                }
                Ok(out)
            })
        })
        .await
    }

    async fn project(&self, id: ProjectId) -> Result<Project> {
        self.run(move |pool| {
            pool.read(|tx| {
                let sql = format!(
                    "SELECT {} FROM projects WHERE id = ?1",
                    rows::PROJECT_COLUMNS
                );
                let mut stmt = tx.prepare_cached(&sql).map_err(map_err)?;
                let mut rows = stmt.query([id.as_bytes()]).map_err(map_err)?;
                match rows.next().map_err(map_err)? {
                    Some(row) => rows::project(row),
                    None => Err(StoreError::not_found(Entity::Project, id)),
                }
            })
        })
        .await
    }

    async fn create_conversation(&self, project: ProjectId, name: &str) -> Result<Conversation> {
        let name = name.to_owned();
        self.run(move |pool| {
            pool.write(|tx| {
                let project_key: i64 = tx
                    .prepare_cached("SELECT key FROM projects WHERE id = ?1")
                    .and_then(|mut s| s.query_row([project.as_bytes()], |r| r.get(0)).optional())
                    .map_err(map_err)?
                    .ok_or_else(|| StoreError::not_found(Entity::Project, project))?;
                let id = ConversationId::new();
                let t = now();
                tx.execute(
                    "INSERT INTO conversations (id, project_key, display_name, created_at, updated_at) \
                     VALUES (?1, ?2, ?3, ?4, ?4)",
                    params![id.as_bytes(), project_key, name, t],
                )
                .map_err(map_err)?;
                let conv_key = tx.last_insert_rowid();
                tx.execute(
                    "INSERT INTO threads (id, conversation_key, origin, created_at, updated_at) \
                     VALUES (?1, ?2, ?3, ?4, ?4)",
                    params![
                        ThreadId::new().as_bytes(),
                        conv_key,
                        serde_json::to_string(&ThreadOrigin::Initial)?,
                        t
                    ],
                )
                .map_err(map_err)?;
                touch_conversation(tx, conv_key, Some(tx.last_insert_rowid()))?;
                load_conversation(tx, id)
            })
        })
        .await
    }

    async fn conversation(&self, id: ConversationId) -> Result<Conversation> {
        self.run(move |pool| pool.read(|tx| load_conversation(tx, id)))
            .await
    }

    async fn conversations(&self, project: Option<ProjectId>) -> Result<Vec<Conversation>> {
        self.run(move |pool| {
            pool.read(|tx| {
                let sql = format!(
                    "SELECT {} FROM {} WHERE ?1 IS NULL OR p.id = ?1 ORDER BY c.updated_at DESC, c.key DESC",
                    rows::CONVERSATION_COLUMNS,
                    rows::CONVERSATION_FROM
                );
                let mut stmt = tx.prepare_cached(&sql).map_err(map_err)?;
                let mut rows = stmt
                    .query([project.as_ref().map(|p| p.as_bytes())])
                    .map_err(map_err)?;
                let mut out = Vec::new();
                while let Some(row) = rows.next().map_err(map_err)? {
                    out.push(rows::conversation(row)?);
                }
                Ok(out)
            })
        })
        .await
    }

    async fn rename_conversation(&self, id: ConversationId, name: &str) -> Result<Conversation> {
        let name = name.to_owned();
        self.run(move |pool| {
            pool.write(|tx| {
                let changed = tx
                    .execute(
                        "UPDATE conversations SET display_name = ?2, updated_at = ?3 WHERE id = ?1",
                        params![id.as_bytes(), name, now()],
                    )
                    .map_err(map_err)?;
                if changed == 0 {
                    return Err(StoreError::not_found(Entity::Conversation, id));
                }
                load_conversation(tx, id)
            })
        })
        .await
    }

    async fn delete_conversation(&self, id: ConversationId) -> Result<()> {
        self.run(move |pool| {
            pool.write(|tx| {
                let key = conversation_key(tx, id)?;
                for sql in [
                    "DELETE FROM imports WHERE conversation_key = ?1",
                    "DELETE FROM thread_messages WHERE thread_key IN \
                     (SELECT key FROM threads WHERE conversation_key = ?1)",
                    "DELETE FROM squash_operation_sources WHERE operation_key IN \
                     (SELECT key FROM squash_operations WHERE conversation_key = ?1)",
                    "DELETE FROM squash_operations WHERE conversation_key = ?1",
                    "DELETE FROM message_tools WHERE conversation_key = ?1",
                    "DELETE FROM messages WHERE conversation_key = ?1",
                    "UPDATE conversations SET current_thread_key = NULL WHERE key = ?1",
                    "UPDATE threads SET original_thread_key = NULL WHERE conversation_key = ?1",
                    "DELETE FROM threads WHERE conversation_key = ?1",
                    "DELETE FROM conversations WHERE key = ?1",
                ] {
                    tx.execute(sql, [key]).map_err(map_err)?;
                }
                Ok(())
            })
        })
        .await
    }

    async fn append(&self, message: &Message) -> Result<Appended> {
        let message = message.clone();
        self.run(move |pool| {
            pool.write(|tx| {
                let Current {
                    conversation_key: conv_key,
                    thread_key,
                    thread_id,
                    ..
                } = current_of(tx, message.conversation_id)?;
                let msg_key = insert_message(tx, conv_key, &message)?;
                let (count, revision): (i64, i64) = tx
                    .prepare_cached(
                        "UPDATE threads SET revision = revision + 1, message_count = message_count + 1, \
                         updated_at = ?2 WHERE key = ?1 RETURNING message_count, revision",
                    )
                    .and_then(|mut s| {
                        s.query_row(params![thread_key, now()], |r| Ok((r.get(0)?, r.get(1)?)))
                    })
                    .map_err(map_err)?;
                let position = (count - 1) as usize;
                insert_links(tx, thread_key, &[msg_key], position)?;
                touch_conversation(tx, conv_key, None)?;
                Ok(Appended {
                    thread_id,
                    position: position as u64,
                    revision: revision as u64,
                })
            })
        })
        .await
    }

    async fn commit(&self, commit: &Commit) -> Result<Thread> {
        let commit = commit.clone();
        self.run(move |pool| pool.write(|tx| commit_in(tx, &commit)))
            .await
    }

    async fn switch_thread(
        &self,
        conversation: ConversationId,
        to: ThreadId,
        expected: ThreadId,
    ) -> Result<Conversation> {
        self.run(move |pool| {
            pool.write(|tx| {
                let now_current = current_of(tx, conversation)?;
                let conv_key = now_current.conversation_key;
                if now_current.thread_id != expected {
                    return Err(StoreError::Conflict {
                        current: now_current.thread_id,
                        revision: now_current.revision,
                    });
                }
                let (to_key, to_conv) = thread_key(tx, to)?;
                if to_conv != conv_key {
                    return Err(StoreError::not_found(Entity::Thread, to));
                }
                touch_conversation(tx, conv_key, Some(to_key))?;
                load_conversation(tx, conversation)
            })
        })
        .await
    }

    async fn switch_relative(
        &self,
        conversation: ConversationId,
        direction: Direction,
    ) -> Result<Option<Conversation>> {
        self.run(move |pool| {
            pool.write(|tx| {
                let current = current_of(tx, conversation)?;
                let sql = match direction {
                    Direction::Back => "SELECT original_thread_key FROM threads WHERE key = ?1",
                    // `threads_by_original`; keys grow with creation: the highest is the newest.
                    Direction::Forward => {
                        "SELECT key FROM threads WHERE original_thread_key = ?1 \
                         ORDER BY key DESC LIMIT 1"
                    }
                };
                let target: Option<i64> = tx
                    .prepare_cached(sql)
                    .and_then(|mut s| s.query_row([current.thread_key], |r| r.get(0)).optional())
                    .map_err(map_err)?
                    .flatten();
                match target {
                    None => Ok(None),
                    Some(key) => {
                        touch_conversation(tx, current.conversation_key, Some(key))?;
                        load_conversation(tx, conversation).map(Some)
                    }
                }
            })
        })
        .await
    }

    async fn thread(&self, id: ThreadId) -> Result<ThreadSnapshot> {
        self.run(move |pool| {
            pool.read(|tx| {
                let (key, _) = thread_key(tx, id)?;
                snapshot(tx, key)
            })
        })
        .await
    }

    async fn current_thread(&self, conversation: ConversationId) -> Result<ThreadSnapshot> {
        self.run(move |pool| pool.read(|tx| snapshot(tx, current_of(tx, conversation)?.thread_key)))
            .await
    }

    async fn threads(&self, conversation: ConversationId) -> Result<Vec<Thread>> {
        self.run(move |pool| {
            pool.read(|tx| {
                let conv_key = conversation_key(tx, conversation)?;
                let sql = format!(
                    "SELECT {} FROM {} WHERE t.conversation_key = ?1 ORDER BY t.key",
                    rows::THREAD_COLUMNS,
                    rows::THREAD_FROM
                );
                let mut stmt = tx.prepare_cached(&sql).map_err(map_err)?;
                let mut rows = stmt.query([conv_key]).map_err(map_err)?;
                let mut out = Vec::new();
                while let Some(row) = rows.next().map_err(map_err)? {
                    out.push(rows::thread(row)?);
                }
                Ok(out)
            })
        })
        .await
    }

    async fn thread_header(&self, id: ThreadId) -> Result<Thread> {
        self.run(move |pool| {
            pool.read(|tx| {
                let (key, _) = thread_key(tx, id)?;
                load_thread(tx, key)
            })
        })
        .await
    }

    async fn current_thread_header(&self, conversation: ConversationId) -> Result<Thread> {
        self.run(move |pool| {
            pool.read(|tx| load_thread(tx, current_of(tx, conversation)?.thread_key))
        })
        .await
    }

    async fn latest_derived_thread(&self, thread: ThreadId) -> Result<Option<Thread>> {
        self.run(move |pool| {
            pool.read(|tx| {
                let (key, _) = thread_key(tx, thread)?;
                // `threads_by_original` serves this; keys grow with creation, so the highest
                // is the most recent.
                let child: Option<i64> = tx
                    .prepare_cached(
                        "SELECT key FROM threads WHERE original_thread_key = ?1 \
                         ORDER BY key DESC LIMIT 1",
                    )
                    .and_then(|mut s| s.query_row([key], |r| r.get(0)).optional())
                    .map_err(map_err)?;
                child.map(|k| load_thread(tx, k)).transpose()
            })
        })
        .await
    }

    async fn message(&self, id: MessageId) -> Result<Message> {
        self.messages(&[id])
            .await?
            .pop()
            .ok_or_else(|| StoreError::not_found(Entity::Message, id))
    }

    async fn messages(&self, ids: &[MessageId]) -> Result<Vec<Message>> {
        let ids = ids.to_vec();
        self.run(move |pool| {
            pool.read(|tx| {
                let tail =
                    "messages m JOIN conversations c ON c.key = m.conversation_key WHERE m.id = ?1";
                ids.iter()
                    .map(|id| {
                        load_messages(tx, tail, &id.as_bytes().as_slice())?
                            .pop()
                            .ok_or_else(|| StoreError::not_found(Entity::Message, id))
                    })
                    .collect()
            })
        })
        .await
    }

    async fn thread_messages(&self, thread: ThreadId) -> Result<Vec<Message>> {
        self.run(move |pool| {
            pool.read(|tx| {
                let (key, _) = thread_key(tx, thread)?;
                load_messages(
                    tx,
                    "thread_messages tm JOIN messages m ON m.key = tm.message_key \
                     JOIN conversations c ON c.key = m.conversation_key \
                     WHERE tm.thread_key = ?1 ORDER BY tm.position",
                    &key,
                )
            })
        })
        .await
    }

    async fn all_messages(&self, conversation: ConversationId) -> Result<Vec<Message>> {
        self.run(move |pool| {
            pool.read(|tx| {
                let key = conversation_key(tx, conversation)?;
                load_messages(
                    tx,
                    "messages m JOIN conversations c ON c.key = m.conversation_key \
                     WHERE m.conversation_key = ?1 ORDER BY m.key",
                    &key,
                )
            })
        })
        .await
    }

    async fn message_ids_with_prefix(
        &self,
        conversation: Option<ConversationId>,
        prefix: &str,
    ) -> Result<Vec<MessageId>> {
        let prefix = prefix.to_owned();
        self.run(move |pool| {
            pool.read(|tx| {
                let found = prefix_query(
                    tx,
                    "SELECT id FROM messages WHERE hex(id) LIKE ?1 LIMIT 20",
                    &prefix,
                )?;
                let ids: Vec<MessageId> = found.into_iter().map(Into::into).collect();
                match conversation {
                    None => Ok(ids),
                    Some(conv) => {
                        let key = conversation_key(tx, conv)?;
                        let mut out = Vec::new();
                        for id in ids {
                            if message_key(tx, key, id).is_ok() {
                                out.push(id);
                            }
                        }
                        Ok(out)
                    }
                }
            })
        })
        .await
    }

    async fn conversation_ids_with_prefix(&self, prefix: &str) -> Result<Vec<ConversationId>> {
        let prefix = prefix.to_owned();
        self.run(move |pool| {
            pool.read(|tx| {
                Ok(prefix_query(
                    tx,
                    "SELECT id FROM conversations WHERE hex(id) LIKE ?1 LIMIT 20",
                    &prefix,
                )?
                .into_iter()
                .map(Into::into)
                .collect())
            })
        })
        .await
    }

    async fn tool_refs_closure(
        &self,
        conversation: ConversationId,
        seed: &[MessageId],
    ) -> Result<HashMap<MessageId, ToolRefs>> {
        let seed = seed.to_vec();
        self.run(move |pool| pool.read(|tx| tool_closure(tx, conversation, &seed)))
            .await
    }

    async fn operation(&self, id: SquashOperationId) -> Result<SquashOperation> {
        self.run(move |pool| {
            pool.read(|tx| {
                load_operations(tx, "o.id = ?1", &id.as_bytes().as_slice())?
                    .pop()
                    .ok_or_else(|| StoreError::not_found(Entity::Operation, id))
            })
        })
        .await
    }

    async fn operation_ids_with_prefix(&self, prefix: &str) -> Result<Vec<SquashOperationId>> {
        let prefix = prefix.to_owned();
        self.run(move |pool| {
            pool.read(|tx| {
                Ok(prefix_query(
                    tx,
                    "SELECT id FROM squash_operations WHERE hex(id) LIKE ?1 LIMIT 20",
                    &prefix,
                )?
                .into_iter()
                .map(Into::into)
                .collect())
            })
        })
        .await
    }

    async fn operations(&self, conversation: ConversationId) -> Result<Vec<SquashOperation>> {
        self.run(move |pool| {
            pool.read(|tx| {
                let key = conversation_key(tx, conversation)?;
                load_operations(tx, "o.conversation_key = ?1", &key)
            })
        })
        .await
    }

    async fn stats(&self) -> Result<StoreStats> {
        self.run(|pool| {
            pool.read(|tx| {
                let count = |table: &str| -> Result<u64> {
                    tx.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| {
                        r.get::<_, i64>(0)
                    })
                    .map(|n| n as u64)
                    .map_err(map_err)
                };
                let pages: i64 = tx
                    .query_row("PRAGMA page_count", [], |r| r.get(0))
                    .map_err(map_err)?;
                let page_size: i64 = tx
                    .query_row("PRAGMA page_size", [], |r| r.get(0))
                    .map_err(map_err)?;
                Ok(StoreStats {
                    conversations: count("conversations")?,
                    threads: count("threads")?,
                    messages: count("messages")?,
                    thread_links: count("thread_messages")?,
                    operations: count("squash_operations")?,
                    bytes: (pages * page_size) as u64,
                })
            })
        })
        .await
    }

    async fn import_conversation(&self, batch: ImportBatch) -> Result<ImportOutcome> {
        self.run(move |pool| pool.write(|tx| import::import_conversation(tx, &batch)))
            .await
    }

    async fn import_append(&self, append: ImportAppend) -> Result<Appended> {
        self.run(move |pool| pool.write(|tx| import::import_append(tx, &append)))
            .await
    }

    async fn import_record(&self, source_key: &str) -> Result<Option<ImportRecord>> {
        let key = source_key.to_owned();
        self.run(move |pool| pool.read(|tx| import::import_record(tx, &key)))
            .await
    }

    async fn import_records_of(&self, conversation: ConversationId) -> Result<Vec<ImportRecord>> {
        self.run(move |pool| pool.read(|tx| import::import_records_of(tx, conversation)))
            .await
    }
}

fn commit_in(tx: &Transaction<'_>, c: &Commit) -> Result<Thread> {
    let base = current_of(tx, c.conversation_id)?;
    if base.thread_id != c.base_thread_id || base.revision != c.base_revision {
        return Err(StoreError::Conflict {
            current: base.thread_id,
            revision: base.revision,
        });
    }
    let conv_key = base.conversation_key;
    let message_count = match &c.links {
        NewLinks::List(links) => links.len() as u64,
        NewLinks::Edit(edit) => {
            if edit.replaced.is_some() && c.message.is_none() {
                return Err(StoreError::Invalid(
                    "a replaced position needs the commit's message".into(),
                ));
            }
            edit.new_count(base.message_count)?
        }
    };
    let new_message_key = match &c.message {
        Some(m) => {
            if m.conversation_id != c.conversation_id {
                return Err(StoreError::Invalid(format!(
                    "message {} belongs to another conversation",
                    m.id
                )));
            }
            Some(insert_message(tx, conv_key, m)?)
        }
        None => None,
    };
    let t = now();
    let origin = serde_json::to_string(&c.origin)?;
    tx.prepare_cached(
        "INSERT INTO threads (id, conversation_key, original_thread_key, origin, revision, \
         message_count, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?6)",
    )
    .and_then(|mut s| {
        s.execute(params![
            c.thread_id.as_bytes(),
            conv_key,
            base.thread_key,
            origin,
            message_count as i64,
            t
        ])
    })
    .map_err(map_err)?;
    let thread_key = tx.last_insert_rowid();
    // Ids the operation's sources resolve through without an index lookup each.
    let mut keys = HashMap::new();
    if let (Some(m), Some(k)) = (&c.message, new_message_key) {
        keys.insert(m.id, k);
    }
    match &c.links {
        NewLinks::List(links) => {
            keys.extend(link_keys(tx, base.thread_key)?);
            let link_keys: Vec<i64> = links
                .iter()
                .map(|id| match keys.get(id) {
                    Some(k) => Ok(*k),
                    None => message_key(tx, conv_key, *id).map_err(|_| {
                        StoreError::Invalid(format!("message {id} is not in this conversation"))
                    }),
                })
                .collect::<Result<_>>()?;
            insert_links(tx, thread_key, &link_keys, 0)?;
        }
        NewLinks::Edit(edit) => {
            let written = cow::copy_edited_links(
                tx,
                thread_key,
                base.thread_key,
                base.message_count,
                edit,
                new_message_key,
            )?;
            if written != message_count {
                return Err(StoreError::Corrupt(format!(
                    "thread {} has {written} of its {} links",
                    base.thread_id, base.message_count
                )));
            }
        }
    }
    if let Some(op) = &c.operation {
        let result_key = match new_message_key {
            Some(k) if c.message.as_ref().map(|m| m.id) == Some(op.result_message_id) => k,
            _ => message_key(tx, conv_key, op.result_message_id)?,
        };
        insert_operation(tx, conv_key, op, result_key, thread_key, c.thread_id, &keys)?;
    }
    touch_conversation(tx, conv_key, Some(thread_key))?;
    load_thread(tx, thread_key)
}

fn tool_closure(
    tx: &Transaction<'_>,
    conversation: ConversationId,
    seed: &[MessageId],
) -> Result<RefsByMessage> {
    let conv_key = conversation_key(tx, conversation)?;
    let mut by_key_stmt = tx
        .prepare_cached(
            "SELECT tool_use_id, is_result FROM message_tools WHERE message_key = ?1 \
             AND conversation_key = ?2",
        )
        .map_err(map_err)?;
    let mut holders_stmt = tx
        .prepare_cached(
            "SELECT mt.message_key, m.id FROM message_tools mt JOIN messages m ON m.key = mt.message_key \
             WHERE mt.conversation_key = ?1 AND mt.tool_use_id = ?2",
        )
        .map_err(map_err)?;
    let mut out: RefsByMessage = HashMap::new();
    let mut seen_tools: HashSet<String> = HashSet::new();
    let mut queue: Vec<(i64, MessageId)> = seed
        .iter()
        .map(|id| Ok((message_key(tx, conv_key, *id)?, *id)))
        .collect::<Result<_>>()?;
    while let Some((key, id)) = queue.pop() {
        if out.contains_key(&id) {
            continue;
        }
        let mut refs = ToolRefs::default();
        let mut rows = by_key_stmt.query(params![key, conv_key]).map_err(map_err)?;
        while let Some(row) = rows.next().map_err(map_err)? {
            let tool: String = col(row, 0)?;
            let is_result: i64 = col(row, 1)?;
            if is_result == 0 {
                refs.calls.push(tool);
            } else {
                refs.results.push(tool);
            }
        }
        drop(rows);
        for tool in refs.calls.iter().chain(refs.results.iter()) {
            if !seen_tools.insert(tool.clone()) {
                continue;
            }
            let mut rows = holders_stmt
                .query(params![conv_key, tool])
                .map_err(map_err)?;
            while let Some(row) = rows.next().map_err(map_err)? {
                let bytes: Vec<u8> = col(row, 1)?;
                queue.push((col(row, 0)?, rows::uuid(&bytes)?.into()));
            }
        }
        out.insert(id, refs);
    }
    Ok(out)
}
