//! The provenance record of a squash or an edit: which messages made which one, and how
//! ([`OperationKind`]: by hand, by a model, by fact extraction, by a fit's trim).
//!
//! - `kind.rs`: [`OperationKind`] and what an AI squash records ([`AiRecord`], and
//!   [`LegacyAiRecord`] for records that hold less);
//! - `flat.rs`: the flat fields stores keep in columns and an operation's JSON has always had,
//!   and the one rule that reads a kind back from them.

mod flat;
mod kind;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::ids::RecallRef;
use crate::ids::{ConversationId, MessageId, SquashOperationId, ThreadId};

pub use flat::{FlatProvenance, FlatStyle, KindTag};
pub use kind::{AiRecord, LegacyAiRecord, OperationKind};

/// Tokens as the provider counted them. Where a provider did not count, the record holds no
/// usage at all (`Option<TokenUsage>`): unknown, never zero. No `Default` for that reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Immutable record of how a message came to be.
///
/// Its JSON is the flat shape it had before the record was typed (`performed_by_agent`,
/// `prompt`, `model`, `provider`, `style`, …) plus `kind`; JSON without `kind` (an export of an
/// older Squash) still reads (see [`OperationKind::from_legacy`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquashOperation {
    pub id: SquashOperationId,
    pub conversation_id: ConversationId,
    /// In conversation (thread) order.
    pub source_message_ids: Vec<MessageId>,
    pub result_message_id: MessageId,
    /// How the result was made, with what that way of making it records.
    pub kind: OperationKind,
    /// Who asked for it (a user name or token label), when known.
    pub performed_by: Option<String>,
    /// The thread the operation was applied to and the thread it produced (set by the commit
    /// that stores it).
    pub base_thread_id: Option<ThreadId>,
    pub result_thread_id: Option<ThreadId>,
    /// The reference the result's text carries, by which `recall` finds the sources (set by
    /// the commit that stores it, for fits and AI squashes; unique in the conversation).
    pub recall_ref: Option<RecallRef>,
    pub created_at: DateTime<Utc>,
}

impl SquashOperation {
    /// A new record, made now, of `result` made from `sources` the way `kind` says; its threads
    /// are filled in by the commit that stores it.
    pub fn new(
        id: SquashOperationId,
        conversation_id: ConversationId,
        sources: Vec<MessageId>,
        result: MessageId,
        kind: OperationKind,
        performed_by: Option<String>,
    ) -> SquashOperation {
        SquashOperation {
            id,
            conversation_id,
            source_message_ids: sources,
            result_message_id: result,
            kind,
            performed_by,
            base_thread_id: None,
            result_thread_id: None,
            recall_ref: None,
            created_at: crate::time::now(),
        }
    }

    /// One source is an edit; two or more a squash.
    pub fn is_edit(&self) -> bool {
        self.source_message_ids.len() == 1
    }
}
