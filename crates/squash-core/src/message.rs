//! Messages and their content. A message is immutable once stored: edits and squashes create
//! new messages and new threads, never rewrite old ones.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::error::DomainError;
use crate::ids::{ConversationId, MessageId, SquashOperationId};
use crate::text::lines_of;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
    System,
}

crate::named_enum!(Role {
    User => "user",
    Assistant => "assistant",
    System => "system",
});

/// An assistant's answer as the original app structured it (text plus optional speech hints).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct StructuredText {
    pub full_text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tts_text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voice_tone: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed_to_parse: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SystemLevel {
    Info,
    Warning,
    Error,
}

impl SystemLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            SystemLevel::Info => "info",
            SystemLevel::Warning => "warning",
            SystemLevel::Error => "error",
        }
    }
}

/// One piece of a tool's output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToolResultData {
    Text {
        text: String,
    },
    Base64 {
        media_type: String,
        data: String,
    },
    Url {
        url: String,
    },
    File {
        path: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        media_type: Option<String>,
    },
}

impl ToolResultData {
    /// The piece's text, when it is text.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            ToolResultData::Text { text } => Some(text),
            _ => None,
        }
    }
}

/// The text pieces of a tool's output, one a line; images, URLs and files left out (empty when
/// the output has no text).
pub fn output_text(result: &[ToolResultData]) -> String {
    lines_of(result, ToolResultData::as_text)
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ImageSource {
    Base64 { media_type: String, data: String },
    Url { url: String },
    File { path: String },
}

/// One block of a message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentItem {
    UserMessage {
        text: String,
    },
    AssistantMessage {
        structured: StructuredText,
    },
    ToolCall {
        id: String,
        name: String,
        input: serde_json::Value,
    },
    ToolResult {
        tool_use_id: String,
        tool_name: String,
        result: Vec<ToolResultData>,
        #[serde(default)]
        is_error: bool,
    },
    Thinking {
        signature: String,
        thinking: String,
    },
    System {
        level: SystemLevel,
        content: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_use_id: Option<String>,
    },
    Image {
        source: ImageSource,
    },
    /// Content we do not model, kept verbatim so that nothing is lost.
    UnknownJson {
        json: serde_json::Value,
    },
}

impl ContentItem {
    /// A call of the tool `name` with `input`.
    pub fn tool_call(
        id: impl Into<String>,
        name: impl Into<String>,
        input: serde_json::Value,
    ) -> ContentItem {
        ContentItem::ToolCall {
            id: id.into(),
            name: name.into(),
            input,
        }
    }

    /// The result of the call `tool_use_id` of `tool_name`: one text.
    pub fn tool_result(
        tool_use_id: impl Into<String>,
        tool_name: impl Into<String>,
        text: impl Into<String>,
        is_error: bool,
    ) -> ContentItem {
        ContentItem::ToolResult {
            tool_use_id: tool_use_id.into(),
            tool_name: tool_name.into(),
            result: vec![ToolResultData::Text { text: text.into() }],
            is_error,
        }
    }

    /// The natural text item for a message of `role`.
    pub fn text_for(role: Role, text: impl Into<String>) -> ContentItem {
        let text = text.into();
        match role {
            Role::User => ContentItem::UserMessage { text },
            Role::Assistant => ContentItem::AssistantMessage {
                structured: StructuredText {
                    full_text: text,
                    ..StructuredText::default()
                },
            },
            Role::System => ContentItem::System {
                level: SystemLevel::Info,
                content: text,
                tool_use_id: None,
            },
        }
    }

    /// True when the item carries no information at all.
    pub fn is_blank(&self) -> bool {
        match self {
            ContentItem::UserMessage { text } => text.trim().is_empty(),
            ContentItem::AssistantMessage { structured } => structured.full_text.trim().is_empty(),
            ContentItem::System { content, .. } => content.trim().is_empty(),
            ContentItem::Thinking { thinking, .. } => thinking.trim().is_empty(),
            _ => false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InstructionSource {
    User,
    Agent,
}

/// Tags attached to a message by the original app; kept and round-tripped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Instruction {
    UserInstruction {
        id: String,
        title: String,
        description: String,
    },
    ResponseExpected,
    Source {
        source: InstructionSource,
    },
}

/// The tool-use ids a message opens (calls) and closes (results). A call and its result must
/// never be separated by a squash or a delete.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolRefs {
    pub calls: Vec<String>,
    pub results: Vec<String>,
}

impl ToolRefs {
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty() && self.results.is_empty()
    }

