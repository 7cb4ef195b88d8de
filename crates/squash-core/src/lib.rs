//! The Squash domain: pure types and rules, no IO.
//!
//! Messages are immutable; threads are ordered lists of message references; every explicit
//! operation (edit, delete, squash) derives a new thread from the current one. The planners in
//! [`plan`] compute that new thread as a [`LinkEdit`] of the current one (the copy-on-write
//! rule); [`thread_ops`] holds the selection rules (order, tool partners) and the same
//! operations over whole link lists. Storing the result is the store's job.

pub mod conversation;
pub mod error;
pub mod fit;
pub mod ids;
pub mod import;
pub mod ledger;
pub mod message;
pub mod operation;
pub mod page;
pub mod positions;
pub mod prompt;
pub mod provider;
pub mod quality;
pub mod redact;
pub mod render;
pub mod search;
pub mod terms;
mod text;
pub mod thread_ops;
pub mod time;
pub mod tokens;

pub use conversation::{BranchKind, Conversation, Project, Thread, ThreadOrigin};
pub use error::DomainError;
pub use ids::{ConversationId, MessageId, ProjectId, SquashOperationId, ThreadId};
pub use import::{ImportRecord, ImportSource, ImportThread, SourceFormat, UnknownSourceFormat};
pub use message::{
    ContentItem, ImageSource, Instruction, InstructionSource, Message, Role, StructuredText,
    SystemLevel, ToolRefs, ToolResultData,
};
pub use operation::{SquashOperation, TokenUsage};
pub use positions::{KnownPositions, Positions};
pub use provider::{ProviderKind, UnknownProvider};
pub use thread_ops::{LinkEdit, Selection};
