//! A tool use as the extractors read it: the call's input and, when the observed messages have
//! it, its result.

use serde_json::Value;

use crate::ids::MessageId;

/// A tool call and, when the observed messages have it, its result.
pub(crate) struct ToolUse<'a> {
    pub index: usize,
    pub source: MessageId,
    pub name: &'a str,
    pub input: &'a Value,
    pub result: Option<ToolOutcome>,
}

/// A tool result's text and error flag.
pub(crate) struct ToolOutcome {
    pub source: MessageId,
    pub text: String,
    pub is_error: bool,
}
