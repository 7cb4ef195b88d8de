//! What the readers' unit tests share.

use squash_core::{ContentItem, Message, Role};

use crate::ImportedConversation;

/// Each content item of `messages` as its message's role and a word for its kind.
pub(crate) fn content_kinds(messages: &[Message]) -> Vec<(Role, &'static str)> {
    messages
        .iter()
        .flat_map(|m| {
            m.content.iter().map(move |i| {
                let kind = match i {
                    ContentItem::UserMessage { .. } => "user",
                    ContentItem::AssistantMessage { .. } => "text",
                    ContentItem::ToolCall { .. } => "call",
                    ContentItem::ToolResult { .. } => "result",
                    ContentItem::Thinking { .. } => "thinking",
                    ContentItem::System { .. } => "system",
                    _ => "other",
                };
                (m.role, kind)
            })
        })
        .collect()
}

/// Every message of `conv` is on one of its threads at least.
pub(crate) fn assert_on_threads(conv: &ImportedConversation) {
    for m in &conv.messages {
        assert!(
            conv.threads.iter().any(|t| t.links.contains(&m.id)),
            "{m:?} is on no thread"
        );
    }
}
