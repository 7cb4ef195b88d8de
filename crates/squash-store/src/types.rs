use std::collections::HashMap;

use crate::new_row::NewRow;

use squash_core::page::{PageAnchor, PageSpan, PageWindow};
use squash_core::{
    Conversation, ConversationId, LinkEdit, Message, MessageId, SquashOperation, Thread, ThreadId,
    ThreadOrigin, ToolRefs,
};
// The import vocabulary is the domain's; the store keeps its records.
pub use squash_core::{ImportRecord, ImportSource, ImportThread};

/// A thread with its ordered message ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadSnapshot {
    pub thread: Thread,
    pub links: Vec<MessageId>,
}

/// Consecutive messages of a thread
/// ([`ConversationStore::thread_range`](crate::ConversationStore::thread_range)).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MessageRange {
    /// The 0-based position of the first.
    pub start: u64,
    pub messages: Vec<Message>,
    /// Each message's estimated tokens, as stored with it.
    pub message_tokens: Vec<u64>,
}

/// A thread's header with the positions of some of its messages
/// ([`ConversationStore::thread_positions`](crate::ConversationStore::thread_positions)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadPositions {
    pub thread: Thread,
    pub positions: squash_core::KnownPositions,
}

/// What planning an operation on some messages reads
/// ([`ConversationStore::closure_positions`](crate::ConversationStore::closure_positions)): their
/// tool closure, and the current thread's header with the positions of all of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosurePositions {
    /// The tool references of the seed and of every message tied to it.
    pub refs: HashMap<MessageId, ToolRefs>,
    /// Read for the seed and the closure (`refs`' keys).
    pub positions: ThreadPositions,
}

/// A conversation as a listing shows it: with the size of its current thread. Serialized as
/// the conversation's fields plus `message_count` and `tokens`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ConversationSummary {
    #[serde(flatten)]
    pub conversation: Conversation,
    /// Messages in the current thread.
    pub message_count: u64,
    /// Estimated tokens of the current thread (`squash_core::tokens::message_tokens` summed).
    pub tokens: u64,
}

/// A conversation imported from a part of another conversation's source
/// ([`ConversationStore::import_parts_of`](crate::ConversationStore::import_parts_of)): its
/// import record and its size.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedPart {
    pub record: ImportRecord,
    pub summary: ConversationSummary,
}

/// Which way [`ConversationStore::switch_relative`](crate::ConversationStore::switch_relative)
/// moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Undo: to the thread the current one was derived from.
    Back,
    /// Redo: to the most recent thread derived from the current one.
    Forward,
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

/// A copy-on-write operation ready to store: the new thread, and the messages and provenance
/// records it introduces (one of each for an edit or a squash, one per step for a fit).
#[derive(Clone, Debug)]
pub struct Commit {
    pub conversation_id: ConversationId,
    pub base_thread_id: ThreadId,
    pub base_revision: u64,
    pub thread_id: ThreadId,
    pub origin: ThreadOrigin,
    pub links: NewLinks,
    /// The squash results or edited message; each must be new. A [`NewLinks::Edit`] takes at
    /// most one (the message its `replaced` position points to).
    pub messages: Vec<Message>,
    pub operations: Vec<SquashOperation>,
}

/// The links of a commit's new thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewLinks {
    /// The whole list, each id a message of the conversation (or the commit's message).
    List(Vec<MessageId>),
    /// The base thread's links, changed in place: the store copies them inside the database
    /// instead of receiving (and resolving) 10,000 ids for a change of a few. Positions are
    /// positions in the base thread at the commit's `base_revision`, which the revision check
    /// pins; the planners in `squash_core::thread_ops` make them.
    Edit(LinkEdit),
}

