//! Import of real sessions: Claude Code and Codex CLI session logs, OpenAI- and Anthropic-style
//! chat JSON, Gromozeka databases, and our own JSON export.
//!
//! The readers live in `squash-formats`: they turn lines or documents into
//! [`ImportedConversation`]s (messages with content, threads as link lists, operations) without
//! touching the store. The service reads the input (`files`: [`ConversationService::import_path`];
//! `upload`: [`ConversationService::import_bytes`]), runs a parser, refuses what it cannot
//! import (`refuse`: an unknown format, a format asked for that the source is not, a read that
//! made no message) and writes each conversation in one store transaction (`store`), so an
//! import never half-applies a conversation.
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

mod ahead;
mod chunks;
mod file_read;
mod files;
mod group;
mod growth;
mod options;
mod refuse;
mod source;
mod store;
pub(crate) mod subagents;
mod summary;
mod upload;

use squash_core::ImportSource;
use squash_store::ImportBatch;
use thiserror::Error;

use crate::error::{AppError, ErrorCode};
use crate::remedy::Remedy;

pub use options::{ImportOptions, ImportProgress, NoProgress};
use squash_formats::detect::described;
pub use squash_formats::detect::Found;
pub use squash_formats::gromozeka::DatabaseError;
pub use squash_formats::{
    sha256_hex, source_id, FormatError, ImportFormat, ImportedConversation, Parsed, Skipped,
    SourceFormat, UnknownImportFormat, SOURCE_ID_KEY,
};
pub use summary::{
    ContentCounts, ConversationReport, FileFailure, FileReport, ImportStatus, ImportSummary,
    ImportTotals, RecordCounts,
};

#[derive(Debug, Error)]
pub enum ImportError {
    #[error(transparent)]
    UnknownFormat(#[from] UnknownImportFormat),
    /// Detection found no format Squash reads.
    #[error("{source_name}: cannot tell the format ({found}); nothing imported")]
    Undetected { source_name: String, found: Found },
    /// The file reads as a format, but every record of it would be skipped: nothing of it is
    /// imported (no empty conversation is made).
    #[error("{source_name}: read as {}, but none of its {records} record(s) is a message ({reason}); nothing imported", described(*format))]
    NothingRead {
        source_name: String,
        format: SourceFormat,
        records: usize,
        reason: String,
    },
    /// A forced format that reads nothing where detection sees something else.
    #[error("{source_name}: expected {}, found {found}", described(*expected))]
    Mismatch {
        source_name: String,
        expected: SourceFormat,
        found: Found,
    },
    #[error("cannot read {path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{source_name}: {reason}")]
    Invalid { source_name: String, reason: String },
    #[error("{source_name}: not a readable Gromozeka database: {error}")]
    Database {
        source_name: String,
        error: DatabaseError,
    },
    #[error(transparent)]
    Service(#[from] crate::ServiceError),
}

/// Problems with what is imported are the input's; only a failure to read it (or the store's)
/// is the system's.
impl AppError for ImportError {
    fn code(&self) -> ErrorCode {
        match self {
            ImportError::Service(e) => e.code(),
            ImportError::Io { .. } => ErrorCode::StorageError,
            ImportError::UnknownFormat(_)
            | ImportError::Undetected { .. }
            | ImportError::NothingRead { .. }
            | ImportError::Mismatch { .. }
            | ImportError::Invalid { .. }
            | ImportError::Database { .. } => ErrorCode::InvalidInput,
        }
    }

    fn is_retryable(&self) -> bool {
        match self {
            ImportError::Service(e) => e.is_retryable(),
            _ => false,
        }
    }

    fn remedies(&self) -> Vec<Remedy> {
        match self {
            ImportError::Undetected { .. } | ImportError::NothingRead { .. } => {
                vec![Remedy::name_format()]
            }
            ImportError::Service(e) => e.remedies(),
            _ => Vec::new(),
        }
    }
}

impl ImportError {
    pub(crate) fn invalid(source_name: &str, reason: impl std::fmt::Display) -> ImportError {
        ImportError::Invalid {
            source_name: source_name.to_owned(),
            reason: reason.to_string(),
        }
    }
}

impl From<FormatError> for ImportError {
    fn from(e: FormatError) -> Self {
        match e {
            FormatError::Io { path, error } => ImportError::Io { path, error },
            FormatError::Invalid {
                source_name,
                reason,
            } => ImportError::Invalid {
                source_name,
                reason,
            },
            FormatError::Database { source_name, error } => {
                ImportError::Database { source_name, error }
            }
            FormatError::Changed { source_name, line } => ImportError::Invalid {
                source_name,
                reason: format!(
                    "the file changed while it was imported (line {line} is not what it was)"
                ),
            },
        }
    }
}

/// The store's batch for an imported conversation.
pub fn into_batch(conv: ImportedConversation, project_path: String) -> ImportBatch {
    ImportBatch {
        source: ImportSource {
            source_key: conv.source_key,
            format: conv.format,
            content_hash: conv.content_hash,
            metadata: conv.metadata,
        },
        project_path,
        conversation_id: conv.conversation_id,
        display_name: conv.display_name,
        created_at: conv.created_at,
        updated_at: conv.updated_at,
        messages: conv.messages,
        threads: conv.threads,
        current_thread_id: conv.current_thread_id,
        operations: conv.operations,
    }
}
