//! Squash's session formats: each one's reader and writer as pure code over bytes, readers and
//! writers, and the domain types of `squash-core`. Nothing here touches the store; the import and
//! export services of `squash-app` run these and store (or load) what they read (or write).
//!
//! Readers turn a source into [`ImportedConversation`]s (messages with content, threads as link
//! lists, operations) collected in a [`Parsed`] with what they skipped:
//! [`claude_code`], [`codex`] and [`gemini`] session logs (JSONL), [`opencode`] stores and
//! exports, [`openai_json`] and [`anthropic_json`] chat documents, [`chatgpt`] and [`claude_ai`]
//! data exports, [`gromozeka`] databases and our own [`squash_json`] export.
//! [`read`] picks the reader for a [`SourceFormat`] and [`detect`] tells the format from the
//! first bytes. Writers: [`markdown`] transcripts, [`squash_json`] documents,
//! [`claude_code::write`] sessions that `claude --resume` accepts, [`codex::write`] rollouts
//! that `codex resume` accepts, [`gemini::write`] recordings that `gemini --resume` accepts and
//! [`opencode::write`] documents that `opencode import` reads.

pub mod anthropic_json;
pub mod chatgpt;
pub mod claude_ai;
pub mod claude_code;
pub mod codex;
mod conversation;
mod data_export;
pub mod detect;
mod error;
mod fields;
mod format;
pub mod gemini;
pub mod gromozeka;
pub mod handoff;
mod hash;
pub mod markdown;
pub mod openai_json;
pub mod opencode;
pub mod read;
pub mod session;
pub mod session_facts;
pub mod squash_json;
mod swe_agent;
#[cfg(test)]
mod test_support;
mod thread_results;

pub use conversation::{
    is_squash_result, source_id, ContentCounts, ImportedConversation, Parsed, RecordCounts,
    Skipped, SOURCE_ID_KEY,
};
pub use error::FormatError;
pub use format::{ExportFormat, ImportFormat, UnknownExportFormat, UnknownImportFormat};
pub use hash::sha256_hex;
pub use squash_core::SourceFormat;
