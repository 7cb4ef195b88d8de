//! What a fit or squash took out, for a reader who wants it back: the source messages of an
//! operation a page at a time (a digest can stand for thousands), a page of a conversation's
//! current thread, and the sub-agent runs imported with a conversation, each tied to the call
//! that started it. Every page comes with the operations that made its messages, so a reader can
//! go on to their originals in turn.

use std::collections::HashSet;

use serde::Serialize;
use squash_core::page::{PageAnchor, PageWindow, MAX_PAGE};
use squash_core::tokens::message_tokens;
use squash_core::{ContentItem, ConversationId, Message, SquashOperation, SquashOperationId};
use squash_store::{ConversationSummary, ThreadRef};

use crate::conversations::ConversationService;
use crate::error::ServiceError;
use crate::import::subagents::started_by_call;

type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// Consecutive messages of a longer list (an operation's sources, a thread).
#[derive(Clone, Debug, Serialize)]
pub struct MessagePage {
    /// The 0-based index of the first message in the whole list.
    pub offset: u64,
    /// How many messages the whole list has.
    pub total: u64,
    pub messages: Vec<Message>,
    /// Each message's estimated tokens, in the order of `messages`.
    pub message_tokens: Vec<u64>,
    /// The operations that made messages of the page, each once: their own originals.
    pub operations: Vec<SquashOperation>,
    /// The sub-agent runs that calls of the page started.
    pub runs: Vec<SubagentRun>,
}

impl MessagePage {
    /// Whether messages follow this page.
    pub fn has_more(&self) -> bool {
        self.offset + (self.messages.len() as u64) < self.total
    }
}

/// A page of the messages an operation replaced, in conversation order.
#[derive(Clone, Debug, Serialize)]
pub struct OperationSources {
    pub operation: SquashOperation,
    #[serde(flatten)]
    pub page: MessagePage,
}

/// A sub-agent's run, imported as a conversation of its own, and the call that started it.
#[derive(Clone, Debug, Serialize)]
pub struct SubagentRun {
    /// The tool-use id of the call (Claude Code's `Task` or `Agent`).
    pub call_id: String,
    /// The run's conversation, with its current thread's size.
    pub run: ConversationSummary,
}

impl ConversationService {
    /// Sources `offset..offset + limit` of operation `id` (fewer at the end). `NotFound` for an
    /// unknown operation, `Invalid` for a `limit` over [`MAX_PAGE`] or an `offset` past the end.
    pub async fn operation_sources(
        &self,
        id: SquashOperationId,
        offset: u64,
        limit: u32,
    ) -> Result<OperationSources> {
        check_limit(limit)?;
        let operation = self.store().operation(id).await?;
        let total = operation.source_message_ids.len() as u64;
        check_offset(offset, total, "sources")?;
        let start = offset as usize;
        let end = (offset + u64::from(limit)).min(total) as usize;
        let messages = self
            .store()
            .messages(&operation.source_message_ids[start..end])
            .await?;
        let message_tokens = messages.iter().map(message_tokens).collect();
        let operations = self.operations_of(&messages).await?;
        let runs = self
            .subagent_runs_of(operation.conversation_id, &messages)
            .await?;
        Ok(OperationSources {
            operation,
            page: MessagePage {
                offset,
                total,
                messages,
                message_tokens,
                operations,
                runs,
            },
        })
    }

    /// Messages `offset..offset + limit` of the conversation's current thread, with the
    /// operations that made them; errors as [`Self::operation_sources`].
    pub async fn current_page(
        &self,
        conversation: ConversationId,
        offset: u64,
        limit: u32,
    ) -> Result<MessagePage> {
        check_limit(limit)?;
        let window = PageWindow {
            anchor: PageAnchor::After { position: offset },
            limit,
        };
        let view = self
            .thread_page(ThreadRef::Current(conversation), window)
            .await?;
        check_offset(offset, view.span.total, "messages")?;
        let operations = self.operations_of(&view.messages).await?;
        let runs = self.subagent_runs_of(conversation, &view.messages).await?;
        Ok(MessagePage {
            offset,
            total: view.span.total,
            messages: view.messages,
            message_tokens: view.message_tokens,
            operations,
            runs,
        })
    }

    /// The sub-agent runs imported with `conversation` whose starting call is known, in import
    /// order, each with its size. `NotFound` for an unknown conversation.
    pub async fn subagent_runs(&self, conversation: ConversationId) -> Result<Vec<SubagentRun>> {
        self.store().conversation(conversation).await?;
        self.all_runs(conversation).await
    }

    async fn all_runs(&self, conversation: ConversationId) -> Result<Vec<SubagentRun>> {
        let parts = self.store().import_parts_of(conversation).await?;
        Ok(parts
            .into_iter()
            .filter_map(|part| {
                let call_id = started_by_call(part.record.source.metadata.as_ref()?)?;
                Some(SubagentRun {
                    call_id,
                    run: part.summary,
                })
            })
            .collect())
    }

    /// The sub-agent runs that calls among `messages` (of `conversation`) started: read only
    /// when they hold a call.
    pub async fn subagent_runs_of(
        &self,
        conversation: ConversationId,
        messages: &[Message],
    ) -> Result<Vec<SubagentRun>> {
        let calls: HashSet<&str> = messages
            .iter()
            .flat_map(|m| &m.content)
            .filter_map(|item| match item {
                ContentItem::ToolCall { id, .. } => Some(id.as_str()),
                _ => None,
            })
            .collect();
        if calls.is_empty() {
            return Ok(Vec::new());
        }
        let mut runs = self.all_runs(conversation).await?;
        runs.retain(|r| calls.contains(r.call_id.as_str()));
        Ok(runs)
    }

    /// The operations that made `messages`, each read once.
    async fn operations_of(&self, messages: &[Message]) -> Result<Vec<SquashOperation>> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for id in messages.iter().filter_map(|m| m.squash_operation_id) {
            if seen.insert(id) {
                out.push(self.store().operation(id).await?);
            }
        }
        Ok(out)
    }
}

fn check_limit(limit: u32) -> Result<()> {
    if limit > MAX_PAGE {
        return Err(ServiceError::Invalid(format!(
            "a page holds at most {MAX_PAGE} messages (asked for {limit}); page on with the offset"
        )));
    }
    Ok(())
}

fn check_offset(offset: u64, total: u64, what: &str) -> Result<()> {
    if offset > total {
        return Err(ServiceError::Invalid(format!(
            "offset {offset} is past the end: there are {total} {what}"
        )));
    }
    Ok(())
}
