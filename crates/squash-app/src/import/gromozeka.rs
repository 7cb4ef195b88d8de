//! Gromozeka databases (`gromozeka.db`, SQLite): projects, conversations, threads,
//! thread_messages, messages and squash_operations, read through a read-only connection.
//!
//! `messages.message_json` is a kotlinx-serialization document: class discriminator `type`;
//! user text items are `Message`, assistant text `IntermediateMessage`, the other items carry
//! their fully qualified class name (whose package moved between releases, so only the last
//! segment counts); fields at their default are omitted. Every conversation comes with all its
//! threads (its history). Legacy provenance is converted (the spec's phase 5): a message whose
//! `originalIds` lists two or more sources becomes the result of a manual squash operation, one
//! source an edit — unless a `squash_operations` row already records it; those rows are kept.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use chrono::{DateTime, Local, NaiveDateTime, SubsecRound, TimeZone, Utc};
pub use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, OpenFlags};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use squash_core::{
    ContentItem, ConversationId, ImageSource, Instruction, InstructionSource, Message, MessageId,
    Role, SquashOperation, SquashOperationId, StructuredText, SystemLevel, ThreadId, ThreadOrigin,
    ToolResultData,
};
use squash_store::ImportThread;
use thiserror::Error;

use super::{
    hex_digest, parse_time, title_from, ImportError, ImportFormat, ImportedConversation, Parsed,
    SOURCE_ID_KEY,
};

pub const META_KEY: &str = "gromozeka";

#[derive(Debug, Error, PartialEq, Eq)]
pub enum GromozekaError {
    #[error("invalid JSON: {0}")]
    Json(String),
    #[error("the message document is not a JSON object")]
    NotAnObject,
    #[error("the message has no content array")]
    NoContent,
}

/// One `message_json` document, converted.
#[derive(Clone, Debug, PartialEq)]
pub struct GromozekaMessage {
    pub id: Option<String>,
    pub role: Option<Role>,
    pub content: Vec<ContentItem>,
    pub instructions: Vec<Instruction>,
    /// Legacy provenance: the messages this one replaced.
    pub original_ids: Vec<String>,
    pub squash_operation_id: Option<String>,
    pub reply_to: Option<String>,
    pub created_at: Option<DateTime<Utc>>,
    /// The document without its content, kept for a lossless export.
    pub rest: Value,
}

/// The class name's last segment: `com.gromozeka.domain.model.Conversation.Message.ContentItem.ToolCall` → `ToolCall`.
fn kind(item: &Value) -> &str {
    item.get("type")
        .and_then(Value::as_str)
        .map(|t| t.rsplit('.').next().unwrap_or(t))
        .unwrap_or("")
}

