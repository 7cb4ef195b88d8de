//! Fitting a conversation's current thread into a token budget: plan (pure, in
//! `squash_core::fit`, from one summary per message), compute each step (a trim, a line or an
//! extract here, an AI squash through the engine), and store the whole plan as **one** new
//! thread with one operation per step, so that one undo restores the thread exactly.

mod adopt;
mod apply;
mod error;

use squash_core::fit::{plan_summaries, FitPlan, FitRequest, Summarizer};
use squash_core::{ConversationId, Message, ThreadId};
use squash_store::{ThreadReader, ThreadRef, ThreadSnapshot};
use tokio::task::JoinHandle;

pub use apply::{FitOutcome, FitProgress, StepDone};
pub use error::FitError;
pub use squash_core::fit::{FitStep, FitStrategy, StepAction, DEFAULT_KEEP_LAST};

use crate::error::ServiceError;
use crate::squash::SquashEngine;
use crate::workers::workers;

/// How a message is priced: the rule the thread's token count uses.
pub fn message_cost(message: &Message) -> u64 {
    squash_core::tokens::message_tokens(message)
}

/// Messages a plan reads at a time: what bounds its memory besides the summaries.
const READ_CHUNK: u32 = 1_000;

/// A plan made on a snapshot of the current thread.
#[derive(Clone, Debug)]
pub struct PlannedFit {
    pub conversation_id: ConversationId,
    pub plan: FitPlan,
    /// The thread the plan was made on, with its links as they were read: the apply commits
    /// on them without reading the thread again (its revision check still catches a
    /// conversation that moved on).
    base: ThreadSnapshot,
}

impl PlannedFit {
    /// The thread and revision the plan was made on.
    pub fn computed_on(&self) -> (ThreadId, u64) {
        (self.base.thread.id, self.base.thread.revision)
    }
}

/// Plans and applies fits. AI steps go through `engine` (its model and options); masks and
/// extracts need no model.
#[derive(Clone)]
pub struct FitService {
    engine: SquashEngine,
}

impl FitService {
    pub fn new(engine: SquashEngine) -> FitService {
        FitService { engine }
    }

    /// Plans the fit of the conversation's current thread. Stores nothing.
    pub async fn plan(
        &self,
        conversation: ConversationId,
        request: FitRequest,
    ) -> Result<PlannedFit, FitError> {
        self.plan_reading(conversation, request, READ_CHUNK).await
    }

    /// [`Self::plan`], the thread read `chunk` messages at a time: the planner needs only each
    /// message's summary, so a session of any length is never held whole.
    async fn plan_reading(
        &self,
        conversation: ConversationId,
        request: FitRequest,
        chunk: u32,
    ) -> Result<PlannedFit, FitError> {
        let store = self.engine.service().store();
        let mut reader =
            ThreadReader::open(store.as_ref(), ThreadRef::Current(conversation), chunk)
                .await
                .map_err(ServiceError::from)?;
        let thread = reader.thread().clone();
        let mut links = Vec::with_capacity(usize::try_from(thread.message_count).unwrap_or(0));
        // Each message priced as the store keeps it (the thread's own rule), summarized on
        // every core the machine has.
        let workers = workers();
        // A chunk is summarized on a blocking thread while the store reads the next: on a
        // server the read is mostly the server's and the wire's time, which the summaries
        // would otherwise wait for.
        let mut summarizer = Summarizer::new();
        let mut next = reader.next_chunk().await.map_err(ServiceError::from)?;
        while let Some(range) = next {
            links.extend(range.messages.iter().map(|m| m.id));
            let summarizing = tokio::task::spawn_blocking(move || {
                let costs = (range.message_tokens.len() == range.messages.len())
                    .then_some(range.message_tokens.as_slice());
                summarizer.push_chunk(&range.messages, costs, workers);
                summarizer
            });
            next = reader.next_chunk().await.map_err(ServiceError::from)?;
            summarizer = joined(summarizing).await;
        }
        let plan = plan_summaries(&summarizer.finish(), request, workers);
        Ok(PlannedFit {
            conversation_id: conversation,
            plan,
            base: ThreadSnapshot { thread, links },
        })
    }
}

/// The summarizer back from its blocking thread. It panics only on a bug of the planner's,
/// which goes on here as it would have without the thread.
async fn joined(handle: JoinHandle<Summarizer>) -> Summarizer {
    match handle.await {
        Ok(summarizer) => summarizer,
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

#[cfg(test)]
mod tests;
