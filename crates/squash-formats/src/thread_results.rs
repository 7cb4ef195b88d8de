//! What a thread's tool results say, by call id: what the writers of agents that keep a call's
//! result on the call itself (Gemini CLI, opencode) take them from.

use std::collections::{HashMap, HashSet};

use squash_core::{render, ContentItem, Message, ToolResultData};

/// A call's result: its tool's name, its content and whether it failed.
pub(crate) type CallResult<'a> = (&'a str, &'a [ToolResultData], bool);

pub(crate) struct ThreadResults<'a> {
    pub by_call: HashMap<&'a str, CallResult<'a>>,
    /// The ids of the thread's calls.
    pub calls: HashSet<&'a str>,
}

impl<'a> ThreadResults<'a> {
    pub(crate) fn of(messages: &'a [Message]) -> ThreadResults<'a> {
        let mut by_call = HashMap::new();
        let mut calls = HashSet::new();
        for item in messages.iter().flat_map(|m| &m.content) {
            match item {
                ContentItem::ToolResult {
                    tool_use_id,
                    tool_name,
                    result,
                    is_error,
                } => {
                    by_call.insert(
                        tool_use_id.as_str(),
                        (tool_name.as_str(), result.as_slice(), *is_error),
                    );
                }
                ContentItem::ToolCall { id, .. } => {
                    calls.insert(id.as_str());
                }
                _ => {}
            }
        }
        ThreadResults { by_call, calls }
    }

    /// For a tool result whose call is not in the thread: the text written in its place, and
    /// the warning that says so. `None` for any other item.
    pub(crate) fn orphan(&self, item: &ContentItem) -> Option<(String, String)> {
        let ContentItem::ToolResult {
            tool_use_id,
            tool_name,
            result,
            ..
        } = item
        else {
            return None;
        };
        if self.calls.contains(tool_use_id.as_str()) {
            return None;
        }
        let text = format!(
            "[result of {tool_name} call {tool_use_id}, whose call is not in this session]\n{}",
            render::results_text(result)
        );
        let warning =
            format!("the result of tool call {tool_use_id} has no call before it; written as text");
        Some((text, warning))
    }
}