/// An id as kotlinx writes a value class (a plain string) or, defensively, `{"value": …}`.
fn id_string(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("value").and_then(Value::as_str).map(str::to_owned),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn text(item: &Value, key: &str) -> Option<String> {
    item.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn role(value: Option<&Value>) -> Option<Role> {
    match value?.as_str()?.to_ascii_lowercase().as_str() {
        "user" => Some(Role::User),
        "assistant" => Some(Role::Assistant),
        "system" => Some(Role::System),
        _ => None,
    }
}

fn media_type(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => Some(format!(
            "{}/{}",
            o.get("type")
                .and_then(Value::as_str)
                .unwrap_or("application"),
            o.get("subtype")
                .and_then(Value::as_str)
                .unwrap_or("octet-stream")
        )),
        _ => None,
    }
}

fn result_data(data: &Value) -> ToolResultData {
    match kind(data) {
        "Text" => ToolResultData::Text {
            text: text(data, "content")
                .or_else(|| text(data, "text"))
                .unwrap_or_default(),
        },
        "Base64Data" => ToolResultData::Base64 {
            media_type: media_type(data.get("mediaType")).unwrap_or_default(),
            data: text(data, "data").unwrap_or_default(),
        },
        "UrlData" => ToolResultData::Url {
            url: text(data, "url").unwrap_or_default(),
        },
        "FileData" => ToolResultData::File {
            path: text(data, "fileId").unwrap_or_default(),
            media_type: media_type(data.get("mediaType")),
        },
        _ => ToolResultData::Text {
            text: match data {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            },
        },
    }
}

fn image_source(source: &Value) -> Option<ImageSource> {
    match source
        .get("type")
        .and_then(Value::as_str)
        .map(|t| t.rsplit('.').next().unwrap_or(t))
    {
        Some("base64" | "Base64ImageSource") => Some(ImageSource::Base64 {
            media_type: text(source, "media_type").or_else(|| text(source, "mediaType"))?,
            data: text(source, "data")?,
        }),
        Some("url" | "UrlImageSource") => Some(ImageSource::Url {
            url: text(source, "url")?,
        }),
        Some("file" | "FileImageSource") => Some(ImageSource::File {
            path: text(source, "file_id").or_else(|| text(source, "fileId"))?,
        }),
        _ => None,
    }
}

/// One content item; anything unrecognised is kept verbatim as unknown content.
pub fn content_item(item: &Value) -> ContentItem {
    let unknown = || ContentItem::UnknownJson { json: item.clone() };
    match kind(item) {
        "Message" | "UserMessage" => match text(item, "text") {
            Some(text) => ContentItem::UserMessage { text },
            None => unknown(),
        },
        "IntermediateMessage" | "AssistantMessage" => {
            let Some(structured) = item.get("structured") else {
                return unknown();
            };
            ContentItem::AssistantMessage {
                structured: StructuredText {
                    full_text: text(structured, "fullText").unwrap_or_default(),
                    tts_text: text(structured, "ttsText"),
                    voice_tone: text(structured, "voiceTone"),
                    failed_to_parse: structured
                        .get("failedToParse")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                },
            }
        }
        "ToolCall" => {
            let call = item.get("call");
            match (
                id_string(item.get("id")),
                call.and_then(|c| text(c, "name")),
            ) {
                (Some(id), Some(name)) => ContentItem::ToolCall {
                    id,
                    name,
                    input: call
                        .and_then(|c| c.get("input"))
                        .cloned()
                        .unwrap_or(Value::Null),
                },
                _ => unknown(),
            }
        }
        "ToolResult" => match id_string(item.get("toolUseId")) {
            Some(tool_use_id) => ContentItem::ToolResult {
                tool_use_id,
                tool_name: text(item, "toolName").unwrap_or_default(),
                result: match item.get("result") {
                    Some(Value::Array(list)) => list.iter().map(result_data).collect(),
                    Some(Value::Null) | None => Vec::new(),
                    Some(other) => vec![result_data(other)],
                },
                is_error: item
                    .get("isError")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            },
            None => unknown(),
        },
        "Thinking" => ContentItem::Thinking {
            signature: text(item, "signature").unwrap_or_default(),
            thinking: text(item, "thinking").unwrap_or_default(),
        },
        "System" => ContentItem::System {
            level: match item.get("level").and_then(Value::as_str) {
                Some("WARNING") => SystemLevel::Warning,
                Some("ERROR") => SystemLevel::Error,
                _ => SystemLevel::Info,
            },
            content: text(item, "content").unwrap_or_default(),
            tool_use_id: id_string(item.get("toolUseId")),
        },
        "ImageItem" => match item.get("source").and_then(image_source) {
            Some(source) => ContentItem::Image { source },
            None => unknown(),
        },
        "UnknownJson" => ContentItem::UnknownJson {
            json: item.get("json").cloned().unwrap_or(Value::Null),
        },
        _ => unknown(),
    }
}

fn instruction(value: &Value) -> Option<Instruction> {
    match kind(value) {
        "UserInstruction" => Some(Instruction::UserInstruction {
            id: text(value, "id").unwrap_or_default(),
            title: text(value, "title").unwrap_or_default(),
            description: text(value, "description").unwrap_or_default(),
        }),
        "ResponseExpected" => Some(Instruction::ResponseExpected),
        "user" | "User" => Some(Instruction::Source {
            source: InstructionSource::User,
        }),
        "agent" | "Agent" => Some(Instruction::Source {
            source: InstructionSource::Agent,
        }),
        _ => None,
    }
}

/// Parses one `message_json` document.
pub fn parse_message_json(text_: &str) -> Result<GromozekaMessage, GromozekaError> {
    let doc: Value =
        serde_json::from_str(text_).map_err(|e| GromozekaError::Json(e.to_string()))?;
    let Value::Object(mut doc) = doc else {
        return Err(GromozekaError::NotAnObject);
    };
    let content = match doc.remove("content") {
        Some(Value::Array(items)) => items.iter().map(content_item).collect(),
        _ => return Err(GromozekaError::NoContent),
    };
    let instructions = doc
        .get("instructions")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(instruction).collect())
        .unwrap_or_default();
    let original_ids = doc
        .get("originalIds")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(|v| id_string(Some(v))).collect())
        .unwrap_or_default();
    Ok(GromozekaMessage {
        id: id_string(doc.get("id")),
        role: role(doc.get("role")),
        content,
        instructions,
        original_ids,
        squash_operation_id: id_string(doc.get("squashOperationId")),
        reply_to: id_string(doc.get("replyTo")),
        created_at: parse_time(doc.get("createdAt")),
        rest: Value::Object(doc),
    })
}

