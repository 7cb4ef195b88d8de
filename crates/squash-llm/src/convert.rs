//! Domain messages to chat turns.
//!
//! The model APIs are stricter than the domain: turns must alternate, a tool call must be
//! answered by its result in the very next turn, thinking only exists on the assistant side,
//! and there is no system role among the turns. Each content item is therefore placed on the
//! side of the conversation the APIs expect it on, adjacent same-side parts are merged into one
//! turn, and tool calls or results that lost their partner are sent as plain text.

use std::collections::HashSet;

use squash_core::{render, ContentItem, ImageSource, Message, Role};

use crate::model::{ChatImage, ChatMessage, ChatPart, ChatRole};

/// Converts stored messages, in thread order, into turns any provider accepts.
pub fn chat_messages_from_domain(messages: &[Message]) -> Vec<ChatMessage> {
    let mut turns: Vec<ChatMessage> = Vec::new();
    for message in messages {
        for item in &message.content {
            if let Some((role, part)) = place(message.role, item) {
                push_part(&mut turns, role, part);
            }
        }
    }
    pair_tool_parts(&mut turns);
    for turn in &mut turns {
        results_first(turn);
    }
    turns
}

/// The side an item is sent on and the part it becomes; `None` when it cannot be sent.
fn place(message_role: Role, item: &ContentItem) -> Option<(ChatRole, ChatPart)> {
    let side = match message_role {
        Role::Assistant => ChatRole::Assistant,
        Role::User | Role::System => ChatRole::User,
    };
    let text = |text: &str| (!text.trim().is_empty()).then(|| ChatPart::text(text));
    match item {
        ContentItem::UserMessage { text: t } => text(t).map(|p| (side, p)),
        ContentItem::AssistantMessage { structured } => {
            text(&structured.full_text).map(|p| (side, p))
        }
        ContentItem::ToolCall { id, name, input } => Some((
            ChatRole::Assistant,
            ChatPart::ToolUse {
                id: id.clone(),
                name: name.clone(),
                input: input.clone(),
            },
        )),
        ContentItem::ToolResult {
            tool_use_id,
            result,
            is_error,
            ..
        } => Some((
            ChatRole::User,
            ChatPart::ToolResult {
                tool_use_id: tool_use_id.clone(),
                content: render::results_text(result),
                is_error: *is_error,
            },
        )),
        // Thinking belongs to the assistant that thought it; anywhere else no API takes it.
        ContentItem::Thinking {
            signature,
            thinking,
        } => (side == ChatRole::Assistant && !thinking.trim().is_empty()).then(|| {
            (
                ChatRole::Assistant,
                ChatPart::Thinking {
                    thinking: thinking.clone(),
                    signature: (!signature.is_empty()).then(|| signature.clone()),
                },
            )
        }),
        ContentItem::System { level, content, .. } => (!content.trim().is_empty()).then(|| {
            (
                ChatRole::User,
                ChatPart::text(format!("[system {}] {content}", level.as_str())),
            )
        }),
        // Images are input only: the APIs accept them from the user side.
        ContentItem::Image { source } => Some((ChatRole::User, image_part(source))),
        // Content nobody modelled is kept in storage, but it is no input for a model.
        ContentItem::UnknownJson { .. } => None,
    }
}

fn image_part(source: &ImageSource) -> ChatPart {
    match source {
        ImageSource::Base64 { media_type, data } => ChatPart::Image(ChatImage::Base64 {
            media_type: media_type.clone(),
            data: data.clone(),
        }),
        ImageSource::Url { url } => ChatPart::Image(ChatImage::Url { url: url.clone() }),
        // A local path means nothing to a remote model; say what was there.
        ImageSource::File { .. } => {
            ChatPart::text(format!("[image: {}]", render::image_label(source)))
        }
    }
}

fn push_part(turns: &mut Vec<ChatMessage>, role: ChatRole, part: ChatPart) {
    match turns.last_mut() {
        Some(last) if last.role == role => last.content.push(part),
        _ => turns.push(ChatMessage {
            role,
            content: vec![part],
        }),
    }
}

