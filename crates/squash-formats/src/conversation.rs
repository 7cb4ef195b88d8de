//! What a reader makes of a source: conversations ready to store, and what it skipped.

use std::collections::HashMap;

use crate::claude_code::DeferredMessages;
use crate::fields::source_thread;
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use squash_core::{
    ConversationId, ImportRecord, ImportThread, Message, SourceFormat, SquashOperation,
    SquashOperationId, ThreadId,
};

/// One conversation as a reader produced it, ready to store. Ids are fresh (except for our own
/// JSON export, which keeps them when it can); every message names `conversation_id`.
#[derive(Clone, Debug)]
pub struct ImportedConversation {
    pub source_key: String,
    pub format: SourceFormat,
    /// The working directory the source names (Claude Code `cwd`, Codex `cwd`, Gromozeka
    /// project path), if any.
    pub project_path: Option<String>,
    pub display_name: String,
    pub conversation_id: ConversationId,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Every message, in creation order (empty when `deferred` holds them).
    pub messages: Vec<Message>,
    /// The messages of a streamed read, made in chunks when they are stored.
    pub deferred: Option<DeferredMessages>,
    /// Parents before derived threads.
    pub threads: Vec<ImportThread>,
    pub current_thread_id: ThreadId,
    pub operations: Vec<SquashOperation>,
    /// Conversation-level data kept for exports (e.g. non-message lines).
    pub metadata: Option<Value>,
    pub content_hash: String,
    /// A log that only grows (one thread, messages in source order): a changed source whose
    /// old messages are a prefix of the new ones is appended to, not imported again.
    pub appendable: bool,
    /// A sub-agent run kept as its own conversation.
    pub sidechain: bool,
    /// Operations created from legacy provenance.
    pub backfilled_operations: usize,
    /// The calls that started sub-agent runs (Claude Code's `Task`): (tool-use id, prompt,
    /// description), for naming and tying the runs kept in files of their own.
    pub task_calls: Vec<(String, String, String)>,
}

impl ImportedConversation {
    /// The figures of the conversation's content, made or still to make.
    pub fn counts(&self) -> ContentCounts {
        match &self.deferred {
            Some(d) => d.counts(),
            None => ContentCounts::of(&self.messages),
        }
    }

    /// How many messages the conversation has, made or still to make.
    pub fn message_count(&self) -> usize {
        self.deferred
            .as_ref()
            .map_or(self.messages.len(), DeferredMessages::len)
    }

    /// A conversation of one thread holding `messages` in order.
    pub(crate) fn linear(
        format: SourceFormat,
        source_key: String,
        conversation_id: ConversationId,
        display_name: String,
        messages: Vec<Message>,
        fallback_time: DateTime<Utc>,
    ) -> ImportedConversation {
        let created_at = messages
            .first()
            .map(|m| m.created_at)
            .unwrap_or(fallback_time);
        let updated_at = messages
            .last()
            .map(|m| m.created_at)
            .unwrap_or(fallback_time)
            .max(created_at);
        let links = messages.iter().map(|m| m.id).collect();
        let thread = source_thread(ThreadId::new(), None, links, created_at, updated_at);
        ImportedConversation {
            source_key,
            format,
            project_path: None,
            display_name,
            conversation_id,
            created_at,
            updated_at,
            current_thread_id: thread.id,
            threads: vec![thread],
            messages,
            deferred: None,
            operations: Vec::new(),
            metadata: None,
            content_hash: String::new(),
            appendable: true,
            sidechain: false,
            backfilled_operations: 0,
            task_calls: Vec::new(),
        }
    }
}

/// An input line (or row) that was not imported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub file: String,
    /// 1-based line number, for line-based formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    pub reason: String,
}

/// How a reader accounted for the records of one source (the lines of a JSONL session, the
/// entries of a document): every record is counted once, as (part of) a message, as metadata
/// kept for export, or as skipped with a reason in [`Parsed::skipped`]. A reader that loses a
/// record silently breaks [`RecordCounts::balanced`], which the import tests check on every file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RecordCounts {
    pub lines: usize,
    pub messages: usize,
    pub metadata: usize,
    pub skipped: usize,
}

impl RecordCounts {
    /// Whether every record is accounted for exactly once.
    pub fn balanced(&self) -> bool {
        self.lines == self.messages + self.metadata + self.skipped
    }

