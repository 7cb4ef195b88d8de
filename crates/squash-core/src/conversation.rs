//! Projects, conversations and threads.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::ids::{ConversationId, MessageId, ProjectId, SquashOperationId, ThreadId};

/// A working directory; conversations are grouped by project.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Project {
    pub id: ProjectId,
    pub path: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conversation {
    pub id: ConversationId,
    pub project_id: ProjectId,
    pub display_name: String,
    pub current_thread_id: ThreadId,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// What created a thread. Together with `original_thread_id` this makes the thread tree of a
/// conversation a readable history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ThreadOrigin {
    /// The conversation's first thread.
    Initial,
    Edit {
        operation_id: SquashOperationId,
    },
    Delete {
        message_ids: Vec<MessageId>,
    },
    Squash {
        operation_id: SquashOperationId,
    },
    /// A branch the imported source recorded itself (no Squash operation made it).
    SourceBranch {
        branch: BranchKind,
    },
    /// A fit to a token budget: several masks and squashes applied as one thread, so that one
    /// undo restores the thread it was fitted from.
    Fit {
        operation_ids: Vec<SquashOperationId>,
        budget: u64,
    },
}

/// Why a source holds more than one branch of a conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BranchKind {
    /// The user went back to an earlier message and continued from there; the branch left
    /// behind stays readable.
    Rewind,
    /// The agent compacted its context: the thread it continues from starts at the summary,
    /// the full history before it is the thread it derives from.
    Compaction,
    /// One of several answers the source offers for the same message (a regenerated reply).
    Alternative,
    /// Every message the session holds on the way to where the agent is, its compactions
    /// undone: the history before each compaction, then what followed it, without the
    /// compactions' own summaries. What a fit of the whole session works on.
    WholeHistory,
}

impl ThreadOrigin {
    pub fn operation_id(&self) -> Option<SquashOperationId> {
        match self {
            ThreadOrigin::Edit { operation_id } | ThreadOrigin::Squash { operation_id } => {
                Some(*operation_id)
            }
            ThreadOrigin::Initial
            | ThreadOrigin::Delete { .. }
            | ThreadOrigin::SourceBranch { .. }
            | ThreadOrigin::Fit { .. } => None,
        }
    }

    /// Every operation that made this thread: one for an edit or a squash, each step's for a
    /// fit.
    pub fn operation_ids(&self) -> Vec<SquashOperationId> {
        match self {
            ThreadOrigin::Fit { operation_ids, .. } => operation_ids.clone(),
            other => other.operation_id().into_iter().collect(),
        }
    }

    /// Whether the thread is where an imported session went on after one of its compactions.
    pub fn is_compaction(&self) -> bool {
        matches!(
            self,
            ThreadOrigin::SourceBranch {
                branch: BranchKind::Compaction
            }
        )
    }

    /// Whether the thread is an imported session's whole history, its compactions undone.
    pub fn is_whole_history(&self) -> bool {
        matches!(
            self,
            ThreadOrigin::SourceBranch {
                branch: BranchKind::WholeHistory
            }
        )
    }

    pub fn label(&self) -> &'static str {
        match self {
            ThreadOrigin::Initial => "initial",
            ThreadOrigin::Edit { .. } => "edit",
            ThreadOrigin::Delete { .. } => "delete",
            ThreadOrigin::Squash { .. } => "squash",
            ThreadOrigin::SourceBranch { .. } => "branch",
            ThreadOrigin::Fit { .. } => "fit",
        }
    }
}

/// An ordered list of message references. Appends mutate a thread in place (bumping its
/// `revision`); every other change derives a new thread.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thread {
    pub id: ThreadId,
    pub conversation_id: ConversationId,
    /// The thread this one was derived from; `None` for the initial thread.
    pub original_thread_id: Option<ThreadId>,
    pub origin: ThreadOrigin,
    /// Bumped by every append; an operation computed against an older revision must be
    /// re-applied before it may commit.
    pub revision: u64,
    pub message_count: u64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}
