//! The checks both backends run on what they are asked to write, written once: the same bad
//! input gets the same answer (variant and text) from SQLite and PostgreSQL. The backends only
//! add what needs the database (a revision check, a unique key).

use std::collections::{HashMap, HashSet};
use std::fmt;

use squash_core::{ConversationId, ImportThread, Message, MessageId, SquashOperation, ThreadId};

use crate::error::{Entity, StoreError};
use crate::types::{Commit, ImportAppend, ImportBatch, MessageChunks, NewLinks};
use crate::Result;

/// What a commit says about itself, before any row is read: its new message and its operation
/// must belong to the commit's conversation.
pub(crate) fn commit_shape(commit: &Commit) -> Result<()> {
    for m in &commit.messages {
        belongs(
            Entity::Message,
            m.id,
            m.conversation_id,
            commit.conversation_id,
        )?;
    }
    for op in &commit.operations {
        belongs(
            Entity::Operation,
            op.id,
            op.conversation_id,
            commit.conversation_id,
        )?;
    }
    let mut ids = HashSet::new();
    if let Some(m) = commit.messages.iter().find(|m| !ids.insert(m.id)) {
        return Err(StoreError::Invalid(format!(
            "message {} is listed twice in the commit",
            m.id
        )));
    }
    if matches!(commit.links, NewLinks::Edit(_)) && commit.messages.len() > 1 {
        return Err(StoreError::Invalid(
            "an edit of the base thread's links introduces at most one message".into(),
        ));
    }
    Ok(())
}

/// The new thread's link count, once the base thread's count is known (inside the
/// transaction): an edit must fit its base, and a replaced position needs the commit's message.
pub(crate) fn new_link_count(commit: &Commit, base_count: u64) -> Result<u64> {
    match &commit.links {
        NewLinks::List(links) => Ok(links.len() as u64),
        NewLinks::Edit(edit) => Ok(edit.check(base_count, !commit.messages.is_empty())?),
    }
}

/// The checks of an import whose messages come in chunks: what the batch says about itself
/// first, each chunk as it comes (keeping only the ids), threads and operations at the end.
pub(crate) struct ImportCheck {
    conversation: ConversationId,
    imported: HashSet<MessageId>,
}

impl ImportCheck {
    /// The checks of `batch`, whose messages are its own and then those of `more`: done
    /// whole now when `more` brings none.
    pub(crate) fn before(batch: &ImportBatch, more: &MessageChunks) -> Result<ImportCheck> {
        let check = ImportCheck::start(batch)?;
        if !more.is_streamed() {
            check.finish(batch)?;
        }
        Ok(check)
    }

    pub(crate) fn start(batch: &ImportBatch) -> Result<ImportCheck> {
        if batch.threads.is_empty() {
            return Err(StoreError::Invalid(
                "an imported conversation needs at least one thread".into(),
            ));
        }
        ImportCheck::of(batch.conversation_id, &batch.messages)
    }

    /// The checks of the append of a grown source: its messages, then each chunk's.
    pub(crate) fn appending(append: &ImportAppend) -> Result<ImportCheck> {
        ImportCheck::of(append.conversation_id, &append.messages)
    }

    /// The checks of messages of `conversation` that begin with `first`.
    fn of(conversation: ConversationId, first: &[Message]) -> Result<ImportCheck> {
        let mut check = ImportCheck {
            conversation,
            imported: HashSet::with_capacity(first.len()),
        };
        check.messages(first)?;
        Ok(check)
    }

    pub(crate) fn messages(&mut self, messages: &[Message]) -> Result<()> {
        for m in messages {
            belongs(Entity::Message, m.id, m.conversation_id, self.conversation)?;
            if !self.imported.insert(m.id) {
                return Err(StoreError::Invalid(format!(
                    "message {} is listed twice in the import",
                    m.id
                )));
            }
        }
        Ok(())
    }

    pub(crate) fn finish(&self, batch: &ImportBatch) -> Result<()> {
        let imported = &self.imported;
        let mut threads = HashSet::with_capacity(batch.threads.len());
        for t in &batch.threads {
            if let Some(o) = t.original_thread_id.filter(|o| !threads.contains(o)) {
                return Err(StoreError::Invalid(format!(
                    "thread {} derives from {o}, which is not listed before it",
                    t.id
                )));
            }
            if !threads.insert(t.id) {
                return Err(StoreError::Invalid(format!(
                    "thread {} is listed twice in the import",
                    t.id
                )));
            }
            if let Some(id) = t.links.iter().find(|id| !imported.contains(id)) {
                return Err(StoreError::Invalid(format!(
                    "thread {} links message {id}, which is not imported",
                    t.id
                )));
            }
        }
        if !threads.contains(&batch.current_thread_id) {
            return Err(StoreError::Invalid(format!(
                "the current thread {} is not among the imported threads",
                batch.current_thread_id
            )));
        }
        operations(&batch.operations, batch.conversation_id, imported)
    }
}

/// The keys an imported thread is written with, from the keys of what is written before it:
/// its original's (a thread listed before it) and its links' messages. [`ImportCheck::finish`]
/// refuses a batch where one is missing, with these words.
pub(crate) fn thread_keys(
    thread: &ImportThread,
    thread_keys: &HashMap<ThreadId, i64>,
    message_keys: &HashMap<MessageId, i64>,
) -> Result<(Option<i64>, Vec<i64>)> {
    let original = match thread.original_thread_id {
        None => None,
        Some(o) => Some(*thread_keys.get(&o).ok_or_else(|| {
            StoreError::Invalid(format!(
                "thread {} derives from {o}, which is not listed before it",
                thread.id
            ))
        })?),
    };
    let links = thread
        .links
        .iter()
        .map(|id| {
            message_keys.get(id).copied().ok_or_else(|| {
                StoreError::Invalid(format!(
                    "thread {} links message {id}, which is not imported",
                    thread.id
                ))
            })
        })
        .collect::<Result<_>>()?;
    Ok((original, links))
}

/// That the import record an append found, `existing` (its content hash and conversation), is
/// still the one the append was made against: a record replaced or moved meanwhile means the
/// source must be imported again.
pub(crate) fn append_record(
    append: &ImportAppend,
    existing: Option<(String, ConversationId)>,
) -> Result<()> {
    match existing {
        Some((hash, id)) if id == append.conversation_id && hash == append.expected_hash => Ok(()),
        _ => Err(StoreError::Invalid(format!(
            "the import record of {} changed meanwhile; import again",
            append.source.source_key
        ))),
    }
}

/// A link (or an operation source) naming a message of another conversation, or none.
pub(crate) fn not_in_conversation(message: MessageId, conversation: ConversationId) -> StoreError {
    StoreError::Invalid(format!(
        "message {message} is not in conversation {conversation}"
    ))
}

fn operations(
    operations: &[SquashOperation],
    conversation: ConversationId,
    imported: &HashSet<MessageId>,
) -> Result<()> {
    for op in operations {
        belongs(Entity::Operation, op.id, op.conversation_id, conversation)?;
        if !imported.contains(&op.result_message_id) {
            return Err(StoreError::Invalid(format!(
                "operation {} results in message {}, which is not imported",
                op.id, op.result_message_id
            )));
        }
    }
    Ok(())
}

fn belongs(
    entity: Entity,
    id: impl fmt::Display,
    owner: ConversationId,
    conversation: ConversationId,
) -> Result<()> {
    if owner == conversation {
        return Ok(());
    }
    Err(StoreError::Invalid(format!(
        "{entity} {id} belongs to conversation {owner}, not {conversation}"
    )))
}
