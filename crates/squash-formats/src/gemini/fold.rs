//! Folding a recording's records into its states: the message list as it stands at the end, and
//! every list a rewind or a replacement left behind.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{BranchKind, ConversationId, ImportThread, Message, SourceFormat, ThreadId};

use super::convert::{self, Converted};
use super::META_KEY;
use crate::anthropic_json::short;
use crate::fields::{parse_time, title_from};
use crate::fields::{source_thread, whole_history_thread};
use crate::{ImportedConversation, Parsed};

/// A message record and the lines it was written on as a record of its own (the latest
/// version wins); `first` is where it first appeared, which orders the messages.
struct Record {
    value: Map<String, Value>,
    lines: Vec<usize>,
    first: usize,
}

/// One state the message list passed through, and why it ended.
struct State {
    ids: Vec<String>,
    ended_by: BranchKind,
}

pub(super) struct Log {
    source_name: String,
    now: DateTime<Utc>,
    /// The header merged with every `$set` (but its messages).
    meta: Map<String, Value>,
    records: HashMap<String, Record>,
    /// The message ids of the current state, in order.
    order: Vec<String>,
    earlier: Vec<State>,
    /// The messages a compression wrote (not in the list it replaced): its summary.
    compressed: HashSet<String>,
    /// Lines that are no messages, kept for export: `{line, json}`.
    extras: Vec<Value>,
    parsed: Parsed,
}

impl Log {
    pub(super) fn new(source_name: &str, now: DateTime<Utc>) -> Log {
        Log {
            source_name: source_name.to_owned(),
            now,
            meta: Map::new(),
            records: HashMap::new(),
            order: Vec::new(),
            earlier: Vec::new(),
            compressed: HashSet::new(),
            extras: Vec::new(),
            parsed: Parsed::default(),
        }
    }

    /// One line of a JSONL recording; `no` is its 1-based number.
    pub(super) fn push_line(&mut self, no: usize, text: &str) {
        self.parsed.records.lines += 1;
        let record = match serde_json::from_str::<Value>(text.trim()) {
            Ok(Value::Object(record)) => record,
            Ok(_) => return self.skip(no, "not a JSON object"),
            Err(e) => return self.skip(no, format!("invalid JSON: {e}")),
        };
        if let Some(to) = record.get("$rewindTo").and_then(Value::as_str) {
            let to = to.to_owned();
            self.rewind(&to);
            self.keep(no, record);
        } else if let Some(Value::Object(set)) = record.get("$set") {
            let set = set.clone();
            self.set(no, set);
        } else if record.get("id").is_some_and(Value::is_string) {
            self.message(no, record, true);
        } else if super::is_header(&|k| record.contains_key(k)) {
            self.meta.extend(record.clone());
            self.keep(no, record);
        } else {
            self.skip(
                no,
                "not a Gemini CLI record (no id, $set, $rewindTo or sessionId)",
            );
        }
    }

    /// The older whole-document recording: its fields are the header, each message a record.
    pub(super) fn legacy(&mut self, mut doc: Map<String, Value>) {
        let messages = match doc.remove("messages") {
            Some(Value::Array(list)) => list,
            _ => Vec::new(),
        };
        self.meta = doc;
        for (i, m) in messages.into_iter().enumerate() {
            self.parsed.records.lines += 1;
            match m {
                Value::Object(record) if record.get("id").is_some_and(Value::is_string) => {
                    self.message(i + 1, record, true);
                }
                _ => self.skip(i + 1, "a message without an id"),
            }
        }
    }

    fn skip(&mut self, no: usize, reason: impl Into<String>) {
        self.parsed.skip_record(&self.source_name, Some(no), reason);
    }

    fn keep(&mut self, no: usize, record: Map<String, Value>) {
        self.extras.push(json!({"line": no, "json": record}));
        self.parsed.record_metadata();
    }

