//! One prompt text for `claude -p`, which reads a single user message.

use crate::model::{ChatMessage, ChatRole};
use crate::transcript::message_text;

/// The prompt for `messages`. A lone user turn is sent as it is (the squash prompt is one); a
/// longer conversation is written out turn by turn, and the model is asked to continue it.
pub(super) fn render(messages: &[ChatMessage]) -> String {
    if let [only] = messages {
        if only.role == ChatRole::User {
            return message_text(only);
        }
    }
    let mut out = String::from(
        "Below is a conversation between a user and an assistant. \
         Reply with the assistant's next message only.\n",
    );
    for message in messages {
        let text = message_text(message);
        if text.trim().is_empty() {
            continue;
        }
        out.push_str("\n[");
        out.push_str(message.role.as_str());
        out.push_str("]\n");
        out.push_str(&text);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ChatPart;

    #[test]
    fn a_single_user_turn_is_sent_verbatim() {
        assert_eq!(render(&[ChatMessage::user("squash these")]), "squash these");
    }

    #[test]
    fn a_conversation_is_written_out() {
        let text = render(&[
            ChatMessage::user("hi"),
            ChatMessage::assistant("hello"),
            ChatMessage {
                role: ChatRole::User,
                content: vec![
                    ChatPart::ToolResult {
                        tool_use_id: "t".into(),
                        content: "ok".into(),
                        is_error: false,
                    },
                    ChatPart::text("and now?"),
                ],
            },
        ]);
        assert!(text.contains("[user]\nhi\n"));
        assert!(text.contains("[assistant]\nhello\n"));
        assert!(text.contains("[user]\n[tool result] ok\n\nand now?\n"));
    }
}
