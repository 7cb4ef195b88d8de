//! Claude Code session logs (`~/.claude/projects/<cwd>/<sessionId>.jsonl`).
//!
//! The file is a tree of lines linked by `parentUuid`. The conversation is the main chain: from
//! the newest leaf back to the root (a `compact_boundary` continues through its
//! `logicalParentUuid`, so the history before a compaction is kept, with the boundary and its
//! summary as what they are). The consecutive assistant lines of one API response (same
//! `message.id`) become one message. Sub-agent runs (`isSidechain: true`) become conversations
//! of their own, linked to the `Task` call that started them when its prompt matches.
//!
//! Nothing is dropped: every line's fields other than its content blocks go into the message's
//! metadata (`claude_code.lines`), and every line that is no message of a chain (summaries,
//! file-history snapshots, progress events, abandoned branches, line types of future releases)
//! goes verbatim into the conversation's import metadata (`claude_code.extras`) with its line
//! number, so an export can write the session back.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{
    ContentItem, ConversationId, Message, MessageId, Role, SourceFormat, SystemLevel,
};

use crate::anthropic_json::{content_to_items, items_to_blocks, short, ToolNames};
use crate::fields::{parse_time, title_from};
use crate::{ImportedConversation, Parsed, SOURCE_ID_KEY};

/// Where Claude Code data sits in metadata.
pub const META_KEY: &str = "claude_code";

struct LineRecord {
    no: usize,
    uuid: Option<String>,
    /// `parentUuid`, or a compact boundary's `logicalParentUuid`.
    parent: Option<String>,
    sidechain: bool,
    timestamp: Option<DateTime<Utc>>,
    body: Body,
}

enum Body {
    /// A user, assistant or system line: (part of) a message.
    Message {
        role: Role,
        /// `message.id`: the API response an assistant line belongs to.
        api_id: Option<String>,
        items: Vec<ContentItem>,
        /// `{"line", "json" (the line without its content blocks), "blocks", ...}`
        meta: Map<String, Value>,
    },
    /// Any other line, kept verbatim.
    Raw(Value),
    /// Moved into a conversation already.
    Taken,
}

/// Reads a session line by line; [`finish`](ClaudeCodeParser::finish) builds the
/// conversations. Memory holds the converted lines, never the whole file.
pub struct ClaudeCodeParser {
    source_name: String,
    now: DateTime<Utc>,
    lines: Vec<LineRecord>,
    names: ToolNames,
    session_id: Option<String>,
    parsed: Parsed,
}

impl ClaudeCodeParser {
    /// `source_name` names the input in reports; `now` stands in for missing timestamps.
    pub fn new(source_name: &str, now: DateTime<Utc>) -> ClaudeCodeParser {
        ClaudeCodeParser {
            source_name: source_name.to_owned(),
            now,
            lines: Vec::new(),
            names: ToolNames::new(),
            session_id: None,
            parsed: Parsed::default(),
        }
    }

    /// Parses a whole session held in memory (tests, fuzzing, uploads).
    pub fn parse_str(source_name: &str, text: &str, content_hash: &str) -> Parsed {
        let mut parser = ClaudeCodeParser::new(source_name, Utc::now());
        for (i, line) in text.lines().enumerate() {
            parser.push_line(i + 1, line);
        }
        parser.finish(content_hash)
    }

