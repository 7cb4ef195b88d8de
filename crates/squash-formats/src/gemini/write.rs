//! A Gemini CLI recording that `gemini --resume <session id>` accepts (seen with the CLI 0.61):
//! the header line, then one record per message. A model turn carries its calls with their
//! results (`toolCalls[].result`), which is where the CLI takes the function responses from when
//! it resumes; the tool results of the thread are paired with their calls here, a result whose
//! call is not in the thread becomes user text that says so, and a call without a result gets
//! one saying that none was recorded.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{render, ContentItem, ImageSource, Message, Role, SystemLevel};

use super::convert::SESSION_CONTEXT;
use super::META_KEY;
use crate::session::{stamp, JsonLines, Session, Written};
use crate::sha256_hex;
use crate::thread_results::ThreadResults;

/// The `projectHash` the CLI records: the SHA-256 of the working directory.
pub fn project_hash(cwd: &str) -> String {
    sha256_hex(cwd.as_bytes())
}

/// Where the CLI keeps a session started at `at` in the project folder `project_dir`
/// (`<gemini home>/tmp/<project slug>`): `chats/session-YYYY-MM-DDThh-mm-<id prefix>.jsonl`.
pub fn session_path(project_dir: &Path, session_id: &str, at: &DateTime<Utc>) -> PathBuf {
    let prefix: String = session_id.chars().take(8).collect();
    project_dir.join("chats").join(format!(
        "session-{}-{prefix}.jsonl",
        at.format("%Y-%m-%dT%H-%M")
    ))
}

struct Writer<'a, W: Write + ?Sized> {
    out: JsonLines<'a, W>,
    session: &'a Session<'a>,
    results: ThreadResults<'a>,
    used_ids: HashSet<String>,
}

/// Writes the recording.
pub fn write<W: Write + ?Sized>(session: &Session<'_>, out: &mut W) -> io::Result<Written> {
    let mut w = Writer {
        out: JsonLines::new(out),
        session,
        results: ThreadResults::of(session.messages),
        used_ids: HashSet::new(),
    };
    let last = session
        .messages
        .last()
        .map_or(session.created_at, |m| m.created_at);
    w.out.line(&json!({
        "sessionId": session.session_id,
        "projectHash": project_hash(session.cwd),
        "startTime": stamp(session.created_at),
        "lastUpdated": stamp(last.max(session.created_at)),
        "kind": "main",
    }))?;
    for message in session.messages {
        w.message(message)?;
    }
    Ok(w.out.finish())
}