impl From<Vec<MessageId>> for NewLinks {
    fn from(links: Vec<MessageId>) -> NewLinks {
        NewLinks::List(links)
    }
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

/// A whole conversation to store in one transaction: project (created if needed),
/// conversation, every message, every thread with its links, every operation, the current
/// thread, and the import record.
#[derive(Clone, Debug)]
pub struct ImportBatch {
    pub source: ImportSource,
    pub project_path: String,
    pub conversation_id: ConversationId,
    pub display_name: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub updated_at: chrono::DateTime<chrono::Utc>,
    /// Every message of the conversation; each must name `conversation_id`.
    pub messages: Vec<Message>,
    /// Parents before the threads derived from them; at least one.
    pub threads: Vec<ImportThread>,
    pub current_thread_id: ThreadId,
    pub operations: Vec<SquashOperation>,
}

impl ImportBatch {
    /// A conversation of `messages`, in order, on one initial thread (revision 0), created now:
    /// what a generated or built conversation is stored as.
    pub fn single_thread(
        source: ImportSource,
        project_path: impl Into<String>,
        display_name: impl Into<String>,
        conversation_id: ConversationId,
        messages: Vec<Message>,
    ) -> ImportBatch {
        let now = chrono::Utc::now();
        let thread = ThreadId::new();
        ImportBatch {
            source,
            project_path: project_path.into(),
            conversation_id,
            display_name: display_name.into(),
            created_at: now,
            updated_at: now,
            threads: vec![ImportThread {
                id: thread,
                original_thread_id: None,
                origin: ThreadOrigin::Initial,
                revision: 0,
                links: messages.iter().map(|m| m.id).collect(),
                created_at: now,
                updated_at: now,
            }],
            messages,
            current_thread_id: thread,
            operations: Vec::new(),
        }
    }
}

/// New messages of a source that grew since it was imported, appended to the conversation's
/// current thread in one transaction.
#[derive(Clone, Debug)]
pub struct ImportAppend {
    pub source: ImportSource,
    pub conversation_id: ConversationId,
    /// The content hash the append was planned against; if the import record changed meanwhile
    /// (another import of the same source won), the append is refused with
    /// [`StoreError::Invalid`](crate::StoreError::Invalid) and nothing is written.
    pub expected_hash: String,
    pub messages: Vec<Message>,
}

/// What [`ConversationStore::import_conversation`](crate::ConversationStore::import_conversation)
/// did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportOutcome {
    /// The conversation was written. `replaced` names the conversation the source key pointed
    /// to before, when the source had been imported with other content.
    Imported {
        conversation_id: ConversationId,
        replaced: Option<ConversationId>,
    },
    /// The same source with the same content hash is already stored; nothing was written.
    AlreadyImported { conversation_id: ConversationId },
}

/// The messages of an import that arrive in chunks while its transaction is open (a streamed
/// read, whose messages are made as they are stored): the store checks and writes each chunk
/// in turn, in the one transaction of the import. `expected` is how many messages come: a
/// sender that stops early (or sends an error) fails the import and nothing is written.
pub struct MessageChunks {
    rx: Option<std::sync::mpsc::Receiver<std::result::Result<PreparedChunk, String>>>,
    /// A chunk made before the import began, given before any of `rx`.
    ready: Option<PreparedChunk>,
    expected: usize,
    received: usize,
}

/// The sending side of [`MessageChunks`].
pub struct ChunkSender {
    tx: std::sync::mpsc::SyncSender<std::result::Result<PreparedChunk, String>>,
}

impl ChunkSender {
    /// Sends the next chunk, or the error that stops the import; waits while `capacity`
    /// chunks are queued. `false` when the store no longer listens (it stopped the import).
    /// The chunk's rows are made here ([`NewRow`]), on the sender's thread.
    pub fn send(&self, chunk: std::result::Result<Vec<Message>, String>) -> bool {
        let prepared =
            chunk.and_then(|messages| PreparedChunk::of(messages).map_err(|e| e.to_string()));
        self.tx.send(prepared).is_ok()
    }
}

/// A chunk of an import's messages with their rows' computed columns, one row a message:
/// made by whoever makes the messages, so that the store's writer only writes them.
pub struct PreparedChunk {
    pub(crate) messages: Vec<Message>,
    pub(crate) rows: Vec<NewRow>,
}

impl PreparedChunk {
    /// `messages` with their rows made: CPU work (JSON, token estimates, search terms), for a
    /// thread where blocking is allowed.
    pub fn of(messages: Vec<Message>) -> crate::Result<PreparedChunk> {
        let rows = messages
            .iter()
            .map(NewRow::of)
            .collect::<crate::Result<Vec<_>>>()?;
        Ok(PreparedChunk { messages, rows })
    }

