//! Where an imported conversation came from: the source format, the import record the store
//! keeps for idempotency, and the threads of a conversation as an import hands them over.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::conversation::ThreadOrigin;
use crate::ids::{ConversationId, MessageId, ThreadId};

/// A session format a conversation can be imported from. Serialized (and stored) in the
/// spelling `--format` takes: `claude-code`, `codex`, `gemini`, `opencode`, `openai`,
/// `anthropic`, `gromozeka`, `chatgpt`, `claude-ai`, `squash`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SourceFormat {
    #[serde(rename = "claude-code")]
    ClaudeCode,
    #[serde(rename = "codex")]
    Codex,
    /// A Gemini CLI chat recording (`session-*.jsonl`, or the older `session-*.json`).
    #[serde(rename = "gemini")]
    Gemini,
    /// An opencode session: its store (`opencode.db`) or its `opencode export` JSON.
    #[serde(rename = "opencode")]
    Opencode,
    #[serde(rename = "openai")]
    OpenAi,
    #[serde(rename = "anthropic")]
    Anthropic,
    #[serde(rename = "gromozeka")]
    Gromozeka,
    /// The official ChatGPT data export (`conversations.json`).
    #[serde(rename = "chatgpt")]
    ChatGpt,
    /// The claude.ai data export (`conversations.json` with `chat_messages`).
    #[serde(rename = "claude-ai")]
    ClaudeAi,
    /// Our own lossless JSON export.
    #[serde(rename = "squash")]
    Squash,
}

impl SourceFormat {
    /// Whether the format is a log of JSON lines (its records are lines); the others are
    /// documents or databases whose records are entries, nodes or rows.
    pub fn is_line_based(self) -> bool {
        matches!(
            self,
            SourceFormat::ClaudeCode | SourceFormat::Codex | SourceFormat::Gemini
        )
    }
}

crate::named_enum!(SourceFormat {
    ClaudeCode => "claude-code",
    Codex => "codex",
    Gemini => "gemini",
    Opencode => "opencode",
    OpenAi => "openai",
    Anthropic => "anthropic",
    Gromozeka => "gromozeka",
    ChatGpt => "chatgpt",
    ClaudeAi => "claude-ai",
    Squash => "squash",
});

/// A name that is not one of the [`SourceFormat`]s.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown source format {0:?}")]
pub struct UnknownSourceFormat(pub String);

crate::from_str_by_name!(SourceFormat, UnknownSourceFormat);

/// Where an import came from, for idempotency: a second import of the same source with the same
/// content hash writes nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportSource {
    /// Stable name of the source, e.g. `claude-code:<sessionId>` or `gromozeka:<conversation id>`.
    pub source_key: String,
    /// The format it was read from.
    pub format: SourceFormat,
    /// Hash of the source content; a changed hash means the source changed since.
    pub content_hash: String,
    /// What the conversation model has no place for but an export needs (e.g. a Claude Code
    /// session's non-message lines), kept verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<serde_json::Value>,
}

/// A row of the store's `imports` table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportRecord {
    pub source: ImportSource,
    pub conversation_id: ConversationId,
    pub imported_at: DateTime<Utc>,
}

/// A thread of an imported conversation, with its links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportThread {
    pub id: ThreadId,
    /// Must name a thread listed earlier in the batch.
    pub original_thread_id: Option<ThreadId>,
    pub origin: ThreadOrigin,
    pub revision: u64,
    pub links: Vec<MessageId>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_keep_their_spelling_everywhere() {
        for f in SourceFormat::ALL {
            assert_eq!(f.as_str().parse::<SourceFormat>(), Ok(f));
            assert_eq!(
                serde_json::to_value(f).unwrap(),
                serde_json::Value::String(f.as_str().to_owned())
            );
            assert_eq!(
                serde_json::from_value::<SourceFormat>(f.as_str().into()).unwrap(),
                f
            );
        }
        assert_eq!(
            "auto".parse::<SourceFormat>(),
            Err(UnknownSourceFormat("auto".into()))
        );
    }
}
