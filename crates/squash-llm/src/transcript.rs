//! Chat parts as plain text, for the places that cannot send them structured: tool blocks to
//! an API that was given no tools, and whole conversations to a CLI that reads one prompt.

use crate::model::{ChatImage, ChatMessage, ChatPart};

/// The text of one part; `None` for thinking, which is never replayed as text.
pub(crate) fn part_text(part: &ChatPart) -> Option<String> {
    match part {
        ChatPart::Text(text) => Some(text.clone()),
        ChatPart::Thinking { .. } => None,
        ChatPart::ToolUse { name, input, .. } => Some(format!(
            "[tool call {name}] {}",
            serde_json::to_string(input).unwrap_or_default()
        )),
        ChatPart::ToolResult {
            content, is_error, ..
        } => {
            let label = if *is_error {
                "tool error"
            } else {
                "tool result"
            };
            Some(format!("[{label}] {content}"))
        }
        ChatPart::Image(ChatImage::Base64 { media_type, data }) => Some(format!(
            "[image: {media_type}, {} bytes base64]",
            data.len()
        )),
        ChatPart::Image(ChatImage::Url { url }) => Some(format!("[image: {url}]")),
    }
}

/// The text of a turn's parts, separated by blank lines.
pub(crate) fn message_text(message: &ChatMessage) -> String {
    message
        .content
        .iter()
        .filter_map(part_text)
        .filter(|t| !t.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}
