//! What the Messages API demands of the history a resumed session sends, enforced line by line
//! while the session is written: every `tool_use` of an assistant turn is answered by a
//! `tool_result` in the user turn right after it, results before any other block of that turn,
//! no result anywhere else and no call in a user turn. Claude Code sends consecutive lines of
//! one role as one message, so a "turn" here is a run of user or of assistant lines.
//!
//! A result that cannot stand where it is becomes text; a call left without a result gets an
//! error result written right after its turn. Both are reported.

use serde_json::{json, Map, Value};

use crate::fields::str_or;

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
                    let id = str_or(block, "id", "?").to_owned();
                    fix.warnings.push(format!(
                        "tool call {id} was in a user turn; written as text"
                    ));
                    let input = block.get("input").cloned().unwrap_or(Value::Null);
                    let name = str_or(block, "name", "?");
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
    str_or(block, "tool_use_id", "?").to_owned()
}

fn result_as_text(block: &Value, id: &str) -> Value {
    let text = crate::fields::result_text(block.get("content"));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn line(kind: &str, content: Value) -> Map<String, Value> {
        let role = if kind == "assistant" {
            "assistant"
        } else {
            "user"
        };
        json!({"type": kind, "message": {"role": role, "content": content}})
            .as_object()
            .cloned()
            .unwrap_or_default()
    }

    fn call(id: &str) -> Value {
        json!({"type": "tool_use", "id": id, "name": "Bash", "input": {}})
    }

    fn result(id: &str) -> Value {
        json!({"type": "tool_result", "tool_use_id": id, "content": "ok"})
    }

    fn kinds(line: &Map<String, Value>) -> Vec<String> {
        line["message"]["content"]
            .as_array()
            .map(|b| {
                b.iter()
                    .map(|x| x["type"].as_str().unwrap_or("").to_owned())
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn results_right_after_their_calls_stay() {
        let mut p = Pairing::default();
        let mut a = line(
            "assistant",
            json!([{"type": "text", "text": "go"}, call("t1")]),
        );
        let mut a2 = line("assistant", json!([call("t2")]));
        let mut u1 = line("user", json!([result("t1")]));
        let mut u2 = line(
            "user",
            json!([result("t2"), {"type": "text", "text": "and"}]),
        );
        for l in [&mut a, &mut a2, &mut u1, &mut u2] {
            let fix = p.line(l);
            assert!(fix.unanswered.is_empty() && fix.warnings.is_empty());
        }
        assert_eq!(kinds(&u2), ["tool_result", "text"]);
        assert!(p.finish().is_empty());
    }

    #[test]
    fn a_result_in_an_assistant_turn_becomes_text() {
        let mut p = Pairing::default();
        let mut a = line("assistant", json!([call("t1"), result("t1")]));
        let fix = p.line(&mut a);
        assert_eq!(kinds(&a), ["tool_use", "text"]);
        assert_eq!(fix.warnings.len(), 1);
        // The call is still waiting: the session ends, it gets an error result.
        assert_eq!(p.finish(), ["t1"]);
    }

    #[test]
    fn a_call_without_a_result_is_answered_before_the_next_text() {
        let mut p = Pairing::default();
        p.line(&mut line("assistant", json!([call("t1"), call("t2")])));
        let mut u = line(
            "user",
            json!([result("t2"), {"type": "text", "text": "stop"}]),
        );
        let fix = p.line(&mut u);
        assert_eq!(fix.unanswered, ["t1"]);
        assert_eq!(kinds(&u), ["tool_result", "text"]);
        // A late result, after text or a turn later, is no longer a result.
        let mut late = line("user", json!([result("t1")]));
        let fix = p.line(&mut late);
        assert_eq!(kinds(&late), ["text"]);
        assert_eq!(fix.warnings.len(), 1);
    }

    #[test]
    fn a_new_assistant_turn_answers_what_the_last_left_open() {
        let mut p = Pairing::default();
        p.line(&mut line("assistant", json!([call("t1")])));
        p.line(&mut line("user", json!([result("t1")])));
        p.line(&mut line("assistant", json!([call("t2")])));
        let fix = p.line(&mut line("user", "plain text".into()));
        assert_eq!(fix.unanswered, ["t2"]);
        let fix = p.line(&mut line("assistant", json!([call("t3")])));
        assert!(fix.unanswered.is_empty());
        let mut u = line("user", json!([call("t4")]));
        let fix = p.line(&mut u);
        assert_eq!(kinds(&u), ["text"]);
        assert_eq!(fix.unanswered, ["t3"]);
    }
}
