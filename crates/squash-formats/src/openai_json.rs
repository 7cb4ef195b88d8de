//! OpenAI-style chat JSON: `{"messages": [...]}`, a bare array of messages, or an SWE-agent
//! trajectory (`{"history": [...], "trajectory": ..., "info": ...}`). Assistant `tool_calls`
//! become tool calls (arguments parsed from their JSON string), `tool` replies tool results.
//!
//! Some producers reuse a tool-call id for several calls (SWE-agent replays do). Our threads pair
//! a call with its result by id, so a repeated id is renamed `id-2`, `id-3`, ... (characters the
//! model APIs accept in ids) and each reply pairs with the latest call of its id; the original
//! ids stay in the message metadata.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{
    ContentItem, ConversationId, ImageSource, Message, Role, SourceFormat, SystemLevel,
    ToolResultData,
};

use crate::anthropic_json::short;
use crate::fields::{imported_message, take_field, title_from};
use crate::swe_agent;
use crate::{FormatError, ImportedConversation, Parsed, SOURCE_ID_KEY};

pub const META_KEY: &str = "openai";

/// Tool-call ids as written and as imported.
#[derive(Default)]
struct CallIds {
    seen: HashMap<String, usize>,
    latest: HashMap<String, String>,
    names: HashMap<String, String>,
    renamed: usize,
    last_function: Option<String>,
}

impl CallIds {
    fn call(&mut self, id: &str, name: &str) -> String {
        let n = self.seen.entry(id.to_owned()).or_insert(0);
        *n += 1;
        let unique = if *n == 1 {
            id.to_owned()
        } else {
            self.renamed += 1;
            format!("{id}-{n}")
        };
        self.latest.insert(id.to_owned(), unique.clone());
        self.names.insert(unique.clone(), name.to_owned());
        self.last_function = Some(unique.clone());
        unique
    }

    fn reply(&self, id: &str) -> String {
        self.latest
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_owned())
    }
}

fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn content_items(role: Role, content: &Value) -> Vec<ContentItem> {
    match content {
        Value::Null => Vec::new(),
        Value::String(s) if s.is_empty() && role == Role::Assistant => Vec::new(),
        Value::String(s) => vec![ContentItem::text_for(role, s.as_str())],
        Value::Array(parts) => parts
            .iter()
            .map(|p| match p.get("type").and_then(Value::as_str) {
                Some("text" | "input_text" | "output_text") => ContentItem::text_for(
                    role,
                    p.get("text").and_then(Value::as_str).unwrap_or_default(),
                ),
                Some("image_url") => match p
                    .get("image_url")
                    .and_then(|u| u.get("url").or(Some(u)))
                    .and_then(Value::as_str)
                {
                    Some(url) => ContentItem::Image {
                        source: ImageSource::Url {
                            url: url.to_owned(),
                        },
                    },
                    None => ContentItem::UnknownJson { json: p.clone() },
                },
                _ => ContentItem::UnknownJson { json: p.clone() },
            })
            .collect(),
        other => vec![ContentItem::UnknownJson {
            json: other.clone(),
        }],
    }
}

fn arguments(value: Option<&Value>) -> Value {
    match value {
        // Arguments are a JSON document in a string; keep the string when it is not one.
        Some(Value::String(s)) => {
            serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone()))
        }
        Some(other) => other.clone(),
        None => Value::Null,
    }
}

/// Parses an OpenAI-style document.
pub fn parse(
    source_name: &str,
    doc: Value,
    content_hash: &str,
    now: DateTime<Utc>,
) -> Result<Parsed, FormatError> {
    let (raw_messages, rest) = split_document(source_name, doc)?;
    let conversation_id = ConversationId::new();
    let mut parsed = Parsed::default();
    let mut ids = CallIds::default();
    let mut messages = Vec::with_capacity(raw_messages.len());
    // A record is one entry of the message list.
    parsed.records.lines = raw_messages.len();
    for (i, mut raw) in raw_messages.into_iter().enumerate() {
        let content = take_field(&mut raw, "content").unwrap_or(Value::Null);
        let Some((role, items)) = items_of(&raw, &content, i, &mut ids) else {
            let role = raw.get("role").cloned().unwrap_or(Value::Null);
            parsed.skip_message(source_name, i, &format!("unknown role {role}"));
            continue;
        };
        parsed.record_message();
        let metadata = kept_metadata(raw, content, i);
        let at = now + chrono::Duration::microseconds(i as i64);
        messages.push(imported_message(conversation_id, role, items, metadata, at));
    }
    if ids.renamed > 0 {
        parsed.warnings.push(format!(
            "{source_name}: {} repeated tool-call id(s) renamed (id-2, id-3, …) so that each call \
             pairs with its own result; the original ids are kept in the message metadata",
            ids.renamed
        ));
    }
    let name = title(&rest, &messages).unwrap_or_else(|| format!("Chat {}", short(source_name)));
    let mut conv = ImportedConversation::linear(
        SourceFormat::OpenAi,
        format!("openai:{source_name}"),
        conversation_id,
        name,
        messages,
        now,
    );
    conv.content_hash = content_hash.to_owned();
    conv.project_path = swe_agent::repository(&rest);
    if !rest.is_empty() {
        conv.metadata = Some(json!({META_KEY: Value::Object(rest)}));
    }
    parsed.conversations.push(conv);
    Ok(parsed)
}

