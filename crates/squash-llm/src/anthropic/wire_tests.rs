use serde_json::json;

use super::*;

#[test]
fn tool_blocks_become_text_and_unsigned_thinking_is_dropped() {
    let req = ChatRequest::new(vec![
        ChatMessage::user("q"),
        ChatMessage {
            role: ChatRole::Assistant,
            content: vec![
                ChatPart::Thinking {
                    thinking: "signed".into(),
                    signature: Some("sig".into()),
                },
                ChatPart::Thinking {
                    thinking: "unsigned".into(),
                    signature: None,
                },
                ChatPart::ToolUse {
                    id: "t".into(),
                    name: "Read".into(),
                    input: json!({"path": "a"}),
                },
            ],
        },
        ChatMessage {
            role: ChatRole::User,
            content: vec![ChatPart::ToolResult {
                tool_use_id: "t".into(),
                content: "body".into(),
                is_error: true,
            }],
        },
    ]);
    let body = serde_json::to_value(MessagesRequest::new(&req, "m", false)).unwrap();
    assert_eq!(
        body["messages"][1]["content"],
        json!([
            {"type": "thinking", "thinking": "signed", "signature": "sig"},
            {"type": "text", "text": "[tool call Read] {\"path\":\"a\"}"},
        ])
    );
    assert_eq!(
        body["messages"][2]["content"],
        json!([{"type": "text", "text": "[tool error] body"}])
    );
    assert!(body.get("stream").is_none());
    assert!(body.get("tools").is_none());
}

#[test]
fn turns_left_empty_are_dropped_and_neighbours_merged() {
    let req = ChatRequest::new(vec![
        ChatMessage::user("a"),
        ChatMessage {
            role: ChatRole::Assistant,
            content: vec![ChatPart::Thinking {
                thinking: "x".into(),
                signature: None,
            }],
        },
        ChatMessage::user("b"),
    ]);
    let body = serde_json::to_value(MessagesRequest::new(&req, "m", true)).unwrap();
    assert_eq!(
        body["messages"],
        json!([{"role": "user", "content": [
            {"type": "text", "text": "a"},
            {"type": "text", "text": "b"},
        ]}])
    );
    assert_eq!(body["stream"], json!(true));
}
