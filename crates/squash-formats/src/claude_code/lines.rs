//! One line of a session, converted as soon as it is read: its place in the tree (uuid, parent,
//! compaction links) and its content, either as (part of) a message or kept verbatim.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{ContentItem, Role};

use super::keys::{Key, Keys};
use super::system::{attachment_item, system_item};
use crate::anthropic_json::{content_to_items, ToolNames};
use crate::fields::{parse_time, title_from};

/// Where a line sits in its file, and a checksum of its bytes: what lets a streamed import
/// read it again and notice that the file changed in between.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineAt {
    pub no: usize,
    pub offset: u64,
    pub len: u32,
    pub crc: u32,
}

/// What the reader keeps of a line until the conversations are built: every line of a
/// session is held at once, so rare parts are boxed and uuids are [`Key`]s.
pub(super) struct LineRecord {
    pub no: usize,
    pub uuid: Option<Key>,
    /// `parentUuid` as written.
    pub parent: Option<Key>,
    /// Set on `compact_boundary` lines.
    pub boundary: Option<Box<Boundary>>,
    pub sidechain: bool,
    /// `agentId`: the sub-agent run a sidechain line belongs to.
    pub agent_id: Option<Key>,
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
    /// A line that is (part of) a message. Boxed: it moves into its message's plan, and the
    /// record stays until every conversation of the session is built.
    Message(Box<MessageLine>),
    /// Any other line, kept verbatim.
    Raw(Box<Value>),
    /// Moved into a conversation already.
    Taken,
}

pub(super) struct MessageLine {
    pub role: Role,
    /// A digest of `message.id`: the API response an assistant line belongs to.
    pub api_id: Option<u64>,
    pub at: LineAt,
    pub facts: Facts,
    /// `None` once a streaming reader dropped it (it reads the line again when storing).
    pub content: Option<Box<LineContent>>,
}

pub(super) struct LineContent {
    pub items: Vec<ContentItem>,
    /// `{"line", "json" (the line without its content blocks), "blocks", ...}`
    pub meta: Map<String, Value>,
}

/// What the reader needs of a message line after its content is gone: enough to build the
/// threads, name the conversation and tie sub-agent runs to their calls.
#[derive(Default)]
pub(super) struct Facts {
    pub tool_result: bool,
    /// `isMeta` or `isCompactSummary`: not what a person typed.
    pub injected: bool,
    pub cwd: Option<Arc<str>>,
    /// What the items are (for the import report, without the items): tool calls, results,
    /// errors, thinking blocks, images, unknown blocks.
    pub counts: [u16; 6],
    /// What few lines have (a person's prompt, a `Task` call), boxed: most lines have none.
    rare: Option<Box<RareFacts>>,
}

#[derive(Default)]
struct RareFacts {
    /// The title the first item makes, when it is a user's text.
    lead_title: Option<Box<str>>,
    /// A digest of the first user text item (the prompt a sub-agent run starts with, matched
    /// against the prompts of `Task` calls): the text itself can be large.
    prompt: Option<u64>,
    /// `Task`/`Agent` calls: (tool-use id, prompt, description).
    tasks: Vec<(String, String, String)>,
    /// The calls this line's results answer (what closes a `Task` call's time window).
    result_ids: Vec<Box<str>>,
}

impl RareFacts {
    fn is_empty(&self) -> bool {
        self.lead_title.is_none()
            && self.prompt.is_none()
            && self.tasks.is_empty()
            && self.result_ids.is_empty()
    }
}

