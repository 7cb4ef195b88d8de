//! Messages for the unit tests: the demo session (`squash demo`'s coding-agent run), and one
//! message of text.

use crate::ids::ConversationId;
use crate::message::{ContentItem, Message, Role};

#[derive(serde::Deserialize)]
struct Session {
    messages: Vec<SessionMessage>,
}

#[derive(serde::Deserialize)]
struct SessionMessage {
    role: Role,
    content: Vec<ContentItem>,
}

/// The demo session's messages, in one new conversation.
pub(crate) fn demo() -> Vec<Message> {
    let session: Session = serde_json::from_str(include_str!("../../squash-cli/demo/session.json"))
        .expect("the demo session parses");
    let conversation = ConversationId::new();
    session
        .messages
        .into_iter()
        .map(|m| Message::new(conversation, m.role, m.content).expect("non-empty"))
        .collect()
}

/// A message of `role` holding `text`, in a conversation of its own.
pub(crate) fn say(role: Role, text: &str) -> Message {
    Message::new(
        ConversationId::new(),
        role,
        vec![ContentItem::text_for(role, text)],
    )
    .expect("non-empty")
}
