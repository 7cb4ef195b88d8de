//! Storage for Squash: one [`ConversationStore`] trait, one implementation per backend.
//!
//! * [`sqlite::SqliteStore`] — the embedded default: a file, WAL, one writer connection.
//! * [`postgres::PostgresStore`] — a shared server for teams, selected by a `postgres://` URL.
//!
//! Both keep the spec's logical tables (projects, conversations, threads, thread_messages,
//! messages, squash_operations). Physically, ids are UUIDs at the edge and integer keys inside,
//! and a derived thread shares the links it keeps with the thread that stored them: a
//! copy-on-write costs what it changes, not the thread's length. How a thread's links are
//! stored (segments plus a tail), read and migrated is described in `segments.rs`, written
//! there once for both backends. Every write is one transaction; an operation
//! commits only if the thread it was computed from is still current at the same revision
//! ([`StoreError::Conflict`]).

mod backfill;
mod changes;
mod check;
mod error;
mod new_row;
pub mod postgres;
mod provenance;
mod reader;
mod search;
mod segments;
pub mod sqlite;
mod stored_message;
mod tokens;
mod types;

use std::collections::HashMap;

use async_trait::async_trait;
use squash_core::search::SearchQuery;
use squash_core::{
    Conversation, ConversationId, Message, MessageId, Project, ProjectId, RecallRef,
    SquashOperation, SquashOperationId, Thread, ThreadId, ToolRefs,
};

pub use changes::{Changes, CHANNEL as CHANGES_CHANNEL};
pub use error::{Entity, StoreError};
pub use reader::ThreadReader;
pub use search::{MAX_CANDIDATES as MAX_SEARCH_CANDIDATES, MAX_SEARCH_LIMIT};
/// The copy-on-write edit a commit carries; defined (and validated) by the domain.
pub use squash_core::LinkEdit;
pub use stored_message::StoredMessage;
pub use types::{
    Appended, ChunkSender, ClosurePositions, Commit, ConversationPage, ConversationSummary,
    Direction, HistoryHit, HistoryPlace, HistoryResults, ImportAppend, ImportBatch, ImportOutcome,
    ImportRecord, ImportSource, ImportThread, ImportedPart, KnownTokens, MessageChunks,
    MessageRange, NewLinks, OperationRef, PageRequest, PreparedChunk, RecallTarget, SearchHit,
    SearchResults, StoreStats, ThreadPage, ThreadPositions, ThreadRef, ThreadSnapshot,
};

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Everything the services need from storage. Implementations must make each method that
/// writes a single transaction.
#[async_trait]
pub trait ConversationStore: Send + Sync {
    /// The backend's name, for diagnostics ("sqlite", "postgres").
    fn backend(&self) -> &'static str;

    /// The conversations that committed writes change from now on: this process's on SQLite,
    /// every process's on PostgreSQL (see [`Changes`]; the first call there opens the
    /// listening connection and returns once it listens).
    async fn changes(&self) -> Result<Changes>;

    /// The project for `path`, created on first use.
    async fn ensure_project(&self, path: &str) -> Result<Project>;
    async fn projects(&self) -> Result<Vec<Project>>;
    async fn project(&self, id: ProjectId) -> Result<Project>;

    /// Creates a conversation with an empty initial thread that is current.
    async fn create_conversation(&self, project: ProjectId, name: &str) -> Result<Conversation>;
    async fn conversation(&self, id: ConversationId) -> Result<Conversation>;
    /// Conversations, most recently updated first; all projects when `project` is `None`.
    async fn conversations(&self, project: Option<ProjectId>) -> Result<Vec<Conversation>>;
    /// [`conversations`](Self::conversations) with each current thread's message count and
    /// estimated tokens: one statement, whatever the threads' lengths.
    async fn conversation_summaries(
        &self,
        project: Option<ProjectId>,
    ) -> Result<Vec<ConversationSummary>>;
    async fn rename_conversation(&self, id: ConversationId, name: &str) -> Result<Conversation>;
    /// Removes the conversation with all its threads, messages and operations.
    async fn delete_conversation(&self, id: ConversationId) -> Result<()>;

