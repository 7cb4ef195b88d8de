//! The content parts of Codex messages and reasoning items.

use serde_json::Value;
use squash_core::{ContentItem, ImageSource, Role};

/// The items of a message's `content` (a string or a list of typed parts).
pub(super) fn message_items(role: Role, parts: &Value) -> Vec<ContentItem> {
    match parts {
        Value::String(text) => vec![ContentItem::text_for(role, text.as_str())],
        Value::Array(parts) => parts.iter().map(|p| part_item(role, p)).collect(),
        Value::Null => Vec::new(),
        other => vec![ContentItem::UnknownJson {
            json: other.clone(),
        }],
    }
}

fn part_item(role: Role, part: &Value) -> ContentItem {
    let text = part.get("text").and_then(Value::as_str);
    match (part.get("type").and_then(Value::as_str), text) {
        (Some("input_text" | "output_text" | "text"), Some(text)) => {
            ContentItem::text_for(role, text)
        }
        (Some("input_image"), _) => match part.get("image_url").and_then(Value::as_str) {
            Some(url) => ContentItem::Image {
                source: ImageSource::Url {
                    url: url.to_owned(),
                },
            },
            None => ContentItem::UnknownJson { json: part.clone() },
        },
        _ => ContentItem::UnknownJson { json: part.clone() },
    }
}

/// The readable text of a reasoning item: its summaries, then its raw content if any.
pub(super) fn reasoning_text(payload: &Value) -> String {
    let texts = |key: &str| -> Vec<&str> {
        match payload.get(key) {
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect(),
            _ => Vec::new(),
        }
    };
    let mut out = texts("summary");
    out.extend(texts("content"));
    out.join("\n\n")
}

/// The text a person typed, from the items of a user message (for matching the same prompt
/// recorded twice).
pub(super) fn prompt_text(items: &[ContentItem]) -> String {
    items
        .iter()
        .filter_map(|i| match i {
            ContentItem::UserMessage { text } => Some(text.trim()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}
