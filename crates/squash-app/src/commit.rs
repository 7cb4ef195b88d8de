//! Committing an explicit operation: what it plans of the current thread is stored as a new
//! thread only if the conversation is still at the revision it was planned on; otherwise the
//! thread is read again and the operation planned again on it, a bounded number of times.

use std::time::Duration;

use squash_core::thread_ops::PartnerAdded;
use squash_core::{
    ConversationId, Message, MessageId, RecallRef, SquashOperation, Thread, ThreadId, ThreadOrigin,
};
use squash_store::{
    Commit, ConversationStore, NewLinks, StoreError, ThreadPositions, ThreadRef, ThreadSnapshot,
};

use crate::error::ServiceError;

type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// How often an operation is recomputed when other writers keep moving the conversation on.
pub(crate) const MAX_ATTEMPTS: u32 = 32;

/// One attempt's plan: the new thread as a change of its base, and what it introduces.
pub(crate) struct Planned {
    pub(crate) links: NewLinks,
    pub(crate) origin: ThreadOrigin,
    /// The messages the new thread introduces, each with its operation (none for a delete).
    pub(crate) messages: Vec<Message>,
    pub(crate) operations: Vec<SquashOperation>,
    pub(crate) added_partners: Vec<PartnerAdded>,
    pub(crate) sources: Vec<MessageId>,
}

/// Whether an operation's results carry recall references: then each attempt is planned with
/// the first reference the conversation has free (read after the thread, so that the commit's
/// revision check covers it: any commit that took references moved the conversation on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refs {
    None,
    Numbered,
}

/// A plan as stored: the new current thread, and the plan with each operation's threads set.
pub(crate) struct Committed {
    pub(crate) thread: Thread,
    pub(crate) planned: Planned,
    pub(crate) reapplied: u32,
}

/// Commits what `plan` makes of the current thread's positions (`asked`, as
/// [`ConversationStore::thread_positions`] reads them), retrying on a newer thread as
/// [`commit_planned`] does: a squash, edit or delete reads a few positions, not the
/// thread.
pub(crate) async fn commit_on_positions(
    store: &dyn ConversationStore,
    conversation: ConversationId,
    computed_on: Option<(ThreadId, u64)>,
    first: Option<ThreadPositions>,
    asked: &[MessageId],
    refs: Refs,
    plan: impl FnMut(&ThreadPositions, Option<RecallRef>) -> Result<Planned>,
) -> Result<Committed> {
    let read = || async {
        store
            .thread_positions(ThreadRef::Current(conversation), asked)
            .await
    };
    commit_on(store, conversation, computed_on, first, read, refs, plan).await
}

/// What an attempt is planned on: a read of the current thread (its positions, or whole).
trait Based {
    fn thread(&self) -> &Thread;
}

impl Based for ThreadPositions {
    fn thread(&self) -> &Thread {
        &self.thread
    }
}

impl Based for ThreadSnapshot {
    fn thread(&self) -> &Thread {
        &self.thread
    }
}

/// Commits what `plan` makes of the current thread (read whole), for any number of new
/// messages and operations (a fit's steps).
pub(crate) async fn commit_planned(
    store: &dyn ConversationStore,
    conversation: ConversationId,
    computed_on: Option<(ThreadId, u64)>,
    first: Option<ThreadSnapshot>,
    refs: Refs,
    plan: impl FnMut(&ThreadSnapshot, Option<RecallRef>) -> Result<Planned>,
) -> Result<Committed> {
    let read = || store.current_thread(conversation);
    commit_on(store, conversation, computed_on, first, read, refs, plan).await
}

/// The commit loop: plans on `first` (or what `read` reads of the current thread), commits
/// if the thread is still at that revision, and on a conflict reads and plans again.
async fn commit_on<B, R, F>(
    store: &dyn ConversationStore,
    conversation: ConversationId,
    computed_on: Option<(ThreadId, u64)>,
    mut first: Option<B>,
    read: R,
    refs: Refs,
    mut plan: impl FnMut(&B, Option<RecallRef>) -> Result<Planned>,
) -> Result<Committed>
where
    B: Based,
    R: Fn() -> F,
    F: std::future::Future<Output = squash_store::Result<B>>,
{
    let mut base = computed_on;
    for attempt in 0..MAX_ATTEMPTS {
        let snap = match first.take() {
            Some(snap) => snap,
            None => read().await?,
        };
        let base_thread = snap.thread();
        let moved_on = base.is_some_and(|b| b != (base_thread.id, base_thread.revision));
        let next_ref = match refs {
            Refs::None => None,
            Refs::Numbered => Some(store.next_recall_ref(conversation).await?),
        };
        let mut planned = match plan(&snap, next_ref) {
            Ok(p) => p,
            Err(e) if moved_on => {
                return Err(ServiceError::Conflict(format!(
                    "the conversation changed meanwhile and the operation no longer applies: {e}"
                )))
            }
            Err(e) => return Err(e),
        };
        // Planning on a newer thread than the one the result was computed from is a
        // re-application, even on the first attempt.
        let replanned = u32::from(moved_on && attempt == 0);
        base = Some((base_thread.id, base_thread.revision));
        let thread_id = ThreadId::new();
        for op in &mut planned.operations {
            op.base_thread_id = Some(base_thread.id);
            op.result_thread_id = Some(thread_id);
        }
        let commit = Commit {
            conversation_id: conversation,
            base_thread_id: base_thread.id,
            base_revision: base_thread.revision,
            thread_id,
            origin: planned.origin.clone(),
            links: planned.links.clone(),
            messages: planned.messages.clone(),
            operations: planned.operations.clone(),
        };
        match store.commit(&commit).await {
            Ok(thread) => {
                return Ok(Committed {
                    thread,
                    planned,
                    reapplied: attempt + replanned,
                })
            }
            Err(StoreError::Conflict { .. }) => {
                tracing::debug!(attempt, "conversation moved on; recomputing the operation");
            }
            Err(e) if e.is_retryable() => {
                tokio::time::sleep(Duration::from_millis(5 * u64::from(attempt + 1))).await
            }
            Err(e) => return Err(e.into()),
        }
    }
    Err(ServiceError::Conflict(
        "the conversation kept changing while the operation was applied; nothing was changed, try again"
            .into(),
    ))
}
