//! A Claude Code session file that `claude --resume <sessionId>` accepts: one JSON line per
//! message part, every line with `uuid`, `parentUuid` (the previous line), `sessionId`, `type`,
//! `cwd`, `version`, `timestamp` and `message`.
//!
//! Messages imported from Claude Code and unchanged are written back as the lines they came
//! from (same uuids, same fields, same content blocks). A squash result is ordinary user text.
//! Thinking blocks are never altered: those inside a squashed range are gone with it, and an
//! edited message loses its thinking (a changed turn cannot carry the old signature). Tool
//! calls and results are paired as the API demands (see `pairing`), and the report says what
//! that changed. The lines that were not messages (summaries, snapshots, ...) are written back
//! in their original order; one whose parent a squash took hangs from the chain instead.

use std::collections::HashSet;
use std::io::{self, Write};

use chrono::Utc;
use serde_json::{json, Map, Value};
use squash_core::ImportRecord;
use squash_core::{render, ContentItem, Message, Role};

use super::pairing::{self, Pairing};
use super::read::{restore_line, META_KEY};
use crate::anthropic_json::{item_to_block, ToolNames};
use crate::session::{stamp, with_extras, Entry, JsonLines, Session, Written};

/// The version written when no imported line names one.
pub const FALLBACK_VERSION: &str = "1.0.108";

/// The `claude_code.extras` of the first import record that has them.
pub fn extras_of(records: &[ImportRecord]) -> Vec<Value> {
    crate::conversation::extras_in(records, META_KEY)
}

/// The directory Claude Code keeps the sessions of `cwd` in: `<config>/projects/<cwd with every
/// non-alphanumeric character replaced by '-'>`, where config is `$CLAUDE_CONFIG_DIR` or
/// `~/.claude`.
pub fn project_dir(config_dir: &std::path::Path, cwd: &str) -> std::path::PathBuf {
    let encoded: String = cwd
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    config_dir.join("projects").join(encoded)
}

fn line_metas(message: &Message) -> Option<&Vec<Value>> {
    message
        .metadata
        .as_ref()?
        .get(META_KEY)?
        .get("lines")?
        .as_array()
}

struct Writer<'a, W: Write + ?Sized> {
    out: JsonLines<'a, W>,
    session: &'a Session<'a>,
    names: ToolNames,
    version: String,
    git_branch: Value,
    /// The last line of the chain.
    previous: Option<String>,
    /// Every uuid written so far.
    uuids: HashSet<String>,
    pairing: Pairing,
}

