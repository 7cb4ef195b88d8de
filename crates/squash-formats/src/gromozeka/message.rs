//! One `messages.message_json` document: a kotlinx-serialization document whose class
//! discriminator is `type`; user text items are `Message`, assistant text
//! `IntermediateMessage`, the other items carry their fully qualified class name (whose package
//! moved between releases, so only the last segment counts); fields at their default are
//! omitted.

use chrono::{DateTime, Utc};
use serde_json::Value;
use squash_core::{
    ContentItem, ImageSource, Instruction, InstructionSource, Role, StructuredText, SystemLevel,
    ToolResultData,
};
use thiserror::Error;

use crate::fields::parse_time;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum GromozekaError {
    #[error("invalid JSON: {0}")]
    Json(String),
    #[error("the message document is not a JSON object")]
    NotAnObject,
    #[error("the message has no content array")]
    NoContent,
}

/// One `message_json` document, converted.
#[derive(Clone, Debug, PartialEq)]
pub struct GromozekaMessage {
    pub id: Option<String>,
    pub role: Option<Role>,
    pub content: Vec<ContentItem>,
    pub instructions: Vec<Instruction>,
    /// Legacy provenance: the messages this one replaced.
    pub original_ids: Vec<String>,
    pub squash_operation_id: Option<String>,
    pub reply_to: Option<String>,
    pub created_at: Option<DateTime<Utc>>,
    /// The document without its content, kept for a lossless export.
    pub rest: Value,
}

/// The class name's last segment: `com.gromozeka.domain.model.Conversation.Message.ContentItem.ToolCall` → `ToolCall`.
fn kind(item: &Value) -> &str {
    item.get("type")
        .and_then(Value::as_str)
        .map(|t| t.rsplit('.').next().unwrap_or(t))
        .unwrap_or("")
}

/// An id as kotlinx writes a value class (a plain string) or, defensively, `{"value": …}`.
pub(super) fn id_string(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("value").and_then(Value::as_str).map(str::to_owned),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn text(item: &Value, key: &str) -> Option<String> {
    item.get(key).and_then(Value::as_str).map(str::to_owned)
}

pub(super) fn role(value: Option<&Value>) -> Option<Role> {
    match value?.as_str()?.to_ascii_lowercase().as_str() {
        "user" => Some(Role::User),
        "assistant" => Some(Role::Assistant),
        "system" => Some(Role::System),
        _ => None,
    }
}

fn media_type(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => Some(format!(
            "{}/{}",
            o.get("type")
                .and_then(Value::as_str)
                .unwrap_or("application"),
            o.get("subtype")
                .and_then(Value::as_str)
                .unwrap_or("octet-stream")
        )),
        _ => None,
    }
}

fn result_data(data: &Value) -> ToolResultData {
    match kind(data) {
        "Text" => ToolResultData::Text {
            text: text(data, "content")
                .or_else(|| text(data, "text"))
                .unwrap_or_default(),
        },
        "Base64Data" => ToolResultData::Base64 {
            media_type: media_type(data.get("mediaType")).unwrap_or_default(),
            data: text(data, "data").unwrap_or_default(),
        },
        "UrlData" => ToolResultData::Url {
            url: text(data, "url").unwrap_or_default(),
        },
        "FileData" => ToolResultData::File {
            path: text(data, "fileId").unwrap_or_default(),
            media_type: media_type(data.get("mediaType")),
        },
        _ => ToolResultData::Text {
            text: match data {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            },
        },
    }
}

fn image_source(source: &Value) -> Option<ImageSource> {
    match source
        .get("type")
        .and_then(Value::as_str)
        .map(|t| t.rsplit('.').next().unwrap_or(t))
    {
        Some("base64" | "Base64ImageSource") => Some(ImageSource::Base64 {
            media_type: text(source, "media_type").or_else(|| text(source, "mediaType"))?,
            data: text(source, "data")?,
        }),
        Some("url" | "UrlImageSource") => Some(ImageSource::Url {
            url: text(source, "url")?,
        }),
        Some("file" | "FileImageSource") => Some(ImageSource::File {
            path: text(source, "file_id").or_else(|| text(source, "fileId"))?,
        }),
        _ => None,
    }
}

/// One content item; anything unrecognised is kept verbatim as unknown content.
pub fn content_item(item: &Value) -> ContentItem {
    let known = match kind(item) {
        "Message" | "UserMessage" => {
            text(item, "text").map(|text| ContentItem::UserMessage { text })
        }
        "IntermediateMessage" | "AssistantMessage" => assistant_message(item),
        "ToolCall" => tool_call(item),
        "ToolResult" => tool_result(item),
        "Thinking" => Some(ContentItem::Thinking {
            signature: text(item, "signature").unwrap_or_default(),
            thinking: text(item, "thinking").unwrap_or_default(),
        }),
        "System" => Some(ContentItem::System {
            level: match item.get("level").and_then(Value::as_str) {
                Some("WARNING") => SystemLevel::Warning,
                Some("ERROR") => SystemLevel::Error,
                _ => SystemLevel::Info,
            },
            content: text(item, "content").unwrap_or_default(),
            tool_use_id: id_string(item.get("toolUseId")),
        }),
        "ImageItem" => item
            .get("source")
            .and_then(image_source)
            .map(|source| ContentItem::Image { source }),
        "UnknownJson" => Some(ContentItem::UnknownJson {
            json: item.get("json").cloned().unwrap_or(Value::Null),
        }),
        _ => None,
    };
    known.unwrap_or_else(|| ContentItem::UnknownJson { json: item.clone() })
}

