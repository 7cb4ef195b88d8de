//! Building the messages of a rollout and, at the end, its conversation.

use chrono::{DateTime, Utc};
use serde_json::{json, Value};
use squash_core::{ContentItem, Instruction, InstructionSource, Message, Role, SourceFormat};

use super::{CodexParser, Envelope, Side, META_KEY};
use crate::anthropic_json::short;
use crate::fields::{first_prompt, imported_message};
use crate::{ImportedConversation, Parsed, SOURCE_ID_KEY};

impl CodexParser {
    /// Opens a new message of `role` for the items of line `no`.
    pub(super) fn start(&mut self, side: Side, role: Role, no: usize, time: DateTime<Utc>) {
        self.open = Some(side);
        let message = new_message(self, role, format!("line:{no}"), time);
        self.threads.link(message.id);
        self.messages.push(message);
    }

    pub(super) fn push_item(&mut self, item: ContentItem) {
        if let Some(m) = self.messages.last_mut() {
            m.content.push(item);
        }
    }

    /// Adds one item made from line `no` to the open message.
    pub(super) fn add(
        &mut self,
        item: ContentItem,
        no: usize,
        time: DateTime<Utc>,
        rest: Value,
        envelope: Envelope,
    ) {
        self.push_item(item);
        self.note(no, time, rest, 1, envelope);
    }

    /// Records line `no` as (part of) the last message: the payload minus what became its
    /// `items` items, and the envelope's other fields, so that nothing of the line is lost.
    pub(super) fn note(
        &mut self,
        no: usize,
        time: DateTime<Utc>,
        rest: Value,
        items: usize,
        envelope: Envelope,
    ) {
        self.parsed.record_message();
        if let Some(m) = self.messages.last_mut() {
            note_on(m, no, time, rest, items, envelope);
        }
    }

    pub fn finish(mut self, content_hash: &str) -> Parsed {
        if self.messages.is_empty() {
            self.parsed
                .skip(&self.source_name, None, "no messages in this rollout");
            return self.parsed;
        }
        let session = self.session_id.clone().unwrap_or_else(|| {
            short(&self.source_name)
                .trim_end_matches(".jsonl")
                .to_owned()
        });
        let name = first_prompt(&self.messages, |t| !is_injected(t))
            .unwrap_or_else(|| format!("Codex session {}", session.get(..8).unwrap_or(&session)));
        let mut messages = std::mem::take(&mut self.messages);
        for m in &mut messages {
            if is_context(m) {
                m.instructions = vec![Instruction::Source {
                    source: InstructionSource::Agent,
                }];
            }
        }
        let (threads, current) = std::mem::take(&mut self.threads).into_import(&messages, self.now);
        let mut conv = ImportedConversation::linear(
            SourceFormat::Codex,
            format!("codex:{session}"),
            self.conversation_id,
            name,
            messages,
            self.now,
        );
        // A compacted rollout is a tree of threads; growth of it is imported again, not appended.
        conv.appendable = threads.len() == 1;
        conv.current_thread_id = current;
        conv.threads = threads;
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

/// An empty message of this rollout's conversation.
pub(super) fn new_message(
    parser: &CodexParser,
    role: Role,
    source_id: String,
    time: DateTime<Utc>,
) -> Message {
    let metadata = json!({SOURCE_ID_KEY: source_id, META_KEY: {"items": []}});
    imported_message(parser.conversation_id, role, Vec::new(), metadata, time)
}

pub(super) fn note_on(
    m: &mut Message,
    no: usize,
    time: DateTime<Utc>,
    rest: Value,
    items: usize,
    envelope: Envelope,
) {
    let Some(list) = m
        .metadata
        .as_mut()
        .and_then(|md| md.get_mut(META_KEY))
        .and_then(|c| c.get_mut("items"))
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    let mut entry = json!({"line": no, "timestamp": time, "items": items, "payload": rest});
    let envelope = envelope.map(|mut e| {
        e.remove("timestamp");
        e
    });
    match envelope {
        Some(e) if !e.is_empty() => entry["envelope"] = Value::Object(e),
        Some(_) => {}
        // A legacy line has no envelope: its payload is the line itself.
        None => entry["legacy"] = Value::Bool(true),
    }
    list.push(entry);
}

/// A user or developer message that holds only context Codex put there itself.
fn is_context(m: &Message) -> bool {
    let mut texts = m.content.iter().filter_map(|i| match i {
        ContentItem::UserMessage { text } if m.role == Role::User => Some(text.as_str()),
        ContentItem::System { content, .. } if m.role == Role::System => Some(content.as_str()),
        _ => None,
    });
    m.role != Role::Assistant && texts.next().is_some_and(is_injected) && texts.all(is_injected)
}

/// Context Codex puts in user and developer messages itself, not what the person typed: the
/// session's environment, the project's instructions, and its own instructions (sandbox
/// permissions, the desktop app's context, collaboration mode, apps, skills, plugins, how to
/// use its memory and the memory's summary), which it writes again at the start of every
/// session.
pub(super) fn is_injected(text: &str) -> bool {
    const OPENINGS: &[&str] = &[
        "<environment_context>",
        "<user_instructions>",
        "# AGENTS.md",
        "<permissions instructions>",
        "<app-context>",
        "<collaboration_mode>",
        "<apps_instructions>",
        "<skills_instructions>",
        "<plugins_instructions>",
    ];
    let t = text.trim_start();
    OPENINGS.iter().any(|o| t.starts_with(o)) || is_memory_instructions(t)
}

/// Codex's instructions on its memory folder, with the folder's summary: its own template
/// (`## Memory`, then the summary between its markers), not a note of a person's.
fn is_memory_instructions(text: &str) -> bool {
    text.starts_with("## Memory") && text.contains("========= MEMORY_SUMMARY BEGINS =========")
}
