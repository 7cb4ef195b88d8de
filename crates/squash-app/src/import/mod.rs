//! Import of real sessions: Claude Code and Codex CLI session logs, OpenAI- and Anthropic-style
//! chat JSON, Gromozeka databases, and our own JSON export.
//!
//! Parsers are pure: they turn lines or documents into [`ImportedConversation`]s (messages with
//! content, threads as link lists, operations) without touching the store. The service
//! ([`ConversationService::import_path`], [`ConversationService::import_bytes`]) reads the input,
//! runs a parser and writes each conversation in one store transaction, so an import never
//! half-applies a conversation.
//!
//! Idempotency: every conversation has a source key (`claude-code:<sessionId>`,
//! `gromozeka:<conversation id>`, ...) and a content hash, recorded in the store's `imports`
//! table. Importing the same source again:
//! * same hash → nothing is written ("already imported");
//! * changed, and the conversation imported before is a prefix of the new one (a session that
//!   grew; linear formats only) → the new messages are appended to the conversation's current
//!   thread, after whatever squashes were made meanwhile;
//! * changed otherwise → imported again as a new conversation; the old one stays, the source key
//!   then points to the new one.

pub mod anthropic_json;
pub mod claude_code;
pub mod codex;
pub mod gromozeka;
pub mod openai_json;
mod service;
mod summary;

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, SubsecRound, Utc};
use serde_json::Value;
use sha2::{Digest, Sha256};
use squash_core::{ConversationId, Message, SquashOperation, ThreadId, ThreadOrigin};
use squash_store::{ImportBatch, ImportSource, ImportThread};
use thiserror::Error;

pub use service::{ImportOptions, ImportProgress, NoProgress};
pub use summary::{
    ContentCounts, ConversationReport, FileFailure, ImportStatus, ImportSummary, ImportTotals,
    Skipped,
};

/// The formats [`ConversationService::import_path`](crate::ConversationService::import_path)
/// reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ImportFormat {
    /// Detect from the content.
    Auto,
    ClaudeCode,
    Codex,
    OpenAi,
    Anthropic,
    Gromozeka,
    /// Our own lossless JSON export.
    Squash,
}

impl ImportFormat {
    pub const ALL: [ImportFormat; 7] = [
        ImportFormat::Auto,
        ImportFormat::ClaudeCode,
        ImportFormat::Codex,
        ImportFormat::OpenAi,
        ImportFormat::Anthropic,
        ImportFormat::Gromozeka,
        ImportFormat::Squash,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ImportFormat::Auto => "auto",
            ImportFormat::ClaudeCode => "claude-code",
            ImportFormat::Codex => "codex",
            ImportFormat::OpenAi => "openai",
            ImportFormat::Anthropic => "anthropic",
            ImportFormat::Gromozeka => "gromozeka",
            ImportFormat::Squash => "squash",
        }
    }
}

impl fmt::Display for ImportFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ImportFormat {
    type Err = ImportError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ImportFormat::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| ImportError::UnknownFormat(s.to_owned()))
    }
}

#[derive(Debug, Error)]
pub enum ImportError {
    #[error("unknown import format {0:?} (auto, claude-code, codex, openai, anthropic, gromozeka, squash)")]
    UnknownFormat(String),
    #[error("cannot tell the format of {0}; pass --format")]
    Undetected(String),
    #[error("cannot read {path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{source_name}: {reason}")]
    Invalid { source_name: String, reason: String },
    #[error("{source_name}: not a readable Gromozeka database: {reason}")]
    Database { source_name: String, reason: String },
    #[error(transparent)]
    Service(#[from] crate::ServiceError),
}

impl ImportError {
    pub(crate) fn invalid(source_name: &str, reason: impl fmt::Display) -> ImportError {
        ImportError::Invalid {
            source_name: source_name.to_owned(),
            reason: reason.to_string(),
        }
    }
}

/// One conversation as a parser produced it, ready to store. Ids are fresh (except for our own
/// JSON export, which keeps them when it can); every message names `conversation_id`.
#[derive(Clone, Debug)]
pub struct ImportedConversation {
    pub source_key: String,
    pub format: ImportFormat,
    /// The working directory the source names (Claude Code `cwd`, Codex `cwd`, Gromozeka
    /// project path), if any.
    pub project_path: Option<String>,
    pub display_name: String,
    pub conversation_id: ConversationId,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Every message, in creation order.
    pub messages: Vec<Message>,
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
}

impl ImportedConversation {
    /// A conversation of one thread holding `messages` in order.
    pub(crate) fn linear(
        format: ImportFormat,
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
        let thread = ImportThread {
            id: ThreadId::new(),
            original_thread_id: None,
            origin: ThreadOrigin::Initial,
            revision: messages.len() as u64,
            links: messages.iter().map(|m| m.id).collect(),
            created_at,
            updated_at,
        };
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
            operations: Vec::new(),
            metadata: None,
            content_hash: String::new(),
            appendable: true,
            sidechain: false,
            backfilled_operations: 0,
        }
    }