/// The message list of a document (a bare list, `messages`, or an SWE-agent `history`) and the
/// document's other fields.
fn split_document(
    source_name: &str,
    doc: Value,
) -> Result<(Vec<Value>, Map<String, Value>), FormatError> {
    match doc {
        Value::Array(list) => Ok((list, Map::new())),
        Value::Object(mut top) => match top.remove("messages").or_else(|| top.remove("history")) {
            Some(Value::Array(list)) => Ok((list, top)),
            _ => Err(FormatError::invalid(
                source_name,
                "expected a \"messages\" (or SWE-agent \"history\") array",
            )),
        },
        _ => Err(FormatError::invalid(
            source_name,
            "expected a JSON object or array",
        )),
    }
}

/// The role and content items of entry `i`; `None` for a role this format does not have.
fn items_of(
    raw: &Value,
    content: &Value,
    i: usize,
    ids: &mut CallIds,
) -> Option<(Role, Vec<ContentItem>)> {
    Some(match raw.get("role").and_then(Value::as_str)? {
        "system" | "developer" => (
            Role::System,
            vec![ContentItem::System {
                level: SystemLevel::Info,
                content: text_of(content),
                tool_use_id: None,
            }],
        ),
        "user" => (Role::User, content_items(Role::User, content)),
        "assistant" => (Role::Assistant, assistant_items(raw, content, i, ids)),
        "tool" | "function" => (Role::User, tool_result_items(raw, content, ids)),
        _ => return None,
    })
}

/// An assistant entry's text and its calls (`tool_calls`, or the older `function_call`).
fn assistant_items(raw: &Value, content: &Value, i: usize, ids: &mut CallIds) -> Vec<ContentItem> {
    let mut items = content_items(Role::Assistant, content);
    if let Some(calls) = raw.get("tool_calls").and_then(Value::as_array) {
        for call in calls {
            let function = call.get("function");
            let name = function
                .and_then(|f| f.get("name"))
                .and_then(Value::as_str)
                .unwrap_or("tool");
            let original = call
                .get("id")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .unwrap_or_else(|| format!("call_{i}_{}", items.len()));
            items.push(ContentItem::tool_call(
                ids.call(&original, name),
                name,
                arguments(function.and_then(|f| f.get("arguments"))),
            ));
        }
    }
    if let Some(call) = raw.get("function_call") {
        let name = call
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("function");
        items.push(ContentItem::tool_call(
            ids.call(&format!("function_call_{i}"), name),
            name,
            arguments(call.get("arguments")),
        ));
    }
    items
}

/// A tool (or function) entry: one result per call it answers (`tool_call_id`, the list
/// `tool_call_ids`, else the last function call).
fn tool_result_items(raw: &Value, content: &Value, ids: &mut CallIds) -> Vec<ContentItem> {
    let mut targets: Vec<String> = Vec::new();
    if let Some(id) = raw.get("tool_call_id").and_then(Value::as_str) {
        targets.push(ids.reply(id));
    }
    if let Some(list) = raw.get("tool_call_ids").and_then(Value::as_array) {
        targets.extend(
            list.iter()
                .filter_map(Value::as_str)
                .map(|id| ids.reply(id)),
        );
    }
    if targets.is_empty() {
        targets.extend(ids.last_function.clone());
    }
    let text = text_of(content);
    targets
        .into_iter()
        .map(|id| ContentItem::ToolResult {
            // No name in the entry and no call of that id: the name is unknown (empty).
            tool_name: raw
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .or_else(|| ids.names.get(&id).cloned())
                .unwrap_or_default(),
            tool_use_id: id,
            result: vec![ToolResultData::Text { text: text.clone() }],
            is_error: false,
        })
        .collect()
}

/// The metadata of entry `i`: the entry as it was (its content form, and its content when that
/// was a list of parts), so an export can write it back.
fn kept_metadata(raw: Value, content: Value, i: usize) -> Value {
    let form = match &content {
        Value::String(_) => "string",
        Value::Null => "null",
        _ => "parts",
    };
    let mut original = raw;
    if let Some(obj) = original.as_object_mut() {
        if form == "parts" {
            obj.insert("content".into(), content);
        }
    }
    json!({
        SOURCE_ID_KEY: format!("message:{i}"),
        META_KEY: {"content_form": form, "message": original},
    })
}

