//! Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`): every line is
//! `{timestamp, type, payload}`. The conversation is in the `response_item` lines; the
//! assistant-side items of one turn (reasoning, text, tool calls) become one assistant message
//! and the tool outputs that follow one user message, as the model APIs see them. A
//! `compacted` line is a system message that says so and carries the summary. Every other line
//! (`session_meta`, `turn_context`, `event_msg`, ...) is kept verbatim in the conversation's
//! import metadata.

use chrono::{DateTime, Utc};
use serde_json::{json, Value};
use squash_core::{
    ContentItem, ConversationId, ImageSource, Message, MessageId, Role, SourceFormat, SystemLevel,
    ToolResultData,
};

use crate::anthropic_json::{short, ToolNames};
use crate::fields::{parse_time, take_field, title_from};
use crate::{ImportedConversation, Parsed, SOURCE_ID_KEY};

pub const META_KEY: &str = "codex";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    User,
    Assistant,
    ToolOutput,
    System,
}

/// Reads a rollout line by line; [`finish`](CodexParser::finish) builds the conversation.
pub struct CodexParser {
    source_name: String,
    now: DateTime<Utc>,
    conversation_id: ConversationId,
    messages: Vec<Message>,
    open: Option<Side>,
    names: ToolNames,
    session_id: Option<String>,
    cwd: Option<String>,
    extras: Vec<Value>,
    last_time: Option<DateTime<Utc>>,
    parsed: Parsed,
}

impl CodexParser {
    pub fn new(source_name: &str, now: DateTime<Utc>) -> CodexParser {
        CodexParser {
            source_name: source_name.to_owned(),
            now,
            conversation_id: ConversationId::new(),
            messages: Vec::new(),
            open: None,
            names: ToolNames::new(),
            session_id: None,
            cwd: None,
            extras: Vec::new(),
            last_time: None,
            parsed: Parsed::default(),
        }
    }

    pub fn parse_str(source_name: &str, text: &str, content_hash: &str) -> Parsed {
        let mut parser = CodexParser::new(source_name, Utc::now());
        for (i, line) in text.lines().enumerate() {
            parser.push_line(i + 1, line);
        }
        parser.finish(content_hash)
    }