/// A tool call stays structured only when the next turn holds its result, and a result only
/// when the previous turn holds its call; the rest become text, so no API refuses the thread.
fn pair_tool_parts(turns: &mut [ChatMessage]) {
    let (calls, results): (Vec<_>, Vec<_>) = turns.iter().map(tool_ids).unzip();
    let empty = HashSet::new();
    for (i, turn) in turns.iter_mut().enumerate() {
        let answered_by = results.get(i + 1).unwrap_or(&empty);
        let asked_in = i
            .checked_sub(1)
            .and_then(|p| calls.get(p))
            .unwrap_or(&empty);
        for part in &mut turn.content {
            let orphan = match part {
                ChatPart::ToolUse { id, .. } => !answered_by.contains(id),
                ChatPart::ToolResult { tool_use_id, .. } => !asked_in.contains(tool_use_id),
                _ => false,
            };
            if orphan {
                *part = ChatPart::text(crate::transcript::part_text(part).unwrap_or_default());
            }
        }
    }
}

/// The ids of the turn's tool calls, and those its tool results answer.
fn tool_ids(turn: &ChatMessage) -> (HashSet<String>, HashSet<String>) {
    let mut calls = HashSet::new();
    let mut results = HashSet::new();
    for part in &turn.content {
        match part {
            ChatPart::ToolUse { id, .. } => {
                calls.insert(id.clone());
            }
            ChatPart::ToolResult { tool_use_id, .. } => {
                results.insert(tool_use_id.clone());
            }
            _ => {}
        }
    }
    (calls, results)
}