/// A line (or message) index as the structures built over every line hold it, in 4 bytes: a
/// session has fewer than 4 billion lines.
pub(super) fn small(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The digest [`Facts::prompt`] and [`MessageLine::api_id`] hold: a text that can be large, or
/// that every line of a response repeats, compared without being kept.
pub(super) fn text_digest(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    // Fixed keys: the same text gives the same digest in every read.
    let mut h = std::hash::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

impl Facts {
    pub fn lead_title(&self) -> Option<&str> {
        self.rare.as_ref()?.lead_title.as_deref()
    }

    pub fn prompt(&self) -> Option<u64> {
        self.rare.as_ref()?.prompt
    }

    pub fn tasks(&self) -> &[(String, String, String)] {
        self.rare.as_ref().map_or(&[], |r| &r.tasks)
    }

    pub fn result_ids(&self) -> &[Box<str>] {
        self.rare.as_ref().map_or(&[], |r| &r.result_ids)
    }

    /// Keeps the result ids that answer calls `wanted` names: the others answer calls no
    /// reader asks about again, and a session has a result line per tool call.
    pub fn keep_results(&mut self, wanted: impl Fn(&str) -> bool) {
        if let Some(rare) = &mut self.rare {
            rare.result_ids.retain(|id| wanted(id));
            if rare.is_empty() {
                self.rare = None;
            }
        }
    }

    fn of(items: &[ContentItem], json: &Value) -> Facts {
        let flag = |k: &str| json.get(k).and_then(Value::as_bool) == Some(true);
        Facts::from_items(
            items.iter().map(ItemFact::of),
            flag("isMeta") || flag("isCompactSummary"),
            json.get("cwd").and_then(Value::as_str),
        )
    }

    /// The facts of a line whose content items are `items` (in order); `injected`: `isMeta`
    /// or `isCompactSummary`. Both ways of reading a line come here, so they agree.
    pub(super) fn from_items<'a>(
        items: impl Iterator<Item = ItemFact<'a>>,
        injected: bool,
        cwd: Option<&str>,
    ) -> Facts {
        let mut rare = RareFacts::default();
        let mut counts = [0u16; 6];
        let mut count = |k: usize| counts[k] = counts[k].saturating_add(1);
        for (i, item) in items.enumerate() {
            match item {
                ItemFact::UserText(text) => {
                    if i == 0 {
                        rare.lead_title = title_from(text, 60).map(String::into_boxed_str);
                    }
                    if rare.prompt.is_none() {
                        rare.prompt = Some(text_digest(text));
                    }
                }
                ItemFact::Call {
                    id,
                    name,
                    prompt,
                    description,
                } => {
                    count(0);
                    if name == "Task" || name == "Agent" {
                        let task = (id.to_owned(), prompt.to_owned(), description.to_owned());
                        rare.tasks.push(task);
                    }
                }
                ItemFact::Result { id, is_error } => {
                    count(1);
                    if is_error {
                        count(2);
                    }
                    rare.result_ids.push(id.into());
                }
                ItemFact::Thinking => count(3),
                ItemFact::Image => count(4),
                ItemFact::Unknown => count(5),
                ItemFact::Other => {}
            }
        }
        Facts {
            counts,
            tool_result: !rare.result_ids.is_empty(),
            injected,
            cwd: cwd.map(Arc::from),
            rare: (!rare.is_empty()).then(|| Box::new(rare)),
        }
    }
}

/// What [`Facts`] read of one content item of a line.
pub(super) enum ItemFact<'a> {
    /// A person's text (a user line's text).
    UserText(&'a str),
    /// A tool call; `prompt` and `description` are its input's (empty when it has none).
    Call {
        id: &'a str,
        name: &'a str,
        prompt: &'a str,
        description: &'a str,
    },
    Result {
        id: &'a str,
        is_error: bool,
    },
    Thinking,
    Image,
    /// A block no item stands for: kept as its JSON.
    Unknown,
    /// Anything else (an assistant's text, a system note).
    Other,
}

impl<'a> ItemFact<'a> {
    fn of(item: &'a ContentItem) -> ItemFact<'a> {
        match item {
            ContentItem::UserMessage { text } => ItemFact::UserText(text),
            ContentItem::ToolCall { id, name, input } => {
                let field = |k: &str| input.get(k).and_then(Value::as_str).unwrap_or("");
                ItemFact::Call {
                    id,
                    name,
                    prompt: field("prompt"),
                    description: field("description"),
                }
            }
            ContentItem::ToolResult {
                tool_use_id,
                is_error,
                ..
            } => ItemFact::Result {
                id: tool_use_id,
                is_error: *is_error,
            },
            ContentItem::Thinking { .. } => ItemFact::Thinking,
            ContentItem::Image { .. } => ItemFact::Image,
            ContentItem::UnknownJson { .. } => ItemFact::Unknown,
            _ => ItemFact::Other,
        }
    }
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
        self.message()
            .is_some_and(|m| m.role == Role::User && m.facts.tool_result)
    }

    /// An assistant line that makes tool calls.
    pub fn is_call(&self) -> bool {
        self.message()
            .is_some_and(|m| m.role == Role::Assistant && m.facts.counts[0] > 0)
    }

    pub fn assistant_api_id(&self) -> Option<u64> {
        self.message()
            .filter(|m| m.role == Role::Assistant)
            .and_then(|m| m.api_id)
    }
}

fn text_of(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_owned)
}

/// Converts the JSON object of the line at `at`; the uuids it names go into `keys`.
pub(super) fn convert(
    at: LineAt,
    value: Value,
    names: &mut ToolNames,
    keys: &mut Keys,
) -> LineRecord {
    let mut key = |k: &str| value.get(k).and_then(Value::as_str).map(|t| keys.intern(t));
    let (uuid, parent, agent_id) = (key("uuid"), key("parentUuid"), key("agentId"));
    let boundary = (value.get("subtype").and_then(Value::as_str) == Some("compact_boundary"))
        .then(|| Box::new(boundary_of(&value)));
    let flag = |k: &str| value.get(k).and_then(Value::as_bool) == Some(true);
    let (sidechain, is_meta) = (flag("isSidechain"), flag("isMeta"));
    let timestamp = parse_time(value.get("timestamp"));
    LineRecord {
        no: at.no,
        uuid,
        parent,
        boundary,
        sidechain,
        agent_id,
        is_meta,
        timestamp,
        body: body_of(at, value, names),
    }
}

/// What the line at `at` holds: (part of) a message, or a line kept verbatim.
pub(super) fn body_of(at: LineAt, value: Value, names: &mut ToolNames) -> Body {
    let no = at.no;
    let kind = value.get("type").and_then(Value::as_str);
    let has_uuid = value.get("uuid").is_some_and(Value::is_string);
    let has_message = value.get("message").is_some_and(Value::is_object);
    let mut body = match (kind, has_uuid) {
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
            None => Body::Raw(Box::new(value)),
        },
        _ => Body::Raw(Box::new(value)),
    };
    if let Body::Message(line) = &mut body {
        line.at = at;
    }
    body
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
        .map(text_digest);
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
    let facts = Facts::of(&items, &value);
    meta.insert("json".into(), value);
    MessageLine {
        role,
        api_id,
        at: LineAt::default(),
        facts,
        content: Some(Box::new(LineContent { items, meta })),
    }
}

/// A line shown as a message whose text we made from it; the line itself is kept whole, so
/// the export writes it back unchanged.
fn derived_line(no: usize, role: Role, item: ContentItem, value: Value) -> MessageLine {
    let mut meta = Map::new();
    meta.insert("line".into(), json!(no));
    meta.insert("blocks".into(), json!(1));
    meta.insert("derived".into(), Value::Bool(true));
    let items = vec![item];
    let facts = Facts::of(&items, &value);
    meta.insert("json".into(), value);
    MessageLine {
        role,
        api_id: None,
        at: LineAt::default(),
        facts,
        content: Some(Box::new(LineContent { items, meta })),
    }
}
