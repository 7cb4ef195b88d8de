//! The response items a message is written as: the lines it was read from, rebuilt from its
//! content and what the reader kept of each line, when the message is unchanged; fresh items
//! made from its content otherwise.

use serde_json::{json, Map, Value};
use squash_core::{render, ContentItem, ImageSource, Message, Role, ToolResultData};

use super::output::LEGACY_METADATA;
use super::META_KEY;

/// One line a message was read from: what the reader kept of it and the items it gave.
pub(super) struct Part<'a> {
    pub meta: &'a Map<String, Value>,
    pub items: &'a [ContentItem],
}

/// The message's items split over the lines they came from, if they still fit (an unchanged
/// message read from a rollout).
pub(super) fn parts(message: &Message) -> Option<Vec<Part<'_>>> {
    let entries = message
        .metadata
        .as_ref()?
        .get(META_KEY)?
        .get("items")?
        .as_array()?;
    let items = &message.content;
    let mut out = Vec::with_capacity(entries.len());
    let mut at: usize = 0;
    for entry in entries {
        let meta = entry.as_object()?;
        let n = usize::try_from(meta.get("items").and_then(Value::as_u64)?).ok()?;
        let end = at.checked_add(n)?;
        out.push(Part {
            meta,
            items: items.get(at..end)?,
        });
        at = end;
    }
    (at == items.len()).then_some(out)
}

/// Whether the line was a response item (or a bare item of a legacy rollout), which can be
/// written back; prompts read from events and compaction notes cannot.
pub(super) fn is_item_line(meta: &Map<String, Value>) -> bool {
    meta.get("legacy").and_then(Value::as_bool) == Some(true)
        || meta
            .get("envelope")
            .and_then(|e| e.get("type"))
            .and_then(Value::as_str)
            == Some("response_item")
}

/// The payload of an item line with what became `items` put back; `None` when they do not fit.
pub(super) fn restore(meta: &Map<String, Value>, items: &[ContentItem]) -> Option<Value> {
    let mut payload = meta.get("payload")?.as_object()?.clone();
    let kind = payload
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    match (kind.as_str(), items) {
        // No items: a prompt also read from an event, whose line kept its content.
        ("message", []) => {}
        ("message", _) => {
            let assistant = payload.get("role").and_then(Value::as_str) == Some("assistant");
            let parts = items
                .iter()
                .map(|i| part(i, assistant).or_else(|| unknown(i)))
                .collect::<Option<Vec<_>>>()?;
            payload.insert("content".into(), Value::Array(parts));
        }
        ("function_call", [ContentItem::ToolCall { input, .. }]) => {
            payload.insert("arguments".into(), Value::String(arguments(input)));
        }
        ("custom_tool_call", [ContentItem::ToolCall { input, .. }]) => {
            payload.insert("input".into(), input.clone());
        }
        // The reader kept these payloads whole.
        ("local_shell_call", [ContentItem::ToolCall { .. }])
        | ("reasoning", [ContentItem::Thinking { .. }]) => {}
        (k, [ContentItem::ToolResult { result, .. }]) if k.ends_with("_output") => {
            let output = match payload.remove(LEGACY_METADATA) {
                // The legacy document again, exit code and all.
                Some(metadata) => {
                    let text = result.iter().map(render::result_text).collect::<String>();
                    Value::String(json!({"output": text, "metadata": metadata}).to_string())
                }
                None => output(result),
            };
            payload.insert("output".into(), output);
        }
        // An item of a kind the reader does not model, kept whole.
        (_, [ContentItem::UnknownJson { json }]) => return Some(json.clone()),
        _ => return None,
    }
    Some(Value::Object(payload))
}

/// Items made from content: consecutive text and images as one message of `role`, each call and
/// each result an item of its own. Thinking is left out: a reasoning item is replayed only with
/// the encrypted content the API made for that very turn, which a changed or foreign message
/// does not have.
pub(super) fn fresh(role: Role, items: &[ContentItem]) -> Vec<Value> {
    let assistant = role == Role::Assistant;
    let mut out = Vec::new();
    let mut parts: Vec<Value> = Vec::new();
    let flush = |parts: &mut Vec<Value>, out: &mut Vec<Value>| {
        if !parts.is_empty() {
            out.push(message(role, std::mem::take(parts)));
        }
    };
    for item in items {
        match item {
            ContentItem::ToolCall { id, name, input } => {
                flush(&mut parts, &mut out);
                out.push(json!({"type": "function_call", "call_id": id, "name": name,
                                "arguments": arguments(input)}));
            }
            ContentItem::ToolResult {
                tool_use_id,
                result,
                ..
            } => {
                flush(&mut parts, &mut out);
                out.push(
                    json!({"type": "function_call_output", "call_id": tool_use_id,
                                "output": output(result)}),
                );
            }
            ContentItem::Thinking { .. } => {}
            // JSON of another source is no part the API knows: its text stands in.
            other => parts.push(
                part(other, assistant)
                    .unwrap_or_else(|| text(&render::item_text(other), assistant)),
            ),
        }
    }
    flush(&mut parts, &mut out);
    out
}

/// A message item; a system message is the developer's, as Codex writes its own instructions.
pub(super) fn message(role: Role, content: Vec<Value>) -> Value {
    let role = match role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::System => "developer",
    };
    json!({"type": "message", "role": role, "content": content})
}

pub(super) fn text(text: &str, assistant: bool) -> Value {
    let kind = if assistant {
        "output_text"
    } else {
        "input_text"
    };
    json!({"type": kind, "text": text})
}

/// A message part for text or an image; `None` for any other item.
fn part(item: &ContentItem, assistant: bool) -> Option<Value> {
    match item {
        ContentItem::UserMessage { text: t } | ContentItem::System { content: t, .. } => {
            Some(text(t, assistant))
        }
        ContentItem::AssistantMessage { structured } => {
            Some(text(&structured.full_text, assistant))
        }
        // Only input carries images.
        ContentItem::Image { source } if !assistant => {
            let url = match source {
                ImageSource::Url { url } => url.clone(),
                ImageSource::Base64 { media_type, data } => {
                    format!("data:{media_type};base64,{data}")
                }
                ImageSource::File { .. } => return None,
            };
            Some(json!({"type": "input_image", "image_url": url}))
        }
        _ => None,
    }
}

/// A part the reader did not model, as it was.
fn unknown(item: &ContentItem) -> Option<Value> {
    match item {
        ContentItem::UnknownJson { json } => Some(json.clone()),
        _ => None,
    }
}

/// A call's `arguments`: the API sends them as a JSON document in a string; the reader kept a
/// string that was no JSON as it was.
fn arguments(input: &Value) -> String {
    match input {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A call's `output`: its text, or content parts when there is more than one text.
fn output(result: &[ToolResultData]) -> Value {
    if let [ToolResultData::Text { text }] = result {
        return Value::String(text.clone());
    }
    let parts = result
        .iter()
        .map(|d| match d {
            ToolResultData::Url { url } => json!({"type": "input_image", "image_url": url}),
            ToolResultData::Base64 { media_type, data } if media_type.starts_with("image/") => {
                json!({"type": "input_image", "image_url": format!("data:{media_type};base64,{data}")})
            }
            other => json!({"type": "input_text", "text": render::result_text(other)}),
        })
        .collect();
    Value::Array(parts)
}
