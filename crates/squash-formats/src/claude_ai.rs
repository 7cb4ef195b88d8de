//! The claude.ai data export (`conversations.json` in the archive "Export data" mails): a JSON
//! list of conversations `{uuid, name, summary, created_at, updated_at, account, chat_messages}`,
//! each chat message `{uuid, text, content: [blocks], sender: human|assistant, created_at,
//! attachments, files, parent_message_uuid}`.
//!
//! Blocks are `text`, `thinking` (no signature: it cannot be sent back to the API as thinking,
//! so it is kept as thinking without one), and the server-side tools' `tool_use` / `tool_result`
//! (artifacts, web search, analysis), which claude.ai keeps inside the assistant's message:
//! they are split so that each call is answered by a user message holding its result, as the
//! model APIs have it. A call without an id is paired with the next result of its tool.
//! Attachments (their extracted text) and files become text content of the message that
//! carried them.
//!
//! Newer exports link each message to its parent (`parent_message_uuid`): edits and retries
//! make a tree, whose newest branch is the current thread and every other branch a thread
//! derived from it. The records of the import report are the chat messages.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{ContentItem, ConversationId, Message, MessageId, Role, SourceFormat};

use crate::chatgpt::conversation::thread_list;
use crate::chatgpt::tree::Tree;
use crate::data_export::{self, DataExport, ExportConversation};
use crate::fields::{imported_message, parse_time, result_text, str_or, title_from};
use crate::{ImportedConversation, Parsed, SOURCE_ID_KEY};

pub const META_KEY: &str = "claude_ai";

/// The parent claude.ai gives the first message of a conversation.
const ROOT_PARENT: &str = "00000000-0000-4000-8000-000000000000";

/// The export's reader, one conversation at a time.
pub(crate) const EXPORT: DataExport = DataExport {
    what: "a claude.ai export",
    conversation,
};

/// Whether a parsed document is a claude.ai export: a conversation with `chat_messages`, or a
/// list whose first element is one.
pub fn looks_like(doc: &Value) -> bool {
    data_export::first_conversation(doc)
        .and_then(|c| c.get("chat_messages"))
        .is_some_and(Value::is_array)
}

/// Whether the beginning of a document too long to parse whole looks like a claude.ai export.
pub fn head_looks_like(text: &str) -> bool {
    let t = text.trim_start();
    (t.starts_with('[') || t.starts_with('{'))
        && t.contains("\"chat_messages\"")
        && t.contains("\"sender\"")
}

fn conversation(export: ExportConversation<'_>, parsed: &mut Parsed) {
    let (source_name, what, mut fields) = (export.source_name, export.what, export.fields);
    let now = export.now;
    let list = match fields.remove("chat_messages") {
        Some(Value::Array(list)) => list,
        _ => {
            parsed.records.lines += 1;
            parsed.skip_record(source_name, None, format!("{what}: no `chat_messages`"));
            return;
        }
    };
    parsed.records.lines += list.len();
    let conversation_id = ConversationId::new();
    let fallback = parse_time(fields.get("created_at")).unwrap_or(now);
    let mut messages = Vec::new();
    // The chat message each Squash message came from, for the tree.
    let mut from: Vec<(String, Option<String>, Vec<MessageId>)> = Vec::new();
    for (i, raw) in list.into_iter().enumerate() {
        let Value::Object(raw) = raw else {
            let reason = format!("{what}: message {} is not a JSON object", i + 1);
            parsed.skip_record(source_name, None, reason);
            continue;
        };
        let made = chat_message(&raw, conversation_id, fallback, i);
        if made.is_empty() {
            let reason = format!("{what}: message {} has no content", i + 1);
            parsed.skip_record(source_name, None, reason);
            continue;
        }
        parsed.record_message();
        let mut uuid = field(&raw, "uuid").unwrap_or_else(|| format!("message-{i}"));
        // A uuid given twice is a second message, not the first one again: it gets a node of
        // its own in the tree, or its links would be on no branch.
        if from.iter().any(|(seen, _, _)| *seen == uuid) {
            parsed.warnings.push(format!(
                "{source_name}: {what}: message {} repeats the uuid {uuid:?}; kept as a message of its own",
                i + 1
            ));
            uuid = format!("{uuid}#{i}");
        }
        let parent = field(&raw, "parent_message_uuid").filter(|p| p != ROOT_PARENT);
        from.push((uuid, parent, made.iter().map(|m| m.id).collect()));
        messages.extend(made);
    }
    if messages.is_empty() {
        let name = field(&fields, "name").unwrap_or_default();
        parsed.warnings.push(format!(
            "{source_name}: {what} {name:?} has no message with content; not imported"
        ));
        return;
    }
    let lists = branches(&from, fields.get("current_leaf_message_uuid"));
    let threads = thread_list(lists, &messages, now);
    let uuid = field(&fields, "uuid").unwrap_or_else(|| format!("{source_name}#{}", export.index));
    let name = field(&fields, "name")
        .and_then(|n| title_from(&n, 80))
        .or_else(|| first_request(&messages))
        .unwrap_or_else(|| "claude.ai conversation".to_owned());
    let mut conv = ImportedConversation::linear(
        SourceFormat::ClaudeAi,
        format!("claude-ai:{uuid}"),
        conversation_id,
        name,
        messages,
        now,
    );
    conv.appendable = threads.len() == 1;
    conv.current_thread_id = threads.first().map_or(conv.current_thread_id, |t| t.id);
    conv.threads = threads;
    conv.content_hash = export.hash;
    if let Some(t) = parse_time(fields.get("created_at")) {
        conv.created_at = conv.created_at.min(t);
    }
    conv.metadata = Some(json!({META_KEY: Value::Object(fields)}));
    parsed.conversations.push(conv);
}