    /// One line of the file; `no` is its 1-based number. Malformed lines are reported and
    /// skipped.
    pub fn push_line(&mut self, no: usize, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                self.parsed
                    .skip(&self.source_name, Some(no), format!("invalid JSON: {e}"));
                return;
            }
        };
        if !value.is_object() {
            self.parsed
                .skip(&self.source_name, Some(no), "not a JSON object");
            return;
        }
        if self.session_id.is_none() {
            self.session_id = value
                .get("sessionId")
                .and_then(Value::as_str)
                .map(str::to_owned);
        }
        let record = self.record(no, value);
        self.lines.push(record);
    }

    fn record(&mut self, no: usize, mut value: Value) -> LineRecord {
        let text_of = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        let uuid = text_of(&value, "uuid");
        let kind = text_of(&value, "type");
        let is_boundary = value.get("subtype").and_then(Value::as_str) == Some("compact_boundary");
        let parent = text_of(&value, "parentUuid").or_else(|| {
            is_boundary
                .then(|| text_of(&value, "logicalParentUuid"))
                .flatten()
        });
        let sidechain = value
            .get("isSidechain")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let timestamp = parse_time(value.get("timestamp"));
        let has_message = value.get("message").is_some_and(Value::is_object);
        let body = match (kind.as_deref(), &uuid) {
            (Some(role @ ("user" | "assistant")), Some(_)) if has_message => {
                let role = if role == "user" {
                    Role::User
                } else {
                    Role::Assistant
                };
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
                let (items, originals) = content_to_items(role, content, &mut self.names);
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
                Body::Message {
                    role,
                    api_id,
                    items,
                    meta,
                }
            }
            (Some("system"), Some(_)) => {
                let item = system_item(&value);
                let mut meta = Map::new();
                meta.insert("line".into(), json!(no));
                meta.insert("blocks".into(), json!(1));
                meta.insert("derived".into(), Value::Bool(true));
                meta.insert("json".into(), value);
                Body::Message {
                    role: Role::System,
                    api_id: None,
                    items: vec![item],
                    meta,
                }
            }
            (Some("user" | "assistant"), _) => {
                self.parsed.skip(
                    &self.source_name,
                    Some(no),
                    "a user or assistant line without uuid or message; kept for export only",
                );
                Body::Raw(value)
            }
            _ => Body::Raw(value),
        };
        LineRecord {
            no,
            uuid,
            parent,
            sidechain,
            timestamp,
            body,
        }
    }

    /// Builds the conversations: the main chain first, then one per sub-agent run.
    pub fn finish(mut self, content_hash: &str) -> Parsed {
        let tree = Tree::build(&self.lines);
        let mut used = vec![false; self.lines.len()];

        // The main chain: from the newest leaf that is a message.
        let main_chain = tree
            .newest_leaf(&self.lines, |i| !self.lines[i].sidechain)
            .map(|leaf| tree.walk(leaf))
            .unwrap_or_default();
        if let Some(&first) = main_chain.first() {
            if let Some(missing) = &self.lines[first].parent {
                self.parsed.warnings.push(format!(
                    "{}: the main chain starts at parent {missing}, which is not in this file",
                    self.source_name
                ));
            }
        }
        for &i in &main_chain {
            used[i] = true;
        }

        // Sub-agent runs: one chain per sidechain root.
        let mut group_of: HashMap<usize, usize> = HashMap::new();
        for i in 0..self.lines.len() {
            if self.lines[i].sidechain && tree.in_tree[i] {
                // Parents usually come first in the file: reuse their root.
                let root = match tree.parent_of[i] {
                    Some(p) if self.lines[p].sidechain => match group_of.get(&p) {
                        Some(&r) => r,
                        None => tree.root_within(p, &self.lines),
                    },
                    _ => i,
                };
                group_of.insert(i, root);
            }
        }
        let mut roots: Vec<usize> = group_of
            .values()
            .copied()
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        roots.sort_unstable();
        let mut side_chains = Vec::new();
        for &root in &roots {
            let chain = tree
                .newest_leaf(&self.lines, |i| group_of.get(&i) == Some(&root))
                .map(|leaf| tree.walk(leaf))
                .unwrap_or_else(|| vec![root]);
            for &i in &chain {
                used[i] = true;
            }
            side_chains.push((root, chain));
        }

        let session = self.session_id.clone().unwrap_or_else(|| {
            short(&self.source_name)
                .trim_end_matches(".jsonl")
                .to_owned()
        });
        let main_key = format!("claude-code:{session}");

        // Lines that are no message of a chain stay with their conversation for the export.
        let mut main_extras = Vec::new();
        let mut side_extras: HashMap<usize, Vec<Value>> = HashMap::new();
        for (i, (line, used)) in self.lines.iter_mut().zip(&used).enumerate() {
            if *used {
                continue;
            }
            let no = line.no;
            let json = take_raw(line, &self.names);
            let extra = json!({"line": no, "chain": false, "json": json});
            match group_of.get(&i) {
                Some(root) => side_extras.entry(*root).or_default().push(extra),
                None => main_extras.push(extra),
            }
        }

        let mut main = self.conversation(&main_chain, main_extras);
        let main_name = main
            .as_ref()
            .map(|c| c.display_name.clone())
            .unwrap_or_else(|| format!("Claude Code session {}", prefix(&session)));
        let tasks: Vec<(String, String, String)> = main
            .as_ref()
            .map(|c| task_calls(&c.messages))
            .unwrap_or_default();
        if let Some(conv) = main.as_mut() {
            conv.source_key = main_key.clone();
            set_meta(conv, "session_id", Value::String(session.clone()));
            conv.content_hash = content_hash.to_owned();
        } else if self.lines.iter().any(|l| !l.sidechain) {
            // Only non-message lines: nothing to import as a conversation.
            self.parsed.skip(
                &self.source_name,
                None,
                "no user or assistant messages on a main chain",
            );
        }

        let mut sides = Vec::new();
        for (root, chain) in side_chains {
            let extras = side_extras.remove(&root).unwrap_or_default();
            let root_uuid = self.lines[root].uuid.clone().unwrap_or_default();
            let agent_id = chain_agent_id(&self.lines, &chain);
            let Some(mut conv) = self.conversation(&chain, extras) else {
                continue;
            };
            let prompt = first_text(&conv.messages);
            let task = tasks
                .iter()
                .find(|(_, p, _)| Some(p.as_str()) == prompt.as_deref());
            conv.display_name = match task {
                Some((_, _, description)) if !description.is_empty() => {
                    format!("{main_name} · sub-agent: {description}")
                }
                _ => format!("{main_name} · sub-agent: {}", conv.display_name),
            };
            conv.source_key = format!("{main_key}/sidechain:{root_uuid}");
            conv.sidechain = true;
            conv.content_hash = content_hash.to_owned();
            set_meta(&mut conv, "session_id", Value::String(session.clone()));
            set_meta(
                &mut conv,
                "sidechain",
                json!({
                    "root_uuid": root_uuid,
                    "parent_source_key": main_key,
                    "parent_tool_use_id": task.map(|t| t.0.clone()),
                    "agent_id": agent_id,
                }),
            );
            sides.push(conv);
        }
        self.parsed.conversations.extend(main);
        self.parsed.conversations.extend(sides);
        self.parsed
    }

    /// The conversation of one chain, or `None` when the chain holds no message.
    fn conversation(
        &mut self,
        chain: &[usize],
        mut extras: Vec<Value>,
    ) -> Option<ImportedConversation> {
        let conversation_id = ConversationId::new();
        let mut messages: Vec<Message> = Vec::new();
        let mut open: Option<(Option<String>, Message)> = None;
        let mut last_time = None;
        let mut cwd = None;
        for &i in chain {
            let line = &mut self.lines[i];
            let time = line.timestamp.or(last_time).unwrap_or(self.now);
            last_time = Some(time);
            let uuid = line.uuid.clone().unwrap_or_default();
            let no = line.no;
            match std::mem::replace(&mut line.body, Body::Taken) {
                Body::Raw(json) => {
                    extras.push(json!({"line": no, "chain": true, "json": json}));
                }
                Body::Taken => {}
                Body::Message {
                    role,
                    api_id,
                    items,
                    meta,
                } => {
                    if cwd.is_none() {
                        cwd = meta
                            .get("json")
                            .and_then(|j| j.get("cwd"))
                            .and_then(Value::as_str)
                            .map(str::to_owned);
                    }
                    // One API response written as several lines is one message.
                    if let Some((Some(open_id), message)) = &mut open {
                        if role == Role::Assistant
                            && message.role == Role::Assistant
                            && api_id.as_deref() == Some(open_id.as_str())
                        {
                            message.content.extend(items);
                            push_line_meta(message, meta);
                            continue;
                        }
                    }
                    if let Some((_, done)) = open.take() {
                        messages.push(done);
                    }
                    let message = Message {
                        id: MessageId::new(),
                        conversation_id,
                        squash_operation_id: None,
                        reply_to: None,
                        role,
                        content: items,
                        instructions: Vec::new(),
                        metadata: Some(json!({
                            SOURCE_ID_KEY: uuid,
                            META_KEY: {"lines": [Value::Object(meta)]},
                        })),
                        created_at: time,
                    };
                    open = Some((api_id, message));
                }
            }
        }
        if let Some((_, done)) = open.take() {
            messages.push(done);
        }
        if messages.is_empty() {
            return None;
        }
        extras.sort_by_key(|e| e.get("line").and_then(Value::as_u64).unwrap_or(0));
        let name = display_name(&messages, &extras);
        let mut conv = ImportedConversation::linear(
            SourceFormat::ClaudeCode,
            String::new(),
            conversation_id,
            name,
            messages,
            self.now,
        );
        conv.project_path = cwd;
        conv.metadata = Some(json!({
            META_KEY: {
                "source": short(&self.source_name),
                "extras": extras,
            }
        }));
        Some(conv)
    }
}