impl<W: Write + ?Sized> Writer<'_, W> {
    fn emit(&mut self, mut line: Value, chain: bool) -> io::Result<()> {
        if let Some(obj) = line.as_object_mut() {
            if chain {
                let fix = self.pairing.line(obj);
                self.out.warn_all(fix.warnings);
                let at = obj.get("timestamp").cloned();
                self.answer_missing(&fix.unanswered, at)?;
            } else {
                self.reattach(obj);
            }
        }
        self.write_line(line, chain)
    }

    fn write_line(&mut self, mut line: Value, chain: bool) -> io::Result<()> {
        if let Some(obj) = line.as_object_mut() {
            if obj.contains_key("sessionId") || chain {
                obj.insert("sessionId".into(), json!(self.session.session_id));
            }
            if chain {
                obj.insert("cwd".into(), json!(self.session.cwd));
                let boundary =
                    obj.get("subtype").and_then(Value::as_str) == Some("compact_boundary");
                if boundary {
                    // A compaction starts a new chain; the history stays reachable logically.
                    obj.insert("parentUuid".into(), Value::Null);
                    obj.insert("logicalParentUuid".into(), json!(self.previous));
                } else {
                    obj.insert("parentUuid".into(), json!(self.previous));
                }
                if let Some(uuid) = obj.get("uuid").and_then(Value::as_str) {
                    self.previous = Some(uuid.to_owned());
                }
            }
            if let Some(uuid) = obj.get("uuid").and_then(Value::as_str) {
                self.uuids.insert(uuid.to_owned());
            }
        }
        self.out.line(&line)
    }

    /// A line off the chain (an abandoned branch, ...) whose parent is no longer written (a
    /// squash took it) hangs from the chain's last line instead: a parent that is not in the
    /// file breaks the tree the CLI rebuilds.
    fn reattach(&mut self, line: &mut Map<String, Value>) {
        for key in ["parentUuid", "logicalParentUuid"] {
            let Some(Value::String(parent)) = line.get(key) else {
                continue;
            };
            if self.uuids.contains(parent) {
                continue;
            }
            let uuid = line.get("uuid").and_then(Value::as_str).unwrap_or("?");
            self.out.warn(format!(
                "line {uuid}: {key} {parent} is not in the export; attached to the line before"
            ));
            line.insert(key.into(), json!(self.previous));
        }
    }

    /// Error results for calls that have none, on a user line of their own.
    fn answer_missing(&mut self, ids: &[String], at: Option<Value>) -> io::Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        for id in ids {
            self.out.warn(format!(
                "tool call {id} has no result right after it; an error result was written"
            ));
        }
        let mut line = self.line(Role::User, pairing::missing_results(ids));
        if let Some(at) = at {
            line["timestamp"] = at;
        }
        self.write_line(line, true)
    }

    /// A line for content made here, stamped now; the caller sets its timestamp.
    fn line(&self, role: Role, content: Value) -> Value {
        let uuid = uuid::Uuid::now_v7();
        let mut line = json!({
            "parentUuid": self.previous,
            "isSidechain": false,
            "userType": "external",
            "cwd": self.session.cwd,
            "sessionId": self.session.session_id,
            "version": self.version,
            "gitBranch": self.git_branch,
            "type": if role == Role::Assistant { "assistant" } else { "user" },
            "uuid": uuid.to_string(),
            "timestamp": stamp(Utc::now()),
        });
        line["message"] = if role == Role::Assistant {
            json!({
                "id": format!("msg_squash_{}", uuid.simple()),
                "type": "message",
                "role": "assistant",
                "model": "<synthetic>",
                "content": content,
                "stop_reason": "end_turn",
                "stop_sequence": null,
                "usage": {"input_tokens": 0, "output_tokens": 0},
            })
        } else {
            json!({"role": "user", "content": content})
        };
        line
    }

    /// A line for content made here (squash results, edits, messages of other sources).
    fn fresh(&mut self, message: &Message, role: Role, content: Value) -> io::Result<()> {
        let mut line = self.line(role, content);
        line["timestamp"] = stamp(message.created_at);
        self.emit(line, true)
    }

    fn message(&mut self, message: &Message) -> io::Result<()> {
        let squash = crate::is_squash_result(message, self.session.operations);
        if squash {
            // A squash result is ordinary user text.
            return self.fresh(message, Role::User, json!(render::message_text(message)));
        }
        if message.squash_operation_id.is_none() {
            if let Some(lines) = line_metas(message) {
                if let Some(parts) = split(lines, &message.content) {
                    for (meta, items) in parts {
                        let role = match meta
                            .get("json")
                            .and_then(|j| j.get("type"))
                            .and_then(Value::as_str)
                        {
                            Some("assistant") => Role::Assistant,
                            Some("system") => Role::System,
                            _ => Role::User,
                        };
                        let line = restore_line(role, items, meta, &self.names);
                        self.emit(line, true)?;
                    }
                    return Ok(());
                }
            }
        }
        // An edit or a message from elsewhere: fresh lines without thinking — a block that is
        // not exactly the one the API signed for this turn would make it refuse the session.
        let items: Vec<&ContentItem> = message
            .content
            .iter()
            .filter(|i| !matches!(i, ContentItem::Thinking { .. }))
            .collect();
        if items.is_empty() {
            return Ok(());
        }
        match message.role {
            Role::Assistant | Role::User => {
                // Calls go on assistant lines and results on user lines, whatever the source
                // kept them in (a Gromozeka assistant message holds both).
                for (role, run) in api_runs(message.role, &items) {
                    let blocks: Vec<Value> = run.iter().map(|i| api_block(i)).collect();
                    self.fresh(message, role, Value::Array(blocks))?;
                }
                Ok(())
            }
            Role::System => {
                let text = items
                    .iter()
                    .map(|i| render::item_text(i))
                    .collect::<Vec<_>>()
                    .join("\n\n");
                self.fresh(message, Role::User, json!(text))
            }
        }
    }
}