    pub fn of(content: &[ContentItem]) -> ToolRefs {
        let mut refs = ToolRefs::default();
        for item in content {
            match item {
                ContentItem::ToolCall { id, .. } => refs.calls.push(id.clone()),
                ContentItem::ToolResult { tool_use_id, .. } => {
                    refs.results.push(tool_use_id.clone())
                }
                _ => {}
            }
        }
        refs
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub id: MessageId,
    pub conversation_id: ConversationId,
    /// Set when this message is the result of a squash or an edit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub squash_operation_id: Option<SquashOperationId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<MessageId>,
    pub role: Role,
    pub content: Vec<ContentItem>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instructions: Vec<Instruction>,
    /// Opaque data an importer keeps so that an export can write it back (e.g. the fields of a
    /// Claude Code line we do not model). Never interpreted by the domain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<serde_json::Value>,
    pub created_at: DateTime<Utc>,
}

impl Message {
    /// Whether the agent's side wrote this message though it stands as the user's (a slash
    /// command's expanded template, context the harness injects): its importer says so.
    pub fn written_by_agent(&self) -> bool {
        self.instructions.iter().any(|i| {
            matches!(
                i,
                Instruction::Source {
                    source: InstructionSource::Agent
                }
            )
        })
    }

    /// A new message, validated ([`Message::check_content`]).
    pub fn new(
        conversation_id: ConversationId,
        role: Role,
        content: Vec<ContentItem>,
    ) -> Result<Message, DomainError> {
        Message::check_content(&content)?;
        Ok(Message::new_unchecked(conversation_id, role, content))
    }

    /// Whether `content` may make a new message: not empty, not all blank.
    pub fn check_content(content: &[ContentItem]) -> Result<(), DomainError> {
        if content.is_empty() {
            return Err(DomainError::EmptyContent);
        }
        if content.iter().all(ContentItem::is_blank) {
            return Err(DomainError::EmptyText);
        }
        Ok(())
    }

    /// A new message of `content` as it is, not validated: for a reader that keeps what a
    /// session file holds, or a service whose content is valid by construction. No operation,
    /// no reply, no instructions, no metadata; created now (set the fields that differ with
    /// `Message { metadata, created_at, ..Message::new_unchecked(…) }`).
    pub fn new_unchecked(
        conversation_id: ConversationId,
        role: Role,
        content: Vec<ContentItem>,
    ) -> Message {
        Message {
            id: MessageId::new(),
            conversation_id,
            squash_operation_id: None,
            reply_to: None,
            role,
            content,
            instructions: Vec::new(),
            metadata: None,
            created_at: crate::time::now(),
        }
    }

    /// A single-text message.
    pub fn text(
        conversation_id: ConversationId,
        role: Role,
        text: &str,
    ) -> Result<Message, DomainError> {
        if text.trim().is_empty() {
            return Err(DomainError::EmptyText);
        }
        Message::new(
            conversation_id,
            role,
            vec![ContentItem::text_for(role, text)],
        )
    }

    pub fn tool_refs(&self) -> ToolRefs {
        ToolRefs::of(&self.content)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_serializes_as_tagged_json() {
        let item = ContentItem::ToolCall {
            id: "t1".into(),
            name: "Grep".into(),
            input: serde_json::json!({"pattern": "*.ts"}),
        };
        let json = serde_json::to_value(&item).unwrap();
        assert_eq!(json["type"], "tool_call");
        let back: ContentItem = serde_json::from_value(json).unwrap();
        assert_eq!(back, item);
    }

    #[test]
    fn blank_messages_are_refused() {
        let conv = ConversationId::new();
        assert_eq!(
            Message::text(conv, Role::User, "  \n").unwrap_err(),
            DomainError::EmptyText
        );
        assert_eq!(
            Message::new(conv, Role::User, vec![]).unwrap_err(),
            DomainError::EmptyContent
        );
    }

    #[test]
    fn tool_refs_collects_both_sides() {
        let refs = ToolRefs::of(&[
            ContentItem::ToolCall {
                id: "a".into(),
                name: "Bash".into(),
                input: serde_json::Value::Null,
            },
            ContentItem::ToolResult {
                tool_use_id: "b".into(),
                tool_name: "Bash".into(),
                result: vec![],
                is_error: false,
            },
        ]);
        assert_eq!(refs.calls, vec!["a"]);
        assert_eq!(refs.results, vec!["b"]);
    }
}
