//! Small conversations stored several to a transaction: a Claude Code session's sub-agent runs
//! are hundreds of conversations of a few messages each, and a chat export holds hundreds of
//! short chats; a transaction of its own costs such a conversation more than its rows (on
//! PostgreSQL a commit waits for the WAL to reach the disk).

use std::collections::HashSet;
use std::sync::Arc;

use squash_core::ConversationId;
use squash_formats::claude_code::DeferredMessages;
use squash_store::{ImportBatch, MessageChunks};

use super::ImportedConversation;

/// A conversation of at most this many messages is stored in a group…
const SMALL_MESSAGES: usize = 200;
/// …and, when its messages are made from the source as they are stored, of at most this many
/// bytes of source (it is read whole before it is stored).
const SMALL_BYTES: u64 = 1 << 20;
/// A group is stored once it holds this many conversations or this many messages, or its
/// messages made from the source come from this many bytes of it (they wait, as messages and
/// as rows, until the group is stored).
const GROUP_CONVERSATIONS: usize = 100;
const GROUP_MESSAGES: usize = 4_000;
const GROUP_SOURCE_BYTES: u64 = 4 << 20;

/// A conversation waiting in a group.
pub(super) struct Member {
    /// Where its report is.
    pub at: usize,
    pub batch: ImportBatch,
    /// Its messages besides the batch's own, made already.
    pub made: MessageChunks,
    /// What made them, to make them again if the group fails and it is stored on its own.
    pub deferred: Option<Arc<DeferredMessages>>,
}

/// The conversations waiting to be stored together.
#[derive(Default)]
pub(super) struct Group {
    members: Vec<Member>,
    messages: usize,
    source_bytes: u64,
    /// Their source keys and ids: a conversation that names one of them again is looked up
    /// only once they are stored, as it would be if each were stored on its own.
    sources: HashSet<String>,
    ids: HashSet<ConversationId>,
}

impl Group {
    /// Whether `batch` is small enough to wait in a group (`deferred`: its messages, if they
    /// are made from the source).
    pub fn takes(batch: &ImportBatch, deferred: Option<&DeferredMessages>) -> bool {
        is_small(batch.messages.len(), deferred)
    }

    /// Whether `conv` names a source or a conversation of the group.
    pub fn holds(&self, conv: &ImportedConversation) -> bool {
        self.sources.contains(&conv.source_key) || self.ids.contains(&conv.conversation_id)
    }

    pub fn push(&mut self, member: Member) {
        let batch = &member.batch;
        if let Some(d) = &member.deferred {
            self.messages += d.len();
            self.source_bytes += source_bytes(d);
        }
        self.messages += batch.messages.len();
        self.sources.insert(batch.source.source_key.clone());
        self.ids.insert(batch.conversation_id);
        self.members.push(member);
    }

    pub fn is_full(&self) -> bool {
        self.members.len() >= GROUP_CONVERSATIONS
            || self.messages >= GROUP_MESSAGES
            || self.source_bytes >= GROUP_SOURCE_BYTES
    }

    /// The conversations, leaving the group empty.
    pub fn take(&mut self) -> Vec<Member> {
        self.messages = 0;
        self.source_bytes = 0;
        self.sources.clear();
        self.ids.clear();
        std::mem::take(&mut self.members)
    }
}

/// Whether a conversation of `messages` messages besides those `deferred` makes from the
/// source is small enough to wait in a group.
pub(super) fn is_small(messages: usize, deferred: Option<&DeferredMessages>) -> bool {
    match deferred {
        None => messages <= SMALL_MESSAGES,
        Some(d) => messages + d.len() <= SMALL_MESSAGES && source_bytes(d) <= SMALL_BYTES,
    }
}

/// Bytes of source `deferred` reads.
pub(super) fn source_bytes(deferred: &DeferredMessages) -> u64 {
    deferred.plans().iter().map(|p| p.bytes()).sum()
}