fn field(obj: &Map<String, Value>, key: &str) -> Option<String> {
    obj.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

fn first_request(messages: &[Message]) -> Option<String> {
    messages.iter().find_map(|m| match m.content.first() {
        Some(ContentItem::UserMessage { text }) if m.role == Role::User => title_from(text, 60),
        _ => None,
    })
}

/// The link lists of the branches, the current one first: the branch to the named leaf, else
/// to the newest message. Without parent links the messages make one branch in order.
fn branches(
    from: &[(String, Option<String>, Vec<MessageId>)],
    current_leaf: Option<&Value>,
) -> Vec<Vec<MessageId>> {
    if from.iter().all(|(_, parent, _)| parent.is_none()) {
        return vec![from.iter().flat_map(|(_, _, ids)| ids.clone()).collect()];
    }
    let nodes: Vec<(&str, Option<&str>)> = from
        .iter()
        .map(|(id, parent, _)| (id.as_str(), parent.as_deref()))
        .collect();
    let tree = Tree::new(&nodes);
    let ids: HashMap<&str, &Vec<MessageId>> =
        from.iter().map(|(id, _, ids)| (id.as_str(), ids)).collect();
    let links = |leaf: &str| -> Vec<MessageId> {
        tree.path_to(leaf)
            .iter()
            .filter_map(|n| ids.get(n))
            .flat_map(|ids| ids.iter().copied())
            .collect()
    };
    let leaves = tree.leaves();
    let named = current_leaf
        .and_then(Value::as_str)
        .filter(|l| leaves.contains(l));
    // The messages are listed in the order they were written: the last leaf is the newest.
    let current = named.or_else(|| leaves.last().copied()).unwrap_or_default();
    let mut lists = vec![links(current)];
    lists.extend(leaves.iter().filter(|l| **l != current).map(|l| links(l)));
    // Messages no root reaches (parents that point at each other) are a branch of their own,
    // in file order: nothing read is left off every thread.
    let on_a_branch: HashSet<MessageId> = lists.iter().flatten().copied().collect();
    let unreached: Vec<MessageId> = from
        .iter()
        .flat_map(|(_, _, ids)| ids.iter().copied())
        .filter(|id| !on_a_branch.contains(id))
        .collect();
    if !unreached.is_empty() {
        lists.push(unreached);
    }
    lists
}

/// One chat message as Squash messages: a human message is one user message; an assistant
/// message is split after each server-side tool result.
fn chat_message(
    raw: &Map<String, Value>,
    conversation_id: ConversationId,
    fallback: DateTime<Utc>,
    index: usize,
) -> Vec<Message> {
    let time = parse_time(raw.get("created_at")).unwrap_or(fallback);
    let uuid = field(raw, "uuid").unwrap_or_else(|| format!("message-{index}"));
    let sender = raw.get("sender").and_then(Value::as_str).unwrap_or("");
    let role = if sender == "assistant" {
        Role::Assistant
    } else {
        Role::User
    };
    let mut kept = raw.clone();
    for k in ["content", "text", "attachments", "files"] {
        kept.remove(k);
    }
    let mut groups: Vec<(Role, Vec<ContentItem>)> = vec![(role, Vec::new())];
    let mut calls = PendingCalls::default();
    let blocks = match raw.get("content") {
        Some(Value::Array(blocks)) if !blocks.is_empty() => blocks.clone(),
        // Older exports: the text alone.
        _ => vec![json!({"type": "text", "text": raw.get("text").cloned().unwrap_or_default()})],
    };
    for (b, block) in blocks.iter().enumerate() {
        match block.get("type").and_then(Value::as_str) {
            Some("tool_result") => {
                let item = calls.result(block, &uuid, b);
                push(&mut groups, Role::User, item);
            }
            Some("tool_use") => {
                let item = calls.call(block, &uuid, b);
                push(&mut groups, Role::Assistant, item);
            }
            _ => {
                if let Some(item) = block_item(role, block) {
                    let back = groups.last().map_or(role, |(r, _)| *r);
                    let to = if back == Role::User && role == Role::Assistant {
                        Role::Assistant
                    } else {
                        back
                    };
                    push(&mut groups, to, item);
                }
            }
        }
    }
    for item in attachments(raw, role) {
        push(&mut groups, role, item);
    }
    let parts = groups.len();
    groups
        .into_iter()
        .filter(|(_, items)| !items.is_empty())
        .enumerate()
        .map(|(g, (role, content))| {
            let source = if parts == 1 {
                format!("message:{uuid}")
            } else {
                format!("message:{uuid}#{g}")
            };
            let metadata = json!({SOURCE_ID_KEY: source, META_KEY: {"message": kept}});
            let at = time + chrono::Duration::microseconds(g as i64);
            imported_message(conversation_id, role, content, metadata, at)
        })
        .collect()
}

fn push(groups: &mut Vec<(Role, Vec<ContentItem>)>, role: Role, item: ContentItem) {
    match groups.last_mut() {
        Some((r, items)) if *r == role => items.push(item),
        _ => groups.push((role, vec![item])),
    }
}

fn block_item(role: Role, block: &Value) -> Option<ContentItem> {
    let text = |k: &str| block.get(k).and_then(Value::as_str).unwrap_or("");
    match block.get("type").and_then(Value::as_str) {
        Some("text") => {
            let t = text("text");
            (!t.is_empty()).then(|| ContentItem::text_for(role, t))
        }
        Some("thinking") => {
            let t = text("thinking");
            (!t.trim().is_empty()).then(|| ContentItem::Thinking {
                signature: text("signature").to_owned(),
                thinking: t.to_owned(),
            })
        }
        _ => Some(ContentItem::UnknownJson {
            json: block.clone(),
        }),
    }
}

/// Server-side tool calls waiting for their results, by tool name for calls without an id.
#[derive(Default)]
struct PendingCalls {
    by_name: HashMap<String, Vec<String>>,
}

impl PendingCalls {
    fn call(&mut self, block: &Value, uuid: &str, b: usize) -> ContentItem {
        let name = str_or(block, "name", "tool").to_owned();
        let id = non_empty(block, "id")
            .map_or_else(|| format!("toolu_{}_{b}", short_id(uuid)), str::to_owned);
        self.by_name
            .entry(name.clone())
            .or_default()
            .push(id.clone());
        ContentItem::tool_call(id, name, block.get("input").cloned().unwrap_or(json!({})))
    }

    fn result(&mut self, block: &Value, uuid: &str, b: usize) -> ContentItem {
        let name = str_or(block, "name", "tool").to_owned();
        let named = non_empty(block, "tool_use_id").map(str::to_owned);
        let pending = self.by_name.entry(name.clone()).or_default();
        let id = match named {
            Some(id) => {
                pending.retain(|p| *p != id);
                id
            }
            None if !pending.is_empty() => pending.remove(0),
            None => format!("toolu_{}_{b}_result", short_id(uuid)),
        };
        ContentItem::tool_result(
            id,
            name,
            result_text(block.get("content")),
            block.get("is_error").and_then(Value::as_bool) == Some(true),
        )
    }
}

/// The block's string `key`, unless it is missing or empty.
fn non_empty<'a>(block: &'a Value, key: &str) -> Option<&'a str> {
    block
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

