//! What the Responses API demands of the history a resumed session sends, enforced item by item
//! while the rollout is written: every output follows its call, answers it once and has the
//! call's kind (`custom_tool_call_output` for a `custom_tool_call`, `function_call_output`
//! otherwise), and every call is answered before the next user or developer message.
//!
//! An output without its call (a squash took the call) becomes user text; a call left without an
//! output gets one saying so. Both are reported.

use serde_json::{json, Value};

use crate::fields::str_or;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CallKind {
    Function,
    Custom,
}

impl CallKind {
    fn output_type(self) -> &'static str {
        match self {
            CallKind::Function => "function_call_output",
            CallKind::Custom => "custom_tool_call_output",
        }
    }
}

/// A call without its output yet.
pub(super) type Pending = (String, CallKind);

#[derive(Default)]
pub(super) struct Pairing {
    pending: Vec<Pending>,
}

/// What the writer must do around an item.
#[derive(Default)]
pub(super) struct Fix {
    /// Calls to answer before this item.
    pub unanswered: Vec<Pending>,
    pub warnings: Vec<String>,
}

impl Pairing {
    /// Checks an item about to be written, fixing it in place.
    pub fn item(&mut self, item: &mut Value) -> Fix {
        let mut fix = Fix::default();
        let kind = str_or(item, "type", "").to_owned();
        match kind.as_str() {
            "function_call" | "local_shell_call" => {
                self.pending.push((call_id(item), CallKind::Function));
            }
            "custom_tool_call" => self.pending.push((call_id(item), CallKind::Custom)),
            k if k.ends_with("_output") => {
                let id = call_id(item);
                match self.pending.iter().position(|(p, _)| *p == id) {
                    Some(at) => {
                        let (_, call) = self.pending.remove(at);
                        item["type"] = json!(call.output_type());
                    }
                    None => {
                        fix.warnings.push(format!(
                            "the output of tool call {id} has no call before it; written as text"
                        ));
                        *item = output_as_text(item, &id);
                        fix.unanswered = std::mem::take(&mut self.pending);
                    }
                }
            }
            "message" if item.get("role").and_then(Value::as_str) != Some("assistant") => {
                fix.unanswered = std::mem::take(&mut self.pending);
            }
            _ => {}
        }
        for (id, _) in &fix.unanswered {
            fix.warnings.push(format!(
                "tool call {id} has no output before the next message; an output saying so was written"
            ));
        }
        fix
    }

    /// The calls still without an output when the rollout ends.
    pub fn finish(&mut self) -> Vec<Pending> {
        std::mem::take(&mut self.pending)
    }
}

fn call_id(item: &Value) -> String {
    item.get("call_id")
        .or_else(|| item.get("id"))
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_owned()
}

fn output_as_text(item: &Value, id: &str) -> Value {
    let text = crate::fields::result_text(item.get("output"));
    json!({"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": format!("[result of tool call {id}]\n{text}")}
    ]})
}

/// The output written for a call that has none.
pub(super) fn missing_output((id, kind): &Pending) -> Value {
    json!({"type": kind.output_type(), "call_id": id,
           "output": "No output was recorded for this tool call."})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(kind: &str, id: &str) -> Value {
        json!({"type": kind, "call_id": id, "name": "exec_command", "arguments": "{}"})
    }

    fn output(id: &str) -> Value {
        json!({"type": "function_call_output", "call_id": id, "output": "ok"})
    }

    fn user(text: &str) -> Value {
        json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
    }

    #[test]
    fn outputs_after_their_calls_stay_and_take_the_calls_kind() {
        let mut p = Pairing::default();
        for mut item in [call("function_call", "a"), call("custom_tool_call", "b")] {
            assert!(p.item(&mut item).warnings.is_empty());
        }
        let (mut a, mut b) = (output("a"), output("b"));
        assert!(p.item(&mut b).warnings.is_empty());
        assert!(p.item(&mut a).warnings.is_empty());
        assert_eq!(b["type"], "custom_tool_call_output");
        assert_eq!(a["type"], "function_call_output");
        assert!(p.finish().is_empty());
    }

    #[test]
    fn an_output_without_its_call_becomes_user_text() {
        let mut p = Pairing::default();
        let mut orphan = output("gone");
        let fix = p.item(&mut orphan);
        assert_eq!(fix.warnings.len(), 1);
        assert_eq!(orphan["role"], "user");
        assert_eq!(
            orphan["content"][0]["text"],
            "[result of tool call gone]\nok"
        );
        // Answered once: a second output of the same call is no output either.
        p.item(&mut call("function_call", "c"));
        p.item(&mut output("c"));
        let mut again = output("c");
        p.item(&mut again);
        assert_eq!(again["type"], "message");
    }

    #[test]
    fn a_call_without_an_output_is_answered_before_the_next_user_message() {
        let mut p = Pairing::default();
        p.item(&mut call("function_call", "a"));
        // The assistant may go on talking; a user message closes the turn.
        let mut said = json!({"type": "message", "role": "assistant", "content": []});
        assert!(p.item(&mut said).unanswered.is_empty());
        let fix = p.item(&mut user("next"));
        assert_eq!(fix.unanswered, [("a".to_owned(), CallKind::Function)]);
        assert_eq!(fix.warnings.len(), 1);
        p.item(&mut call("custom_tool_call", "b"));
        let end = p.finish();
        assert_eq!(missing_output(&end[0])["type"], "custom_tool_call_output");
    }
}
