//! The Squash domain: pure types and rules, no IO. Storing threads, calling models and reading
//! session files are the other crates' jobs.
//!
//! Messages are immutable; threads are ordered lists of message references; every explicit
//! operation (edit, delete, squash) derives a new thread from the current one. The map, top
//! down: a module uses only those on its own line or below it.
//!
//! - [`quality`]: the checks on a model's squash answer (cleaning, guarding) and the quality
//!   report beside a result (compression, salient terms kept and dropped, the fact report, the
//!   fallback, the size limit). [`operation`]: the provenance record of a squash or an edit.
//! - [`prompt`]: the AI squash prompt (styles, templates, the text a model reads for each
//!   content type, escaping). [`fit`]: fitting a thread into a token budget (per-message
//!   summaries, the trim, the levels and their order, the planner and its plan).
//! - [`ledger`]: the fact ledger (the facts a squash must keep, how a text is checked against
//!   them, and the extract: the ledger as text). [`tokens`]: token estimates and the size
//!   check before a model call.
//! - [`thread_ops`]: the copy-on-write rule (an append, edit, delete or squash planned as a
//!   [`LinkEdit`] of the current thread; the selection rules: thread order, tool partners).
//!   [`render`]: the plain text of each content type, for a person. [`search`]: what the stores
//!   index and how a query is parsed. [`page`]: which positions a page of a thread holds.
//! - [`message`], [`import`], [`conversation`]: messages and their content; where an import
//!   came from; projects, conversations and threads.
//! - [`terms`]: salient terms (paths, identifiers, numbers, error codes), which the ledger and
//!   the quality report share. [`positions`]: where messages are in a thread.
//! - [`ids`], [`time`], [`error`], [`provider`], [`redact`], [`recall`] (the references a fit
//!   or squash writes where it took something out), and the crate's small text helpers
//!   (its regex patterns, shortening, sentences).

pub mod conversation;
pub mod error;
pub mod fit;
pub mod ids;
pub mod import;
pub mod ledger;
mod lines;
pub mod message;
mod names;
pub mod note;
pub mod operation;
pub mod page;
pub mod parallel;
pub mod positions;
pub mod prompt;
pub mod provider;
pub mod quality;
pub mod recall;
pub mod redact;
pub mod render;
#[cfg(feature = "sample")]
pub mod sample;
pub mod search;
pub mod terms;
#[cfg(test)]
mod test_messages;
mod text;
pub mod thread_ops;
pub mod time;
pub mod tokens;

pub use conversation::{BranchKind, Conversation, Project, Thread, ThreadOrigin};
pub use error::DomainError;
pub use ids::{ConversationId, MessageId, ProjectId, RecallRef, SquashOperationId, ThreadId};
pub use import::{ImportRecord, ImportSource, ImportThread, SourceFormat, UnknownSourceFormat};
pub use message::{
    ContentItem, ImageSource, Instruction, InstructionSource, Message, Role, StructuredText,
    SystemLevel, ToolRefs, ToolResultData,
};
pub use operation::{AiRecord, LegacyAiRecord, OperationKind, SquashOperation, TokenUsage};
pub use positions::{KnownPositions, Positions};
pub use provider::{ProviderKind, UnknownProvider};

pub use thread_ops::{LinkEdit, Selection};