fn short_id(uuid: &str) -> String {
    uuid.chars()
        .filter(char::is_ascii_alphanumeric)
        .take(12)
        .collect()
}

/// Attachments (with the text claude.ai extracted from them) and files, as text.
fn attachments(raw: &Map<String, Value>, role: Role) -> Vec<ContentItem> {
    let mut out = Vec::new();
    let mut named = std::collections::HashSet::new();
    let list = |k: &str| {
        raw.get(k)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    for a in list("attachments") {
        let name = a
            .get("file_name")
            .and_then(Value::as_str)
            .unwrap_or("attachment");
        let kind = a.get("file_type").and_then(Value::as_str).unwrap_or("");
        let body = a
            .get("extracted_content")
            .and_then(Value::as_str)
            .unwrap_or("");
        let kind = if kind.is_empty() {
            String::new()
        } else {
            format!(" ({kind})")
        };
        named.insert(name.to_owned());
        out.push(ContentItem::text_for(
            role,
            format!("[attachment {name}{kind}]\n{body}"),
        ));
    }
    for f in list("files").into_iter().chain(list("files_v2")) {
        if let Some(name) = f.get("file_name").and_then(Value::as_str) {
            if named.insert(name.to_owned()) {
                out.push(ContentItem::text_for(role, format!("[file {name}]")));
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "claude_ai_tests.rs"]
mod tests;