    pub fn add(&mut self, other: &RecordCounts) {
        self.lines += other.lines;
        self.messages += other.messages;
        self.metadata += other.metadata;
        self.skipped += other.skipped;
    }
}

/// What a reader made of one input: its conversations, what it skipped and how every record
/// was accounted for.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub conversations: Vec<ImportedConversation>,
    pub skipped: Vec<Skipped>,
    pub warnings: Vec<String>,
    pub records: RecordCounts,
}

impl Parsed {
    /// Notes a problem with the source as a whole (not one of its records); the record counts
    /// do not change.
    pub(crate) fn skip(&mut self, file: &str, line: Option<usize>, reason: impl Into<String>) {
        self.skipped.push(Skipped {
            file: file.to_owned(),
            line,
            reason: reason.into(),
        });
    }

    /// One record (line `line` of a line format) was not imported, for `reason`.
    pub(crate) fn skip_record(
        &mut self,
        file: &str,
        line: Option<usize>,
        reason: impl Into<String>,
    ) {
        self.records.skipped += 1;
        self.skip(file, line, reason);
    }

    /// The `index`-th (0-based) entry of a message list was not read, for `why`.
    pub(crate) fn skip_message(&mut self, file: &str, index: usize, why: &str) {
        self.skip_record(file, None, format!("message {}: {why}", index + 1));
    }

    /// One record became a message or part of one.
    pub(crate) fn record_message(&mut self) {
        self.records.messages += 1;
    }

    /// One record is kept as metadata of a message or of the conversation (for export).
    pub(crate) fn record_metadata(&mut self) {
        self.records.metadata += 1;
    }
}

/// The key messages keep their source identity under, in `Message.metadata`; it is how a grown
/// source is matched against what was imported before.
pub const SOURCE_ID_KEY: &str = "source_id";

/// The source identity of an imported message, if it has one.
pub fn source_id(message: &Message) -> Option<&str> {
    message.metadata.as_ref()?.get(SOURCE_ID_KEY)?.as_str()
}

/// Whether `message` is the result of a squash of several messages (not an edit).
pub fn is_squash_result(
    message: &Message,
    operations: &HashMap<SquashOperationId, SquashOperation>,
) -> bool {
    message
        .squash_operation_id
        .and_then(|id| operations.get(&id))
        .is_some_and(|op| !op.is_edit())
}

/// The non-message lines a reader kept under `key` (`extras` of its conversation metadata), from
/// the first import record that has them: what a session writer puts back around the messages.
pub(crate) fn extras_in(records: &[ImportRecord], key: &str) -> Vec<Value> {
    records
        .iter()
        .find_map(|r| {
            r.source
                .metadata
                .as_ref()?
                .get(key)?
                .get("extras")?
                .as_array()
                .cloned()
        })
        .unwrap_or_default()
}

/// Figures of one conversation's content.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ContentCounts {
    pub messages: usize,
    pub tool_calls: usize,
    pub tool_results: usize,
    pub tool_errors: usize,
    pub thinking: usize,
    pub images: usize,
    pub unknown: usize,
}

impl ContentCounts {
    pub fn of<'a>(messages: impl IntoIterator<Item = &'a Message>) -> ContentCounts {
        let mut c = ContentCounts::default();
        for m in messages {
            c.messages += 1;
            c.add_items(&m.content);
        }
        c
    }

    /// Counts the items of a message (not the message itself).
    pub fn add_items(&mut self, items: &[squash_core::ContentItem]) {
        use squash_core::ContentItem;
        for item in items {
            match item {
                ContentItem::ToolCall { .. } => self.tool_calls += 1,
                ContentItem::ToolResult { is_error, .. } => {
                    self.tool_results += 1;
                    if *is_error {
                        self.tool_errors += 1;
                    }
                }
                ContentItem::Thinking { .. } => self.thinking += 1,
                ContentItem::Image { .. } => self.images += 1,
                ContentItem::UnknownJson { .. } => self.unknown += 1,
                _ => {}
            }
        }
    }

    pub fn add(&mut self, other: &ContentCounts) {
        self.messages += other.messages;
        self.tool_calls += other.tool_calls;
        self.tool_results += other.tool_results;
        self.tool_errors += other.tool_errors;
        self.thinking += other.thinking;
        self.images += other.images;
        self.unknown += other.unknown;
    }
}
