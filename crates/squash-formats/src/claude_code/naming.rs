//! What a conversation is called: the title the user gave it, else Claude Code's own title
//! (`ai-title`), else the summary line, else its first prompt; and which `Task` call started a
//! sub-agent run.

use serde_json::Value;
use squash_core::{ContentItem, Message, Role};

use super::META_KEY;
use crate::fields::title_from;

/// `(tool-use id, prompt, description)` of the calls that start sub-agents.
pub(super) fn task_calls(messages: &[Message]) -> Vec<(String, String, String)> {
    messages
        .iter()
        .flat_map(|m| &m.content)
        .filter_map(|item| match item {
            ContentItem::ToolCall { id, name, input } if name == "Task" || name == "Agent" => {
                let field = |k: &str| input.get(k).and_then(Value::as_str).unwrap_or("");
                Some((
                    id.clone(),
                    field("prompt").to_owned(),
                    field("description").to_owned(),
                ))
            }
            _ => None,
        })
        .collect()
}

pub(super) fn first_text(messages: &[Message]) -> Option<String> {
    messages.first()?.content.iter().find_map(|i| match i {
        ContentItem::UserMessage { text } => Some(text.clone()),
        _ => None,
    })
}

fn is_meta_message(message: &Message) -> bool {
    message
        .metadata
        .as_ref()
        .and_then(|m| m.get(META_KEY))
        .and_then(|c| c.get("lines"))
        .and_then(|l| l.get(0))
        .and_then(|l| l.get("json"))
        .is_some_and(|j| {
            j.get("isMeta").and_then(Value::as_bool) == Some(true)
                || j.get("isCompactSummary").and_then(Value::as_bool) == Some(true)
        })
}

/// The newest title line of `kind` among the conversation's extras.
fn title_line<'a>(extras: &'a [Value], kind: &str, field: &str) -> Option<&'a str> {
    extras.iter().rev().find_map(|e| {
        let json = e.get("json")?;
        (json.get("type")?.as_str()? == kind)
            .then(|| json.get(field)?.as_str())
            .flatten()
    })
}

pub(super) fn display_name(messages: &[Message], extras: &[Value]) -> String {
    let titled = title_line(extras, "custom-title", "customTitle")
        .or_else(|| title_line(extras, "ai-title", "aiTitle"))
        .or_else(|| title_line(extras, "summary", "summary"));
    if let Some(name) = titled.and_then(|s| title_from(s, 80)) {
        return name;
    }
    messages
        .iter()
        .filter(|m| m.role == Role::User && !is_meta_message(m))
        .find_map(|m| match m.content.first() {
            Some(ContentItem::UserMessage { text }) => title_from(text, 60),
            _ => None,
        })
        .unwrap_or_else(|| "Claude Code session".to_owned())
}

pub(super) fn prefix(session: &str) -> &str {
    session.get(..8).unwrap_or(session)
}
