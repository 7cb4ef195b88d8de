//! A plan made before the thread was stored (resume plans on the session it read, to refuse a
//! budget before anything is written), taken over as the plan of the stored thread instead of
//! being made again.

use squash_core::fit::FitPlan;
use squash_core::{ConversationId, MessageId};

use super::{FitError, FitService, PlannedFit};
use crate::error::ServiceError;

impl FitService {
    /// `plan`, made on the messages `planned_on` (a thread read outside the store, by id), as
    /// the plan of the conversation's current thread when that thread is those messages, in
    /// that order: an import keeps the ids the read gave. When it is not (the session was
    /// imported before, or the conversation moved on since: a fit, an edit), the plan is made
    /// on the current thread.
    pub async fn adopt(
        &self,
        conversation: ConversationId,
        plan: FitPlan,
        planned_on: &[MessageId],
    ) -> Result<PlannedFit, FitError> {
        let store = self.engine.service().store();
        let current = store
            .current_thread(conversation)
            .await
            .map_err(ServiceError::from)?;
        if current.links != planned_on {
            drop(current);
            return self.plan(conversation, plan.request).await;
        }
        Ok(PlannedFit {
            conversation_id: conversation,
            plan,
            base: current,
        })
    }
}