    /// Stores `message` and appends it to its conversation's current thread in place (no copy).
    /// A reply (`reply_to` set) is appended only if the current thread holds the message it
    /// answers: when another writer switched threads meanwhile (undo, a squash that took the
    /// question away), [`StoreError::Conflict`] and nothing is written.
    async fn append(&self, message: &Message) -> Result<Appended>;
    /// Stores a new thread derived from `commit.base_thread_id` (with its new message and
    /// operation, if any) and makes it current — only if the base is still current at
    /// `commit.base_revision`; otherwise [`StoreError::Conflict`] and nothing is written.
    async fn commit(&self, commit: &Commit) -> Result<Thread>;
    /// Makes `to` the current thread, if the current one is still `expected`.
    async fn switch_thread(
        &self,
        conversation: ConversationId,
        to: ThreadId,
        expected: ThreadId,
    ) -> Result<Conversation>;

    /// Undo or redo in one write transaction: the target is found from the thread that is
    /// current inside it, so no other writer can slip in between. `None` when there is no
    /// thread that way (nothing is written).
    async fn switch_relative(
        &self,
        conversation: ConversationId,
        direction: Direction,
    ) -> Result<Option<Conversation>>;

    /// A thread with its links, read in one snapshot.
    async fn snapshot(&self, thread: ThreadRef) -> Result<ThreadSnapshot>;
    async fn thread(&self, id: ThreadId) -> Result<ThreadSnapshot> {
        self.snapshot(ThreadRef::Thread(id)).await
    }
    async fn current_thread(&self, conversation: ConversationId) -> Result<ThreadSnapshot> {
        self.snapshot(ThreadRef::Current(conversation)).await
    }
    /// All threads of a conversation, oldest first.
    async fn threads(&self, conversation: ConversationId) -> Result<Vec<Thread>>;
    /// A thread without its links: what undo, redo and loading need, at the cost of one row
    /// instead of 10,000.
    async fn header(&self, thread: ThreadRef) -> Result<Thread>;
    async fn thread_header(&self, id: ThreadId) -> Result<Thread> {
        self.header(ThreadRef::Thread(id)).await
    }
    /// The conversation's current thread, without its links.
    async fn current_thread_header(&self, conversation: ConversationId) -> Result<Thread> {
        self.header(ThreadRef::Current(conversation)).await
    }
    /// The estimated tokens of a thread: the sum of the estimates stored with its messages
    /// (`squash_core::tokens::message_tokens`), one statement whatever its length.
    async fn thread_tokens(&self, thread: ThreadId) -> Result<u64>;
    /// The most recent thread derived from `thread` (redo's target), if any.
    async fn latest_derived_thread(&self, thread: ThreadId) -> Result<Option<Thread>>;

    async fn message(&self, id: MessageId) -> Result<Message>;
    /// The messages with `ids`, in the order given; [`StoreError::NotFound`] if one is missing.
    async fn messages(&self, ids: &[MessageId]) -> Result<Vec<Message>>;
    /// Part of a thread ([`PageRequest`]) with its header and token sum, in one transaction.
    /// [`StoreError::NotFound`] for a missing thread or conversation, and for an anchoring
    /// message that is not in the thread.
    async fn thread_page(&self, request: PageRequest) -> Result<ThreadPage>;
    /// [`thread_page`](Self::thread_page) with each message as stored ([`StoredMessage`]):
    /// its JSON columns unparsed, for readers that send the messages on as JSON; with the
    /// thread's conversation as the same snapshot holds it (one read for a tagged answer).
    async fn thread_page_stored(
        &self,
        request: PageRequest,
    ) -> Result<ConversationPage<StoredMessage>>;
    /// The messages at 0-based positions `start..start + limit` of a thread (clipped to its
    /// length), in order, with their stored token estimates: one range read, whatever the
    /// thread's length. A thread's links below its length never change, so reading one range
    /// after another ([`ThreadReader`]) gives the thread as it was when the reading began, in
    /// memory bounded by `limit`. [`StoreError::NotFound`] for a missing thread.
    async fn thread_range(&self, thread: ThreadId, start: u64, limit: u32) -> Result<MessageRange>;
    /// The positions of `ids` in a thread, with its header, in one transaction: two index
    /// probes per message whatever the thread's length (see `segments`). What planning a squash,
    /// edit or delete needs instead of the whole thread; an id it does not hold has no position.
    /// [`StoreError::NotFound`] for a missing thread or conversation.
    async fn thread_positions(
        &self,
        thread: ThreadRef,
        ids: &[MessageId],
    ) -> Result<ThreadPositions>;
    /// The messages of a thread, in thread order.
    async fn thread_messages(&self, thread: ThreadId) -> Result<Vec<Message>>;
    /// At most `limit` of the messages ever stored for the conversation, in creation order,
    /// those after `after` (from the first when `None`): its whole history a page at a time,
    /// in memory bounded by the page. After an id the conversation does not hold, nothing.
    async fn conversation_messages(
        &self,
        conversation: ConversationId,
        after: Option<MessageId>,
        limit: u32,
    ) -> Result<Vec<Message>>;
    /// Every message ever stored for the conversation, in creation order, in memory.
    async fn all_messages(&self, conversation: ConversationId) -> Result<Vec<Message>> {
        const PAGE: u32 = 10_000;
        let mut all: Vec<Message> = Vec::new();
        loop {
            let after = all.last().map(|m| m.id);
            let page = self
                .conversation_messages(conversation, after, PAGE)
                .await?;
            let last = page.len() < PAGE as usize;
            all.extend(page);
            if last {
                return Ok(all);
            }
        }
    }
    /// Ids of the conversation's messages whose id starts with `prefix` (hex, dashes optional).
    async fn message_ids_with_prefix(
        &self,
        conversation: Option<ConversationId>,
        prefix: &str,
    ) -> Result<Vec<MessageId>>;
    /// Ids of conversations whose id starts with `prefix`.
    async fn conversation_ids_with_prefix(&self, prefix: &str) -> Result<Vec<ConversationId>>;