/// The conversation's name: an SWE-agent trajectory's problem statement, else the first user
/// message that is not part of a demonstration.
fn title(top: &Map<String, Value>, messages: &[Message]) -> Option<String> {
    if let Some(title) = swe_agent::problem_statement(top).and_then(|t| title_from(&t, 60)) {
        return Some(title);
    }
    messages
        .iter()
        .filter(|m| m.role == Role::User)
        .filter(|m| {
            let raw = m
                .metadata
                .as_ref()
                .and_then(|meta| meta[META_KEY].get("message"));
            !raw.is_some_and(swe_agent::is_demonstration)
        })
        .find_map(|m| match m.content.first() {
            Some(ContentItem::UserMessage { text }) => title_from(swe_agent::task_text(text), 60),
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trajectory() -> Value {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/sessions/swe-agent-marshmallow-1867.traj"
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn trajectories_are_named_after_their_task_and_repository() {
        let parsed = parse("m.traj", trajectory(), "h", Utc::now()).unwrap();
        let conv = &parsed.conversations[0];
        assert_eq!(conv.display_name, "TimeDelta serialization precision");
        assert_eq!(
            conv.project_path.as_deref(),
            Some("marshmallow-code/marshmallow")
        );
        assert_eq!(parsed.records.lines, 24);
        assert!(parsed.records.balanced(), "{:?}", parsed.records);

        // Another task, run with the marshmallow demonstration in its history (as SWE-agent puts
        // it with `put_demos_in_history`): the demonstration's issue comes first.
        let mut doc = trajectory();
        let history = doc["history"].as_array_mut().unwrap();
        let demo = history[1].clone();
        history[1]["content"] = json!(
            "We're currently solving the following issue within our repository. Here's the issue \
             text:\nISSUE:\nQuery strings lose repeated keys\nWhen a URL has ?a=1&a=2 ..."
        );
        let mut demo_entry = demo.clone();
        demo_entry["is_demo"] = json!(true);
        history.insert(1, demo_entry);
        let mut demo_message = demo;
        demo_message["message_type"] = json!("demonstration");
        history.insert(1, demo_message);
        let statement = &mut doc["replay_config"]["problem_statement"];
        statement["text"] = json!("Query strings lose repeated keys\nWhen a URL has ?a=1&a=2 ...");
        statement["id"] = json!("encode__httpx-2701");
        let parsed = parse("h.traj", doc.clone(), "h", Utc::now()).unwrap();
        let conv = &parsed.conversations[0];
        assert_eq!(conv.display_name, "Query strings lose repeated keys");
        assert_eq!(conv.project_path.as_deref(), Some("encode/httpx"));
        assert_eq!(conv.messages.len(), 26, "the demonstration is kept");

        // Without the run configuration: the first user message that is not a demonstration.
        doc.as_object_mut().unwrap().remove("replay_config");
        let parsed = parse("h.traj", doc, "h", Utc::now()).unwrap();
        let conv = &parsed.conversations[0];
        assert_eq!(conv.display_name, "Query strings lose repeated keys");
        assert_eq!(conv.project_path, None);
    }

    #[test]
    fn repeated_call_ids_pair_with_their_own_results() {
        let doc = json!({"messages": [
            {"role": "system", "content": "tools"},
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c", "type": "function",
                "function": {"name": "bash", "arguments": "{\"command\":\"ls\"}"}}]},
            {"role": "tool", "tool_call_id": "c", "content": "a b"},
            {"role": "assistant", "content": "again", "tool_calls": [{"id": "c", "type": "function",
                "function": {"name": "bash", "arguments": "not json"}}]},
            {"role": "tool", "tool_call_ids": ["c"], "content": [{"type": "text", "text": "c d"}]},
        ]});
        let parsed = parse("t.json", doc, "h", Utc::now()).unwrap();
        let conv = &parsed.conversations[0];
        assert_eq!(conv.messages.len(), 6);
        assert_eq!(parsed.records.lines, 6);
        assert!(parsed.records.balanced(), "{:?}", parsed.records);
        assert_eq!(
            conv.messages[2].content.len(),
            1,
            "empty assistant text is dropped"
        );
        let ids: Vec<String> = conv
            .messages
            .iter()
            .flat_map(|m| m.tool_refs().calls.into_iter().chain(m.tool_refs().results))
            .collect();
        assert_eq!(ids, ["c", "c", "c-2", "c-2"]);
        assert_eq!(parsed.warnings.len(), 1);
        match &conv.messages[4].content[1] {
            ContentItem::ToolCall { input, .. } => assert_eq!(input, &json!("not json")),
            other => panic!("{other:?}"),
        }
    }
}
