//! The text a model reads for each content type (the spec's "Content Type Handling" table):
//! a call by its intent ([`tool_args`](super::tool_args)), a result by its outcome, a long
//! output by its head and tail ([`long_output`](super::long_output)).
//!
//! This differs from [`crate::render`] on purpose: render shows everything to a person (raw
//! JSON arguments, whole outputs); a model compressing messages needs the intent of a call and
//! the outcome of a result, and pays for every token of a 40 KB build log.

use std::collections::HashMap;

use serde_json::Value;

use super::long_output::{condense_output, shorten_output};
use super::tool_args::compact_args;
use crate::message::{ContentItem, ImageSource, Message, Role, ToolResultData};
use crate::render;
use crate::text::shorten;

const IMAGE_LABEL_MAX_CHARS: usize = 120;

/// Looks up tool names by tool-use id, for results that arrive without a name (some import
/// formats keep only the id). A call and its result are never split by a squash, so the call
/// is in the same selection.
pub(crate) struct ToolNames<'a>(HashMap<&'a str, &'a str>);

impl<'a> ToolNames<'a> {
    pub(crate) fn of(messages: &[&'a Message]) -> ToolNames<'a> {
        let mut names = HashMap::new();
        for message in messages {
            for item in &message.content {
                if let ContentItem::ToolCall { id, name, .. } = item {
                    names.insert(id.as_str(), name.as_str());
                }
            }
        }
        ToolNames(names)
    }

    fn label(&self, tool_name: &'a str, tool_use_id: &str) -> &'a str {
        if !tool_name.trim().is_empty() {
            return tool_name;
        }
        self.0
            .get(tool_use_id)
            .copied()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or("The tool")
    }
}

/// The role a model should attribute a message to. A message holding only tool results is
/// stored with role `user` (that is how the Anthropic API carries them), but the user did not
/// say any of it; calling it `tool` keeps the model from putting the output in the user's mouth.
pub(crate) fn display_role(message: &Message) -> &'static str {
    let only_results = !message.content.is_empty()
        && message
            .content
            .iter()
            .all(|item| matches!(item, ContentItem::ToolResult { .. }));
    if only_results && message.role != Role::Assistant {
        "tool"
    } else {
        message.role.as_str()
    }
}

/// The text of one message for the model: its items, blank items skipped, separated by blank
/// lines. Never empty, so that message indexes stay continuous.
pub(crate) fn message_body(message: &Message, names: &ToolNames<'_>) -> String {
    body_with(message, names, Cut::Prompt)
}

/// A message's `body` after its role in capitals and `separator`, as the plain transcripts show
/// it.
pub(crate) fn labelled(message: &Message, body: &str, separator: &str) -> String {
    format!(
        "{}:{separator}{}",
        display_role(message).to_uppercase(),
        body.trim()
    )
}

/// [`message_body`] with tool outputs cut harder: for the small local models, which read slowly
/// and get lost in long logs.
pub(crate) fn condensed_body(message: &Message, names: &ToolNames<'_>) -> String {
    body_with(message, names, Cut::Condensed)
}

/// How much of a long tool output a prompt shows.
#[derive(Clone, Copy)]
enum Cut {
    /// Head and tail by characters ([`shorten_output`]).
    Prompt,
    /// A few head and tail lines plus every error line ([`condense_output`]).
    Condensed,
}

fn body_with(message: &Message, names: &ToolNames<'_>, cut: Cut) -> String {
    let parts: Vec<String> = message
        .content
        .iter()
        .filter_map(|item| item_for_model(item, names, cut))
        .collect();
    if parts.is_empty() {
        "[no text]".to_owned()
    } else {
        parts.join("\n\n")
    }
}

fn item_for_model(item: &ContentItem, names: &ToolNames<'_>, cut: Cut) -> Option<String> {
    if item.is_blank() {
        return None;
    }
    let text = match item {
        ContentItem::UserMessage { text } => text.trim().to_owned(),
        ContentItem::AssistantMessage { structured } => structured.full_text.trim().to_owned(),
        ContentItem::ToolCall { name, input, .. } => {
            let name = if name.trim().is_empty() {
                "a tool"
            } else {
                name
            };
            format!("Called {name}({})", compact_args(input))
        }
        ContentItem::ToolResult {
            tool_use_id,
            tool_name,
            result,
            is_error,
        } => tool_result_text(names.label(tool_name, tool_use_id), result, *is_error, cut),
        ContentItem::Thinking { thinking, .. } => match cut {
            Cut::Prompt => format!("Reasoning: {}", shorten_output(thinking.trim())),
            // Reasoning restates what the calls and answers show; a small model need not read it.
            Cut::Condensed => return None,
        },
        ContentItem::System { level, content, .. } => {
            format!("System {}: {}", level.as_str(), content.trim())
        }
        ContentItem::Image { source } => match source {
            ImageSource::Base64 { .. } => "[image]".to_owned(),
            ImageSource::Url { url } => {
                format!("[image: {}]", shorten(url, IMAGE_LABEL_MAX_CHARS))
            }
            ImageSource::File { path } => {
                format!("[image: {}]", shorten(path, IMAGE_LABEL_MAX_CHARS))
            }
        },
        ContentItem::UnknownJson { json } => match json.get("type").and_then(Value::as_str) {
            Some(kind) => format!("[unrecognised content of type \"{}\"]", shorten(kind, 40)),
            None => "[unrecognised content]".to_owned(),
        },
    };
    Some(text)
}

fn tool_result_text(label: &str, result: &[ToolResultData], is_error: bool, cut: Cut) -> String {
    let body = result
        .iter()
        .map(|data| match data {
            ToolResultData::Text { text } => text.trim_end().to_owned(),
            other => render::result_text(other),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let body = body.trim_matches(|c| c == '\n' || c == '\r');
    let verb = if is_error { "failed" } else { "returned" };
    if body.trim().is_empty() {
        return if is_error {
            format!("{label} failed with no output.")
        } else {
            format!("{label} returned no output.")
        };
    }
    let body = match cut {
        Cut::Prompt => shorten_output(body),
        Cut::Condensed => condense_output(body),
    };
    if body.contains('\n') {
        format!("{label} {verb}:\n{body}")
    } else {
        format!("{label} {verb}: {body}")
    }
}

#[cfg(test)]
#[path = "content_text_tests.rs"]
mod tests;
