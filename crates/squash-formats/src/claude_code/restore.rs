//! A line as the file held it, from what the reader made of it: what lets the export write a
//! session back.

use serde_json::{Map, Value};
use squash_core::{ContentItem, Role};

use super::deferred::LineSource;
use super::lines::{Body, LineRecord};
use crate::anthropic_json::{items_to_blocks, ToolNames};
use crate::FormatError;

/// Takes line `line` out of the reader, as written in the file; a streaming reader that
/// dropped its content reads it again from `source`.
pub(super) fn take_raw(
    line: &mut LineRecord,
    names: &ToolNames,
    source: Option<&LineSource>,
) -> Result<Option<Value>, FormatError> {
    match std::mem::replace(&mut line.body, Body::Taken) {
        Body::Raw(json) => Ok(Some(*json)),
        Body::Message(message) => {
            let content = match (message.content, source) {
                (Some(content), _) => *content,
                // Its line as written is what the reader would restore.
                (None, Some(source)) => return source.read_raw(message.at).map(Some),
                (None, None) => return Ok(None),
            };
            Ok(Some(restore_line(
                message.role,
                &content.items,
                &content.meta,
                names,
            )))
        }
        Body::Taken => Ok(None),
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
