//! One line of a session, converted as soon as it is read: its place in the tree (uuid, parent,
//! compaction links) and its content, either as (part of) a message or kept verbatim.

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{ContentItem, Role};

use super::system::{attachment_item, system_item};
use crate::anthropic_json::{content_to_items, ToolNames};
use crate::fields::parse_time;

pub(super) struct LineRecord {
    pub no: usize,
    pub uuid: Option<String>,
    /// `parentUuid` as written.
    pub parent: Option<String>,
    /// Set on `compact_boundary` lines.
    pub boundary: Option<Boundary>,
    pub sidechain: bool,
    /// `agentId`: the sub-agent run a sidechain line belongs to.
    pub agent_id: Option<String>,
    /// `isMeta` lines (caveats, injected context) are never what a person left off at.
    pub is_meta: bool,
    pub timestamp: Option<DateTime<Utc>>,
    pub body: Body,
}

/// What a `compact_boundary` line says about the history it replaces.
pub(super) struct Boundary {
    /// The last line before the compaction.
    pub logical_parent: Option<String>,
    pub preserved: Option<Preserved>,
}

/// Messages kept verbatim across a compaction. Claude Code does not write them again: it
/// relinks them behind the summary when it loads the session, and so do we.
pub(super) enum Preserved {
    /// `head..=tail` (a chain in the file) now follows `anchor`.
    Segment {
        head: String,
        anchor: String,
        tail: String,
    },
    /// `uuids`, in order, now follow `anchor`.
    List { anchor: String, uuids: Vec<String> },
}

pub(super) enum Body {
    /// A line that is (part of) a message.
    Message(Box<MessageLine>),
    /// Any other line, kept verbatim.
    Raw(Value),
    /// Moved into a conversation already.
    Taken,
}

pub(super) struct MessageLine {
    pub role: Role,
    /// `message.id`: the API response an assistant line belongs to.
    pub api_id: Option<String>,
    pub items: Vec<ContentItem>,
    /// `{"line", "json" (the line without its content blocks), "blocks", ...}`
    pub meta: Map<String, Value>,
}

impl LineRecord {
    pub fn message(&self) -> Option<&MessageLine> {
        match &self.body {
            Body::Message(m) => Some(m),
            _ => None,
        }
    }

    pub fn is_message(&self) -> bool {
        self.message().is_some()
    }

    /// A user line that answers tool calls.
    pub fn is_tool_result(&self) -> bool {
        self.message().is_some_and(|m| {
            m.role == Role::User
                && m.items
                    .iter()
                    .any(|i| matches!(i, ContentItem::ToolResult { .. }))
        })
    }

    pub fn assistant_api_id(&self) -> Option<&str> {
        self.message()
            .filter(|m| m.role == Role::Assistant)
            .and_then(|m| m.api_id.as_deref())
    }
}

fn text_of(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_owned)
}

/// Converts the JSON object of line `no`.
pub(super) fn convert(no: usize, value: Value, names: &mut ToolNames) -> LineRecord {
    let uuid = text_of(&value, "uuid");
    let kind = text_of(&value, "type");
    let boundary = (value.get("subtype").and_then(Value::as_str) == Some("compact_boundary"))
        .then(|| boundary_of(&value));
    let flag = |k: &str| value.get(k).and_then(Value::as_bool) == Some(true);
    let (sidechain, is_meta) = (flag("isSidechain"), flag("isMeta"));
    let parent = text_of(&value, "parentUuid");
    let agent_id = text_of(&value, "agentId");
    let timestamp = parse_time(value.get("timestamp"));
    let has_message = value.get("message").is_some_and(Value::is_object);
    let body = match (kind.as_deref(), uuid.is_some()) {
        (Some(role @ ("user" | "assistant")), true) if has_message => {
            let role = if role == "user" {
                Role::User
            } else {
                Role::Assistant
            };
            Body::Message(Box::new(chat_line(no, role, value, names)))
        }
        (Some("system"), true) => {
            let item = system_item(&value);
            Body::Message(Box::new(derived_line(no, Role::System, item, value)))
        }
        (Some("attachment"), true) => match attachment_item(&value) {
            Some((role, item)) => Body::Message(Box::new(derived_line(no, role, item, value))),
            None => Body::Raw(value),
        },
        _ => Body::Raw(value),
    };
    LineRecord {
        no,
        uuid,
        parent,
        boundary,
        sidechain,
        agent_id,
        is_meta,
        timestamp,
        body,
    }
}

fn boundary_of(value: &Value) -> Boundary {
    let meta = value.get("compactMetadata");
    let segment = meta.and_then(|m| m.get("preservedSegment"));
    let list = meta.and_then(|m| m.get("preservedMessages"));
    let preserved = match (list, segment) {
        // Claude Code prefers the list when both are written.
        (Some(list), _) => {
            let uuids: Vec<String> = list
                .get("uuids")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            text_of(list, "anchorUuid")
                .filter(|_| !uuids.is_empty())
                .map(|anchor| Preserved::List { anchor, uuids })
        }
        (None, Some(s)) => match (
            text_of(s, "headUuid"),
            text_of(s, "anchorUuid"),
            text_of(s, "tailUuid"),
        ) {
            (Some(head), Some(anchor), Some(tail)) => {
                Some(Preserved::Segment { head, anchor, tail })
            }
            _ => None,
        },
        (None, None) => None,
    };
    Boundary {
        logical_parent: text_of(value, "logicalParentUuid"),
        preserved,
    }
}

/// A user or assistant line: its content blocks become items, the rest stays as metadata.
fn chat_line(no: usize, role: Role, mut value: Value, names: &mut ToolNames) -> MessageLine {
    let message = value.get_mut("message");
    let api_id = message
        .as_ref()
        .and_then(|m| m.get("id"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let content = message
        .and_then(|m| m.as_object_mut())
        .and_then(|m| m.remove("content"))
        .unwrap_or(Value::Null);
    let (is_string, is_null) = (content.is_string(), content.is_null());
    let (items, originals) = content_to_items(role, content, names);
    let mut meta = Map::new();
    meta.insert("line".into(), json!(no));
    meta.insert("blocks".into(), json!(items.len()));
    if is_string {
        meta.insert("content_string".into(), Value::Bool(true));
    } else if is_null {
        meta.insert("content_absent".into(), Value::Bool(true));
    }
    if !originals.is_empty() {
        meta.insert("originals".into(), Value::Object(originals));
    }
    meta.insert("json".into(), value);
    MessageLine {
        role,
        api_id,
        items,
        meta,
    }
}

/// A line shown as a message whose text we made from it; the line itself is kept whole, so
/// the export writes it back unchanged.
fn derived_line(no: usize, role: Role, item: ContentItem, value: Value) -> MessageLine {
    let mut meta = Map::new();
    meta.insert("line".into(), json!(no));
    meta.insert("blocks".into(), json!(1));
    meta.insert("derived".into(), Value::Bool(true));
    meta.insert("json".into(), value);
    MessageLine {
        role,
        api_id: None,
        items: vec![item],
        meta,
    }
}
