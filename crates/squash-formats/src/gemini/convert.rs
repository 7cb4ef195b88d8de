//! One message record of a recording as Squash messages.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{ContentItem, ConversationId, ImageSource, Message, Role, SystemLevel};

use super::META_KEY;
use crate::fields::{imported_message, parse_time};
use crate::SOURCE_ID_KEY;

/// The context block the CLI sends before the first request (and skips when it resumes).
pub(super) const SESSION_CONTEXT: &str = "<session_context>";

/// What a record became: its messages (none for results already recorded on their calls) and
/// the call ids it answered.
pub(super) struct Converted {
    pub messages: Vec<Message>,
    pub answered: Vec<String>,
}

pub(super) fn record(
    record: &Map<String, Value>,
    conversation_id: ConversationId,
    now: DateTime<Utc>,
    answered: &HashSet<String>,
) -> Converted {
    let id = record.get("id").and_then(Value::as_str).unwrap_or_default();
    let time = parse_time(record.get("timestamp")).unwrap_or(now);
    let new = |role, content, source: String, kept: Value, at| {
        let metadata = json!({SOURCE_ID_KEY: source, META_KEY: kept});
        imported_message(conversation_id, role, content, metadata, at)
    };
    // A message of this record itself, at its time.
    let own = |role, content, kept| new(role, content, format!("gemini:{id}"), kept, time);
    let content = record.get("content").unwrap_or(&Value::Null);
    let kind = record.get("type").and_then(Value::as_str).unwrap_or("");
    let rest = without(record, &["content", "thoughts", "toolCalls"]);
    let mut out = Converted {
        messages: Vec::new(),
        answered: Vec::new(),
    };
    match kind {
        "user" => {
            let parts = parts_of(content);
            let responses: Vec<&str> = parts.iter().filter_map(response_id).collect();
            if !parts.is_empty()
                && responses.len() == parts.len()
                && responses.iter().all(|r| answered.contains(*r))
            {
                // The results the calls already hold, written again as the user turn.
                return out;
            }
            let items = user_items(&parts);
            if items.is_empty() {
                return out;
            }
            let role = match items.first() {
                Some(ContentItem::System { .. }) => Role::System,
                _ => Role::User,
            };
            out.answered = responses.iter().map(|r| (*r).to_owned()).collect();
            let kept = json!({"record": rest});
            out.messages.push(own(role, items, kept));
        }
        "gemini" => {
            let (items, results, answered_ids, calls) = model_items(record, content);
            if !items.is_empty() {
                let kept = json!({"record": rest, "calls": calls});
                out.messages.push(own(Role::Assistant, items, kept));
            }
            if !results.is_empty() {
                let at = out.messages.last().map_or(time, |m| m.created_at);
                let at = at + chrono::Duration::microseconds(1);
                let source = format!("gemini:{id}_response");
                out.messages.push(new(
                    Role::User,
                    results,
                    source,
                    json!({"results": true}),
                    at,
                ));
            }
            out.answered = answered_ids;
        }
        "info" | "warning" | "error" => {
            let level = match kind {
                "warning" => SystemLevel::Warning,
                "error" => SystemLevel::Error,
                _ => SystemLevel::Info,
            };
            let text = text_of(content);
            if !text.trim().is_empty() {
                let item = ContentItem::System {
                    level,
                    content: text,
                    tool_use_id: None,
                };
                let kept = json!({"record": rest});
                out.messages.push(own(Role::System, vec![item], kept));
            }
        }
        _ => {
            // A record type this reader does not know: kept whole, as content.
            let item = ContentItem::UnknownJson {
                json: Value::Object(record.clone()),
            };
            let kept = json!({"record": {"type": kind}});
            out.messages.push(own(Role::System, vec![item], kept));
        }
    }
    out
}

/// The record minus `keys`.
fn without(record: &Map<String, Value>, keys: &[&str]) -> Value {
    let mut rest = record.clone();
    for k in keys {
        rest.remove(*k);
    }
    Value::Object(rest)
}

/// A content value as a list of parts (a string is one text part).
fn parts_of(content: &Value) -> Vec<Value> {
    match content {
        Value::Array(parts) => parts
            .iter()
            .map(|p| match p {
                Value::String(s) => json!({"text": s}),
                other => other.clone(),
            })
            .collect(),
        Value::String(s) if !s.is_empty() => vec![json!({"text": s})],
        Value::Null | Value::String(_) => Vec::new(),
        other => vec![other.clone()],
    }
}

fn response_id(part: &Value) -> Option<&str> {
    part.get("functionResponse")?.get("id")?.as_str()
}

/// The text parts of a content value, joined.
pub(super) fn text_of(content: &Value) -> String {
    parts_of(content)
        .iter()
        .filter(|p| p.get("thought").and_then(Value::as_bool) != Some(true))
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("")
}

