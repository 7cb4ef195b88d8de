//! Reading a conversation's threads whole, their headers, messages and operations. A page at a
//! time is `pages`.

use squash_core::page::PageSpan;
use squash_core::{
    Conversation, ConversationId, Message, MessageId, SquashOperation, SquashOperationId, Thread,
    ThreadId,
};
use squash_store::ThreadSnapshot;

use crate::conversations::ConversationService;
use crate::error::ServiceError;

type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// The current state of a conversation, as people see it. The messages are parsed
/// ([`Message`]), or as stored ([`squash_store::StoredMessage`]) for an answer that sends them
/// on as JSON.
#[derive(Clone, Debug)]
pub struct ThreadView<M = Message> {
    pub conversation: Conversation,
    pub thread: Thread,
    /// The whole thread, or the page of it that [`ThreadView::span`] says.
    pub messages: Vec<M>,
    /// Each message's estimated tokens ([`squash_core::tokens::message_tokens`]), in the order
    /// of `messages`: read with them where the store keeps them.
    pub message_tokens: Vec<u64>,
    /// Where `messages` lie in the thread (1-based positions).
    pub span: PageSpan,
    /// The whole thread's estimated tokens, summed by the store over the estimates stored with
    /// its messages; each message's own is [`squash_core::tokens::message_tokens`].
    pub tokens: u64,
}

impl ConversationService {
    pub async fn current_thread(&self, id: ConversationId) -> Result<ThreadView> {
        let conversation = self.store().conversation(id).await?;
        // The header, not the links: the messages come with the next read.
        let thread = self.store().current_thread_header(id).await?;
        self.view_of(conversation, thread).await
    }

    pub async fn thread_view(&self, id: ThreadId) -> Result<ThreadView> {
        let thread = self.store().thread_header(id).await?;
        let conversation = self.store().conversation(thread.conversation_id).await?;
        self.view_of(conversation, thread).await
    }

    /// A conversation and its current thread's header, without the links: two one-row reads
    /// that tell whether anything a reader of the thread saw has changed (HTTP's ETags).
    pub async fn current_thread_header(
        &self,
        id: ConversationId,
    ) -> Result<(Conversation, Thread)> {
        let conversation = self.store().conversation(id).await?;
        let thread = self.store().current_thread_header(id).await?;
        Ok((conversation, thread))
    }

    /// A thread's header with its conversation, likewise.
    pub async fn thread_header(&self, id: ThreadId) -> Result<(Conversation, Thread)> {
        let thread = self.store().thread_header(id).await?;
        let conversation = self.store().conversation(thread.conversation_id).await?;
        Ok((conversation, thread))
    }

    async fn view_of(&self, conversation: Conversation, thread: Thread) -> Result<ThreadView> {
        // One read of the thread as its header says it is (appends made since come after),
        // with the token estimates stored beside the messages: no recount, no second sum.
        let limit = u32::try_from(thread.message_count).map_err(|_| {
            ServiceError::Invalid(format!(
                "thread {} has {} messages, more than one read returns; read it in pages",
                thread.id, thread.message_count
            ))
        })?;
        let range = self.store().thread_range(thread.id, 0, limit).await?;
        let total = range.messages.len() as u64;
        Ok(ThreadView {
            conversation,
            thread,
            span: PageSpan::of((total > 0).then_some(1..=total).as_ref(), total),
            tokens: range.message_tokens.iter().sum(),
            message_tokens: range.message_tokens,
            messages: range.messages,
        })
    }

    /// The estimated tokens of a thread, without reading its messages.
    pub async fn thread_tokens(&self, id: ThreadId) -> Result<u64> {
        Ok(self.store().thread_tokens(id).await?)
    }

    pub async fn current_links(&self, id: ConversationId) -> Result<ThreadSnapshot> {
        Ok(self.store().current_thread(id).await?)
    }

    pub async fn message(&self, id: MessageId) -> Result<Message> {
        Ok(self.store().message(id).await?)
    }

    pub async fn messages(&self, ids: &[MessageId]) -> Result<Vec<Message>> {
        Ok(self.store().messages(ids).await?)
    }

    pub async fn operation(&self, id: SquashOperationId) -> Result<SquashOperation> {
        Ok(self.store().operation(id).await?)
    }

    pub async fn operations(&self, conversation: ConversationId) -> Result<Vec<SquashOperation>> {
        Ok(self.store().operations(conversation).await?)
    }
}