/// The parent links of the lines that have a uuid.
struct Tree {
    parent_of: Vec<Option<usize>>,
    has_child: Vec<bool>,
    in_tree: Vec<bool>,
}

impl Tree {
    fn build(lines: &[LineRecord]) -> Tree {
        let mut by_uuid: HashMap<&str, usize> = HashMap::with_capacity(lines.len());
        let mut in_tree = vec![false; lines.len()];
        for (i, line) in lines.iter().enumerate() {
            if let Some(uuid) = &line.uuid {
                // A repeated uuid keeps its first line; the repeat stays an extra.
                if !by_uuid.contains_key(uuid.as_str()) {
                    by_uuid.insert(uuid, i);
                    in_tree[i] = true;
                }
            }
        }
        let mut parent_of = vec![None; lines.len()];
        let mut has_child = vec![false; lines.len()];
        for (i, line) in lines.iter().enumerate() {
            if !in_tree[i] {
                continue;
            }
            if let Some(&p) = line.parent.as_deref().and_then(|p| by_uuid.get(p)) {
                if p != i {
                    parent_of[i] = Some(p);
                    has_child[p] = true;
                }
            }
        }
        Tree {
            parent_of,
            has_child,
            in_tree,
        }
    }

    /// The newest leaf among the lines `pick` accepts, preferring message lines.
    fn newest_leaf(&self, lines: &[LineRecord], pick: impl Fn(usize) -> bool) -> Option<usize> {
        (0..lines.len())
            .filter(|&i| self.in_tree[i] && !self.has_child[i] && pick(i))
            .max_by_key(|&i| {
                let is_message = matches!(lines[i].body, Body::Message { .. });
                (is_message, lines[i].timestamp, i)
            })
    }

