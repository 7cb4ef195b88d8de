use squash_core::{
    ConversationId, Message, MessageId, SquashOperation, Thread, ThreadId, ThreadOrigin,
};

/// A thread with its ordered message ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadSnapshot {
    pub thread: Thread,
    pub links: Vec<MessageId>,
}

/// Where an appended message landed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Appended {
    pub thread_id: ThreadId,
    /// 0-based position in the thread.
    pub position: u64,
    /// The thread's revision after the append.
    pub revision: u64,
}

/// A copy-on-write operation ready to store: the new thread, and the message and provenance
/// record it introduces.
#[derive(Clone, Debug)]
pub struct Commit {
    pub conversation_id: ConversationId,
    pub base_thread_id: ThreadId,
    pub base_revision: u64,
    pub thread_id: ThreadId,
    pub origin: ThreadOrigin,
    pub links: Vec<MessageId>,
    /// The squash result or edited message; must be new.
    pub message: Option<Message>,
    pub operation: Option<SquashOperation>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct StoreStats {
    pub conversations: u64,
    pub threads: u64,
    pub messages: u64,
    pub thread_links: u64,
    pub operations: u64,
    /// Bytes on disk (SQLite file pages or PostgreSQL relation sizes).
    pub bytes: u64,
}
