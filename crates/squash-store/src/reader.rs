//! A thread read in chunks: what fit, resume and exports of a session of any size need, in
//! memory bounded by the chunk, not by the thread.

use squash_core::{Message, Thread};

use crate::types::{MessageRange, ThreadRef};
use crate::{ConversationStore, Result};

/// Reads a thread range by range ([`ConversationStore::thread_range`]), as it was when the
/// reader was opened: appends made meanwhile are not read (a thread's links below its length
/// never change, so no transaction needs to stay open between chunks).
pub struct ThreadReader<'a> {
    store: &'a dyn ConversationStore,
    thread: Thread,
    next: u64,
    chunk: u32,
}

impl<'a> ThreadReader<'a> {
    /// A reader of `thread` (the current thread of a conversation is fixed at opening) that
    /// reads `chunk` messages at a time (at least one).
    pub async fn open(
        store: &'a dyn ConversationStore,
        thread: ThreadRef,
        chunk: u32,
    ) -> Result<ThreadReader<'a>> {
        let thread = match thread {
            ThreadRef::Current(conversation) => store.current_thread_header(conversation).await?,
            ThreadRef::Thread(id) => store.thread_header(id).await?,
        };
        Ok(ThreadReader {
            store,
            thread,
            next: 0,
            chunk: chunk.max(1),
        })
    }

    /// The thread as it was when the reader was opened.
    pub fn thread(&self) -> &Thread {
        &self.thread
    }

    /// How many messages are still to read.
    pub fn remaining(&self) -> u64 {
        self.thread.message_count - self.next
    }

    /// The next chunk, `None` after the last.
    pub async fn next_chunk(&mut self) -> Result<Option<MessageRange>> {
        if self.remaining() == 0 {
            return Ok(None);
        }
        let limit = u32::try_from(self.remaining()).map_or(self.chunk, |r| r.min(self.chunk));
        let range = self
            .store
            .thread_range(self.thread.id, self.next, limit)
            .await?;
        if range.messages.len() != limit as usize {
            return Err(crate::StoreError::Corrupt(format!(
                "thread {} has {} messages at {}, {limit} were expected",
                self.thread.id,
                range.messages.len(),
                self.next
            )));
        }
        self.next += u64::from(limit);
        Ok(Some(range))
    }

    /// Every remaining message, chunk by chunk, to `each`.
    pub async fn for_each(mut self, mut each: impl FnMut(Message, u64)) -> Result<()> {
        while let Some(range) = self.next_chunk().await? {
            for (m, t) in range.messages.into_iter().zip(range.message_tokens) {
                each(m, t);
            }
        }
        Ok(())
    }
}