    /// A message record: new, or the next version of one already seen; `own_line` when line
    /// `no` holds it alone (not inside a `$set`).
    fn message(&mut self, no: usize, value: Map<String, Value>, own_line: bool) {
        let id = value
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        if !self.order.contains(&id) {
            self.order.push(id.clone());
        }
        let lines = if own_line { vec![no] } else { Vec::new() };
        match self.records.get_mut(&id) {
            Some(r) => {
                r.value = value;
                r.lines.extend(lines);
            }
            None => {
                let first = no;
                self.records.insert(
                    id,
                    Record {
                        value,
                        lines,
                        first,
                    },
                );
            }
        }
    }

    /// `$rewindTo`: the message and all after it leave the current state (all of it when the
    /// id is unknown, as the CLI does).
    fn rewind(&mut self, to: &str) {
        let at = self.order.iter().position(|id| id == to).unwrap_or(0);
        self.end_state(BranchKind::Rewind);
        self.order.truncate(at);
    }

    /// `$set`: metadata, and with `messages` a new message list (a compression). The line
    /// is kept without its messages, which are messages; it counts as one of them when it
    /// holds any.
    fn set(&mut self, no: usize, mut set: Map<String, Value>) {
        let mut held = 0;
        if let Some(Value::Array(list)) = set.remove("messages") {
            self.end_state(BranchKind::Compaction);
            let replaced: HashSet<String> = self.order.drain(..).collect();
            for m in list {
                if let Value::Object(record) = m {
                    if let Some(id) = record.get("id").and_then(Value::as_str) {
                        if !replaced.contains(id) {
                            self.compressed.insert(id.to_owned());
                        }
                        self.message(no, record, false);
                        held += 1;
                    }
                }
            }
        }
        self.meta.extend(set.clone());
        let mut line = Map::new();
        line.insert("$set".into(), Value::Object(set));
        if held > 0 {
            line.insert("messages_held".into(), json!(held));
            self.extras.push(json!({"line": no, "json": line}));
            self.parsed.record_message();
        } else {
            self.keep(no, line);
        }
    }

    fn end_state(&mut self, ended_by: BranchKind) {
        if !self.order.is_empty() {
            self.earlier.push(State {
                ids: self.order.clone(),
                ended_by,
            });
        }
    }

