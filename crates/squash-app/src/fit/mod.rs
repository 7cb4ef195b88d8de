//! Fitting a conversation's current thread into a token budget: plan (pure, in
//! `squash_core::fit`, from one summary per message), compute each step (a trim, a line or an
//! extract here, an AI squash through the engine), and store the whole plan as **one** new
//! thread with one operation per step, so that one undo restores the thread exactly.

mod adopt;
mod apply;
mod error;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use squash_core::fit::{plan_summaries, summarize_thread, FitPlan, FitRequest};
use squash_core::{ConversationId, Message, MessageId, ThreadId};

pub use apply::{FitOutcome, FitProgress, StepDone};
pub use error::FitError;
pub use squash_core::fit::{FitStep, FitStrategy, StepAction, DEFAULT_KEEP_LAST};

use crate::squash::SquashEngine;
use crate::workers::workers;

/// How a message is priced: the rule the thread's token count uses.
pub fn message_cost(message: &Message) -> u64 {
    squash_core::tokens::message_tokens(message)
}

/// A plan made on a snapshot of the current thread.
#[derive(Clone, Debug)]
pub struct PlannedFit {
    pub conversation_id: ConversationId,
    /// The thread and revision the plan was made on.
    pub computed_on: (ThreadId, u64),
    pub plan: FitPlan,
    /// The messages the plan trims, as read when it was made (by id; shared by the plan's
    /// clones). Those missing are read when the plan is applied.
    pub(crate) trim_sources: Arc<HashMap<MessageId, Message>>,
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
        let view = self.engine.service().current_thread(conversation).await?;
        // The planner reads summaries, each message priced as the store keeps it (the
        // thread's own rule), summarized on every core the machine has.
        let costs = (view.message_tokens.len() == view.messages.len())
            .then_some(view.message_tokens.as_slice());
        let workers = workers();
        let summaries = summarize_thread(&view.messages, costs, workers);
        let computed_on = (view.thread.id, view.thread.revision);
        let plan = plan_summaries(&summaries, request, workers);
        let trim_sources = trim_sources(&plan, view.messages);
        Ok(PlannedFit {
            conversation_id: conversation,
            computed_on,
            plan,
            trim_sources,
        })
    }
}

/// The messages among `messages` that the plan's trims (its steps and its reserve) replace:
/// kept from the read the plan was made on, so that applying it reads none of them again (a
/// fit of a long session trims tens of thousands of outputs).
fn trim_sources(plan: &FitPlan, messages: Vec<Message>) -> Arc<HashMap<MessageId, Message>> {
    let trimmed: HashSet<MessageId> = plan
        .steps
        .iter()
        .chain(&plan.reserve)
        .filter(|s| s.action == StepAction::Trim)
        .filter_map(|s| s.sources.first().copied())
        .collect();
    Arc::new(
        messages
            .into_iter()
            .filter(|m| trimmed.contains(&m.id))
            .map(|m| (m.id, m))
            .collect(),
    )
}

#[cfg(test)]
mod tests;
