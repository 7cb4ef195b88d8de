//! Reading a thread a page at a time, for readers of threads too long to read whole (the web
//! page, the HTTP API).

use squash_core::page::PageWindow;
use squash_store::{PageRequest, ThreadRef};

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
        let known = self.token_sums().known(thread);
        let page = self
            .store()
            .thread_page(PageRequest {
                thread,
                window,
                known_tokens: known,
            })
            .await?;
        self.token_sums().remember(thread, &page);
        let conversation = self
            .store()
            .conversation(page.thread.conversation_id)
            .await?;
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
