//! Anthropic Messages API content: the block ↔ content item mapping (shared with Claude Code,
//! whose lines carry Anthropic messages) and the `{"system": …, "messages": [...]}` document.
//!
//! Lossless by construction: a block whose item does not encode back to the same JSON (extra
//! fields, a tool result given as blocks rather than a string, …) is kept verbatim beside the
//! item, and the export writes the original back while the item is unchanged.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{
    ContentItem, ConversationId, ImageSource, Role, SourceFormat, SystemLevel, ToolResultData,
};

use crate::fields::{imported_message, title_from};
use crate::{FormatError, ImportedConversation, Parsed, SOURCE_ID_KEY};

/// Tool names by tool-use id, so that a result can name its tool.
pub type ToolNames = HashMap<String, String>;

fn str_field<'a>(block: &'a Value, key: &str) -> Option<&'a str> {
    block.get(key)?.as_str()
}

/// The content item for one Anthropic content block of a message of `role`.
pub fn block_to_item(role: Role, block: &Value, names: &ToolNames) -> ContentItem {
    let unknown = || ContentItem::UnknownJson {
        json: block.clone(),
    };
    match str_field(block, "type") {
        Some("text") => match str_field(block, "text") {
            Some(text) => ContentItem::text_for(role, text),
            None => unknown(),
        },
        Some("thinking") => match str_field(block, "thinking") {
            Some(thinking) => ContentItem::Thinking {
                thinking: thinking.to_owned(),
                signature: str_field(block, "signature").unwrap_or_default().to_owned(),
            },
            None => unknown(),
        },
        Some("tool_use") => match (str_field(block, "id"), str_field(block, "name")) {
            (Some(id), Some(name)) => {
                ContentItem::tool_call(id, name, block.get("input").cloned().unwrap_or(Value::Null))
            }
            _ => unknown(),
        },
        Some("tool_result") => match str_field(block, "tool_use_id") {
            Some(id) => ContentItem::ToolResult {
                tool_use_id: id.to_owned(),
                tool_name: names.get(id).cloned().unwrap_or_default(),
                result: result_data(block.get("content")),
                is_error: block
                    .get("is_error")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            },
            None => unknown(),
        },
        Some("image") => match block.get("source").and_then(image_source) {
            Some(source) => ContentItem::Image { source },
            None => unknown(),
        },
        _ => unknown(),
    }
}

fn image_source(source: &Value) -> Option<ImageSource> {
    match str_field(source, "type")? {
        "base64" => Some(ImageSource::Base64 {
            media_type: str_field(source, "media_type")?.to_owned(),
            data: str_field(source, "data")?.to_owned(),
        }),
        "url" => Some(ImageSource::Url {
            url: str_field(source, "url")?.to_owned(),
        }),
        "file" => Some(ImageSource::File {
            path: str_field(source, "file_id")?.to_owned(),
        }),
        _ => None,
    }
}

fn result_data(content: Option<&Value>) -> Vec<ToolResultData> {
    match content {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(text)) => vec![ToolResultData::Text { text: text.clone() }],
        Some(Value::Array(blocks)) => blocks
            .iter()
            .map(|b| match (str_field(b, "type"), b.get("source")) {
                (Some("text"), _) => ToolResultData::Text {
                    text: str_field(b, "text").unwrap_or_default().to_owned(),
                },
                (Some("image"), Some(source)) => match image_source(source) {
                    Some(ImageSource::Base64 { media_type, data }) => {
                        ToolResultData::Base64 { media_type, data }
                    }
                    Some(ImageSource::Url { url }) => ToolResultData::Url { url },
                    Some(ImageSource::File { path }) => ToolResultData::File {
                        path,
                        media_type: None,
                    },
                    None => ToolResultData::Text {
                        text: b.to_string(),
                    },
                },
                _ => ToolResultData::Text {
                    text: b.to_string(),
                },
            })
            .collect(),
        Some(other) => vec![ToolResultData::Text {
            text: other.to_string(),
        }],
    }
}