/// A `created_at` column: integers (epoch seconds, milliseconds or microseconds, told apart by
/// size), RFC 3339 text, or local-time text like `2025-11-02 15:32:01.123` (read in this
/// machine's time zone, as the app that wrote it would have).
pub fn column_time(value: &SqlValue) -> Option<DateTime<Utc>> {
    fn from_number(n: i64) -> Option<DateTime<Utc>> {
        let abs = n.unsigned_abs();
        if abs >= 100_000_000_000_000 {
            DateTime::from_timestamp_micros(n)
        } else if abs >= 100_000_000_000 {
            DateTime::from_timestamp_millis(n)
        } else {
            DateTime::from_timestamp(n, 0)
        }
    }
    let t = match value {
        SqlValue::Integer(n) => from_number(*n),
        SqlValue::Real(f) => DateTime::from_timestamp_micros((*f * 1_000_000.0) as i64),
        SqlValue::Text(s) => {
            let s = s.trim();
            if let Ok(n) = s.parse::<i64>() {
                from_number(n)
            } else if let Some(t) = parse_time(Some(&Value::String(s.to_owned()))) {
                Some(t)
            } else {
                [
                    "%Y-%m-%d %H:%M:%S%.f",
                    "%Y-%m-%dT%H:%M:%S%.f",
                    "%Y-%m-%d %H:%M",
                ]
                .iter()
                .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
                .and_then(|naive| Local.from_local_datetime(&naive).earliest())
                .map(|t| t.with_timezone(&Utc))
            }
        }
        _ => None,
    };
    t.map(|t| t.trunc_subsecs(6))
}

fn sql_text(value: &SqlValue) -> Option<String> {
    match value {
        SqlValue::Text(s) => Some(s.clone()),
        SqlValue::Integer(n) => Some(n.to_string()),
        SqlValue::Real(f) => Some(f.to_string()),
        SqlValue::Blob(b) => String::from_utf8(b.clone()).ok(),
        SqlValue::Null => None,
    }
}

fn sql_bool(value: &SqlValue) -> bool {
    match value {
        SqlValue::Integer(n) => *n != 0,
        SqlValue::Text(s) => matches!(s.to_ascii_lowercase().as_str(), "1" | "true" | "t"),
        _ => false,
    }
}

/// A table's columns, by name.
struct Table {
    columns: HashSet<String>,
}

impl Table {
    fn read(conn: &Connection, name: &str) -> Option<Table> {
        let mut stmt = conn
            .prepare(&format!("PRAGMA table_info(\"{name}\")"))
            .ok()?;
        let columns: HashSet<String> = stmt
            .query_map([], |r| r.get::<_, String>(1))
            .ok()?
            .filter_map(Result::ok)
            .collect();
        (!columns.is_empty()).then_some(Table { columns })
    }

    /// `col` if the table has it, else `NULL` — so that one query fits every schema version.
    fn col(&self, name: &str) -> String {
        if self.columns.contains(name) {
            format!("\"{name}\"")
        } else {
            "NULL".to_owned()
        }
    }
}

type Row = Vec<SqlValue>;

fn query(conn: &Connection, sql: &str, param: Option<&str>) -> rusqlite::Result<Vec<Row>> {
    let mut stmt = conn.prepare(sql)?;
    let n = stmt.column_count();
    let map = |r: &rusqlite::Row<'_>| (0..n).map(|i| r.get::<_, SqlValue>(i)).collect();
    let rows = match param {
        Some(p) => stmt.query_map([p], map)?.collect(),
        None => stmt.query_map([], map)?.collect(),
    };
    rows
}

fn open(path: &Path) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(path, flags)?;
    // A database whose WAL cannot be read without write access (or that another process holds)
    // still opens as an immutable file.
    match conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
        r.get::<_, i64>(0)
    }) {
        Ok(_) => Ok(conn),
        Err(_) => {
            let uri = format!("file:{}?immutable=1", path.display());
            Connection::open_with_flags(uri, flags)
        }
    }
}