impl<W: Write + ?Sized> Writer<'_, W> {
    /// The record id: the original's when it is still free, else a new one.
    fn id_for(&mut self, message: &Message) -> String {
        let original = message
            .metadata
            .as_ref()
            .and_then(|m| m.get(META_KEY)?.get("record")?.get("id")?.as_str())
            .filter(|_| message.squash_operation_id.is_none())
            .map(str::to_owned);
        let id = original
            .filter(|id| !self.used_ids.contains(id))
            .unwrap_or_else(|| uuid::Uuid::now_v7().hyphenated().to_string());
        self.used_ids.insert(id.clone());
        id
    }

    fn message(&mut self, message: &Message) -> io::Result<()> {
        let at = stamp(message.created_at);
        if crate::is_squash_result(message, self.session.operations) {
            let text = render::message_text(message);
            let id = self.id_for(message);
            let record = json!({"id": id, "timestamp": at, "type": "user",
                                "content": [{"text": text}]});
            return self.out.line(&record);
        }
        match message.role {
            Role::Assistant => self.model(message, at),
            Role::User => self.user(message, at),
            Role::System => self.system(message, at),
        }
    }

    fn user(&mut self, message: &Message, at: Value) -> io::Result<()> {
        let mut parts = Vec::new();
        for item in &message.content {
            if let Some((text, warning)) = self.results.orphan(item) {
                self.out.warn(warning);
                parts.push(json!({ "text": text }));
                continue;
            }
            match item {
                // Written with its call.
                ContentItem::ToolResult { .. } => {}
                other => parts.extend(part(other)),
            }
        }
        if parts.is_empty() {
            return Ok(());
        }
        let id = self.id_for(message);
        self.out
            .line(&json!({"id": id, "timestamp": at, "type": "user", "content": parts}))
    }

    fn system(&mut self, message: &Message, at: Value) -> io::Result<()> {
        let text = message
            .content
            .iter()
            .map(|i| match i {
                ContentItem::System { content, .. } => content.clone(),
                other => render::item_text(other),
            })
            .collect::<Vec<_>>()
            .join("\n");
        let id = self.id_for(message);
        if text.trim_start().starts_with(SESSION_CONTEXT) {
            let record = json!({"id": id, "timestamp": at, "type": "user",
                                "content": [{"text": text}]});
            return self.out.line(&record);
        }
        let level = message.content.iter().find_map(|i| match i {
            ContentItem::System { level, .. } => Some(*level),
            _ => None,
        });
        let kind = match level {
            Some(SystemLevel::Warning) => "warning",
            Some(SystemLevel::Error) => "error",
            _ => "info",
        };
        self.out
            .line(&json!({"id": id, "timestamp": at, "type": kind, "content": text}))
    }

    fn model(&mut self, message: &Message, at: Value) -> io::Result<()> {
        let kept = message.metadata.as_ref().and_then(|m| m.get(META_KEY));
        let record = kept.and_then(|k| k.get("record"));
        let calls_kept: Vec<&Value> = kept
            .and_then(|k| k.get("calls"))
            .and_then(Value::as_array)
            .map(|c| c.iter().collect())
            .unwrap_or_default();
        let mut text = String::new();
        let mut thoughts = Vec::new();
        let mut calls = Vec::new();
        let mut extra_parts = Vec::new();
        for item in &message.content {
            match item {
                ContentItem::AssistantMessage { structured } => {
                    text.push_str(&structured.full_text);
                }
                ContentItem::UserMessage { text: t } => text.push_str(t),
                ContentItem::Thinking { thinking, .. } => thoughts.push(json!({
                    "subject": "", "description": thinking, "timestamp": at,
                })),
                ContentItem::ToolCall { id, name, input } => {
                    let kept = calls_kept
                        .iter()
                        .find(|c| c.get("id").and_then(Value::as_str) == Some(id.as_str()));
                    calls.push(self.call(id, name, input, kept.copied(), &at));
                }
                other => extra_parts.extend(part(other)),
            }
        }
        for p in extra_parts {
            if let Some(t) = p.get("text").and_then(Value::as_str) {
                text.push_str(t);
            }
        }
        let id = self.id_for(message);
        let mut out = Map::new();
        out.insert("id".into(), json!(id));
        out.insert("timestamp".into(), at);
        out.insert("type".into(), json!("gemini"));
        out.insert("content".into(), json!(text));
        out.insert("thoughts".into(), Value::Array(thoughts));
        for key in ["tokens", "model"] {
            if let Some(v) = record.and_then(|r| r.get(key)) {
                out.insert(key.into(), v.clone());
            }
        }
        if !calls.is_empty() {
            out.insert("toolCalls".into(), Value::Array(calls));
        }
        self.out.line(&Value::Object(out))
    }

    /// A call with its result, as the CLI records it.
    fn call(
        &mut self,
        id: &str,
        name: &str,
        input: &Value,
        kept: Option<&Value>,
        at: &Value,
    ) -> Value {
        let (response, status) = match self.results.by_call.get(id) {
            Some((_, result, is_error)) => {
                let text = render::results_text(result);
                if *is_error {
                    (json!({"error": text}), "error")
                } else {
                    (json!({"output": text}), "success")
                }
            }
            None => {
                self.out.warn(format!(
                    "tool call {id} has no result in this thread; a result saying so was written"
                ));
                (
                    json!({"error": "No result was recorded for this call."}),
                    "error",
                )
            }
        };
        let mut call = kept.and_then(Value::as_object).cloned().unwrap_or_default();
        call.insert("id".into(), json!(id));
        call.insert("name".into(), json!(name));
        call.insert("args".into(), input.clone());
        call.insert(
            "result".into(),
            json!([{"functionResponse": {"id": id, "name": name, "response": response}}]),
        );
        call.insert("status".into(), json!(status));
        call.entry("timestamp").or_insert_with(|| at.clone());
        Value::Object(call)
    }
}

/// A content item as a recording part (calls and results are written elsewhere).
fn part(item: &ContentItem) -> Option<Value> {
    Some(match item {
        ContentItem::UserMessage { text } => json!({"text": text}),
        ContentItem::AssistantMessage { structured } => json!({"text": structured.full_text}),
        ContentItem::System { content, .. } => json!({"text": content}),
        ContentItem::Image {
            source: ImageSource::Base64 { media_type, data },
        } => json!({"inlineData": {"mimeType": media_type, "data": data}}),
        ContentItem::Image {
            source: ImageSource::Url { url },
        } => json!({"fileData": {"mimeType": "image/*", "fileUri": url}}),
        ContentItem::Image {
            source: ImageSource::File { path },
        } => json!({"text": format!("[image file {path}]")}),
        ContentItem::UnknownJson { json } if is_gemini_part(json) => json.clone(),
        ContentItem::UnknownJson { json } => {
            json!({"text": format!("[content the Gemini API has no part for: {json}]")})
        }
        ContentItem::Thinking { .. }
        | ContentItem::ToolCall { .. }
        | ContentItem::ToolResult { .. } => return None,
    })
}

/// Whether a kept part is one the Gemini API takes (so it can be written back as it is).
fn is_gemini_part(json: &Value) -> bool {
    const KEYS: [&str; 5] = [
        "inlineData",
        "fileData",
        "executableCode",
        "codeExecutionResult",
        "videoMetadata",
    ];
    json.as_object()
        .is_some_and(|o| o.len() <= 2 && KEYS.iter().any(|k| o.contains_key(*k)))
}