fn assistant_message(item: &Value) -> Option<ContentItem> {
    let structured = item.get("structured")?;
    Some(ContentItem::AssistantMessage {
        structured: StructuredText {
            full_text: text(structured, "fullText").unwrap_or_default(),
            tts_text: text(structured, "ttsText"),
            voice_tone: text(structured, "voiceTone"),
            failed_to_parse: structured
                .get("failedToParse")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        },
    })
}

fn tool_call(item: &Value) -> Option<ContentItem> {
    let call = item.get("call")?;
    Some(ContentItem::tool_call(
        id_string(item.get("id"))?,
        text(call, "name")?,
        call.get("input").cloned().unwrap_or(Value::Null),
    ))
}

fn tool_result(item: &Value) -> Option<ContentItem> {
    Some(ContentItem::ToolResult {
        tool_use_id: id_string(item.get("toolUseId"))?,
        tool_name: text(item, "toolName").unwrap_or_default(),
        result: match item.get("result") {
            Some(Value::Array(list)) => list.iter().map(result_data).collect(),
            Some(Value::Null) | None => Vec::new(),
            Some(other) => vec![result_data(other)],
        },
        is_error: item
            .get("isError")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    })
}

fn instruction(value: &Value) -> Option<Instruction> {
    match kind(value) {
        "UserInstruction" => Some(Instruction::UserInstruction {
            id: text(value, "id").unwrap_or_default(),
            title: text(value, "title").unwrap_or_default(),
            description: text(value, "description").unwrap_or_default(),
        }),
        "ResponseExpected" => Some(Instruction::ResponseExpected),
        "user" | "User" => Some(Instruction::Source {
            source: InstructionSource::User,
        }),
        "agent" | "Agent" => Some(Instruction::Source {
            source: InstructionSource::Agent,
        }),
        _ => None,
    }
}

/// Parses one `message_json` document.
pub fn parse_message_json(text_: &str) -> Result<GromozekaMessage, GromozekaError> {
    let doc: Value =
        serde_json::from_str(text_).map_err(|e| GromozekaError::Json(e.to_string()))?;
    let Value::Object(mut doc) = doc else {
        return Err(GromozekaError::NotAnObject);
    };
    let content = match doc.remove("content") {
        Some(Value::Array(items)) => items.iter().map(content_item).collect(),
        _ => return Err(GromozekaError::NoContent),
    };
    let instructions = doc
        .get("instructions")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(instruction).collect())
        .unwrap_or_default();
    let original_ids = doc
        .get("originalIds")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(|v| id_string(Some(v))).collect())
        .unwrap_or_default();
    Ok(GromozekaMessage {
        id: id_string(doc.get("id")),
        role: role(doc.get("role")),
        content,
        instructions,
        original_ids,
        squash_operation_id: id_string(doc.get("squashOperationId")),
        reply_to: id_string(doc.get("replyTo")),
        created_at: parse_time(doc.get("createdAt")),
        rest: Value::Object(doc),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_item_type_maps_by_its_last_segment() {
        let doc = json!({
            "id": "m1", "conversationId": "c1", "role": "ASSISTANT",
            "originalIds": ["a", "b"],
            "createdAt": "2025-11-02T15:32:01.123456789Z",
            "instructions": [{"type": "com.gromozeka.shared.domain.Conversation.Message.Instruction.UserInstruction", "id": "i", "title": "t", "description": "d"}, {"type": "user"}],
            "content": [
                {"type": "Message", "text": "hi"},
                {"type": "IntermediateMessage", "structured": {"fullText": "answer", "ttsText": "a"}},
                {"type": "com.gromozeka.shared.domain.Conversation.Message.ContentItem.ToolCall", "id": "t1", "call": {"name": "grep", "input": {"q": 1}}},
                {"type": "com.gromozeka.domain.model.Conversation.Message.ContentItem.ToolResult", "toolUseId": "t1", "toolName": "grep",
                 "result": [{"type": "com.gromozeka.domain.model.Conversation.Message.ContentItem.ToolResult.Data.Text", "content": "found"},
                            {"type": "x.Base64Data", "data": "AA==", "mediaType": {"type": "image", "subtype": "png"}}], "isError": true},
                {"type": "x.Thinking", "signature": "s", "thinking": "hmm"},
                {"type": "x.System", "level": "WARNING", "content": "careful"},
                {"type": "x.ImageItem", "source": {"type": "base64", "data": "AA==", "media_type": "image/png"}},
                {"type": "x.UnknownJson", "json": {"k": 1}},
                {"type": "x.Brandnew", "v": 2}
            ]
        });
        let m = parse_message_json(&doc.to_string()).unwrap();
        assert_eq!(m.role, Some(Role::Assistant));
        assert_eq!(m.original_ids, ["a", "b"]);
        assert_eq!(m.instructions.len(), 2);
        assert_eq!(m.content.len(), 9);
        assert!(
            matches!(&m.content[3], ContentItem::ToolResult { is_error: true, result, .. } if result.len() == 2)
        );
        assert!(matches!(&m.content[8], ContentItem::UnknownJson { .. }));
        assert_eq!(m.created_at.unwrap().timestamp_subsec_nanos(), 123_456_000);
        assert!(m.rest.get("content").is_none());
        assert_eq!(parse_message_json("[]"), Err(GromozekaError::NotAnObject));
        assert_eq!(parse_message_json("{}"), Err(GromozekaError::NoContent));
    }
}