/// Anthropic wants a turn's tool results before its other content, and OpenAI sends them as
/// separate messages right after the call; putting them first suits both.
fn results_first(turn: &mut ChatMessage) {
    turn.content
        .sort_by_key(|p| !matches!(p, ChatPart::ToolResult { .. }));
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use squash_core::{ConversationId, StructuredText, SystemLevel, ToolResultData};

    use super::*;

    fn message(role: Role, content: Vec<ContentItem>) -> Message {
        let mut m = Message::text(ConversationId::new(), role, "x").expect("valid message");
        m.content = content;
        m
    }

    fn user(text: &str) -> ContentItem {
        ContentItem::UserMessage { text: text.into() }
    }

    fn assistant(text: &str) -> ContentItem {
        ContentItem::AssistantMessage {
            structured: StructuredText {
                full_text: text.into(),
                ..StructuredText::default()
            },
        }
    }

    fn call(id: &str) -> ContentItem {
        ContentItem::tool_call(id, "Bash", json!({"command": "ls"}))
    }

    fn result(id: &str) -> ContentItem {
        ContentItem::ToolResult {
            tool_use_id: id.into(),
            tool_name: "Bash".into(),
            result: vec![
                ToolResultData::Text {
                    text: "a.txt".into(),
                },
                ToolResultData::Url {
                    url: "https://x/y".into(),
                },
            ],
            is_error: false,
        }
    }

    #[test]
    fn plain_turns_keep_their_roles_and_text() {
        let turns = chat_messages_from_domain(&[
            message(Role::User, vec![user("hi")]),
            message(Role::Assistant, vec![assistant("hello")]),
        ]);
        assert_eq!(
            turns,
            vec![ChatMessage::user("hi"), ChatMessage::assistant("hello")]
        );
    }

    #[test]
    fn same_side_messages_merge_and_system_goes_user_side() {
        let turns = chat_messages_from_domain(&[
            message(Role::User, vec![user("one")]),
            message(
                Role::System,
                vec![ContentItem::System {
                    level: SystemLevel::Warning,
                    content: "disk almost full".into(),
                    tool_use_id: None,
                }],
            ),
            message(Role::User, vec![user("two")]),
        ]);
        assert_eq!(turns.len(), 1);
        assert_eq!(turns[0].role, ChatRole::User);
        assert_eq!(
            turns[0].content,
            vec![
                ChatPart::text("one"),
                ChatPart::text("[system warning] disk almost full"),
                ChatPart::text("two"),
            ]
        );
    }

    #[test]
    fn paired_tool_call_and_result_stay_structured() {
        let turns = chat_messages_from_domain(&[
            message(Role::User, vec![user("list files")]),
            message(Role::Assistant, vec![assistant("looking"), call("t1")]),
            message(Role::User, vec![result("t1")]),
            message(Role::Assistant, vec![assistant("one file")]),
        ]);
        assert_eq!(turns.len(), 4);
        assert_eq!(
            turns[1].content[1],
            ChatPart::ToolUse {
                id: "t1".into(),
                name: "Bash".into(),
                input: json!({"command": "ls"}),
            }
        );
        assert_eq!(
            turns[2].content,
            vec![ChatPart::ToolResult {
                tool_use_id: "t1".into(),
                content: "a.txt\n[url https://x/y]".into(),
                is_error: false,
            }]
        );
    }

    #[test]
    fn tool_results_move_to_the_user_side_and_first() {
        // Some importers store the result inside the assistant's message.
        let turns = chat_messages_from_domain(&[message(
            Role::Assistant,
            vec![call("t1"), result("t1"), assistant("done")],
        )]);
        let roles: Vec<_> = turns.iter().map(|t| t.role).collect();
        assert_eq!(
            roles,
            vec![ChatRole::Assistant, ChatRole::User, ChatRole::Assistant]
        );
        assert!(matches!(turns[0].content[0], ChatPart::ToolUse { .. }));
        assert!(matches!(turns[1].content[0], ChatPart::ToolResult { .. }));

        let turns = chat_messages_from_domain(&[
            message(Role::Assistant, vec![call("t1")]),
            message(Role::User, vec![user("meanwhile"), result("t1")]),
        ]);
        assert!(matches!(turns[1].content[0], ChatPart::ToolResult { .. }));
        assert_eq!(turns[1].content[1], ChatPart::text("meanwhile"));
    }

    #[test]
    fn orphaned_tool_parts_become_text() {
        let turns = chat_messages_from_domain(&[
            message(Role::User, vec![result("gone")]),
            message(Role::Assistant, vec![call("unanswered")]),
        ]);
        match (&turns[0].content[0], &turns[1].content[0]) {
            (ChatPart::Text(result), ChatPart::Text(call)) => {
                assert!(result.contains("a.txt"), "{result}");
                assert!(call.contains("Bash") && call.contains("ls"), "{call}");
            }
            other => panic!("expected text parts, got {other:?}"),
        }
    }

    #[test]
    fn thinking_stays_on_the_assistant_side_only() {
        let thinking = |sig: &str| ContentItem::Thinking {
            signature: sig.into(),
            thinking: "hmm".into(),
        };
        let turns = chat_messages_from_domain(&[
            message(Role::User, vec![user("q"), thinking("s")]),
            message(Role::Assistant, vec![thinking("sig"), assistant("a")]),
            message(Role::Assistant, vec![thinking("")]),
        ]);
        assert_eq!(turns[0].content, vec![ChatPart::text("q")]);
        assert_eq!(
            turns[1].content,
            vec![
                ChatPart::Thinking {
                    thinking: "hmm".into(),
                    signature: Some("sig".into()),
                },
                ChatPart::text("a"),
                ChatPart::Thinking {
                    thinking: "hmm".into(),
                    signature: None,
                },
            ]
        );
    }

    #[test]
    fn images_unknown_json_and_blank_text() {
        let turns = chat_messages_from_domain(&[message(
            Role::User,
            vec![
                ContentItem::Image {
                    source: ImageSource::Base64 {
                        media_type: "image/png".into(),
                        data: "AAAA".into(),
                    },
                },
                ContentItem::Image {
                    source: ImageSource::File {
                        path: "/tmp/shot.png".into(),
                    },
                },
                ContentItem::UnknownJson { json: json!({}) },
                user("   "),
            ],
        )]);
        assert_eq!(
            turns[0].content,
            vec![
                ChatPart::Image(ChatImage::Base64 {
                    media_type: "image/png".into(),
                    data: "AAAA".into(),
                }),
                ChatPart::text("[image: /tmp/shot.png]"),
            ]
        );
        assert!(chat_messages_from_domain(&[message(
            Role::User,
            vec![ContentItem::UnknownJson { json: json!(1) }]
        )])
        .is_empty());
    }
}