    pub(super) fn finish(mut self, content_hash: &str) -> Parsed {
        let conversation_id = ConversationId::new();
        // Records in the order they were first written: the messages' creation order.
        let mut first_seen: Vec<(&String, usize)> =
            self.records.iter().map(|(id, r)| (id, r.first)).collect();
        first_seen.sort_by_key(|(_, line)| *line);
        let mut made: HashMap<String, Converted> = HashMap::new();
        let mut answered: HashSet<String> = HashSet::new();
        for (id, _) in &first_seen {
            let record = &self.records[*id];
            let converted = convert::record(&record.value, conversation_id, self.now, &answered);
            answered.extend(converted.answered.iter().cloned());
            made.insert((*id).clone(), converted);
        }
        // A record that makes no message (the results the CLI also writes as a user record,
        // an empty turn) is kept as it was, as metadata.
        for (id, first) in &first_seen {
            let record = &self.records[*id];
            let kept = made[*id].messages.is_empty();
            if kept && !record.lines.is_empty() {
                let json = Value::Object(record.value.clone());
                self.extras.push(json!({"line": first, "json": json}));
            }
            for _ in &record.lines {
                if kept {
                    self.parsed.record_metadata();
                } else {
                    self.parsed.record_message();
                }
            }
        }
        let messages: Vec<Message> = first_seen
            .iter()
            .flat_map(|(id, _)| made[*id].messages.iter().cloned())
            .collect();
        if messages.is_empty() {
            let reason = "no messages in this recording";
            self.parsed.skip(&self.source_name, None, reason);
            return self.parsed;
        }
        let links = |ids: &[String]| -> Vec<squash_core::MessageId> {
            ids.iter()
                .filter_map(|id| made.get(id))
                .flat_map(|c| c.messages.iter().map(|m| m.id))
                .collect()
        };
        let mut states: Vec<(Vec<squash_core::MessageId>, Option<BranchKind>)> = Vec::new();
        for state in &self.earlier {
            states.push((links(&state.ids), Some(state.ended_by)));
        }
        states.push((links(&self.order), None));
        let mut threads = chain(&states, &messages, self.now);
        let current = threads.last().map(|t| t.id);
        if let Some(current) = current {
            // The states a compression ended, then the current one: a state a rewind ended is
            // left out, what the rewind kept of it being in the state after it.
            let lists: Vec<Vec<squash_core::MessageId>> = (self.earlier.iter())
                .filter(|s| s.ended_by == BranchKind::Compaction)
                .map(|s| links(&s.ids))
                .chain([links(&self.order)])
                .collect();
            let lists: Vec<&[squash_core::MessageId]> = lists.iter().map(Vec::as_slice).collect();
            let compressed: Vec<String> = self.compressed.iter().cloned().collect();
            let written: HashSet<squash_core::MessageId> = links(&compressed).into_iter().collect();
            if let Some(whole) =
                whole_history_thread(&threads, current, &lists, &written, &messages)
            {
                threads.push(whole);
            }
        }
        let name = self.display_name(&messages);
        let session = self
            .meta
            .get("sessionId")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_else(|| short(&self.source_name).to_owned());
        let mut conv = ImportedConversation::linear(
            SourceFormat::Gemini,
            format!("gemini:{session}"),
            conversation_id,
            name,
            messages,
            self.now,
        );
        conv.appendable = threads.len() == 1;
        conv.current_thread_id = current.unwrap_or(conv.current_thread_id);
        conv.threads = threads;
        conv.content_hash = content_hash.to_owned();
        conv.sidechain = self.meta.get("kind").and_then(Value::as_str) == Some("subagent");
        if let Some(t) = parse_time(self.meta.get("startTime")) {
            conv.created_at = conv.created_at.min(t);
        }
        conv.project_path = self
            .meta
            .get("directories")
            .and_then(Value::as_array)
            .and_then(|d| d.first())
            .and_then(Value::as_str)
            .map(str::to_owned);
        conv.metadata = Some(json!({META_KEY: {"session": self.meta, "extras": self.extras}}));
        self.parsed.conversations.push(conv);
        self.parsed
    }

    /// The recording's summary when it has one, else its first typed request.
    fn display_name(&self, messages: &[Message]) -> String {
        let summary = self.meta.get("summary").and_then(Value::as_str);
        summary
            .and_then(|s| title_from(s, 80))
            .or_else(|| {
                messages
                    .iter()
                    .filter(|m| m.role == squash_core::Role::User)
                    .find_map(|m| match m.content.first() {
                        Some(squash_core::ContentItem::UserMessage { text }) => {
                            title_from(text, 60)
                        }
                        _ => None,
                    })
            })
            .unwrap_or_else(|| "Gemini CLI session".to_owned())
    }
}

/// Threads of a chain of states: the first the initial one, each next derived from the one
/// before (a rewind or a compression ended it); the last is the current thread.
fn chain(
    states: &[(Vec<squash_core::MessageId>, Option<BranchKind>)],
    messages: &[Message],
    now: DateTime<Utc>,
) -> Vec<ImportThread> {
    let time: HashMap<_, _> = messages.iter().map(|m| (m.id, m.created_at)).collect();
    let mut threads: Vec<ImportThread> = Vec::with_capacity(states.len());
    for (i, (links, _)) in states.iter().enumerate() {
        let at = |id: Option<&squash_core::MessageId>| {
            id.and_then(|id| time.get(id)).copied().unwrap_or(now)
        };
        let created_at = at(links.first());
        let updated_at = at(links.last()).max(created_at);
        let parent = threads.last().map(|parent: &ImportThread| {
            (parent.id, states[i - 1].1.unwrap_or(BranchKind::Rewind))
        });
        let id = ThreadId::new();
        threads.push(source_thread(
            id,
            parent,
            links.clone(),
            created_at,
            updated_at,
        ));
    }
    threads
}