    /// The tool references of `seed` and of every message of the conversation linked to them,
    /// directly or through a chain, by a shared tool-use id.
    async fn tool_refs_closure(
        &self,
        conversation: ConversationId,
        seed: &[MessageId],
    ) -> Result<HashMap<MessageId, ToolRefs>>;

    /// [`Self::tool_refs_closure`] of `seed`, and [`Self::thread_positions`] of the
    /// conversation's current thread for `seed` and that closure: what planning a squash, edit or
    /// delete reads, in one call so that a backend with round trips can make it one (PostgreSQL:
    /// one statement, one snapshot). Errors as those two calls, in that order.
    async fn closure_positions(
        &self,
        conversation: ConversationId,
        seed: &[MessageId],
    ) -> Result<ClosurePositions> {
        let refs = self.tool_refs_closure(conversation, seed).await?;
        // The closure holds the seed (a seed it lacks is an error above).
        let asked: Vec<MessageId> = refs.keys().copied().collect();
        let positions = self
            .thread_positions(ThreadRef::Current(conversation), &asked)
            .await?;
        Ok(ClosurePositions { refs, positions })
    }

    async fn operation(&self, id: SquashOperationId) -> Result<SquashOperation>;
    async fn operation_ids_with_prefix(&self, prefix: &str) -> Result<Vec<SquashOperationId>>;
    /// The conversation's operations, oldest first.
    async fn operations(&self, conversation: ConversationId) -> Result<Vec<SquashOperation>>;
    /// The operation of `conversation` whose result carries the recall reference `recall`, as
    /// a recall target: its id, kind and how many sources it has.
    async fn recall_target(
        &self,
        conversation: ConversationId,
        recall: RecallRef,
    ) -> Result<RecallTarget>;
    /// Sources `offset..offset + limit` of operation `id`, in conversation order (fewer at the
    /// end).
    async fn operation_source_ids(
        &self,
        id: SquashOperationId,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<MessageId>>;
    /// The first recall reference above every one `conversation`'s operations carry.
    async fn next_recall_ref(&self, conversation: ConversationId) -> Result<RecallRef>;

    /// Row counts and size, for diagnostics and the benchmarks.
    async fn stats(&self) -> Result<StoreStats>;

    /// Bytes of source a chunk of a streamed import's messages should come from: two or three
    /// chunks are in memory at once (as messages, as rows), against what a chunk costs this
    /// store to write (on PostgreSQL a few round trips each).
    fn import_chunk_bytes(&self) -> u64;

    /// Stores a whole imported conversation in one transaction: the project (created if
    /// needed), the conversation, its messages, threads with their links, operations, the
    /// current thread and the import record. If the source key is already recorded with the same
    /// content hash, nothing is written ([`ImportOutcome::AlreadyImported`]); with another hash
    /// the record moves to the new conversation (the old one stays).
    async fn import_conversation(&self, batch: ImportBatch) -> Result<ImportOutcome> {
        self.import_conversation_chunked(batch, MessageChunks::none())
            .await
    }
    /// Stores each of `batches` (its messages, then those of its chunks — made already, as
    /// [`MessageChunks::ready`]) as [`import_conversation_chunked`](Self::import_conversation_chunked)
    /// does, all in one transaction: all or none. For many small conversations (a session's
    /// sub-agent runs), which would each cost a transaction's commit more than their rows; the
    /// outcomes are in the order of the batches. After a failure nothing of any is stored.
    async fn import_conversations(
        &self,
        batches: Vec<(ImportBatch, MessageChunks)>,
    ) -> Result<Vec<ImportOutcome>>;
    /// [`import_conversation`](Self::import_conversation) whose messages are those of the
    /// batch followed by those of `more`, which arrive while the transaction is open: memory
    /// holds a chunk at a time, whatever the size of the conversation. Every chunk is checked
    /// as it comes; threads and operations once all messages are in. Any failure (of the
    /// store, of a check, or of the source) rolls the whole conversation back.
    async fn import_conversation_chunked(
        &self,
        batch: ImportBatch,
        more: MessageChunks,
    ) -> Result<ImportOutcome>;
    /// Appends the new messages of a source that grew to its conversation's current thread and
    /// updates the import record — one transaction, and only if the record still has
    /// `expected_hash`. Returns the current thread's revision after the append.
    async fn import_append(&self, append: ImportAppend) -> Result<Appended> {
        self.import_append_chunked(append, MessageChunks::none())
            .await
    }
    /// [`import_append`](Self::import_append) whose messages are those of the append followed
    /// by those of `more`, which arrive while the transaction is open (memory holds a chunk at
    /// a time). Any failure, of the source's too, rolls the whole append back.
    async fn import_append_chunked(
        &self,
        append: ImportAppend,
        more: MessageChunks,
    ) -> Result<Appended>;
    /// The import record of a source key, if it was imported.
    async fn import_record(&self, source_key: &str) -> Result<Option<ImportRecord>>;
    /// The import records that point to a conversation (most recent first).
    async fn import_records_of(&self, conversation: ConversationId) -> Result<Vec<ImportRecord>>;
    /// The conversations imported from parts of `conversation`'s sources: each import record
    /// whose source key is one of the conversation's own followed by `/` (Claude Code's
    /// sub-agent runs, `claude-code:<session>/sidechain:<id>`), with its conversation's current
    /// size; in import order, empty for a conversation that was not imported.
    async fn import_parts_of(&self, conversation: ConversationId) -> Result<Vec<ImportedPart>>;

    /// Full-text search over the messages of the conversations' **current threads** (of one
    /// conversation when `conversation` is given): a message that an edit, delete or squash
    /// took out of the current thread is no hit, though it is still stored (undo brings it
    /// back, and with it its hits). At most `limit` hits, best first, and the total.
    async fn search(
        &self,
        query: &SearchQuery,
        conversation: Option<ConversationId>,
        limit: u32,
    ) -> Result<SearchResults>;

    /// Full-text search over **every** message ever stored in `conversation`: the current
    /// thread's, and those an edit, delete, squash or fit took out of it (or that lie on a
    /// branch undo left). Each hit says where the message is now ([`HistoryPlace`]: its
    /// position in the current thread, or the newest operation whose sources hold it) and,
    /// for a squash, edit or fit result, the operation that made it. The newest
    /// `MAX_SEARCH_CANDIDATES` matches are ranked; the hits are `limit` (1 to
    /// [`MAX_SEARCH_LIMIT`]) of them from `offset` on, best first, with the total.
    /// [`StoreError::NotFound`] for an unknown conversation, [`StoreError::Invalid`] for a
    /// limit or offset out of range.
    async fn search_history(
        &self,
        query: &SearchQuery,
        conversation: ConversationId,
        limit: u32,
        offset: u32,
    ) -> Result<HistoryResults>;
}

/// Opens the store a URL names: `postgres://…`/`postgresql://…` for PostgreSQL, `sqlite://PATH`
/// or a plain path for SQLite. Runs pending migrations.
pub async fn open(url: &str) -> Result<Box<dyn ConversationStore>> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Box::new(postgres::PostgresStore::connect(url).await?))
    } else {
        let path = url.strip_prefix("sqlite://").unwrap_or(url);
        Ok(Box::new(sqlite::SqliteStore::open(path)?))
    }
}

pub(crate) fn normalize_prefix(prefix: &str) -> Option<String> {
    let hex: String = prefix.chars().filter(|c| *c != '-').collect();
    if hex.is_empty() || hex.len() > 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    Some(hex.to_ascii_lowercase())
}

pub(crate) type RefsByMessage = HashMap<MessageId, ToolRefs>;
