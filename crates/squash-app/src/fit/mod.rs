//! Fitting a conversation's current thread into a token budget: plan (pure, in
//! `squash_core::fit`, from one summary per message), compute each step (a trim, a line or an
//! extract here, an AI squash through the engine), and store the whole plan as **one** new
//! thread with one operation per step, so that one undo restores the thread exactly.

mod adopt;
mod apply;
mod error;

use squash_core::fit::{plan_summaries, FitPlan, FitRequest, Summarizer};
use squash_core::{ConversationId, Message, ThreadId};

pub use apply::{FitOutcome, FitProgress, StepDone};
pub use error::FitError;
pub use squash_core::fit::{FitStep, FitStrategy, StepAction, DEFAULT_KEEP_LAST};

use crate::squash::SquashEngine;

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
        // The planner reads summaries, one message at a time: the messages themselves are
        // read again only for the steps that trim them.
        let mut summarizer = Summarizer::new();
        for message in &view.messages {
            summarizer.push(message);
        }
        let computed_on = (view.thread.id, view.thread.revision);
        drop(view);
        let plan = plan_summaries(&summarizer.finish(), request);
        Ok(PlannedFit {
            conversation_id: conversation,
            computed_on,
            plan,
        })
    }
}