fn user_items(parts: &[Value]) -> Vec<ContentItem> {
    parts
        .iter()
        .filter_map(|p| {
            if let Some(text) = p.get("text").and_then(Value::as_str) {
                if text.trim_start().starts_with(SESSION_CONTEXT) {
                    return Some(ContentItem::System {
                        level: SystemLevel::Info,
                        content: text.to_owned(),
                        tool_use_id: None,
                    });
                }
                return (!text.is_empty()).then(|| ContentItem::UserMessage {
                    text: text.to_owned(),
                });
            }
            if let Some(r) = p.get("functionResponse") {
                let id = r.get("id").and_then(Value::as_str).unwrap_or_default();
                let name = r.get("name").and_then(Value::as_str).unwrap_or_default();
                let response = r.get("response").unwrap_or(&Value::Null);
                return Some(ContentItem::tool_result(
                    id,
                    name,
                    response_text(response),
                    response.get("error").is_some(),
                ));
            }
            Some(media(p))
        })
        .collect()
}

/// An inline or file part: an image when it is one, else kept as it is.
fn media(part: &Value) -> ContentItem {
    let mime = |d: &Value| {
        d.get("mimeType")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    if let Some(d) = part.get("inlineData") {
        let media_type = mime(d);
        if let (true, Some(data)) = (
            media_type.starts_with("image/"),
            d.get("data").and_then(Value::as_str),
        ) {
            return ContentItem::Image {
                source: ImageSource::Base64 {
                    media_type,
                    data: data.to_owned(),
                },
            };
        }
    }
    if let Some(d) = part.get("fileData") {
        if let (true, Some(url)) = (
            mime(d).starts_with("image/"),
            d.get("fileUri").and_then(Value::as_str),
        ) {
            return ContentItem::Image {
                source: ImageSource::Url {
                    url: url.to_owned(),
                },
            };
        }
    }
    ContentItem::UnknownJson { json: part.clone() }
}

/// A function response's text: its `output`, else its `error`, else its JSON.
fn response_text(response: &Value) -> String {
    match response
        .get("output")
        .or_else(|| response.get("error"))
        .or_else(|| response.get("content"))
    {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None if response.is_null() => String::new(),
        None => response.to_string(),
    }
}

/// A call's recorded result as the tool result's text (and whether it failed).
fn call_result(call: &Value) -> (String, bool) {
    let status = call.get("status").and_then(Value::as_str).unwrap_or("");
    let failed = matches!(status, "error" | "cancelled");
    match call.get("result") {
        Some(Value::String(s)) => (s.clone(), failed),
        Some(Value::Array(parts)) => {
            let mut text = Vec::new();
            let mut error = failed;
            for p in parts {
                if let Some(r) = p.get("functionResponse") {
                    let response = r.get("response").unwrap_or(&Value::Null);
                    error |= response.get("error").is_some();
                    text.push(response_text(response));
                } else if let Some(t) = p.get("text").and_then(Value::as_str) {
                    text.push(t.to_owned());
                } else {
                    text.push(p.to_string());
                }
            }
            (text.join("\n"), error)
        }
        Some(Value::Null) | None => (format!("(no result recorded; status {status:?})"), true),
        Some(other) => (other.to_string(), failed),
    }
}

type ModelItems = (Vec<ContentItem>, Vec<ContentItem>, Vec<String>, Vec<Value>);

/// The elements of the record's list `key`; none when it has no such list.
fn list<'a>(record: &'a Map<String, Value>, key: &str) -> impl Iterator<Item = &'a Value> {
    record
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// A model turn: thoughts, text and calls; the results of the calls; the ids answered; and
/// what of each call is no call or result (its status, display, description).
fn model_items(record: &Map<String, Value>, content: &Value) -> ModelItems {
    let mut items = Vec::new();
    for t in list(record, "thoughts") {
        let subject = t.get("subject").and_then(Value::as_str).unwrap_or("");
        let description = t.get("description").and_then(Value::as_str).unwrap_or("");
        let thinking = if subject.is_empty() {
            description.to_owned()
        } else {
            format!("**{subject}** {description}")
        };
        if !thinking.trim().is_empty() {
            items.push(ContentItem::Thinking {
                signature: String::new(),
                thinking,
            });
        }
    }
    let text = text_of(content);
    if !text.is_empty() {
        items.push(ContentItem::text_for(Role::Assistant, text));
    }
    let mut results = Vec::new();
    let mut answered = Vec::new();
    let mut kept = Vec::new();
    for call in list(record, "toolCalls") {
        let id = call.get("id").and_then(Value::as_str).unwrap_or_default();
        let name = call.get("name").and_then(Value::as_str).unwrap_or("tool");
        items.push(ContentItem::tool_call(
            id,
            name,
            call.get("args").cloned().unwrap_or(json!({})),
        ));
        let (text, is_error) = call_result(call);
        results.push(ContentItem::tool_result(id, name, text, is_error));
        answered.push(id.to_owned());
        let mut rest = call.as_object().cloned().unwrap_or_default();
        for k in ["args", "result"] {
            rest.remove(k);
        }
        kept.push(Value::Object(rest));
    }
    (items, results, answered, kept)
}