fn image_json(source: &ImageSource) -> Value {
    match source {
        ImageSource::Base64 { media_type, data } => {
            json!({"type": "base64", "media_type": media_type, "data": data})
        }
        ImageSource::Url { url } => json!({"type": "url", "url": url}),
        ImageSource::File { path } => json!({"type": "file", "file_id": path}),
    }
}

/// The Anthropic block for a content item (the form Claude Code writes).
pub fn item_to_block(item: &ContentItem) -> Value {
    match item {
        ContentItem::UserMessage { text } => json!({"type": "text", "text": text}),
        ContentItem::AssistantMessage { structured } => {
            json!({"type": "text", "text": structured.full_text})
        }
        ContentItem::ToolCall { id, name, input } => {
            json!({"type": "tool_use", "id": id, "name": name, "input": input})
        }
        ContentItem::ToolResult {
            tool_use_id,
            result,
            is_error,
            ..
        } => {
            let content = match result.as_slice() {
                [ToolResultData::Text { text }] => Value::String(text.clone()),
                _ => Value::Array(
                    result
                        .iter()
                        .map(|d| match d {
                            ToolResultData::Text { text } => json!({"type": "text", "text": text}),
                            ToolResultData::Base64 { media_type, data } => json!({
                                "type": "image",
                                "source": {"type": "base64", "media_type": media_type, "data": data}
                            }),
                            ToolResultData::Url { url } => {
                                json!({"type": "image", "source": {"type": "url", "url": url}})
                            }
                            ToolResultData::File { path, .. } => json!({
                                "type": "image", "source": {"type": "file", "file_id": path}
                            }),
                        })
                        .collect(),
                ),
            };
            let mut block =
                json!({"type": "tool_result", "tool_use_id": tool_use_id, "content": content});
            if *is_error {
                block["is_error"] = Value::Bool(true);
            }
            block
        }
        ContentItem::Thinking {
            signature,
            thinking,
        } => json!({"type": "thinking", "thinking": thinking, "signature": signature}),
        ContentItem::Image { source } => json!({"type": "image", "source": image_json(source)}),
        ContentItem::System { level, content, .. } => {
            json!({"type": "text", "text": format!("[system {}] {content}", level.as_str())})
        }
        ContentItem::UnknownJson { json } => match json.get("type").and_then(Value::as_str) {
            Some(_) if json.is_object() => json.clone(),
            _ => json!({"type": "text", "text": json.to_string()}),
        },
    }
}

/// Whether [`item_to_block`] would give `block` back, checked without building it for the common
/// shapes (the import calls this for every block).
fn reproduces(item: &ContentItem, block: &Value) -> bool {
    let Some(obj) = block.as_object() else {
        return false;
    };
    let s = |k: &str| obj.get(k).and_then(Value::as_str);
    match item {
        ContentItem::UserMessage { text } => {
            obj.len() == 2 && s("type") == Some("text") && s("text") == Some(text.as_str())
        }
        ContentItem::AssistantMessage { structured } => {
            obj.len() == 2
                && s("type") == Some("text")
                && s("text") == Some(structured.full_text.as_str())
        }
        ContentItem::ToolCall { id, name, input } => {
            obj.len() == 4
                && s("type") == Some("tool_use")
                && s("id") == Some(id.as_str())
                && s("name") == Some(name.as_str())
                && obj.get("input") == Some(input)
        }
        ContentItem::Thinking {
            signature,
            thinking,
        } => {
            obj.len() == 3
                && s("type") == Some("thinking")
                && s("thinking") == Some(thinking.as_str())
                && s("signature") == Some(signature.as_str())
        }
        ContentItem::ToolResult {
            tool_use_id,
            result,
            is_error,
            ..
        } => match (result.as_slice(), obj.get("content")) {
            ([ToolResultData::Text { text }], Some(Value::String(content))) => {
                obj.len() == 3 + usize::from(*is_error)
                    && s("type") == Some("tool_result")
                    && s("tool_use_id") == Some(tool_use_id.as_str())
                    && content == text
                    && (!*is_error || obj.get("is_error") == Some(&Value::Bool(true)))
            }
            _ => item_to_block(item) == *block,
        },
        _ => item_to_block(item) == *block,
    }
}

