//! Reading a thread a page at a time, for readers of threads too long to read whole (the web
//! page, the HTTP API).

use squash_core::page::PageWindow;
use squash_core::Conversation;
use squash_store::{PageRequest, StoredMessage, ThreadPage, ThreadRef};

use crate::conversations::ConversationService;
use crate::error::ServiceError;
use crate::reading::ThreadView;

impl ConversationService {
    /// Part of a thread: `window` of `thread`, with the whole thread's tokens and where the
    /// page lies in it ([`ThreadView::span`]).
    pub async fn thread_page(
        &self,
        thread: ThreadRef,
        window: PageWindow,
    ) -> Result<ThreadView, ServiceError> {
        let page = self
            .store()
            .thread_page(self.page_request(thread, window))
            .await?;
        self.view_of_page(thread, page, None).await
    }

    /// [`thread_page`](Self::thread_page) with the messages as stored, for an answer that
    /// sends them on as JSON: it serializes as the parsed page does, without parsing them.
    /// The conversation is read with the page, in its snapshot, so that a cache tag made of the
    /// view's conversation and thread says what the answer shows, without a read more.
    pub async fn thread_page_stored(
        &self,
        thread: ThreadRef,
        window: PageWindow,
    ) -> Result<ThreadView<StoredMessage>, ServiceError> {
        let request = self.page_request(thread, window);
        let read = self.store().thread_page_stored(request).await?;
        self.view_of_page(thread, read.page, Some(read.conversation))
            .await
    }

    /// What to read, with the thread's token sum when it is remembered.
    fn page_request(&self, thread: ThreadRef, window: PageWindow) -> PageRequest {
        PageRequest {
            thread,
            window,
            known_tokens: self.token_sums().known(thread),
        }
    }

    /// The view of `page`, with its conversation: `known` when it is the page's, else read.
    async fn view_of_page<M>(
        &self,
        asked: ThreadRef,
        page: ThreadPage<M>,
        known: Option<Conversation>,
    ) -> Result<ThreadView<M>, ServiceError> {
        self.token_sums().remember(asked, &page);
        let conversation = match known {
            Some(c) if c.id == page.thread.conversation_id => c,
            _ => {
                self.store()
                    .conversation(page.thread.conversation_id)
                    .await?
            }
        };
        Ok(ThreadView {
            conversation,
            span: page.span,
            thread: page.thread,
            messages: page.messages,
            message_tokens: page.message_tokens,
            tokens: page.tokens,
        })
    }
}