    /// From `leaf` back to its root, returned root first.
    fn walk(&self, leaf: usize) -> Vec<usize> {
        let mut chain = vec![leaf];
        let mut seen: HashSet<usize> = HashSet::from([leaf]);
        let mut at = leaf;
        while let Some(p) = self.parent_of[at] {
            if !seen.insert(p) {
                break; // a cycle in malformed input
            }
            chain.push(p);
            at = p;
        }
        chain.reverse();
        chain
    }

    /// The topmost sidechain ancestor of a sidechain line.
    fn root_within(&self, mut at: usize, lines: &[LineRecord]) -> usize {
        let mut steps = 0;
        while let Some(p) = self.parent_of[at] {
            if !lines[p].sidechain || steps > lines.len() {
                break;
            }
            at = p;
            steps += 1;
        }
        at
    }
}

fn system_item(line: &Value) -> ContentItem {
    let subtype = line.get("subtype").and_then(Value::as_str).unwrap_or("");
    let level = match line.get("level").and_then(Value::as_str) {
        Some("warning") => SystemLevel::Warning,
        Some("error") => SystemLevel::Error,
        _ => SystemLevel::Info,
    };
    let content = if subtype == "compact_boundary" {
        let meta = line.get("compactMetadata");
        let trigger = meta
            .and_then(|m| m.get("trigger"))
            .and_then(Value::as_str)
            .unwrap_or("unknown");
        match meta
            .and_then(|m| m.get("preTokens"))
            .and_then(Value::as_u64)
        {
            Some(tokens) => {
                format!("Conversation compacted (trigger: {trigger}, {tokens} tokens before)")
            }
            None => format!("Conversation compacted (trigger: {trigger})"),
        }
    } else {
        match line.get("content") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => format!("[{subtype}]"),
        }
    };
    ContentItem::System {
        level,
        content,
        tool_use_id: line
            .get("toolUseID")
            .and_then(Value::as_str)
            .map(str::to_owned),
    }
}