/// Maps a message's `content` (a string or blocks). Returns the items and, for blocks that do
/// not encode back identically, their originals by index.
pub fn content_to_items(
    role: Role,
    content: Value,
    names: &mut ToolNames,
) -> (Vec<ContentItem>, Map<String, Value>) {
    let mut originals = Map::new();
    let items = match content {
        Value::String(text) => vec![ContentItem::text_for(role, text)],
        Value::Array(blocks) => blocks
            .into_iter()
            .enumerate()
            .map(|(i, block)| {
                let item = block_to_item(role, &block, names);
                if let ContentItem::ToolCall { id, name, .. } = &item {
                    names.insert(id.clone(), name.clone());
                }
                if !matches!(item, ContentItem::UnknownJson { .. }) && !reproduces(&item, &block) {
                    originals.insert(i.to_string(), block);
                }
                item
            })
            .collect(),
        Value::Null => Vec::new(),
        other => vec![ContentItem::UnknownJson { json: other }],
    };
    (items, originals)
}

/// The blocks for `items`, with the originals written back where the item still maps to them.
pub fn items_to_blocks(
    role: Role,
    items: &[ContentItem],
    originals: Option<&Map<String, Value>>,
    names: &ToolNames,
) -> Vec<Value> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            if let Some(original) = originals.and_then(|o| o.get(&i.to_string())) {
                if block_to_item(role, original, names) == *item {
                    return original.clone();
                }
            }
            item_to_block(item)
        })
        .collect()
}

fn role_of(value: Option<&Value>) -> Option<Role> {
    match value?.as_str()? {
        "user" => Some(Role::User),
        "assistant" => Some(Role::Assistant),
        "system" => Some(Role::System),
        _ => None,
    }
}

/// Parses an Anthropic-style document: `{"system"?: …, "messages": [{role, content}], …}`.
pub fn parse(
    source_name: &str,
    doc: Value,
    content_hash: &str,
    now: DateTime<Utc>,
) -> Result<Parsed, FormatError> {
    let Value::Object(mut top) = doc else {
        return Err(FormatError::invalid(source_name, "expected a JSON object"));
    };
    let Some(Value::Array(raw_messages)) = top.remove("messages") else {
        return Err(FormatError::invalid(
            source_name,
            "expected a \"messages\" array",
        ));
    };
    let conversation_id = ConversationId::new();
    let mut parsed = Parsed::default();
    let mut names = ToolNames::new();
    let mut messages = Vec::with_capacity(raw_messages.len() + 1);
    // A record is one entry of the message list, and the system prompt when there is one.
    parsed.records.lines = raw_messages.len() + usize::from(top.contains_key("system"));
    let mut tick = 0i64;
    let mut next_time = || {
        tick += 1;
        now + chrono::Duration::microseconds(tick)
    };
    if let Some(system) = top.remove("system") {
        parsed.record_message();
        let content = vec![ContentItem::System {
            level: SystemLevel::Info,
            content: system_text(&system),
            tool_use_id: None,
        }];
        let metadata = json!({SOURCE_ID_KEY: "system", "anthropic": {"system": system}});
        let at = next_time();
        messages.push(imported_message(
            conversation_id,
            Role::System,
            content,
            metadata,
            at,
        ));
    }
    for (i, raw) in raw_messages.into_iter().enumerate() {
        let Some(role) = role_of(raw.get("role")) else {
            parsed.skip_message(source_name, i, "no user/assistant role");
            continue;
        };
        parsed.record_message();
        let (items, meta) = entry_items(role, raw, i, &mut names);
        messages.push(imported_message(
            conversation_id,
            role,
            items,
            meta,
            next_time(),
        ));
    }
    let name = messages
        .iter()
        .filter(|m| m.role == Role::User)
        .find_map(|m| match m.content.first() {
            Some(ContentItem::UserMessage { text }) => title_from(text, 60),
            _ => None,
        })
        .unwrap_or_else(|| format!("Anthropic chat {}", short(source_name)));
    let mut conv = ImportedConversation::linear(
        SourceFormat::Anthropic,
        format!("anthropic:{source_name}"),
        conversation_id,
        name,
        messages,
        now,
    );
    conv.content_hash = content_hash.to_owned();
    if !top.is_empty() {
        conv.metadata = Some(json!({"anthropic": Value::Object(top)}));
    }
    parsed.conversations.push(conv);
    Ok(parsed)
}