    pub fn push_line(&mut self, no: usize, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                self.parsed
                    .skip(&self.source_name, Some(no), format!("invalid JSON: {e}"));
                return;
            }
        };
        let Value::Object(mut line) = value else {
            self.parsed
                .skip(&self.source_name, Some(no), "not a JSON object");
            return;
        };
        let time = parse_time(line.get("timestamp"))
            .or(self.last_time)
            .unwrap_or(self.now);
        self.last_time = Some(time);
        match line.get("type").and_then(Value::as_str) {
            Some("response_item") => {
                let payload = line.remove("payload").unwrap_or(Value::Null);
                self.response_item(no, time, payload);
            }
            Some("compacted") => {
                let payload = line.remove("payload").unwrap_or(Value::Null);
                let summary = payload
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let item = ContentItem::System {
                    level: SystemLevel::Info,
                    content: format!("Conversation compacted. Summary:\n{summary}"),
                    tool_use_id: None,
                };
                self.start(Side::System, Role::System, no, time);
                self.add(item, no, time, payload);
                self.open = None;
            }
            _ => {
                if line.get("type").and_then(Value::as_str) == Some("session_meta") {
                    let payload = line.get("payload");
                    let field = |k: &str| {
                        payload
                            .and_then(|p| p.get(k))
                            .and_then(Value::as_str)
                            .map(str::to_owned)
                    };
                    self.session_id = self.session_id.take().or_else(|| field("id"));
                    self.cwd = self.cwd.take().or_else(|| field("cwd"));
                }
                self.extras
                    .push(json!({"line": no, "json": Value::Object(line)}));
            }
        }
    }

    fn response_item(&mut self, no: usize, time: DateTime<Utc>, mut payload: Value) {
        let kind = payload
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        match kind.as_str() {
            "message" => {
                let role = payload.get("role").and_then(Value::as_str).unwrap_or("");
                let (side, role) = match role {
                    "assistant" => (Side::Assistant, Role::Assistant),
                    "user" => (Side::User, Role::User),
                    _ => (Side::System, Role::System),
                };
                let parts = take_field(&mut payload, "content").unwrap_or(Value::Null);
                let items = message_items(role, &parts);
                // Each user or system message stands alone; assistant items of a turn join.
                if side != Side::Assistant || self.open != Some(Side::Assistant) {
                    self.start(side, role, no, time);
                }
                self.open = Some(side);
                let count = items.len();
                for item in items {
                    self.push_item(item);
                }
                self.note(no, time, payload, count);
                if side != Side::Assistant {
                    self.open = None;
                }
            }
            "function_call" | "custom_tool_call" | "local_shell_call" => {
                let id = payload
                    .get("call_id")
                    .or_else(|| payload.get("id"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let name = payload
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or(if kind == "local_shell_call" {
                        "local_shell"
                    } else {
                        "tool"
                    })
                    .to_owned();
                let input = match kind.as_str() {
                    "function_call" => match take_field(&mut payload, "arguments") {
                        // The arguments are a JSON document in a string.
                        Some(Value::String(args)) => {
                            serde_json::from_str(&args).unwrap_or(Value::String(args))
                        }
                        Some(other) => other,
                        None => Value::Null,
                    },
                    "custom_tool_call" => take_field(&mut payload, "input").unwrap_or(Value::Null),
                    _ => payload.get("action").cloned().unwrap_or(Value::Null),
                };
                self.names.insert(id.clone(), name.clone());
                self.assistant_item(ContentItem::ToolCall { id, name, input }, no, time, payload);
            }
            "reasoning" => {
                let text = reasoning_text(&payload);
                let signature = payload
                    .get("encrypted_content")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                self.assistant_item(
                    ContentItem::Thinking {
                        signature,
                        thinking: text,
                    },
                    no,
                    time,
                    payload,
                );
            }
            k if k.ends_with("_output") => {
                let id = payload
                    .get("call_id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let output = take_field(&mut payload, "output").unwrap_or(Value::Null);
                let (text, is_error) = output_text(output);
                let item = ContentItem::ToolResult {
                    tool_name: self.names.get(&id).cloned().unwrap_or_default(),
                    tool_use_id: id,
                    result: vec![ToolResultData::Text { text }],
                    is_error,
                };
                if self.open != Some(Side::ToolOutput) {
                    self.start(Side::ToolOutput, Role::User, no, time);
                }
                self.add(item, no, time, payload);
            }
            _ => {
                // web_search_call and whatever comes next: kept as it is.
                let item = ContentItem::UnknownJson {
                    json: payload.clone(),
                };
                self.assistant_item(item, no, time, json!({"type": kind}));
            }
        }
    }

    fn assistant_item(&mut self, item: ContentItem, no: usize, time: DateTime<Utc>, rest: Value) {
        if self.open != Some(Side::Assistant) {
            self.start(Side::Assistant, Role::Assistant, no, time);
        }
        self.add(item, no, time, rest);
    }

    fn start(&mut self, side: Side, role: Role, no: usize, time: DateTime<Utc>) {
        self.open = Some(side);
        self.messages.push(Message {
            id: MessageId::new(),
            conversation_id: self.conversation_id,
            squash_operation_id: None,
            reply_to: None,
            role,
            content: Vec::new(),
            instructions: Vec::new(),
            metadata: Some(json!({SOURCE_ID_KEY: format!("line:{no}"), META_KEY: {"items": []}})),
            created_at: time,
        });
    }

    fn push_item(&mut self, item: ContentItem) {
        if let Some(m) = self.messages.last_mut() {
            m.content.push(item);
        }
    }

    fn add(&mut self, item: ContentItem, no: usize, time: DateTime<Utc>, rest: Value) {
        self.push_item(item);
        self.note(no, time, rest, 1);
    }

    /// Records the source line of the items just added: the payload minus what became items.
    fn note(&mut self, no: usize, time: DateTime<Utc>, rest: Value, items: usize) {
        let Some(m) = self.messages.last_mut() else {
            return;
        };
        if let Some(list) = m
            .metadata
            .as_mut()
            .and_then(|md| md.get_mut(META_KEY))
            .and_then(|c| c.get_mut("items"))
            .and_then(Value::as_array_mut)
        {
            list.push(json!({"line": no, "timestamp": time, "items": items, "payload": rest}));
        }
    }

    pub fn finish(mut self, content_hash: &str) -> Parsed {
        if self.messages.is_empty() {
            self.parsed
                .skip(&self.source_name, None, "no response_item messages");
            return self.parsed;
        }
        let session = self.session_id.clone().unwrap_or_else(|| {
            short(&self.source_name)
                .trim_end_matches(".jsonl")
                .to_owned()
        });
        let name = self
            .messages
            .iter()
            .filter(|m| m.role == Role::User)
            .flat_map(|m| &m.content)
            .find_map(|i| match i {
                ContentItem::UserMessage { text } if !is_injected(text) => title_from(text, 60),
                _ => None,
            })
            .unwrap_or_else(|| format!("Codex session {}", session.get(..8).unwrap_or(&session)));
        let mut conv = ImportedConversation::linear(
            SourceFormat::Codex,
            format!("codex:{session}"),
            self.conversation_id,
            name,
            std::mem::take(&mut self.messages),
            self.now,
        );
        conv.project_path = self.cwd.take();
        conv.content_hash = content_hash.to_owned();
        conv.metadata = Some(json!({META_KEY: {
            "session_id": session,
            "source": short(&self.source_name),
            "extras": std::mem::take(&mut self.extras),
        }}));
        self.parsed.conversations.push(conv);
        self.parsed
    }
}

/// Context Codex puts in user messages itself, not what the person typed.
fn is_injected(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("<environment_context>")
        || t.starts_with("<user_instructions>")
        || t.starts_with("# AGENTS.md")
}

fn message_items(role: Role, parts: &Value) -> Vec<ContentItem> {
    match parts {
        Value::String(text) => vec![ContentItem::text_for(role, text.as_str())],
        Value::Array(parts) => parts
            .iter()
            .map(|p| {
                let text = p.get("text").and_then(Value::as_str);
                match (p.get("type").and_then(Value::as_str), text) {
                    (Some("input_text" | "output_text" | "text"), Some(text)) => {
                        ContentItem::text_for(role, text)
                    }
                    (Some("input_image"), _) => match p.get("image_url").and_then(Value::as_str) {
                        Some(url) => ContentItem::Image {
                            source: ImageSource::Url {
                                url: url.to_owned(),
                            },
                        },
                        None => ContentItem::UnknownJson { json: p.clone() },
                    },
                    _ => ContentItem::UnknownJson { json: p.clone() },
                }
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn reasoning_text(payload: &Value) -> String {
    let texts = |key: &str| -> Vec<String> {
        payload
            .get(key)
            .and_then(Value::as_array)
            .map(|parts| {
                parts
                    .iter()
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut out = texts("summary");
    out.extend(texts("content"));
    out.join("\n\n")
}

/// The text of a tool output and whether it reports a failure. Outputs are strings (older
/// releases: a JSON document `{"output", "metadata": {"exit_code"}}`; newer: "Exit code: N\n…")
/// or objects `{"content", "success"}`.
fn output_text(output: Value) -> (String, bool) {
    match output {
        Value::String(text) => {
            if let Ok(Value::Object(doc)) = serde_json::from_str::<Value>(&text) {
                if let Some(out) = doc.get("output").and_then(Value::as_str) {
                    let code = doc
                        .get("metadata")
                        .and_then(|m| m.get("exit_code"))
                        .and_then(Value::as_i64);
                    return (out.to_owned(), code.is_some_and(|c| c != 0));
                }
            }
            let code = text
                .strip_prefix("Exit code: ")
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|n| n.parse::<i64>().ok());
            let failed = code.is_some_and(|c| c != 0);
            (text, failed)
        }
        Value::Object(mut obj) => {
            let failed = obj.get("success").and_then(Value::as_bool) == Some(false);
            match obj.remove("content") {
                Some(Value::String(s)) => (s, failed),
                Some(other) => (other.to_string(), failed),
                None => (Value::Object(obj).to_string(), failed),
            }
        }
        Value::Null => (String::new(), false),
        other => (other.to_string(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_becomes_assistant_and_tool_messages() {
        let lines = [
            r#"{"timestamp":"2025-12-28T12:18:30.522Z","type":"session_meta","payload":{"id":"abc","cwd":"/w"}}"#,
            r#"{"timestamp":"2025-12-28T12:18:31Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}}"#,
            r#"{"timestamp":"2025-12-28T12:18:32Z","type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"look"}],"encrypted_content":"enc"}}"#,
            r#"{"timestamp":"2025-12-28T12:18:33Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}}"#,
            r#"{"timestamp":"2025-12-28T12:18:34Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"boom\",\"metadata\":{\"exit_code\":2}}"}}"#,
            r#"{"timestamp":"2025-12-28T12:18:35Z","type":"compacted","payload":{"message":"summary"}}"#,
            r#"{"timestamp":"2025-12-28T12:18:36Z","type":"event_msg","payload":{"type":"token_count"}}"#,
        ]
        .join("\n");
        let parsed = CodexParser::parse_str("r.jsonl", &lines, "h");
        let conv = &parsed.conversations[0];
        assert_eq!(conv.source_key, "codex:abc");
        assert_eq!(conv.project_path.as_deref(), Some("/w"));
        let roles: Vec<Role> = conv.messages.iter().map(|m| m.role).collect();
        assert_eq!(
            roles,
            [Role::User, Role::Assistant, Role::User, Role::System]
        );
        assert_eq!(conv.messages[1].content.len(), 2);
        match &conv.messages[2].content[0] {
            ContentItem::ToolResult {
                is_error,
                tool_name,
                ..
            } => {
                assert!(*is_error);
                assert_eq!(tool_name, "shell");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(conv.display_name, "fix it");
    }
}