/// Reads every conversation of a Gromozeka database.
pub fn read_database(
    path: &Path,
    source_name: &str,
    now: DateTime<Utc>,
) -> Result<Parsed, ImportError> {
    let db_error = |e: rusqlite::Error| ImportError::Database {
        source_name: source_name.to_owned(),
        reason: e.to_string(),
    };
    let conn = open(path).map_err(db_error)?;
    let tables = Tables::read(&conn).map_err(|reason| ImportError::Database {
        source_name: source_name.to_owned(),
        reason,
    })?;
    let projects: HashMap<String, String> = match &tables.projects {
        Some(p) if p.columns.contains("path") => {
            query(&conn, "SELECT id, path FROM projects", None)
                .map_err(db_error)?
                .into_iter()
                .filter_map(|r| Some((sql_text(&r[0])?, sql_text(&r[1])?)))
                .collect()
        }
        _ => HashMap::new(),
    };
    let c = &tables.conversations;
    let conversations = query(
        &conn,
        &format!(
            "SELECT id, {}, {}, {}, {}, {}, {}, {} FROM conversations ORDER BY rowid",
            c.col("project_id"),
            c.col("display_name"),
            c.col("current_thread_id"),
            c.col("created_at"),
            c.col("updated_at"),
            c.col("ai_provider"),
            c.col("model_name"),
        ),
        None,
    )
    .map_err(db_error)?;
    let mut parsed = Parsed::default();
    for row in conversations {
        let Some(id) = sql_text(&row[0]) else {
            parsed.skip(source_name, None, "a conversation row without id");
            continue;
        };
        let reader = ConversationReader {
            conn: &conn,
            tables: &tables,
            source_name,
            now,
            gid: id.clone(),
        };
        match reader.read(&row, &projects, &mut parsed) {
            Ok(conv) => parsed.conversations.push(conv),
            Err(e) => parsed.skip(source_name, None, format!("conversation {id}: {e}")),
        }
    }
    Ok(parsed)
}

struct Tables {
    projects: Option<Table>,
    conversations: Table,
    threads: Option<Table>,
    links: Option<Table>,
    messages: Table,
    operations: Option<Table>,
}

impl Tables {
    fn read(conn: &Connection) -> Result<Tables, String> {
        let required =
            |name: &str| Table::read(conn, name).ok_or_else(|| format!("no \"{name}\" table"));
        let tables = Tables {
            projects: Table::read(conn, "projects"),
            conversations: required("conversations")?,
            threads: Table::read(conn, "threads"),
            links: Table::read(conn, "thread_messages"),
            messages: required("messages")?,
            operations: Table::read(conn, "squash_operations"),
        };
        // Other SQLite files have tables of these names too (ours does): the columns tell.
        for (table, column) in [
            (&tables.messages, "message_json"),
            (&tables.messages, "conversation_id"),
            (&tables.conversations, "id"),
        ] {
            if !table.columns.contains(column) {
                return Err(format!("no \"{column}\" column: not a Gromozeka schema"));
            }
        }
        Ok(tables)
    }
}

struct ConversationReader<'a> {
    conn: &'a Connection,
    tables: &'a Tables,
    source_name: &'a str,
    now: DateTime<Utc>,
    gid: String,
}

/// A stored thread, before its origin is known.
struct RawThread {
    gid: String,
    original: Option<String>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    links: Vec<MessageId>,
}

