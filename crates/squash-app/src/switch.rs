//! Moving between a conversation's threads: undo, redo, and switching to any of them.

use std::time::Duration;

use squash_core::{Conversation, ConversationId, Thread, ThreadId};
use squash_store::{Direction, StoreError};

use crate::commit::MAX_ATTEMPTS;
use crate::conversations::ConversationService;
use crate::error::ServiceError;

type Result<T, E = ServiceError> = std::result::Result<T, E>;

impl ConversationService {
    /// Switches back to the thread the current one was derived from.
    pub async fn undo(&self, conversation: ConversationId) -> Result<Conversation> {
        self.step(conversation, Direction::Back).await
    }

    /// Switches forward to the most recent thread derived from the current one.
    pub async fn redo(&self, conversation: ConversationId) -> Result<Conversation> {
        self.step(conversation, Direction::Forward).await
    }

    async fn step(
        &self,
        conversation: ConversationId,
        direction: Direction,
    ) -> Result<Conversation> {
        // One store call: the target is found inside the write transaction.
        let switched = self
            .store()
            .switch_relative(conversation, direction)
            .await?;
        switched.ok_or_else(|| {
            ServiceError::Invalid(
                match direction {
                    Direction::Back => "nothing to undo: this is the first thread",
                    Direction::Forward => "nothing to redo: no thread was derived from this one",
                }
                .into(),
            )
        })
    }

    /// Makes any thread of the conversation current.
    pub async fn switch_thread(
        &self,
        conversation: ConversationId,
        to: ThreadId,
    ) -> Result<Conversation> {
        let target = self.store().thread_header(to).await?;
        if target.conversation_id != conversation {
            return Err(ServiceError::Invalid(format!(
                "thread {to} belongs to another conversation"
            )));
        }
        self.switch_relative(conversation, move |_| async move { Ok(to) })
            .await
    }

    async fn switch_relative<F, Fut>(
        &self,
        conversation: ConversationId,
        pick: F,
    ) -> Result<Conversation>
    where
        F: Fn(Thread) -> Fut,
        Fut: std::future::Future<Output = Result<ThreadId>>,
    {
        for _ in 0..MAX_ATTEMPTS {
            // Undo and redo need the current thread's row (and, for redo, its newest child),
            // not its links nor the whole thread list: both grow with the conversation.
            let current = self.store().current_thread_header(conversation).await?;
            let current_id = current.id;
            let to = pick(current).await?;
            match self
                .store()
                .switch_thread(conversation, to, current_id)
                .await
            {
                Ok(c) => return Ok(c),
                Err(StoreError::Conflict { .. }) => continue,
                Err(e) if e.is_retryable() => tokio::time::sleep(Duration::from_millis(5)).await,
                Err(e) => return Err(e.into()),
            }
        }
        Err(ServiceError::Conflict(
            "the conversation kept changing; try again".into(),
        ))
    }
}
