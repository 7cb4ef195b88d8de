//! What the Messages API demands of the history a resumed session sends, enforced line by line
//! while the session is written: every `tool_use` of an assistant turn is answered by a
//! `tool_result` in the user turn right after it, results before any other block of that turn,
//! no result anywhere else and no call in a user turn. Claude Code sends consecutive lines of
//! one role as one message, so a "turn" here is a run of user or of assistant lines.
//!
//! A result that cannot stand where it is becomes text; a call left without a result gets an
//! error result written right after its turn. Both are reported.

use serde_json::{json, Map, Value};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    User,
    Assistant,
}

#[derive(Default)]
pub(super) struct Pairing {
    /// Calls of the current or last assistant turn that have no result yet.
    pending: Vec<String>,
    last: Option<Side>,
    /// Whether the current user turn already has a block that is no result.
    user_text: bool,
}

/// What the writer must do around a line.
#[derive(Default)]
pub(super) struct Fix {
    /// Calls to answer with error results on a line written before this one.
    pub unanswered: Vec<String>,
    pub warnings: Vec<String>,
}

impl Pairing {
    /// Checks a user or assistant line about to be written, fixing its blocks in place.
    pub fn line(&mut self, line: &mut Map<String, Value>) -> Fix {
        let side = match line.get("type").and_then(Value::as_str) {
            Some("assistant") => Side::Assistant,
            Some("user") => Side::User,
            _ => return Fix::default(),
        };
        let mut fix = Fix::default();
        let Some(content) = line.get_mut("message").and_then(|m| m.get_mut("content")) else {
            return fix;
        };
        match side {
            Side::Assistant => self.assistant(content, &mut fix),
            Side::User => self.user(content, &mut fix),
        }
        self.last = Some(side);
        fix
    }

    /// The calls still without a result when the session ends.
    pub fn finish(&mut self) -> Vec<String> {
        std::mem::take(&mut self.pending)
    }

    fn assistant(&mut self, content: &mut Value, fix: &mut Fix) {
        if self.last != Some(Side::Assistant) {
            // A new assistant turn: the user turn before it ends here.
            fix.unanswered = std::mem::take(&mut self.pending);
        }
        let Some(blocks) = content.as_array_mut() else {
            return;
        };
        for block in blocks {
            match block.get("type").and_then(Value::as_str) {
                Some("tool_use") => {
                    if let Some(id) = block.get("id").and_then(Value::as_str) {
                        self.pending.push(id.to_owned());
                    }
                }
                Some("tool_result") => {
                    let id = result_id(block);
                    fix.warnings.push(format!(
                        "the result of tool call {id} was in an assistant turn; written as text"
                    ));
                    *block = result_as_text(block, &id);
                }
                _ => {}
            }
        }
    }

    fn user(&mut self, content: &mut Value, fix: &mut Fix) {
        if self.last != Some(Side::User) {
            self.user_text = false;
        }
        let Some(blocks) = content.as_array_mut() else {
            // Plain text.
            self.text_starts(fix);
            return;
        };
        for block in blocks {
            match block.get("type").and_then(Value::as_str) {
                Some("tool_result") => {
                    let id = result_id(block);
                    let waiting = self.pending.iter().position(|p| *p == id);
                    match waiting {
                        Some(at) if !self.user_text => {
                            self.pending.remove(at);
                        }
                        _ => {
                            fix.warnings.push(format!(
                                "the result of tool call {id} does not follow its call; written as text"
                            ));
                            *block = result_as_text(block, &id);
                            self.text_starts(fix);
                        }
                    }
                }
                Some("tool_use") => {
                    let id = block.get("id").and_then(Value::as_str).unwrap_or("?").to_owned();
                    fix.warnings.push(format!(
                        "tool call {id} was in a user turn; written as text"
                    ));
                    let input = block.get("input").cloned().unwrap_or(Value::Null);
                    let name = block.get("name").and_then(Value::as_str).unwrap_or("?");
                    *block = json!({"type": "text", "text": format!("[tool call {name} {id}]\n{input}")});
                    self.text_starts(fix);
                }
                _ => self.text_starts(fix),
            }
        }
    }

    /// A block that is no result: the calls of the turn before must be answered before it.
    fn text_starts(&mut self, fix: &mut Fix) {
        if !self.user_text {
            fix.unanswered.append(&mut self.pending);
            self.user_text = true;
        }
    }
}

fn result_id(block: &Value) -> String {
    block
        .get("tool_use_id")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_owned()
}

fn result_as_text(block: &Value, id: &str) -> Value {
    let text = match block.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .map(|p| match p.get("text").and_then(Value::as_str) {
                Some(t) => t.to_owned(),
                None => p.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    json!({"type": "text", "text": format!("[result of tool call {id}]\n{text}")})
}

/// The error results written for calls that have none.
pub(super) fn missing_results(ids: &[String]) -> Value {
    Value::Array(
        ids.iter()
            .map(|id| {
                json!({"type": "tool_result", "tool_use_id": id, "is_error": true,
                       "content": "No result was recorded for this tool call."})
            })
            .collect(),
    )
}