    /// The store's batch for this conversation.
    pub fn into_batch(self, project_path: String) -> ImportBatch {
        ImportBatch {
            source: ImportSource {
                source_key: self.source_key,
                format: self.format.as_str().to_owned(),
                content_hash: self.content_hash,
                metadata: self.metadata,
            },
            project_path,
            conversation_id: self.conversation_id,
            display_name: self.display_name,
            created_at: self.created_at,
            updated_at: self.updated_at,
            messages: self.messages,
            threads: self.threads,
            current_thread_id: self.current_thread_id,
            operations: self.operations,
        }
    }
}

/// What a parser made of one input: its conversations and what it skipped.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub conversations: Vec<ImportedConversation>,
    pub skipped: Vec<Skipped>,
    pub warnings: Vec<String>,
}

impl Parsed {
    pub(crate) fn skip(&mut self, file: &str, line: Option<usize>, reason: impl Into<String>) {
        self.skipped.push(Skipped {
            file: file.to_owned(),
            line,
            reason: reason.into(),
        });
    }
}

/// The key messages keep their source identity under, in `Message.metadata`; it is how a grown
/// source is matched against what was imported before.
pub const SOURCE_ID_KEY: &str = "source_id";

/// The source identity of an imported message, if it has one.
pub fn source_id(message: &Message) -> Option<&str> {
    message.metadata.as_ref()?.get(SOURCE_ID_KEY)?.as_str()
}

/// Hex SHA-256, the content hash of sources.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex_digest(Sha256::digest(bytes).as_slice())
}

pub(crate) fn hex_digest(digest: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(digest.len() * 2);
    for b in digest {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// An RFC 3339 timestamp at the precision the stores keep (microseconds).
pub(crate) fn parse_time(value: Option<&Value>) -> Option<DateTime<Utc>> {
    let text = value?.as_str()?;
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc).trunc_subsecs(6))
}

/// A short, one-line name from a message text.
pub(crate) fn title_from(text: &str, max: usize) -> Option<String> {
    // Claude Code slash commands arrive as tags; their name is the readable part.
    if let Some(start) = text.find("<command-name>") {
        let rest = &text[start + "<command-name>".len()..];
        if let Some(end) = rest.find("</command-name>") {
            let name = rest[..end].trim();
            if !name.is_empty() {
                return Some(name.to_owned());
            }
        }
    }
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let mut out: String = line.chars().take(max).collect();
    if line.chars().count() > max {
        out.push('…');
    }
    Some(out)
}

/// The object minus `key`, if `value` is an object.
pub(crate) fn take_field(value: &mut Value, key: &str) -> Option<Value> {
    value.as_object_mut()?.remove(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_back() {
        for f in ImportFormat::ALL {
            assert_eq!(f.as_str().parse::<ImportFormat>().unwrap(), f);
        }
        assert!("nope".parse::<ImportFormat>().is_err());
    }

    #[test]
    fn titles_prefer_command_names() {
        assert_eq!(
            title_from(
                "<command-message>init…</command-message>\n<command-name>/init</command-name>",
                60
            ),
            Some("/init".into())
        );
        assert_eq!(
            title_from("\n  hello world  \nmore", 5),
            Some("hello…".into())
        );
        assert_eq!(title_from("   ", 5), None);
    }

    #[test]
    fn times_keep_microseconds() {
        let t = parse_time(Some(&Value::String(
            "2025-11-02T15:32:01.123456789Z".into(),
        )))
        .unwrap();
        assert_eq!(t.timestamp_subsec_nanos(), 123_456_000);
        assert!(parse_time(Some(&Value::String("yesterday".into()))).is_none());
    }
}