fn push_line_meta(message: &mut Message, meta: Map<String, Value>) {
    if let Some(lines) = message
        .metadata
        .as_mut()
        .and_then(|m| m.get_mut(META_KEY))
        .and_then(|c| c.get_mut("lines"))
        .and_then(Value::as_array_mut)
    {
        lines.push(Value::Object(meta));
    }
}

fn set_meta(conv: &mut ImportedConversation, key: &str, value: Value) {
    if let Some(obj) = conv
        .metadata
        .as_mut()
        .and_then(|m| m.get_mut(META_KEY))
        .and_then(Value::as_object_mut)
    {
        obj.insert(key.to_owned(), value);
    }
}

/// A line that is no message of a chain, as written in the file.
fn take_raw(line: &mut LineRecord, names: &ToolNames) -> Value {
    match std::mem::replace(&mut line.body, Body::Taken) {
        Body::Raw(json) => json,
        Body::Message {
            role, items, meta, ..
        } => restore_line(role, &items, &meta, names),
        Body::Taken => Value::Null,
    }
}

/// The original line for `items` under the line record `meta` (`json`, `originals`,
/// `content_string`, ...): what the file held.
pub fn restore_line(
    role: Role,
    items: &[ContentItem],
    meta: &Map<String, Value>,
    names: &ToolNames,
) -> Value {
    let mut json = meta.get("json").cloned().unwrap_or(Value::Null);
    if meta.get("derived").and_then(Value::as_bool) == Some(true)
        || meta.get("content_absent").and_then(Value::as_bool) == Some(true)
    {
        return json;
    }
    let content = match (
        meta.get("content_string").and_then(Value::as_bool) == Some(true),
        items,
    ) {
        (true, [ContentItem::UserMessage { text }]) => Value::String(text.clone()),
        (true, [ContentItem::AssistantMessage { structured }]) => {
            Value::String(structured.full_text.clone())
        }
        _ => Value::Array(items_to_blocks(
            role,
            items,
            meta.get("originals").and_then(Value::as_object),
            names,
        )),
    };
    if let Some(message) = json.get_mut("message").and_then(Value::as_object_mut) {
        message.insert("content".into(), content);
    }
    json
}

/// `(tool-use id, prompt, description)` of the calls that start sub-agents.
fn task_calls(messages: &[Message]) -> Vec<(String, String, String)> {
    messages
        .iter()
        .flat_map(|m| &m.content)
        .filter_map(|item| match item {
            ContentItem::ToolCall { id, name, input } if name == "Task" || name == "Agent" => {
                let field = |k: &str| input.get(k).and_then(Value::as_str).unwrap_or("");
                Some((
                    id.clone(),
                    field("prompt").to_owned(),
                    field("description").to_owned(),
                ))
            }
            _ => None,
        })
        .collect()
}

fn first_text(messages: &[Message]) -> Option<String> {
    messages.first()?.content.iter().find_map(|i| match i {
        ContentItem::UserMessage { text } => Some(text.clone()),
        _ => None,
    })
}

fn chain_agent_id(lines: &[LineRecord], chain: &[usize]) -> Value {
    chain
        .iter()
        .find_map(|&i| match &lines[i].body {
            Body::Message { meta, .. } => meta.get("json").and_then(|j| j.get("agentId")).cloned(),
            _ => None,
        })
        .unwrap_or(Value::Null)
}

fn is_meta_message(message: &Message) -> bool {
    message
        .metadata
        .as_ref()
        .and_then(|m| m.get(META_KEY))
        .and_then(|c| c.get("lines"))
        .and_then(|l| l.get(0))
        .and_then(|l| l.get("json"))
        .is_some_and(|j| {
            j.get("isMeta").and_then(Value::as_bool) == Some(true)
                || j.get("isCompactSummary").and_then(Value::as_bool) == Some(true)
        })
}

