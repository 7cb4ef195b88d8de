//! Response items (`response_item` payloads, or the bare lines of a legacy rollout): messages,
//! tool calls and their outputs, reasoning.

use chrono::{DateTime, Utc};
use serde_json::{json, Value};
use squash_core::{ContentItem, Role};

use super::content::{message_items, reasoning_text};
use super::output::{legacy_metadata, output_result, LEGACY_METADATA};
use super::{CodexParser, Envelope, Side};
use crate::fields::{str_or, take_field};

impl CodexParser {
    pub(super) fn response_item(
        &mut self,
        no: usize,
        time: DateTime<Utc>,
        mut payload: Value,
        envelope: Envelope,
    ) {
        let kind = str_or(&payload, "type", "").to_owned();
        match kind.as_str() {
            "message" => self.message_item(no, time, payload, envelope),
            // The tools the model was offered: a description of the session, not a message.
            "additional_tools" => {
                let mut line = envelope.unwrap_or_default();
                line.insert("payload".to_owned(), payload);
                self.keep_line(no, Value::Object(line));
            }
            "function_call" | "custom_tool_call" | "local_shell_call" => {
                let item = self.tool_call(&kind, &mut payload);
                self.assistant_item(item, no, time, payload, envelope);
            }
            "reasoning" => {
                let thinking = reasoning_text(&payload);
                let signature = payload
                    .get("encrypted_content")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .unwrap_or_default();
                let item = ContentItem::Thinking {
                    signature,
                    thinking,
                };
                self.assistant_item(item, no, time, payload, envelope);
            }
            k if k.ends_with("_output") => {
                let item = self.tool_output(&mut payload);
                self.prompts.turn_moved_on();
                if self.open != Some(Side::ToolOutput) {
                    self.start(Side::ToolOutput, Role::User, no, time);
                }
                self.add(item, no, time, payload, envelope);
            }
            _ => {
                // web_search_call and whatever comes next: kept as it is.
                let item = ContentItem::UnknownJson {
                    json: payload.clone(),
                };
                self.assistant_item(item, no, time, json!({"type": kind}), envelope);
            }
        }
    }

    fn message_item(
        &mut self,
        no: usize,
        time: DateTime<Utc>,
        mut payload: Value,
        envelope: Envelope,
    ) {
        let (side, role) = match payload.get("role").and_then(Value::as_str) {
            Some("assistant") => (Side::Assistant, Role::Assistant),
            Some("user") => (Side::User, Role::User),
            _ => (Side::System, Role::System),
        };
        let parts = take_field(&mut payload, "content").unwrap_or(Value::Null);
        let items = message_items(role, &parts);
        if side == Side::User
            && self.prompt_already_read(no, time, &items, &payload, &parts, &envelope)
        {
            return;
        }
        // Each user or system message stands alone; assistant items of a turn join.
        if side != Side::Assistant || self.open != Some(Side::Assistant) {
            self.start(side, role, no, time);
        }
        if side == Side::User {
            self.prompts.read_item(&items, self.messages.len() - 1);
        } else {
            self.prompts.turn_moved_on();
        }
        let count = items.len();
        for item in items {
            self.push_item(item);
        }
        self.note(no, time, payload, count, envelope);
        if side != Side::Assistant {
            self.open = None;
        }
    }

    fn tool_call(&mut self, kind: &str, payload: &mut Value) -> ContentItem {
        let id = payload
            .get("call_id")
            .or_else(|| payload.get("id"))
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_default();
        let fallback = if kind == "local_shell_call" {
            "local_shell"
        } else {
            "tool"
        };
        let name = payload
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or(fallback)
            .to_owned();
        let input = match kind {
            "function_call" => match take_field(payload, "arguments") {
                // The arguments are a JSON document in a string.
                Some(Value::String(args)) => {
                    serde_json::from_str(&args).unwrap_or(Value::String(args))
                }
                Some(other) => other,
                None => Value::Null,
            },
            "custom_tool_call" => take_field(payload, "input").unwrap_or(Value::Null),
            _ => payload.get("action").cloned().unwrap_or(Value::Null),
        };
        self.names.insert(id.clone(), name.clone());
        ContentItem::ToolCall { id, name, input }
    }

    fn tool_output(&mut self, payload: &mut Value) -> ContentItem {
        let id = payload
            .get("call_id")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_default();
        let output = take_field(payload, "output").unwrap_or(Value::Null);
        if let (Some(metadata), Some(obj)) = (legacy_metadata(&output), payload.as_object_mut()) {
            obj.insert(LEGACY_METADATA.to_owned(), metadata);
        }
        let (result, is_error) = output_result(output);
        ContentItem::ToolResult {
            tool_name: self.names.get(&id).cloned().unwrap_or_default(),
            tool_use_id: id,
            result,
            is_error,
        }
    }

    fn assistant_item(
        &mut self,
        item: ContentItem,
        no: usize,
        time: DateTime<Utc>,
        rest: Value,
        envelope: Envelope,
    ) {
        self.prompts.turn_moved_on();
        if self.open != Some(Side::Assistant) {
            self.start(Side::Assistant, Role::Assistant, no, time);
        }
        self.add(item, no, time, rest, envelope);
    }
}
