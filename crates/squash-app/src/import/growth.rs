//! A grown source appended to what was imported of it. The stored messages and the source's
//! are compared a page and a chunk at a time, and what the source added is stored as it is read,
//! in the append's one transaction: memory holds a page and a few chunks, whatever the session's
//! size (the source is read once).

use std::sync::Arc;

use squash_core::{ConversationId, Message, MessageId};
use squash_formats::claude_code::DeferredMessages;
use squash_store::{
    ChunkSender, ConversationStore, ImportAppend, ImportRecord, ImportSource, MessageChunks,
};
use tokio::sync::oneshot;

use super::chunks::CHUNK_MESSAGES;
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
        let conversation = record.conversation_id;
        let (appended, messages, more) = match deferred {
            None => {
                let stored = StoredImports::new(self.store().as_ref(), conversation);
                let Some(old) = prefix_in_memory(stored, &conv.messages).await? else {
                    return Ok(None);
                };
                let tail = moved(conv.messages[old..].to_vec(), conversation);
                (tail.len(), tail, MessageChunks::none())
            }
            Some(deferred) => {
                let compared = compare_while_reading(
                    Arc::clone(self.store()),
                    conversation,
                    Arc::clone(deferred),
                );
                let Compared::Prefix {
                    old,
                    first_new,
                    sink,
                } = compared.await?
                else {
                    return Ok(None);
                };
                let appended = deferred.len() - old;
                let rest = appended - first_new.len();
                let more = if rest == 0 {
                    MessageChunks::none()
                } else {
                    let (sender, chunks) = MessageChunks::channel(rest, 1);
                    // The reader waits for it; had it stopped, the store reports the shortfall.
                    let _ = sink.send(sender);
                    chunks
                };
                (appended, moved(first_new, conversation), more)
            }
        };
        let append = ImportAppend {
            source: ImportSource {
                source_key: conv.source_key.clone(),
                format: conv.format,
                content_hash: conv.content_hash.clone(),
                metadata: conv.metadata.clone(),
            },
            conversation_id: conversation,
            expected_hash: record.source.content_hash.clone(),
            messages,
        };
        self.store().import_append_chunked(append, more).await?;
        Ok(Some(appended))
    }
}

/// How many of `messages` the stored ones are, if they are a prefix of them.
async fn prefix_in_memory(
    mut stored: StoredImports<'_>,
    messages: &[Message],
) -> Result<Option<usize>, ServiceError> {
    for (i, new) in messages.iter().enumerate() {
        match stored.next().await? {
            Some(old) if same_source(&old, new) => {}
            Some(_) => return Ok(None),
            None => return Ok(Some(i)),
        }
    }
    Ok(stored.next().await?.is_none().then_some(messages.len()))
}

/// What comparing a read source with the stored messages found.
enum Compared {
    NotAPrefix,
    /// The first `old` messages are the stored ones; `first_new` is the rest of the chunk that
    /// held the first new message. The reader then waits on `sink` for where to send the rest.
    Prefix {
        old: usize,
        first_new: Vec<Message>,
        sink: std::sync::mpsc::SyncSender<ChunkSender>,
    },
}

/// Reads the source on a thread of its own and compares its messages with the stored ones
/// there (the store's pages fetched from that thread); once they end, the thread sends the
/// rest of the source, chunk by chunk, wherever the sink it is given says. The chunks go from
/// the reader to the store with no hop between: what an append holds is what a first import
/// holds.
async fn compare_while_reading(
    store: Arc<dyn ConversationStore>,
    conversation: ConversationId,
    deferred: Arc<DeferredMessages>,
) -> Result<Compared, ServiceError> {
    let (verdict_tx, verdict) = oneshot::channel();
    let (sink, sink_rx) = std::sync::mpsc::sync_channel::<ChunkSender>(1);
    // The one sender goes with the verdict: the reader, waiting for the sink, must not hold it.
    let mut sink = Some(sink);
    let runtime = tokio::runtime::Handle::current();
    let chunk_bytes = store.import_chunk_bytes();
    tokio::task::spawn_blocking(move || {
        let mut stored = StoredImports::new(store.as_ref(), conversation);
        let mut verdict_tx = Some(verdict_tx);
        let say = |tx: &mut Option<oneshot::Sender<_>>, v: Result<Compared, ServiceError>| {
            if let Some(tx) = tx.take() {
                let _ = tx.send(v);
            }
        };
        let mut old = 0;
        let mut forward: Option<ChunkSender> = None;
        deferred.read_ahead(CHUNK_MESSAGES, chunk_bytes, |chunk| {
            if let Some(forward) = &forward {
                // The store stopped listening (it failed): so does the reading.
                return forward.send(
                    chunk
                        .map(|c| moved(c, conversation))
                        .map_err(|e| e.to_string()),
                );
            }
            let chunk = match chunk {
                Ok(chunk) => chunk,
                Err(e) => {
                    say(&mut verdict_tx, Err(source_failed(e)));
                    return false;
                }
            };
            let mut chunk = chunk.into_iter();
            while let Some(new) = chunk.next() {
                match runtime.block_on(stored.next()) {
                    Ok(Some(o)) if same_source(&o, &new) => old += 1,
                    Ok(Some(_)) => {
                        say(&mut verdict_tx, Ok(Compared::NotAPrefix));
                        return false;
                    }
                    Err(e) => {
                        say(&mut verdict_tx, Err(e));
                        return false;
                    }
                    Ok(None) => {
                        let mut first_new = vec![new];
                        first_new.extend(chunk);
                        if let Some(sink) = sink.take() {
                            say(
                                &mut verdict_tx,
                                Ok(Compared::Prefix {
                                    old,
                                    first_new,
                                    sink,
                                }),
                            );
                        }
                        // No sink when nothing is left to send, or the append was given up.
                        forward = sink_rx.recv().ok();
                        return forward.is_some();
                    }
                }
            }
            true
        });
        if let (true, Some(sink)) = (verdict_tx.is_some(), sink) {
            // The source ended while the stored messages were compared.
            let rest = runtime.block_on(stored.next());
            say(
                &mut verdict_tx,
                rest.map(|more| match more {
                    Some(_) => Compared::NotAPrefix,
                    None => Compared::Prefix {
                        old,
                        first_new: Vec::new(),
                        sink,
                    },
                }),
            );
        }
    });
    verdict
        .await
        .map_err(|_| ServiceError::Invalid("the reader of the source stopped".into()))?
}

fn source_failed(e: impl std::fmt::Display) -> ServiceError {
    ServiceError::Invalid(format!("the source of the import failed: {e}"))
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