    pub fn len(&self) -> usize {
        self.messages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

impl MessageChunks {
    /// A channel for `expected` messages holding at most `capacity` chunks in flight.
    pub fn channel(expected: usize, capacity: usize) -> (ChunkSender, MessageChunks) {
        let (tx, rx) = std::sync::mpsc::sync_channel(capacity);
        let chunks = MessageChunks {
            rx: Some(rx),
            ready: None,
            expected,
            received: 0,
        };
        (ChunkSender { tx }, chunks)
    }

    /// No more messages than the batch holds.
    pub fn none() -> MessageChunks {
        MessageChunks {
            rx: None,
            ready: None,
            expected: 0,
            received: 0,
        }
    }

    /// The messages of one chunk made already, their rows with them (a small conversation
    /// made while the file before it was stored).
    pub fn ready(chunk: PreparedChunk) -> MessageChunks {
        MessageChunks {
            rx: None,
            expected: chunk.len(),
            ready: Some(chunk),
            received: 0,
        }
    }

    /// Whether messages may come besides the batch's own.
    pub(crate) fn is_streamed(&self) -> bool {
        self.rx.is_some() || self.ready.is_some()
    }

    /// The next chunk, `None` after the last; waits for the sender (call it where blocking
    /// is allowed).
    pub(crate) fn next_blocking(&mut self) -> crate::Result<Option<PreparedChunk>> {
        if let Some(chunk) = self.ready.take() {
            self.received += chunk.len();
            return Ok(Some(chunk));
        }
        let Some(rx) = &self.rx else {
            return Ok(None);
        };
        match rx.recv() {
            Ok(Ok(chunk)) => {
                self.received += chunk.messages.len();
                Ok(Some(chunk))
            }
            Ok(Err(e)) => Err(crate::StoreError::source_failed(e)),
            Err(_) if self.received == self.expected => Ok(None),
            Err(_) => Err(crate::StoreError::Invalid(format!(
                "the source of the import stopped after {} of {} messages",
                self.received, self.expected
            ))),
        }
    }

    /// [`next_blocking`](Self::next_blocking) from async code.
    pub(crate) async fn next(&mut self) -> crate::Result<Option<PreparedChunk>> {
        use tokio::runtime::{Handle, RuntimeFlavor};
        if self.rx.is_none() || self.ready.is_some() {
            return self.next_blocking();
        }
        match Handle::try_current().map(|h| h.runtime_flavor()) {
            Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(|| self.next_blocking()),
            _ => self.next_blocking(),
        }
    }
}

/// Which thread a page is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThreadRef {
    /// The conversation's current thread, whichever it is when the read runs.
    Current(ConversationId),
    Thread(ThreadId),
}

/// A thread's token sum and length at one revision, from an earlier read. A thread changes
/// only by appends, which bump its revision, so both still hold while the revision does. The
/// length lets a backend read a page's links in the statement that reads the header, checking
/// the header against this after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownTokens {
    pub thread: ThreadId,
    pub revision: u64,
    pub tokens: u64,
    pub message_count: u64,
}

/// A request for part of a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageRequest {
    pub thread: ThreadRef,
    pub window: PageWindow,
    /// Spares the sum over every link when it is still current.
    pub known_tokens: Option<KnownTokens>,
}

impl PageRequest {
    /// The known sum, if it is `thread`'s at its present revision. Both backends ask this,
    /// so the rule is written once.
    pub(crate) fn tokens_for(&self, thread: &Thread) -> Option<u64> {
        self.known_tokens
            .filter(|k| k.thread == thread.id && k.revision == thread.revision)
            .map(|k| k.tokens)
    }

    /// The 0-based link positions of the page, in a thread whose anchoring message (for
    /// `AroundMessage`) is at 0-based `message_position`.
    pub(crate) fn link_range(
        &self,
        total: u64,
        message_position: Option<u64>,
    ) -> Option<std::ops::RangeInclusive<u64>> {
        self.window
            .resolve(total, message_position.map(|p| p + 1))
            .map(|r| r.start() - 1..=r.end() - 1)
    }

    /// The message a page is anchored on, which the store must find in the thread first.
    pub(crate) fn anchor_message(&self) -> Option<MessageId> {
        match self.window.anchor {
            PageAnchor::AroundMessage { message } => Some(message),
            _ => None,
        }
    }
}

/// Part of a thread, read in one transaction: its header, the messages of the page and the
/// whole thread's tokens. The messages are parsed ([`Message`]) or as stored
/// ([`crate::StoredMessage`], for readers that send them on).
#[derive(Clone, Debug, PartialEq)]
pub struct ThreadPage<M = Message> {
    pub thread: Thread,
    /// Where the page lies, in 1-based positions.
    pub span: PageSpan,
    pub messages: Vec<M>,
    /// Each message's estimated tokens, as stored with it (`messages[i]`'s is
    /// `message_tokens[i]`): readers need not recount them.
    pub message_tokens: Vec<u64>,
    pub tokens: u64,
}
impl<M> ThreadPage<M> {
    /// The page of `thread` whose links are at the 0-based positions `range`
    /// ([`PageRequest::link_range`]), with their messages and their estimates, and the whole
    /// thread's `tokens`.
    pub(crate) fn at(
        thread: Thread,
        range: Option<std::ops::RangeInclusive<u64>>,
        (messages, message_tokens): (Vec<M>, Vec<u64>),
        tokens: u64,
    ) -> ThreadPage<M> {
        let span = PageSpan::of(
            range.map(|r| r.start() + 1..=r.end() + 1).as_ref(),
            thread.message_count,
        );
        ThreadPage {
            thread,
            span,
            messages,
            message_tokens,
            tokens,
        }
    }
}