/// The text of a `system` field: a string, or the text of its blocks.
fn system_text(system: &Value) -> String {
    match system {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| str_field(b, "text"))
            .collect::<Vec<_>>()
            .join("\n\n"),
        other => other.to_string(),
    }
}

/// The content items of entry `i` and its metadata: what an export needs to write the entry
/// back (a string content, the original blocks that items do not hold, other fields).
fn entry_items(
    role: Role,
    mut raw: Value,
    i: usize,
    names: &mut ToolNames,
) -> (Vec<ContentItem>, Value) {
    let content = raw
        .as_object_mut()
        .and_then(|o| o.remove("content"))
        .unwrap_or(Value::Null);
    let content_string = content.is_string();
    let (items, originals) = content_to_items(role, content, names);
    let mut meta = Map::new();
    meta.insert(SOURCE_ID_KEY.into(), Value::String(format!("message:{i}")));
    let mut anthropic = Map::new();
    if content_string {
        anthropic.insert("content_string".into(), Value::Bool(true));
    }
    if !originals.is_empty() {
        anthropic.insert("originals".into(), Value::Object(originals));
    }
    if let Value::Object(mut rest) = raw {
        rest.remove("role");
        if !rest.is_empty() {
            anthropic.insert("extra".into(), Value::Object(rest));
        }
    }
    if !anthropic.is_empty() {
        meta.insert("anthropic".into(), Value::Object(anthropic));
    }
    (items, Value::Object(meta))
}

/// The file name of a path-like source name.
pub(crate) fn short(source_name: &str) -> &str {
    source_name
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(source_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_trip_or_keep_their_original() {
        let mut names = ToolNames::new();
        let content = json!([
            {"type": "text", "text": "hi"},
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}},
            {"type": "thinking", "thinking": "hm", "signature": "sig"},
            {"type": "redacted_thinking", "data": "xx"},
        ]);
        let (items, originals) = content_to_items(Role::Assistant, content.clone(), &mut names);
        assert_eq!(items.len(), 4);
        assert!(originals.is_empty(), "{originals:?}");
        assert_eq!(names["t1"], "Bash");
        let back = items_to_blocks(Role::Assistant, &items, Some(&originals), &names);
        assert_eq!(Value::Array(back), content);

        let result = json!([{"type": "tool_result", "tool_use_id": "t1",
            "content": [{"type": "text", "text": "out"}], "is_error": false}]);
        let (items, originals) = content_to_items(Role::User, result.clone(), &mut names);
        assert_eq!(
            originals.len(),
            1,
            "the block form and is_error=false are kept"
        );
        match &items[0] {
            ContentItem::ToolResult {
                tool_name, result, ..
            } => {
                assert_eq!(tool_name, "Bash");
                assert_eq!(result, &vec![ToolResultData::Text { text: "out".into() }]);
            }
            other => panic!("{other:?}"),
        }
        let back = items_to_blocks(Role::User, &items, Some(&originals), &names);
        assert_eq!(Value::Array(back), result);
    }

    #[test]
    fn documents_become_one_thread() {
        let doc = json!({"model": "claude", "system": "be brief", "messages": [
            {"role": "user", "content": "list files"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "ls", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "x", "is_error": true}]},
            {"role": "robot", "content": "?"}
        ]});
        let parsed = parse("chat.json", doc, "h", Utc::now()).unwrap();
        let conv = &parsed.conversations[0];
        assert_eq!(conv.messages.len(), 4);
        assert_eq!(conv.threads[0].links.len(), 4);
        assert_eq!(parsed.skipped.len(), 1);
        // The system prompt and four entries; the robot's is skipped.
        assert_eq!(
            parsed.records,
            crate::RecordCounts {
                lines: 5,
                messages: 4,
                metadata: 0,
                skipped: 1
            }
        );
        assert_eq!(conv.display_name, "list files");
    }
}
