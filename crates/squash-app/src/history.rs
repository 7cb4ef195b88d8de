//! The thread history of a conversation and the provenance of a message.

use std::collections::HashSet;

use serde::Serialize;
use squash_core::{
    BranchKind, ConversationId, Message, MessageId, SquashOperation, Thread, ThreadId, ThreadOrigin,
};

use crate::conversations::ConversationService;
use crate::error::ServiceError;

/// One thread in the history tree, with what created it.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryEntry {
    pub thread: Thread,
    /// Depth in the tree: 0 for the initial thread.
    pub depth: usize,
    pub is_current: bool,
    /// The operation that created the thread (edit or squash), if any.
    pub operation: Option<SquashOperation>,
    pub children: Vec<ThreadId>,
}

impl HistoryEntry {
    /// What created the thread, in words (the CLI's thread list and the web's history panel).
    pub fn describe(&self) -> String {
        origin_words(&self.thread.origin, self.operation.as_ref())
    }
}

/// What made a thread of `origin`, in words; `operation` is the one that made it, when known
/// (an AI squash is told by its model).
pub fn origin_words(origin: &ThreadOrigin, operation: Option<&SquashOperation>) -> String {
    match (origin, operation) {
        (ThreadOrigin::Initial, _) => "Initial thread".to_owned(),
        (ThreadOrigin::Delete { message_ids }, _) => {
            format!(
                "Deleted {} message{}",
                message_ids.len(),
                plural(message_ids.len())
            )
        }
        (ThreadOrigin::Edit { .. }, _) => "Edited a message".to_owned(),
        (ThreadOrigin::SourceBranch { branch }, _) => match branch {
            BranchKind::Rewind => "Rewound and continued (imported)".to_owned(),
            BranchKind::Compaction => "Continued after a compaction (imported)".to_owned(),
            BranchKind::Alternative => "Alternative answer (imported)".to_owned(),
            BranchKind::WholeHistory => {
                "The whole history, its compactions undone (imported)".to_owned()
            }
        },
        (ThreadOrigin::Squash { .. }, Some(op)) if op.kind.performed_by_agent() => format!(
            "AI squash of {} messages{}{}",
            op.source_message_ids.len(),
            op.kind
                .model()
                .map(|m| format!(" · {m}"))
                .unwrap_or_default(),
            if op.kind.custom_instructions().is_some() {
                " · custom instructions"
            } else {
                ""
            }
        ),
        (ThreadOrigin::Squash { .. }, Some(op)) => {
            format!("Manual squash of {} messages", op.source_message_ids.len())
        }
        (ThreadOrigin::Squash { .. }, None) => "Squash".to_owned(),
        (
            ThreadOrigin::Fit {
                operation_ids,
                budget,
            },
            _,
        ) => format!(
            "Fit to {} tokens in {} step{}",
            squash_core::tokens::format_count(*budget),
            operation_ids.len(),
            plural(operation_ids.len())
        ),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A message, how it came to be, and the same for its sources, recursively.
#[derive(Clone, Debug, Serialize)]
pub struct ProvenanceNode {
    pub message: Message,
    pub operation: Option<SquashOperation>,
    pub sources: Vec<ProvenanceNode>,
}

/// Guards the recursion against malformed (cyclic or absurdly deep) stored data.
const MAX_PROVENANCE_DEPTH: usize = 64;

impl ConversationService {
    /// The conversation's threads as a tree, depth-first from the initial thread (children in
    /// creation order).
    pub async fn history(
        &self,
        conversation: ConversationId,
    ) -> Result<Vec<HistoryEntry>, ServiceError> {
        let current = self
            .store()
            .conversation(conversation)
            .await?
            .current_thread_id;
        let threads = self.store().threads(conversation).await?;
        let operations = self.store().operations(conversation).await?;
        let mut out = Vec::with_capacity(threads.len());
        let roots: Vec<&Thread> = threads
            .iter()
            .filter(|t| {
                t.original_thread_id
                    .is_none_or(|o| !threads.iter().any(|p| p.id == o))
            })
            .collect();
        let mut stack: Vec<(&Thread, usize)> = roots.into_iter().rev().map(|t| (t, 0)).collect();
        let mut visited = HashSet::new();
        while let Some((thread, depth)) = stack.pop() {
            if !visited.insert(thread.id) {
                continue;
            }
            let children: Vec<&Thread> = threads
                .iter()
                .filter(|t| t.original_thread_id == Some(thread.id))
                .collect();
            out.push(HistoryEntry {
                thread: thread.clone(),
                depth,
                is_current: thread.id == current,
                operation: thread
                    .origin
                    .operation_id()
                    .and_then(|id| operations.iter().find(|o| o.id == id).cloned()),
                children: children.iter().map(|t| t.id).collect(),
            });
            stack.extend(children.into_iter().rev().map(|t| (t, depth + 1)));
        }
        Ok(out)
    }

    /// How `message` came to be: its operation, its sources and theirs.
    pub async fn provenance(&self, message: MessageId) -> Result<ProvenanceNode, ServiceError> {
        let mut visiting = HashSet::new();
        Box::pin(self.provenance_of(message, 0, &mut visiting)).await
    }

    async fn provenance_of(
        &self,
        id: MessageId,
        depth: usize,
        visiting: &mut HashSet<MessageId>,
    ) -> Result<ProvenanceNode, ServiceError> {
        let message = self.store().message(id).await?;
        let operation = match message.squash_operation_id {
            Some(op) if depth < MAX_PROVENANCE_DEPTH && visiting.insert(id) => {
                Some(self.store().operation(op).await?)
            }
            _ => None,
        };
        let mut sources = Vec::new();
        if let Some(op) = &operation {
            for source in &op.source_message_ids {
                sources.push(Box::pin(self.provenance_of(*source, depth + 1, visiting)).await?);
            }
            visiting.remove(&id);
        }
        Ok(ProvenanceNode {
            message,
            operation,
            sources,
        })
    }
}
