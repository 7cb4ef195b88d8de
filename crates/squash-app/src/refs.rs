//! Resolving what people type: full ids, unique id prefixes, `@N` positions.

use squash_core::{ConversationId, MessageId, SquashOperationId};
use squash_store::Entity;

use crate::conversations::ConversationService;
use crate::error::ServiceError;

impl ConversationService {
    /// A conversation by full id, unique id prefix, or exact display name.
    pub async fn resolve_conversation(
        &self,
        reference: &str,
    ) -> Result<ConversationId, ServiceError> {
        let reference = reference.trim();
        if let Ok(id) = reference.parse::<ConversationId>() {
            return Ok(id);
        }
        let found = self.store().conversation_ids_with_prefix(reference).await?;
        if !found.is_empty() {
            return unique(found, Entity::Conversation, reference);
        }
        let named: Vec<ConversationId> = self
            .store()
            .conversations(None)
            .await?
            .into_iter()
            .filter(|c| c.display_name == reference)
            .map(|c| c.id)
            .collect();
        unique(named, Entity::Conversation, reference)
    }

    /// [`resolve_conversation`](Self::resolve_conversation) of `reference`, when one is given.
    pub async fn resolve_conversation_if(
        &self,
        reference: Option<&str>,
    ) -> Result<Option<ConversationId>, ServiceError> {
        match reference {
            Some(reference) => Ok(Some(self.resolve_conversation(reference).await?)),
            None => Ok(None),
        }
    }

    /// [`resolve_message`](Self::resolve_message) of each of `references` in `conversation`, in
    /// the order given.
    pub async fn resolve_messages(
        &self,
        conversation: ConversationId,
        references: &[String],
    ) -> Result<Vec<MessageId>, ServiceError> {
        let mut ids = Vec::with_capacity(references.len());
        for reference in references {
            ids.push(self.resolve_message(Some(conversation), reference).await?);
        }
        Ok(ids)
    }

    /// A message by `@N` (the N-th message of the conversation's current thread, 1-based), full
    /// id, or unique id prefix (within the conversation when given).
    pub async fn resolve_message(
        &self,
        conversation: Option<ConversationId>,
        reference: &str,
    ) -> Result<MessageId, ServiceError> {
        let reference = reference.trim();
        if let Some(n) = reference.strip_prefix('@') {
            let conversation = conversation.ok_or_else(|| {
                ServiceError::Invalid(format!("{reference}: @N needs a conversation"))
            })?;
            let n: usize = n.parse().map_err(|_| {
                ServiceError::Invalid(format!("{reference}: expected @N with N a positive number"))
            })?;
            // One position read, not the thread: `@N` is typed against threads of any length.
            let thread = self.store().current_thread_header(conversation).await?;
            let at = n.checked_sub(1).map(|i| i as u64);
            let found = match at {
                Some(at) if at < thread.message_count => self
                    .store()
                    .thread_range(thread.id, at, 1)
                    .await?
                    .messages
                    .first()
                    .map(|m| m.id),
                _ => None,
            };
            return found.ok_or_else(|| {
                ServiceError::Invalid(format!(
                    "{reference}: the current thread has {} messages",
                    thread.message_count
                ))
            });
        }
        if let Ok(id) = reference.parse::<MessageId>() {
            return Ok(id);
        }
        let found = self
            .store()
            .message_ids_with_prefix(conversation, reference)
            .await?;
        unique(found, Entity::Message, reference)
    }

    /// An operation by full id or unique id prefix.
    pub async fn resolve_operation(
        &self,
        reference: &str,
    ) -> Result<SquashOperationId, ServiceError> {
        let reference = reference.trim();
        if let Ok(id) = reference.parse::<SquashOperationId>() {
            return Ok(id);
        }
        let found = self.store().operation_ids_with_prefix(reference).await?;
        unique(found, Entity::Operation, reference)
    }
}

fn unique<T: std::fmt::Display>(
    found: Vec<T>,
    entity: Entity,
    reference: &str,
) -> Result<T, ServiceError> {
    let mut found = found;
    match found.len() {
        0 => Err(ServiceError::NotFound(entity, reference.to_owned())),
        1 => Ok(found.remove(0)),
        n => Err(ServiceError::Ambiguous(format!(
            "{reference} matches {n} {entity}s ({}, …); type more of the id",
            found
                .iter()
                .take(3)
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

impl ConversationService {
    /// A thread of the conversation by full id or unique id prefix.
    pub async fn resolve_thread(
        &self,
        conversation: ConversationId,
        reference: &str,
    ) -> Result<squash_core::ThreadId, ServiceError> {
        let reference = reference.trim();
        if let Ok(id) = reference.parse::<squash_core::ThreadId>() {
            return Ok(id);
        }
        let wanted: String = reference
            .chars()
            .filter(|c| *c != '-')
            .collect::<String>()
            .to_ascii_lowercase();
        if wanted.is_empty() {
            return Err(ServiceError::Invalid("empty thread reference".into()));
        }
        let found: Vec<squash_core::ThreadId> = self
            .store()
            .threads(conversation)
            .await?
            .into_iter()
            .map(|t| t.id)
            .filter(|id| id.as_uuid().simple().to_string().starts_with(&wanted))
            .collect();
        unique(found, Entity::Thread, reference)
    }
}