impl ConversationReader<'_> {
    fn rows(&self, sql: &str) -> Result<Vec<Row>, String> {
        query(self.conn, sql, Some(&self.gid)).map_err(|e| e.to_string())
    }

    fn read(
        &self,
        row: &Row,
        projects: &HashMap<String, String>,
        parsed: &mut Parsed,
    ) -> Result<ImportedConversation, String> {
        let mut hash = Sha256::new();
        let mut feed = |v: &SqlValue| {
            hash.update(sql_text(v).unwrap_or_default().as_bytes());
            hash.update([0u8]);
        };
        row.iter().for_each(&mut feed);
        let conversation_id = ConversationId::new();
        let created_at = column_time(&row[4]).unwrap_or(self.now);
        let updated_at = column_time(&row[5]).unwrap_or(created_at).max(created_at);
        let warn = |parsed: &mut Parsed, what: String| {
            parsed.warnings.push(format!(
                "{}: conversation {}: {what}",
                self.source_name, self.gid
            ));
        };

        // Messages, in the order they were stored.
        let m = &self.tables.messages;
        let message_rows = self.rows(&format!(
            "SELECT id, message_json, {}, {}, {} FROM messages WHERE conversation_id = ?1 ORDER BY rowid",
            m.col("created_at"),
            m.col("original_ids_json"),
            m.col("role"),
        ))?;
        let mut messages: Vec<Message> = Vec::with_capacity(message_rows.len());
        let mut ids: HashMap<String, MessageId> = HashMap::new();
        let mut legacy: Vec<(usize, Vec<String>)> = Vec::new();
        let mut claimed_ops: HashMap<usize, String> = HashMap::new();
        for r in &message_rows {
            r.iter().for_each(&mut feed);
            let gid = sql_text(&r[0]).unwrap_or_default();
            let json_text = sql_text(&r[1]).unwrap_or_default();
            let id = MessageId::new();
            let (role, content, instructions, original_ids, op, created, rest) =
                match parse_message_json(&json_text) {
                    Ok(g) => (
                        g.role,
                        g.content,
                        g.instructions,
                        g.original_ids,
                        g.squash_operation_id,
                        g.created_at,
                        g.rest,
                    ),
                    Err(e) => {
                        warn(
                            parsed,
                            format!("message {gid}: {e}; kept as unknown content"),
                        );
                        let raw = serde_json::from_str(&json_text)
                            .unwrap_or(Value::String(json_text.clone()));
                        (
                            None,
                            vec![ContentItem::UnknownJson { json: raw }],
                            Vec::new(),
                            Vec::new(),
                            None,
                            None,
                            Value::Null,
                        )
                    }
                };
            let original_ids = if original_ids.is_empty() {
                sql_text(&r[3])
                    .and_then(|t| serde_json::from_str::<Vec<Value>>(&t).ok())
                    .map(|l| l.iter().filter_map(|v| id_string(Some(v))).collect())
                    .unwrap_or_default()
            } else {
                original_ids
            };
            let index = messages.len();
            if !original_ids.is_empty() {
                legacy.push((index, original_ids));
            }
            if let Some(op) = op {
                claimed_ops.insert(index, op);
            }
            let role = role.or_else(|| role_column(&r[4])).unwrap_or(Role::User);
            messages.push(Message {
                id,
                conversation_id,
                squash_operation_id: None,
                reply_to: None,
                role,
                content,
                instructions,
                metadata: Some(json!({SOURCE_ID_KEY: gid, META_KEY: {"json": rest}})),
                created_at: created.or_else(|| column_time(&r[2])).unwrap_or(created_at),
            });
            ids.insert(gid, id);
        }
        // replyTo can point forward; resolve once every id is known.
        for msg in &mut messages {
            let reply = msg
                .metadata
                .as_ref()
                .and_then(|m| m[META_KEY]["json"].get("replyTo"))
                .and_then(|v| id_string(Some(v)));
            msg.reply_to = reply.and_then(|g| ids.get(&g).copied());
        }

        // Threads, parents first.
        let mut raw_threads = self.threads(&ids, &mut feed, parsed)?;
        if raw_threads.is_empty() {
            raw_threads.push(RawThread {
                gid: String::new(),
                original: None,
                created_at,
                updated_at,
                links: messages.iter().map(|m| m.id).collect(),
            });
        }
        let thread_ids: Vec<ThreadId> = raw_threads.iter().map(|_| ThreadId::new()).collect();
        let thread_index: HashMap<&str, usize> = raw_threads
            .iter()
            .enumerate()
            .map(|(i, t)| (t.gid.as_str(), i))
            .collect();
        let parent_of: Vec<Option<usize>> = raw_threads
            .iter()
            .map(|t| {
                t.original
                    .as_deref()
                    .and_then(|o| thread_index.get(o).copied())
            })
            .collect();
        let index_of: HashMap<MessageId, usize> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| (m.id, i))
            .collect();

        // The thread that introduced a message: it links it and its parent does not.
        let introduced_in = |message: MessageId| -> Option<usize> {
            raw_threads.iter().enumerate().find_map(|(i, t)| {
                let here = t.links.contains(&message);
                let in_parent =
                    parent_of[i].is_some_and(|p| raw_threads[p].links.contains(&message));
                (here && !in_parent && parent_of[i].is_some()).then_some(i)
            })
        };
        let order_in = |thread: Option<usize>, mut sources: Vec<MessageId>| -> Vec<MessageId> {
            sources.sort_by_key(|s| {
                let pos = thread.and_then(|t| raw_threads[t].links.iter().position(|l| l == s));
                (
                    pos.unwrap_or(usize::MAX),
                    index_of.get(s).copied().unwrap_or(usize::MAX),
                )
            });
            sources
        };

        // Recorded operations are kept.
        let mut operations: Vec<SquashOperation> = Vec::new();
        let mut op_gids: HashMap<String, SquashOperationId> = HashMap::new();
        if let Some(o) = &self.tables.operations {
            let rows = self.rows(&format!(
                "SELECT id, {}, {}, {}, {}, {}, {} FROM squash_operations \
                 WHERE conversation_id = ?1 ORDER BY rowid",
                o.col("source_message_ids"),
                o.col("result_message_id"),
                o.col("prompt"),
                o.col("model"),
                o.col("performed_by_agent"),
                o.col("created_at"),
            ))?;
            for r in rows {
                r.iter().for_each(&mut feed);
                let gid = sql_text(&r[0]).unwrap_or_default();
                let sources: Vec<String> = sql_text(&r[1])
                    .and_then(|t| serde_json::from_str::<Vec<Value>>(&t).ok())
                    .map(|l| l.iter().filter_map(|v| id_string(Some(v))).collect())
                    .unwrap_or_default();
                let result = sql_text(&r[2]).and_then(|g| ids.get(&g).copied());
                let mapped: Vec<MessageId> =
                    sources.iter().filter_map(|g| ids.get(g).copied()).collect();
                let Some(result) =
                    result.filter(|_| mapped.len() == sources.len() && !mapped.is_empty())
                else {
                    warn(parsed, format!("squash operation {gid} names messages that are not stored; not imported"));
                    continue;
                };
                let thread = introduced_in(result);
                let op = SquashOperation {
                    id: SquashOperationId::new(),
                    conversation_id,
                    source_message_ids: order_in(thread.and_then(|t| parent_of[t]), mapped),
                    result_message_id: result,
                    prompt: sql_text(&r[3]),
                    model: sql_text(&r[4]),
                    performed_by_agent: sql_bool(&r[5]),
                    performed_by: None,
                    custom_instructions: None,
                    provider: None,
                    base_thread_id: thread.and_then(|t| parent_of[t]).map(|p| thread_ids[p]),
                    result_thread_id: thread.map(|t| thread_ids[t]),
                    usage: None,
                    duration_ms: None,
                    style: None,
                    prompt_style: None,
                    created_at: column_time(&r[6]).unwrap_or(created_at),
                };
                op_gids.insert(gid, op.id);
                if let Some(&i) = index_of.get(&result) {
                    messages[i].squash_operation_id = Some(op.id);
                }
                operations.push(op);
            }
        }
        for (i, gid) in &claimed_ops {
            match op_gids.get(gid) {
                Some(op) => messages[*i].squash_operation_id = Some(*op),
                None if legacy.iter().any(|(j, _)| j == i) => {}
                None => warn(
                    parsed,
                    format!(
                        "message {} names squash operation {gid}, which is not stored",
                        source_of(&messages[*i])
                    ),
                ),
            }
        }

        // Legacy provenance becomes operations (spec phase 5).
        let mut backfilled = 0;
        for (i, originals) in &legacy {
            if messages[*i].squash_operation_id.is_some() {
                continue;
            }
            let mapped: Vec<MessageId> = originals
                .iter()
                .filter_map(|g| ids.get(g).copied())
                .collect();
            if mapped.len() != originals.len() {
                warn(
                    parsed,
                    format!(
                        "message {} lists originalIds that are not stored; {} of {} kept",
                        source_of(&messages[*i]),
                        mapped.len(),
                        originals.len()
                    ),
                );
            }
            if mapped.is_empty() {
                continue;
            }
            let result = messages[*i].id;
            let thread = introduced_in(result);
            let op = SquashOperation {
                id: SquashOperationId::new(),
                conversation_id,
                source_message_ids: order_in(thread.and_then(|t| parent_of[t]), mapped),
                result_message_id: result,
                prompt: None,
                model: None,
                performed_by_agent: false,
                performed_by: None,
                custom_instructions: None,
                provider: None,
                base_thread_id: thread.and_then(|t| parent_of[t]).map(|p| thread_ids[p]),
                result_thread_id: thread.map(|t| thread_ids[t]),
                usage: None,
                duration_ms: None,
                style: None,
                prompt_style: None,
                created_at: messages[*i].created_at,
            };
            messages[*i].squash_operation_id = Some(op.id);
            operations.push(op);
            backfilled += 1;
        }

        // Each derived thread's origin: the operation that produced it, else what it removed.
        let mut threads = Vec::with_capacity(raw_threads.len());
        for (i, t) in raw_threads.iter().enumerate() {
            let origin = match parent_of[i] {
                None => ThreadOrigin::Initial,
                Some(p) => match operations
                    .iter()
                    .find(|o| o.result_thread_id == Some(thread_ids[i]))
                {
                    Some(op) if op.is_edit() => ThreadOrigin::Edit {
                        operation_id: op.id,
                    },
                    Some(op) => ThreadOrigin::Squash {
                        operation_id: op.id,
                    },
                    None => {
                        let kept: HashSet<&MessageId> = t.links.iter().collect();
                        let removed: Vec<MessageId> = raw_threads[p]
                            .links
                            .iter()
                            .filter(|l| !kept.contains(l))
                            .copied()
                            .collect();
                        ThreadOrigin::Delete {
                            message_ids: removed,
                        }
                    }
                },
            };
            threads.push(ImportThread {
                id: thread_ids[i],
                original_thread_id: parent_of[i].map(|p| thread_ids[p]),
                origin,
                revision: 0,
                links: t.links.clone(),
                created_at: t.created_at,
                updated_at: t.updated_at.max(t.created_at),
            });
        }
        let current = sql_text(&row[3])
            .and_then(|g| thread_index.get(g.as_str()).copied())
            .map(|i| thread_ids[i]);
        let current_thread_id = match current {
            Some(id) => id,
            None => {
                if row[3] != SqlValue::Null {
                    warn(
                        parsed,
                        "its current thread is not stored; the newest thread is current".into(),
                    );
                }
                thread_ids[thread_ids.len() - 1]
            }
        };

        let display_name = sql_text(&row[2])
            .filter(|n| !n.trim().is_empty())
            .or_else(|| {
                messages.iter().find_map(|m| match m.content.first() {
                    Some(ContentItem::UserMessage { text }) => title_from(text, 60),
                    _ => None,
                })
            })
            .unwrap_or_else(|| {
                format!(
                    "Gromozeka conversation {}",
                    self.gid.get(..8).unwrap_or(&self.gid)
                )
            });
        let mut thread_map = Map::new();
        for (t, id) in raw_threads.iter().zip(&thread_ids) {
            if !t.gid.is_empty() {
                thread_map.insert(id.to_string(), Value::String(t.gid.clone()));
            }
        }
        let op_map: Map<String, Value> = op_gids
            .iter()
            .map(|(g, id)| (id.to_string(), Value::String(g.clone())))
            .collect();
        Ok(ImportedConversation {
            source_key: format!("gromozeka:{}", self.gid),
            format: ImportFormat::Gromozeka,
            project_path: sql_text(&row[1]).and_then(|p| projects.get(&p).cloned()),
            display_name,
            conversation_id,
            created_at,
            updated_at,
            messages,
            threads,
            current_thread_id,
            operations,
            metadata: Some(json!({META_KEY: {
                "conversation_id": self.gid,
                "project_id": sql_text(&row[1]),
                "ai_provider": sql_text(&row[6]),
                "model_name": sql_text(&row[7]),
                "thread_ids": thread_map,
                "operation_ids": op_map,
            }})),
            content_hash: hex_digest(hash.finalize().as_slice()),
            appendable: false,
            sidechain: false,
            backfilled_operations: backfilled,
        })
    }

    fn threads(
        &self,
        ids: &HashMap<String, MessageId>,
        feed: &mut impl FnMut(&SqlValue),
        parsed: &mut Parsed,
    ) -> Result<Vec<RawThread>, String> {
        let (Some(t), Some(l)) = (&self.tables.threads, &self.tables.links) else {
            return Ok(Vec::new());
        };
        let rows = self.rows(&format!(
            "SELECT id, {}, {}, {} FROM threads WHERE conversation_id = ?1 ORDER BY rowid",
            t.col("original_thread_id"),
            t.col("created_at"),
            t.col("updated_at"),
        ))?;
        let mut threads = Vec::with_capacity(rows.len());
        let order = if l.columns.contains("position") {
            "position"
        } else {
            "rowid"
        };
        for r in rows {
            r.iter().for_each(&mut *feed);
            let gid = sql_text(&r[0]).unwrap_or_default();
            let link_rows = query(
                self.conn,
                &format!(
                    "SELECT message_id FROM thread_messages WHERE thread_id = ?1 ORDER BY {order}"
                ),
                Some(&gid),
            )
            .map_err(|e| e.to_string())?;
            let mut links = Vec::with_capacity(link_rows.len());
            let mut seen = HashSet::new();
            for lr in link_rows {
                lr.iter().for_each(&mut *feed);
                let mid = sql_text(&lr[0]).unwrap_or_default();
                match ids.get(&mid) {
                    Some(id) if seen.insert(*id) => links.push(*id),
                    Some(_) => parsed.warnings.push(format!(
                        "{}: thread {gid} links message {mid} twice; kept once",
                        self.source_name
                    )),
                    None => parsed.warnings.push(format!(
                        "{}: thread {gid} links message {mid}, which is not stored; link dropped",
                        self.source_name
                    )),
                }
            }
            let created_at = column_time(&r[2]).unwrap_or(self.now);
            threads.push(RawThread {
                gid,
                original: sql_text(&r[1]).filter(|o| !o.is_empty()),
                created_at,
                updated_at: column_time(&r[3]).unwrap_or(created_at),
                links,
            });
        }
        Ok(parents_first(threads))
    }
}