/// The items split into runs of one API role: a call is the assistant's, a result the user's,
/// anything else the message's own role.
fn api_runs<'a>(role: Role, items: &'a [&'a ContentItem]) -> Vec<(Role, &'a [&'a ContentItem])> {
    let side = |item: &ContentItem| match item {
        ContentItem::ToolCall { .. } => Role::Assistant,
        ContentItem::ToolResult { .. } => Role::User,
        _ => role,
    };
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=items.len() {
        if i == items.len() || side(items[i]) != side(items[start]) {
            runs.push((side(items[start]), &items[start..i]));
            start = i;
        }
    }
    runs
}

/// A block for a fresh line, with tool ids the API accepts (`^[a-zA-Z0-9_-]+$`; other sources
/// may use other characters).
fn api_block(item: &ContentItem) -> Value {
    let mut block = item_to_block(item);
    for key in ["id", "tool_use_id"] {
        if let Some(Value::String(id)) = block.get_mut(key) {
            if !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                *id = id
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || c == '-' {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect();
            }
        }
    }
    block
}

/// One original line's metadata and the content items it carried.
type LineItems<'a> = (&'a Map<String, Value>, &'a [ContentItem]);

/// The message's items split over the lines they came from, if they still fit (an unchanged
/// message).
fn split<'a>(lines: &'a [Value], items: &'a [ContentItem]) -> Option<Vec<LineItems<'a>>> {
    let mut out = Vec::with_capacity(lines.len());
    let mut at: usize = 0;
    for line in lines {
        let meta = line.as_object()?;
        let n = meta.get("blocks").and_then(Value::as_u64)? as usize;
        let end = at.checked_add(n)?;
        if end > items.len() {
            return None;
        }
        out.push((meta, &items[at..end]));
        at = end;
    }
    (at == items.len()).then_some(out)
}

fn first_field(session: &Session<'_>, extras: &[Value], key: &str) -> Option<Value> {
    session
        .messages
        .iter()
        .filter_map(line_metas)
        .flatten()
        .find_map(|l| l.get("json")?.get(key).cloned())
        .or_else(|| extras.iter().find_map(|e| e.get("json")?.get(key).cloned()))
}

/// Writes the session, with the conversation's non-message lines `extras` (see [`extras_of`])
/// back in their places.
pub fn write<W: Write + ?Sized>(
    session: &Session<'_>,
    extras: &[Value],
    out: &mut W,
) -> io::Result<Written> {
    let mut names = ToolNames::new();
    for item in session.messages.iter().flat_map(|m| &m.content) {
        if let ContentItem::ToolCall { id, name, .. } = item {
            names.insert(id.clone(), name.clone());
        }
    }
    let version = first_field(session, extras, "version")
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| FALLBACK_VERSION.to_owned());
    let git_branch = first_field(session, extras, "gitBranch").unwrap_or(json!(""));
    let mut w = Writer {
        out: JsonLines::new(out),
        session,
        names,
        version,
        git_branch,
        previous: None,
        uuids: HashSet::new(),
        pairing: Pairing::default(),
    };
    let anchor = |m: &Message| {
        line_metas(m)
            .and_then(|l| l.first())
            .and_then(|l| l.get("line"))
            .and_then(Value::as_u64)
    };
    for entry in with_extras(session.messages, extras, anchor) {
        match entry {
            Entry::Message(message) => w.message(message)?,
            Entry::Extra(extra) => {
                let chain = extra.get("chain").and_then(Value::as_bool) == Some(true);
                w.emit(extra.get("json").cloned().unwrap_or(Value::Null), chain)?;
            }
        }
    }
    let unanswered = w.pairing.finish();
    w.answer_missing(&unanswered, None)?;
    Ok(w.out.finish())
}