/// A page with its thread's conversation, as one snapshot held them: what an answer that
/// carries a cache tag over both shows (the HTTP API's pages), read at once instead of the
/// conversation and the header first and the page after.
#[derive(Clone, Debug, PartialEq)]
pub struct ConversationPage<M = Message> {
    pub conversation: Conversation,
    pub page: ThreadPage<M>,
}

/// One message that matches a search: in its conversation's current thread.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SearchHit {
    pub conversation_id: ConversationId,
    pub conversation_name: String,
    pub message_id: MessageId,
    /// The message's position in the current thread, from 1 (as thread pages count).
    pub position: u64,
    pub role: squash_core::Role,
    /// A short excerpt of the message's searchable text around the match, with the matched
    /// words as parts of their own (`hit: true`): plain text, never markup.
    pub snippet: Vec<squash_core::search::SnippetPart>,
    /// Relevance, higher is better. Comparable between hits of one search on one backend only
    /// (SQLite's is the negated BM25 score, PostgreSQL's `ts_rank`).
    pub rank: f64,
}

/// A page of hits, best first, and how many hits there are in all.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SearchResults {
    pub hits: Vec<SearchHit>,
    /// How many messages match, counted up to the search's cap of 1,000 candidates.
    pub total: u64,
    /// More messages match than `total` counts; the hits are then the best of the newest
    /// 1,000 matches.
    pub more: bool,
}

/// A provenance record named in a hit: enough to `recall` it (by id) and to say what it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OperationRef {
    pub id: squash_core::SquashOperationId,
    /// `edit`, `manual`, `extract`, `mask`, `ai` or `ai_legacy`.
    pub kind: squash_core::operation::KindTag,
    /// The reference its result carries (`[ref N]`), by which `recall` finds its sources.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recall_ref: Option<squash_core::RecallRef>,
}

/// Where a message of a conversation's history is now
/// ([`ConversationStore::search_history`](crate::ConversationStore::search_history)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum HistoryPlace {
    /// In the conversation's current thread, at `position` (from 1, as thread pages count).
    InCurrentThread { position: u64 },
    /// Not in the current thread. `taken_out_by` is the newest operation whose sources hold
    /// it (a squash, an edit, a fit's mask or extract): its result stands for it. None when a
    /// delete took it out, or it lies on a branch that undo left.
    OutOfThread { taken_out_by: Option<OperationRef> },
}

/// One message of a conversation's whole history that matches a search.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HistoryHit {
    pub message_id: MessageId,
    pub role: squash_core::Role,
    /// An excerpt of the message's searchable text around the match, the matched words as
    /// parts of their own (`hit: true`): plain text, never markup.
    pub snippet: Vec<squash_core::search::SnippetPart>,
    /// Relevance, higher is better; comparable between hits of one search on one backend only.
    pub rank: f64,
    pub place: HistoryPlace,
    /// The operation that made this message, when a squash, edit or fit did (the message's
    /// `squash_operation_id`): its sources are the originals behind it.
    pub result_of: Option<OperationRef>,
}

/// A page of a history search, best first, and how many hits there are in all.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HistoryResults {
    pub hits: Vec<HistoryHit>,
    /// The hits skipped before this page.
    pub offset: u64,
    /// How many messages match, counted up to the search's cap of 1,000 candidates.
    pub total: u64,
    /// More messages match than `total` counts; the hits are then the best of the newest
    /// 1,000 matches.
    pub more: bool,
}

/// What `recall` needs of the operation behind a reference, without reading its sources (a
/// digest may stand for a hundred thousand messages): read them a page at a time
/// ([`ConversationStore::operation_source_ids`](crate::ConversationStore::operation_source_ids)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RecallTarget {
    pub id: squash_core::SquashOperationId,
    pub kind: squash_core::operation::KindTag,
    /// How many sources it has.
    pub sources: u64,
}
