//! A node's message as content items. Known content types are mapped; any other is kept as
//! [`ContentItem::UnknownJson`], so nothing is dropped.

use serde_json::Value;
use squash_core::{ContentItem, ImageSource, Role, SystemLevel, ToolResultData};

/// Who wrote a message, as the export says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Author {
    User,
    Assistant,
    System,
    Tool,
}

impl Author {
    pub(super) fn of(message: &Value) -> Option<Author> {
        match message.get("author")?.get("role")?.as_str()? {
            "user" => Some(Author::User),
            "assistant" => Some(Author::Assistant),
            "system" | "developer" => Some(Author::System),
            "tool" => Some(Author::Tool),
            _ => None,
        }
    }
}

fn str_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key)?.as_str()
}

fn content_type(message: &Value) -> &str {
    message
        .get("content")
        .and_then(|c| str_of(c, "content_type"))
        .unwrap_or("")
}

/// The string parts of a content, joined.
fn parts_text(content: &Value) -> Option<String> {
    let parts = content.get("parts")?.as_array()?;
    let texts: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
    Some(texts.join("\n"))
}

/// A message the interface does not show: flagged hidden, or a system message without text.
pub(super) fn is_hidden(message: &Value, author: Author) -> bool {
    let flagged = message
        .get("metadata")
        .and_then(|m| m.get("is_visually_hidden_from_conversation"))
        .and_then(Value::as_bool)
        == Some(true);
    let empty_system = author == Author::System
        && content_type(message) == "text"
        && message
            .get("content")
            .and_then(parts_text)
            .is_none_or(|t| t.trim().is_empty());
    flagged || empty_system
}

/// The tool an assistant message calls: its `recipient`, unless that is everybody.
pub(super) fn called_tool(message: &Value) -> Option<&str> {
    str_of(message, "recipient").filter(|r| *r != "all")
}

/// The role and items of a visible message. `call` is the id of the tool call a tool message
/// answers (the nearest calling assistant message above it).
pub(super) fn items(
    message: &Value,
    author: Author,
    call: Option<(&str, &str)>,
) -> (Role, Vec<ContentItem>) {
    let content = message.get("content").unwrap_or(&Value::Null);
    match author {
        Author::Tool => (Role::User, vec![tool_result(message, content, call)]),
        Author::Assistant => match called_tool(message) {
            Some(tool) => {
                let id = str_of(message, "id").unwrap_or_default().to_owned();
                let call = ContentItem::tool_call(id, tool, content.clone());
                (Role::Assistant, vec![call])
            }
            None => (Role::Assistant, content_items(Role::Assistant, content)),
        },
        Author::User => (Role::User, content_items(Role::User, content)),
        Author::System => (Role::System, content_items(Role::System, content)),
    }
}

fn content_items(role: Role, content: &Value) -> Vec<ContentItem> {
    let text = |key: &str| str_of(content, key).unwrap_or_default().to_owned();
    match str_of(content, "content_type").unwrap_or("") {
        "text" => match parts_text(content) {
            Some(t) => vec![ContentItem::text_for(role, t)],
            None => vec![unknown(content)],
        },
        "code" => vec![ContentItem::text_for(role, text("text"))],
        "multimodal_text" => multimodal(role, content),
        "thoughts" => vec![ContentItem::Thinking {
            signature: String::new(),
            thinking: thoughts_text(content),
        }],
        "reasoning_recap" => vec![system(SystemLevel::Info, text("content"))],
        "system_error" => vec![system(SystemLevel::Error, text("text"))],
        "user_editable_context" => {
            let parts = [text("user_profile"), text("user_instructions")];
            let joined: Vec<&str> = parts
                .iter()
                .map(|s| s.trim())
                .filter(|s| !s.is_empty())
                .collect();
            vec![system(SystemLevel::Info, joined.join("\n\n"))]
        }
        _ => vec![unknown(content)],
    }
}

fn unknown(content: &Value) -> ContentItem {
    ContentItem::UnknownJson {
        json: content.clone(),
    }
}

fn system(level: SystemLevel, content: String) -> ContentItem {
    ContentItem::System {
        level,
        content,
        tool_use_id: None,
    }
}

/// Text parts and attachments (`image_asset_pointer` parts name a file of the export by its
/// `file-service://` pointer).
fn multimodal(role: Role, content: &Value) -> Vec<ContentItem> {
    let Some(parts) = content.get("parts").and_then(Value::as_array) else {
        return vec![unknown(content)];
    };
    parts
        .iter()
        .map(|part| match part {
            Value::String(t) => ContentItem::text_for(role, t.as_str()),
            other => match image_pointer(other) {
                Some(url) => ContentItem::Image {
                    source: ImageSource::Url { url },
                },
                None => unknown(other),
            },
        })
        .collect()
}

fn image_pointer(part: &Value) -> Option<String> {
    if str_of(part, "content_type")? != "image_asset_pointer" {
        return None;
    }
    str_of(part, "asset_pointer").map(str::to_owned)
}

fn thoughts_text(content: &Value) -> String {
    let Some(thoughts) = content.get("thoughts").and_then(Value::as_array) else {
        return String::new();
    };
    thoughts
        .iter()
        .map(|t| {
            let summary = str_of(t, "summary").unwrap_or_default();
            let body = str_of(t, "content").unwrap_or_default();
            match (summary.is_empty(), body.is_empty()) {
                (false, false) => format!("{summary}\n{body}"),
                (false, true) => summary.to_owned(),
                _ => body.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn tool_result(message: &Value, content: &Value, call: Option<(&str, &str)>) -> ContentItem {
    let name = message
        .get("author")
        .and_then(|a| str_of(a, "name"))
        .or(call.map(|(_, tool)| tool))
        .unwrap_or("tool")
        .to_owned();
    let text = |key: &str| str_of(content, key).unwrap_or_default().to_owned();
    let kind = str_of(content, "content_type").unwrap_or("");
    let result = match kind {
        "text" | "execution_output" | "system_error" => {
            let t = parts_text(content).unwrap_or_else(|| text("text"));
            vec![ToolResultData::Text { text: t }]
        }
        "tether_browsing_display" => vec![ToolResultData::Text {
            text: text("result"),
        }],
        "tether_quote" => vec![ToolResultData::Text {
            text: format!("{}\n{}\n\n{}", text("title"), text("url"), text("text")),
        }],
        "multimodal_text" => multimodal_result(content),
        _ => vec![ToolResultData::Text {
            text: content.to_string(),
        }],
    };
    let failed_run = message
        .get("metadata")
        .and_then(|m| m.get("aggregate_result"))
        .and_then(|r| str_of(r, "status"))
        .is_some_and(|s| s != "success");
    ContentItem::ToolResult {
        tool_use_id: call.map(|(id, _)| id).unwrap_or_default().to_owned(),
        tool_name: name,
        result,
        is_error: kind == "system_error" || failed_run,
    }
}

fn multimodal_result(content: &Value) -> Vec<ToolResultData> {
    let parts = content.get("parts").and_then(Value::as_array);
    let out: Vec<ToolResultData> = parts
        .into_iter()
        .flatten()
        .map(|part| match (part, image_pointer(part)) {
            (Value::String(t), _) => ToolResultData::Text { text: t.clone() },
            (_, Some(url)) => ToolResultData::Url { url },
            (other, None) => ToolResultData::Text {
                text: other.to_string(),
            },
        })
        .collect();
    if out.is_empty() {
        vec![ToolResultData::Text {
            text: content.to_string(),
        }]
    } else {
        out
    }
}
