//! Plain-text rendering of every content type: the manual squash's concatenation, CLI output
//! and exports all read messages through here.

use crate::message::{ContentItem, ImageSource, Message, ToolResultData};

/// One line per item, readable by a person and by a model.
pub fn item_text(item: &ContentItem) -> String {
    match item {
        ContentItem::UserMessage { text } => text.clone(),
        ContentItem::AssistantMessage { structured } => structured.full_text.clone(),
        ContentItem::ToolCall { name, input, .. } => {
            format!("[tool call {name}] {}", compact_json(input))
        }
        ContentItem::ToolResult {
            tool_name,
            result,
            is_error,
            ..
        } => {
            let label = if *is_error {
                "tool error"
            } else {
                "tool result"
            };
            format!("[{label} {tool_name}] {}", results_text(result))
        }
        ContentItem::Thinking { thinking, .. } => format!("[thinking] {thinking}"),
        ContentItem::System { level, content, .. } => {
            format!("[system {}] {content}", level.as_str())
        }
        ContentItem::Image { source } => format!("[image: {}]", image_label(source)),
        ContentItem::UnknownJson { json } => format!("[unknown content] {}", compact_json(json)),
    }
}

/// A tool's whole output, one piece a line (an image or a file by its label).
pub fn results_text(result: &[ToolResultData]) -> String {
    result
        .iter()
        .map(result_text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// One piece of a tool's output: its text, or a label for an image, a URL or a file.
pub fn result_text(data: &ToolResultData) -> String {
    match data {
        ToolResultData::Text { text } => text.clone(),
        ToolResultData::Base64 { media_type, data } => {
            format!("[{media_type}, {} bytes base64]", data.len())
        }
        ToolResultData::Url { url } => format!("[url {url}]"),
        ToolResultData::File { path, .. } => format!("[file {path}]"),
    }
}

pub fn image_label(source: &ImageSource) -> String {
    match source {
        ImageSource::Base64 { media_type, data } => {
            format!("{media_type}, {} bytes base64", data.len())
        }
        ImageSource::Url { url } => url.clone(),
        ImageSource::File { path } => path.clone(),
    }
}

/// The text of a whole message, items separated by blank lines.
pub fn message_text(message: &Message) -> String {
    message
        .content
        .iter()
        .map(item_text)
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The manual squash: each source under a role header, in thread order.
pub fn concatenate<'a>(messages: impl IntoIterator<Item = &'a Message>) -> String {
    messages
        .into_iter()
        .map(|m| format!("[{}]\n{}", m.role, message_text(m)))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The opening of the items of `message` that belong to the tool exchanges `tool_ids` (the
/// calls it made or the outputs it got): at most `lines` non-empty lines of at most `max`
/// characters each, a line shortened with `…`, `…` last when more follows.
pub fn exchange_opening(
    message: &Message,
    tool_ids: &[String],
    lines: usize,
    max: usize,
) -> String {
    let text = message
        .content
        .iter()
        .filter(|item| match item {
            ContentItem::ToolCall { id, .. } => tool_ids.contains(id),
            ContentItem::ToolResult { tool_use_id, .. } => tool_ids.contains(tool_use_id),
            _ => false,
        })
        .map(item_text)
        .collect::<Vec<_>>()
        .join("\n");
    let mut all = text.lines().filter(|l| !l.trim().is_empty());
    let mut out: Vec<String> = Vec::new();
    for line in all.by_ref().take(lines) {
        let mut shown: String = line.chars().take(max).collect();
        if line.chars().count() > max {
            shown.push('…');
        }
        out.push(shown);
    }
    if all.next().is_some() {
        out.push("…".to_owned());
    }
    out.join("\n")
}

/// A first line, shortened to `max` characters, for lists.
pub fn preview(message: &Message, max: usize) -> String {
    let text = message_text(message);
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut out: String = line.chars().take(max).collect();
    if line.chars().count() > max || text.lines().filter(|l| !l.trim().is_empty()).count() > 1 {
        out.push('…');
    }
    out
}

fn compact_json(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::ConversationId;
    use crate::message::{Role, SystemLevel};

    #[test]
    fn concatenation_renders_every_type() {
        let conv = ConversationId::new();
        let mut m = Message::text(conv, Role::Assistant, "Searching.").unwrap();
        m.content.extend([
            ContentItem::tool_call("t", "Grep", serde_json::json!({"pattern": "fn main"})),
            ContentItem::tool_result("t", "Grep", "src/main.rs", true),
            ContentItem::Thinking {
                signature: "s".into(),
                thinking: "check src".into(),
            },
            ContentItem::System {
                level: SystemLevel::Warning,
                content: "large file".into(),
                tool_use_id: None,
            },
            ContentItem::Image {
                source: ImageSource::Url {
                    url: "http://x/y.png".into(),
                },
            },
        ]);
        let u = Message::text(conv, Role::User, "thanks").unwrap();
        let text = concatenate([&m, &u]);
        for needle in [
            "[assistant]\nSearching.",
            "[tool call Grep] {\"pattern\":\"fn main\"}",
            "[tool error Grep] src/main.rs",
            "[thinking] check src",
            "[system warning] large file",
            "[image: http://x/y.png]",
            "[user]\nthanks",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in {text}");
        }
    }

    #[test]
    fn an_exchange_opening_shows_only_its_own_items_in_a_few_short_lines() {
        let conv = ConversationId::new();
        let mut m = Message::text(conv, Role::User, "here are the outputs").unwrap();
        let long = format!("[main bb53fb4] {}", "x".repeat(300));
        m.content.extend([
            ContentItem::tool_result(
                "a",
                "Bash",
                format!("{long}\n\n 2 files changed\nmore\nrest"),
                false,
            ),
            ContentItem::tool_result("b", "Bash", "other output", false),
        ]);
        let shown = exchange_opening(&m, &["a".to_owned()], 3, 40);
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 4, "{shown}");
        assert!(
            lines[0].starts_with("[tool result Bash] [main bb53fb4]"),
            "{shown}"
        );
        assert!(
            lines[0].ends_with('…') && lines[0].chars().count() == 41,
            "{shown}"
        );
        assert_eq!(lines[1], " 2 files changed");
        assert_eq!(lines[3], "…", "more follows: {shown}");
        assert!(!shown.contains("other output") && !shown.contains("here are"));
        assert_eq!(exchange_opening(&m, &["zzz".to_owned()], 3, 40), "");
    }
}