fn display_name(messages: &[Message], extras: &[Value]) -> String {
    let summary = extras.iter().rev().find_map(|e| {
        let json = e.get("json")?;
        match json.get("type")?.as_str()? {
            "summary" => json.get("summary")?.as_str(),
            "custom-title" => json.get("customTitle")?.as_str(),
            _ => None,
        }
    });
    if let Some(name) = summary.and_then(|s| title_from(s, 80)) {
        return name;
    }
    messages
        .iter()
        .filter(|m| m.role == Role::User && !is_meta_message(m))
        .find_map(|m| match m.content.first() {
            Some(ContentItem::UserMessage { text }) => title_from(text, 60),
            _ => None,
        })
        .unwrap_or_else(|| "Claude Code session".to_owned())
}

fn prefix(session: &str) -> &str {
    session.get(..8).unwrap_or(session)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(uuid: &str, parent: Option<&str>, kind: &str, content: Value, extra: Value) -> String {
        let mut v = json!({
            "uuid": uuid, "parentUuid": parent, "type": kind, "sessionId": "s1",
            "timestamp": "2025-09-03T00:47:19.293Z", "cwd": "/p", "isSidechain": false,
            "message": {"role": kind, "content": content},
        });
        if let (Some(obj), Value::Object(more)) = (v.as_object_mut(), extra) {
            obj.extend(more);
        }
        v.to_string()
    }

    #[test]
    fn the_newest_branch_wins_and_the_other_is_kept_as_extra() {
        let text = [
            line("a", None, "user", json!("hello"), json!({})),
            line(
                "b",
                Some("a"),
                "assistant",
                json!([{"type": "text", "text": "old answer"}]),
                json!({"timestamp": "2025-09-03T00:47:20Z"}),
            ),
            line(
                "c",
                Some("a"),
                "assistant",
                json!([{"type": "text", "text": "new answer"}]),
                json!({"timestamp": "2025-09-03T00:47:30Z"}),
            ),
            "{\"type\":\"summary\",\"summary\":\"Greeting\",\"leafUuid\":\"c\"}".to_owned(),
            "not json".to_owned(),
        ]
        .join("\n");
        let parsed = ClaudeCodeParser::parse_str("s.jsonl", &text, "h");
        assert_eq!(parsed.conversations.len(), 1);
        let conv = &parsed.conversations[0];
        assert_eq!(conv.messages.len(), 2);
        assert_eq!(conv.display_name, "Greeting");
        assert_eq!(conv.source_key, "claude-code:s1");
        let extras = &conv.metadata.as_ref().unwrap()[META_KEY]["extras"];
        assert_eq!(extras.as_array().unwrap().len(), 2, "{extras}");
        assert_eq!(parsed.skipped.len(), 1);
        assert_eq!(parsed.skipped[0].line, Some(5));
    }

    #[test]
    fn compaction_keeps_history_and_marks_the_boundary() {
        let boundary = json!({"type": "system", "subtype": "compact_boundary", "uuid": "c",
            "parentUuid": null, "logicalParentUuid": "b", "sessionId": "s1",
            "timestamp": "2025-09-03T00:48:00Z", "isSidechain": false,
            "compactMetadata": {"trigger": "auto", "preTokens": 155000}, "content": "Conversation compacted"});
        let text = [
            line("a", None, "user", json!("hello"), json!({})),
            line(
                "b",
                Some("a"),
                "assistant",
                json!([{"type": "text", "text": "hi"}]),
                json!({}),
            ),
            boundary.to_string(),
            line(
                "d",
                Some("c"),
                "user",
                json!("This session is being continued…"),
                json!({"isCompactSummary": true}),
            ),
        ]
        .join("\n");
        let parsed = ClaudeCodeParser::parse_str("s.jsonl", &text, "h");
        let conv = &parsed.conversations[0];
        assert_eq!(conv.messages.len(), 4);
        assert_eq!(conv.messages[2].role, Role::System);
        match &conv.messages[2].content[0] {
            ContentItem::System { content, .. } => assert!(content.contains("155000"), "{content}"),
            other => panic!("{other:?}"),
        }
    }
}
