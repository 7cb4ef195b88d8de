//! Generated conversations of realistic content, for the tests and benchmarks of the crates
//! above (the `sample` feature; no production code uses it).

use crate::{ContentItem, ImageSource, Role, StructuredText, SystemLevel};

/// How long the generated texts are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextSize {
    /// A short line each, for tests that read what they stored.
    Short,
    /// Real-size messages (user text ~200 characters, assistant text ~600, tool results ~300),
    /// for the benchmarks.
    RealSize,
}

const PROSE: &str = "The parser rejects the trailing comma in src/config.rs because the \
    grammar in parse_list() stops at the first closing bracket; the fix is to accept an \
    optional separator before it and to add a regression test next to test_parse_list. ";

impl TextSize {
    /// `head`, or at real size `len` characters of plausible prose starting with it.
    pub fn text(self, head: &str, len: usize) -> String {
        match self {
            TextSize::Short => head.to_owned(),
            TextSize::RealSize => prose(head, len),
        }
    }
}

/// `len` characters of plausible prose, starting with `head`.
pub fn prose(head: &str, len: usize) -> String {
    let mut s = String::with_capacity(len + PROSE.len());
    s.push_str(head);
    s.push(' ');
    while s.len() < len {
        s.push_str(PROSE);
    }
    s.truncate(len);
    s
}

/// The content of the n-th message of a realistic mixed conversation (10 kinds cycling: requests,
/// answers with reasoning, tool calls and results, an error, an image, unknown JSON).
pub fn mixed_content(n: usize, size: TextSize) -> (Role, Vec<ContentItem>) {
    let text = |head: &str, len: usize| size.text(head, len);
    let tool = format!("toolu_{n:03}");
    match n % 10 {
        0 => (
            Role::User,
            vec![ContentItem::UserMessage {
                text: text(
                    &format!("Request {n}: find the failing test in src/lib.rs"),
                    200,
                ),
            }],
        ),
        1 => (
            Role::Assistant,
            vec![ContentItem::AssistantMessage {
                structured: StructuredText {
                    full_text: text(&format!("Answer {n}: looking at src/lib.rs"), 600),
                    ..Default::default()
                },
            }],
        ),
        2 => (
            Role::Assistant,
            vec![
                ContentItem::Thinking {
                    signature: format!("sig{n}"),
                    thinking: text("check both src/ and tests/", 200),
                },
                ContentItem::tool_call(
                    tool,
                    "Grep",
                    serde_json::json!({"pattern": "fn test_", "path": "src"}),
                ),
            ],
        ),
        3 => (
            Role::User,
            vec![ContentItem::tool_result(
                format!("toolu_{:03}", n - 1),
                "Grep",
                text("src/lib.rs:42: fn test_parse()", 300),
                false,
            )],
        ),
        4 => (
            Role::System,
            vec![ContentItem::System {
                level: SystemLevel::Warning,
                content: "large file ignored".into(),
                tool_use_id: None,
            }],
        ),
        5 => (
            Role::Assistant,
            vec![ContentItem::tool_call(
                tool,
                "Bash",
                serde_json::json!({"command": "cargo test"}),
            )],
        ),
        6 => (
            Role::User,
            vec![ContentItem::tool_result(
                format!("toolu_{:03}", n - 1),
                "Bash",
                text("error[E0308]: mismatched types", 300),
                true,
            )],
        ),
        7 => (
            Role::User,
            vec![
                ContentItem::UserMessage {
                    text: "here is a screenshot".into(),
                },
                ContentItem::Image {
                    source: ImageSource::Base64 {
                        media_type: "image/png".into(),
                        data: "iVBORw0KGgo=".into(),
                    },
                },
            ],
        ),
        8 => (
            Role::Assistant,
            vec![ContentItem::UnknownJson {
                json: serde_json::json!({"type": "server_tool_use", "n": n}),
            }],
        ),
        _ => (
            Role::User,
            vec![ContentItem::UserMessage {
                text: text(&format!("Thanks, message {n}"), 200),
            }],
        ),
    }
}
