//! The token sums of recently read threads, so that paging readers do not sum a long thread
//! again for every page.

use std::collections::HashMap;
use std::sync::Mutex;

use squash_store::{KnownTokens, ThreadPage, ThreadRef};

/// How many threads' token sums are remembered. A sum is a few words; when the map is full it
/// is cleared rather than aged, which costs one sum per thread read afterwards.
const REMEMBERED_SUMS: usize = 4_096;

/// The token sums of recently read threads, each at the revision it was summed at. Summing a
/// 10,000-link thread costs about as much as reading a 100-message page of it, and a thread's
/// sum only changes when its revision does, so paging readers reuse it. Kept under the thread
/// asked for: a conversation's current thread is remembered under the conversation, and the
/// store uses the sum only if it is still that thread at that revision.
#[derive(Default)]
pub struct TokenSums {
    sums: Mutex<HashMap<ThreadRef, KnownTokens>>,
}

impl TokenSums {
    pub(crate) fn known(&self, thread: ThreadRef) -> Option<KnownTokens> {
        self.sums.lock().ok()?.get(&thread).copied()
    }

    pub(crate) fn remember<M>(&self, asked: ThreadRef, page: &ThreadPage<M>) {
        if let Ok(mut sums) = self.sums.lock() {
            if sums.len() >= REMEMBERED_SUMS && !sums.contains_key(&asked) {
                sums.clear();
            }
            sums.insert(
                asked,
                KnownTokens {
                    thread: page.thread.id,
                    revision: page.thread.revision,
                    tokens: page.tokens,
                    message_count: page.thread.message_count,
                },
            );
        }
    }
}
