//! A grown source appended to what was imported of it. The stored messages and the source's
//! are compared a page and a chunk at a time, and what the source added is stored as it is read,
//! in the append's one transaction: memory holds a page and a chunk, whatever the session's size
//! (the source is read once).

use std::sync::Arc;

use squash_core::{ConversationId, Message, MessageId};
use squash_formats::claude_code::DeferredMessages;
use squash_store::{ConversationStore, ImportAppend, ImportRecord, ImportSource, MessageChunks};
use tokio::sync::mpsc;

use super::store::{CHUNK_BYTES, CHUNK_MESSAGES};
use super::{source_id, ImportedConversation};
use crate::conversations::ConversationService;
use crate::error::ServiceError;

/// Stored messages read per page when a grown source is compared with them.
const STORED_PAGE: u32 = 1_000;

impl ConversationService {
    /// Appends what a grown source added, if the conversation imported before is a prefix of
    /// the new one (same source ids, roles and content, in order): how many messages it
    /// appended. `None` when it is not a prefix; then nothing was written. `deferred` holds the
    /// source's messages when they are made as they are read, else `conv.messages` does.
    pub(super) async fn append_growth(
        &self,
        record: &ImportRecord,
        conv: &ImportedConversation,
        deferred: Option<&Arc<DeferredMessages>>,
    ) -> Result<Option<usize>, ServiceError> {
        let total = deferred.map_or(conv.messages.len(), |d| d.len());
        let mut incoming = match deferred {
            Some(d) => Incoming::read(Arc::clone(d)),
            None => Incoming::Memory(conv.messages.chunks(CHUNK_MESSAGES)),
        };
        let mut stored = StoredImports::new(self.store().as_ref(), record.conversation_id);
        let mut old = 0;
        // The first message the stored ones do not hold, and the rest of its chunk.
        let mut first_new: Vec<Message> = Vec::new();
        'compare: while let Some(chunk) = incoming.next().await? {
            let mut chunk = chunk.into_iter();
            while let Some(new) = chunk.next() {
                match stored.next().await? {
                    Some(old_one) if same_source(&old_one, &new) => old += 1,
                    Some(_) => return Ok(None),
                    None => {
                        first_new.push(new);
                        first_new.extend(chunk);
                        break 'compare;
                    }
                }
            }
        }
        if first_new.is_empty() && stored.next().await?.is_some() {
            // The source holds fewer messages than were imported of it.
            return Ok(None);
        }
        let mut append = ImportAppend {
            source: ImportSource {
                source_key: conv.source_key.clone(),
                format: conv.format,
                content_hash: conv.content_hash.clone(),
                metadata: conv.metadata.clone(),
            },
            conversation_id: record.conversation_id,
            expected_hash: record.source.content_hash.clone(),
            messages: moved(first_new, record.conversation_id),
        };
        let more = match incoming {
            Incoming::Memory(rest) => {
                append.messages.extend(moved(
                    rest.flatten().cloned().collect(),
                    record.conversation_id,
                ));
                MessageChunks::none()
            }
            Incoming::Read { rx, .. } => {
                let expected = total - old - append.messages.len();
                forward(rx, expected, record.conversation_id)
            }
        };
        self.store().import_append_chunked(append, more).await?;
        Ok(Some(total - old))
    }
}

/// Whether a stored message is the imported form of a source's message.
fn same_source(stored: &Message, new: &Message) -> bool {
    source_id(stored) == source_id(new) && stored.role == new.role && stored.content == new.content
}

/// `messages` as messages of `conversation` (the one the source was imported into).
fn moved(mut messages: Vec<Message>, conversation: ConversationId) -> Vec<Message> {
    for m in &mut messages {
        m.conversation_id = conversation;
    }
    messages
}

/// The source's messages, a chunk at a time.
enum Incoming<'a> {
    /// Made in memory by the parser.
    Memory(std::slice::Chunks<'a, Message>),
    /// Made from the file on a thread of their own as they are read, one chunk ahead.
    Read {
        rx: mpsc::Receiver<Result<Vec<Message>, String>>,
        _reader: tokio::task::JoinHandle<()>,
    },
}

impl Incoming<'_> {
    fn read(deferred: Arc<DeferredMessages>) -> Incoming<'static> {
        let (tx, rx) = mpsc::channel(1);
        let reader = tokio::task::spawn_blocking(move || {
            // A send fails once nobody listens (the comparison ended): reading stops.
            deferred.read_ahead(CHUNK_MESSAGES, CHUNK_BYTES, |chunk| {
                tx.blocking_send(chunk.map_err(|e| e.to_string())).is_ok()
            });
        });
        Incoming::Read {
            rx,
            _reader: reader,
        }
    }

    async fn next(&mut self) -> Result<Option<Vec<Message>>, ServiceError> {
        match self {
            Incoming::Memory(chunks) => Ok(chunks.next().map(<[Message]>::to_vec)),
            Incoming::Read { rx, .. } => rx.recv().await.transpose().map_err(|e| {
                ServiceError::Invalid(format!("the source of the import failed: {e}"))
            }),
        }
    }
}

/// The rest of a read source's chunks, sent on to the store as they come (their rows made on
/// the way, on a thread of their own).
fn forward(
    mut rx: mpsc::Receiver<Result<Vec<Message>, String>>,
    expected: usize,
    conversation: ConversationId,
) -> MessageChunks {
    let (sender, chunks) = MessageChunks::channel(expected, 1);
    tokio::task::spawn_blocking(move || {
        while let Some(chunk) = rx.blocking_recv() {
            // The store stopped listening (it failed): so does the reading.
            if !sender.send(chunk.map(|c| moved(c, conversation))) {
                break;
            }
        }
    });
    chunks
}

/// The conversation's stored messages that came from its source (those with a source id), in
/// creation order, read a page at a time.
struct StoredImports<'a> {
    store: &'a dyn ConversationStore,
    conversation: ConversationId,
    page: std::vec::IntoIter<Message>,
    after: Option<MessageId>,
    last_page: bool,
}

impl<'a> StoredImports<'a> {
    fn new(store: &'a dyn ConversationStore, conversation: ConversationId) -> StoredImports<'a> {
        StoredImports {
            store,
            conversation,
            page: Vec::new().into_iter(),
            after: None,
            last_page: false,
        }
    }

    async fn next(&mut self) -> Result<Option<Message>, ServiceError> {
        loop {
            if let Some(m) = self.page.find(|m| source_id(m).is_some()) {
                return Ok(Some(m));
            }
            if self.last_page {
                return Ok(None);
            }
            let page = self
                .store
                .conversation_messages(self.conversation, self.after, STORED_PAGE)
                .await?;
            self.last_page = page.len() < STORED_PAGE as usize;
            self.after = page.last().map(|m| m.id).or(self.after);
            self.page = page.into_iter();
        }
    }
}
