//! A plan made before the thread was stored (resume plans on the session it read, to refuse a
//! budget before anything is written), taken over as the plan of the stored thread instead of
//! being made again.

use std::collections::HashMap;

use squash_core::fit::FitPlan;
use squash_core::{ConversationId, Message, MessageId};

use super::{FitError, FitService, PlannedFit};

impl FitService {
    /// `plan`, made on `planned_on` (a thread read outside the store), as the plan of the
    /// conversation's current thread when that thread holds the same messages in the same order
    /// (the store may have given them other ids). When it does not (the conversation moved on
    /// since an earlier import: a fit, an edit), the plan is made on the current thread.
    pub async fn adopt(
        &self,
        conversation: ConversationId,
        mut plan: FitPlan,
        planned_on: &[Message],
    ) -> Result<PlannedFit, FitError> {
        let view = self.engine.service().current_thread(conversation).await?;
        let same =
            view.messages.len() == planned_on.len()
                && view.messages.iter().zip(planned_on).all(|(stored, read)| {
                    stored.role == read.role && stored.content == read.content
                });
        if !same {
            drop(view);
            return self.plan(conversation, plan.request).await;
        }
        let ids: HashMap<MessageId, MessageId> = planned_on
            .iter()
            .zip(&view.messages)
            .map(|(read, stored)| (read.id, stored.id))
            .collect();
        for step in plan.steps.iter_mut().chain(plan.reserve.iter_mut()) {
            for id in &mut step.sources {
                if let Some(stored) = ids.get(id) {
                    *id = *stored;
                }
            }
        }
        let computed_on = (view.thread.id, view.thread.revision);
        let trim_sources = super::trim_sources(&plan, view.messages);
        Ok(PlannedFit {
            conversation_id: conversation,
            computed_on,
            plan,
            trim_sources,
        })
    }
}