fn role_column(value: &SqlValue) -> Option<Role> {
    role(sql_text(value).map(Value::String).as_ref())
}

fn source_of(message: &Message) -> &str {
    super::source_id(message).unwrap_or("?")
}

/// Orders threads so that each comes after the thread it derives from; a parent that is not
/// stored (or a cycle) makes a thread a root.
fn parents_first(mut threads: Vec<RawThread>) -> Vec<RawThread> {
    let known: HashSet<String> = threads.iter().map(|t| t.gid.clone()).collect();
    for t in &mut threads {
        if t.original
            .as_ref()
            .is_some_and(|o| !known.contains(o) || *o == t.gid)
        {
            t.original = None;
        }
    }
    let mut placed: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(threads.len());
    while !threads.is_empty() {
        let before = threads.len();
        let mut rest = Vec::new();
        for t in threads {
            if t.original.as_ref().is_none_or(|o| placed.contains(o)) {
                placed.insert(t.gid.clone());
                out.push(t);
            } else {
                rest.push(t);
            }
        }
        if rest.len() == before {
            // A cycle: break it at the first thread.
            let mut rest = rest.into_iter();
            if let Some(mut t) = rest.next() {
                t.original = None;
                placed.insert(t.gid.clone());
                out.push(t);
            }
            threads = rest.collect();
        } else {
            threads = rest;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_type_maps_by_its_last_segment() {
        let doc = json!({
            "id": "m1", "conversationId": "c1", "role": "ASSISTANT",
            "originalIds": ["a", "b"],
            "createdAt": "2025-11-02T15:32:01.123456789Z",
            "instructions": [{"type": "com.gromozeka.shared.domain.Conversation.Message.Instruction.UserInstruction", "id": "i", "title": "t", "description": "d"}, {"type": "user"}],
            "content": [
                {"type": "Message", "text": "hi"},
                {"type": "IntermediateMessage", "structured": {"fullText": "answer", "ttsText": "a"}},
                {"type": "com.gromozeka.shared.domain.Conversation.Message.ContentItem.ToolCall", "id": "t1", "call": {"name": "grep", "input": {"q": 1}}},
                {"type": "com.gromozeka.domain.model.Conversation.Message.ContentItem.ToolResult", "toolUseId": "t1", "toolName": "grep",
                 "result": [{"type": "com.gromozeka.domain.model.Conversation.Message.ContentItem.ToolResult.Data.Text", "content": "found"},
                            {"type": "x.Base64Data", "data": "AA==", "mediaType": {"type": "image", "subtype": "png"}}], "isError": true},
                {"type": "x.Thinking", "signature": "s", "thinking": "hmm"},
                {"type": "x.System", "level": "WARNING", "content": "careful"},
                {"type": "x.ImageItem", "source": {"type": "base64", "data": "AA==", "media_type": "image/png"}},
                {"type": "x.UnknownJson", "json": {"k": 1}},
                {"type": "x.Brandnew", "v": 2}
            ]
        });
        let m = parse_message_json(&doc.to_string()).unwrap();
        assert_eq!(m.role, Some(Role::Assistant));
        assert_eq!(m.original_ids, ["a", "b"]);
        assert_eq!(m.instructions.len(), 2);
        assert_eq!(m.content.len(), 9);
        assert!(
            matches!(&m.content[3], ContentItem::ToolResult { is_error: true, result, .. } if result.len() == 2)
        );
        assert!(matches!(&m.content[8], ContentItem::UnknownJson { .. }));
        assert_eq!(m.created_at.unwrap().timestamp_subsec_nanos(), 123_456_000);
        assert!(m.rest.get("content").is_none());
        assert_eq!(parse_message_json("[]"), Err(GromozekaError::NotAnObject));
        assert_eq!(parse_message_json("{}"), Err(GromozekaError::NoContent));
    }

    #[test]
    fn column_times_in_every_format() {
        let ms = column_time(&SqlValue::Integer(1_762_097_521_123)).unwrap();
        assert_eq!(ms.timestamp_millis(), 1_762_097_521_123);
        let s = column_time(&SqlValue::Integer(1_762_097_521)).unwrap();
        assert_eq!(s.timestamp(), 1_762_097_521);
        let local = column_time(&SqlValue::Text("2025-11-02 15:32:01.123".into())).unwrap();
        let expected = Local
            .from_local_datetime(
                &NaiveDateTime::parse_from_str("2025-11-02 15:32:01.123", "%Y-%m-%d %H:%M:%S%.f")
                    .unwrap(),
            )
            .earliest()
            .unwrap();
        assert_eq!(local, expected.with_timezone(&Utc));
        assert!(column_time(&SqlValue::Text("soon".into())).is_none());
    }
}
