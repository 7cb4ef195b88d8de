//! Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`).
//!
//! Current rollouts wrap every line as `{timestamp, type, payload}`; legacy ones (spring 2025)
//! start with a bare session object and then hold bare response items (see [`legacy`]). The
//! conversation is in the response items: the assistant-side items of one turn (reasoning,
//! text, tool calls) become one assistant message and the tool outputs that follow one user
//! message, as the model APIs see them. User prompts that a rollout records only as events
//! become user messages too ([`prompts`]); a compaction with a replacement history starts a new
//! thread ([`compaction`]). Every other line (`session_meta`, `turn_context`, `event_msg`, ...)
//! is kept verbatim in the conversation's import metadata.
//!
//! [`write`] writes a thread back as a rollout that `codex resume` accepts.

mod build;
mod compaction;
mod content;
mod items;
pub mod legacy;
mod output;
mod pairing;
mod prompts;
mod restore;
#[cfg(test)]
mod tests;
mod write;
#[cfg(test)]
mod write_tests;

pub use write::{extras_of, rollout_path, write, FALLBACK_CLI_VERSION, FALLBACK_ORIGINATOR};

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{ConversationId, Message};

use crate::anthropic_json::ToolNames;
use crate::fields::parse_time;
use crate::Parsed;

use compaction::Threads;
use prompts::Prompts;

pub const META_KEY: &str = "codex";

/// Which kind of message the items being read join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// Whether this is a legacy rollout (its first record a bare session object, its items
    /// without the envelope); decided by the first record. Only then are bare lines items: in
    /// a current rollout (or a file of another tool) they are not Codex records.
    legacy: Option<bool>,
    prompts: Prompts,
    threads: Threads,
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
            legacy: None,
            prompts: Prompts::default(),
            threads: Threads::default(),
            parsed: Parsed::default(),
        }
    }

    /// Reads a whole rollout held in memory (tests, fuzzing); the line driver of
    /// [`crate::read`] does the same for files and streams.
    pub fn parse_str(source_name: &str, text: &str, content_hash: &str) -> Parsed {
        let mut parser = CodexParser::new(source_name, Utc::now());
        let mut lines = 0;
        // As the line driver does: a blank line is no record.
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            parser.push_line(i + 1, line);
            lines += 1;
        }
        let mut parsed = parser.finish(content_hash);
        parsed.records.lines = lines;
        parsed
    }

    /// One line of the rollout; `no` is its 1-based number. Every line is counted once: as (part
    /// of) a message, as metadata, or as skipped with its reason.
    pub fn push_line(&mut self, no: usize, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            self.parsed
                .skip_record(&self.source_name, Some(no), "empty line");
            return;
        }
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                self.parsed
                    .skip_record(&self.source_name, Some(no), format!("invalid JSON: {e}"));
                return;
            }
        };
        let Value::Object(mut line) = value else {
            self.parsed
                .skip_record(&self.source_name, Some(no), "not a JSON object");
            return;
        };
        let time = parse_time(line.get("timestamp"))
            .or(self.last_time)
            .unwrap_or(self.now);
        self.last_time = Some(time);
        let legacy = *self
            .legacy
            .get_or_insert_with(|| legacy::is_session_object(&line));
        if !line.contains_key("payload") {
            if legacy {
                self.legacy_line(no, time, line);
            } else {
                self.parsed.skip_record(
                    &self.source_name,
                    Some(no),
                    "not a Codex rollout line (no payload)",
                );
            }
            return;
        }
        let payload = line.remove("payload").unwrap_or(Value::Null);
        match line.get("type").and_then(Value::as_str) {
            Some("response_item") => self.response_item(no, time, payload, Some(line)),
            Some("compacted") => self.compacted(no, time, payload, line),
            Some("event_msg") if self.event_prompt(no, time, &payload, &line) => {}
            Some(kind) => {
                if kind == "session_meta" {
                    self.session_meta(&payload);
                }
                if starts_turn(kind, &payload) {
                    self.open = None;
                }
                line.insert("payload".to_owned(), payload);
                self.keep_line(no, Value::Object(line));
            }
            None => {
                line.insert("payload".to_owned(), payload);
                self.keep_line(no, Value::Object(line));
            }
        }
    }

    /// Takes the session id and working directory from the first session description.
    fn session_meta(&mut self, payload: &Value) {
        let field = |k: &str| payload.get(k).and_then(Value::as_str).map(str::to_owned);
        self.session_id = self.session_id.take().or_else(|| field("id"));
        self.cwd = self.cwd.take().or_else(|| field("cwd"));
    }

    /// Keeps a line that is no message in the conversation's metadata, verbatim.
    fn keep_line(&mut self, no: usize, json: Value) {
        self.extras.push(json!({"line": no, "json": json}));
        self.parsed.record_metadata();
    }
}

/// Whether a line opens a new turn: what the model says next is a new message.
fn starts_turn(kind: &str, payload: &Value) -> bool {
    kind == "turn_context"
        || (kind == "event_msg"
            && payload.get("type").and_then(Value::as_str) == Some("task_started"))
}

/// The envelope of a line minus its payload, kept with the message the payload became (so an
/// export can write the line back); `None` for legacy lines, which have no envelope.
type Envelope = Option<Map<String, Value>>;
