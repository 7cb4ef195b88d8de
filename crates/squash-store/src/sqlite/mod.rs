//! The embedded default backend: a SQLite file in WAL mode, split by concern like `postgres/`:
//! [`conversations`], [`read`], [`write`] (appends and switches), [`commit`] (copy-on-write,
//! with the SQL of `crate::segments` in [`links`]), [`tools`] and [`import`]. The checks shared with
//! PostgreSQL are in `crate::check`.
//!
//! Every call is one short transaction on a local file. On a multi-threaded tokio runtime it
//! runs on the calling thread (`block_in_place`): the hop onto a blocking thread and back cost
//! more than an append itself (see BENCHMARKS.md).

mod backfill;
mod commit;
mod conn;
mod conversations;
mod fetch;
mod import;
mod links;
mod packed;
mod page;
mod parts;
mod read;
mod rows;
mod search;
mod tokens;
mod tools;
mod write;

use std::collections::HashMap;
use std::path::Path;

use async_trait::async_trait;
use rusqlite::Transaction;
use rusqlite_migration::{Migrations, M};
use squash_core::search::SearchQuery;
use squash_core::{
    Conversation, ConversationId, Message, MessageId, Project, ProjectId, RecallRef,
    SquashOperation, SquashOperationId, Thread, ThreadId, ToolRefs,
};
use tokio::runtime::{Handle, RuntimeFlavor};

use crate::error::{Entity, StoreError};
use crate::types::{
    Appended, ClosurePositions, Commit, ConversationPage, ConversationSummary, Direction,
    HistoryResults, ImportAppend, ImportBatch, ImportOutcome, ImportRecord, ImportedPart,
    MessageChunks, MessageRange, PageRequest, SearchResults, StoreStats, ThreadPage,
    ThreadPositions, ThreadRef, ThreadSnapshot,
};
use crate::{ConversationStore, RecallTarget, Result, StoredMessage};

pub use conn::PRAGMAS;
use conn::{map_err, open_connection, Pool};

/// The schema, in order. Applied automatically on open; `user_version` records the level.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("migrations/0001_init.sql")),
        M::up(include_str!("migrations/0002_imports.sql")),
        M::up(include_str!("migrations/0003_styles.sql")),
        // 0004 is PostgreSQL's alone (lz4); the numbers follow PostgreSQL's.
        M::up(include_str!("migrations/0005_tokens.sql")),
        M::up(include_str!("migrations/0006_search.sql")),
        M::up(include_str!("migrations/0007_segments.sql")),
        M::up(include_str!("migrations/0008_operation_kinds.sql")),
        M::up(include_str!("migrations/0009_recall_refs.sql")),
        M::up(include_str!("migrations/0010_search_terms.sql")),
        // 0011 is SQLite's alone.
        M::up(include_str!("migrations/0011_terms_written.sql")),
    ])
}

pub struct SqliteStore {
    pool: Pool,
}

/// Fills what rows stored before a column was added lack (`crate::backfill`), in one
/// transaction: either every row gets its values or none does.
fn fill_columns(writer: &mut rusqlite::Connection) -> Result<()> {
    let tx = writer
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(map_err)?;
    backfill::fill(&tx)?;
    tx.commit().map_err(map_err)
}

impl SqliteStore {
    /// Opens (creating if needed) the database file at `path` and migrates it.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore> {
        let path = path.as_ref();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::Backend(format!("cannot create {}: {e}", dir.display()))
            })?;
        }
        let mut writer = open_connection(path, rusqlite::OpenFlags::empty())?;
        migrations()
            .to_latest(&mut writer)
            .map_err(|e| StoreError::Migration(e.to_string()))?;
        fill_columns(&mut writer)?;
        Ok(SqliteStore {
            pool: Pool::open(path, writer),
        })
    }

    pub fn path(&self) -> &Path {
        self.pool.path()
    }

    /// `PRAGMA integrity_check`, for crash tests and `squash doctor`.
    pub fn integrity_check(&self) -> Result<String> {
        self.pool.read(|tx| {
            tx.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
                .map_err(map_err)
        })
    }

    /// Runs `f` with the connections. On a multi-threaded runtime, on this thread: the worker
    /// hands its other tasks to a new worker while `f` blocks (`block_in_place`), which costs
    /// far less than sending `f` to the blocking pool and waiting to be woken. A
    /// current-thread runtime cannot do that (`block_in_place` panics there), so `f` goes to
    /// the blocking pool, as it does outside any runtime's worker.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Pool) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        match Handle::try_current().map(|h| h.runtime_flavor()) {
            Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(|| f(&self.pool)),
            _ => {
                let pool = self.pool.clone();
                tokio::task::spawn_blocking(move || f(&pool))
                    .await
                    .map_err(|e| StoreError::Backend(format!("storage task failed: {e}")))?
            }
        }
    }

    /// `f` in one write transaction (`BEGIN IMMEDIATE` on the writer connection).
    async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        self.run(move |pool| pool.write(f)).await
    }

    /// `f` in one read transaction on a reader connection: one consistent snapshot.
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        self.run(move |pool| pool.read(f)).await
    }

    /// [`Self::read`] on the writer connection ([`conn::Pool::read_on_writer`]).
    async fn read_on_writer<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        self.run(move |pool| pool.read_on_writer(f)).await
    }
}

#[async_trait]
impl ConversationStore for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    async fn changes(&self) -> Result<crate::Changes> {
        Ok(self.pool.changes())
    }

    async fn ensure_project(&self, path: &str) -> Result<Project> {
        let path = path.to_owned();
        self.write(move |tx| conversations::ensure_project(tx, &path))
            .await
    }

    async fn projects(&self) -> Result<Vec<Project>> {
        self.read(conversations::projects).await
    }

    async fn project(&self, id: ProjectId) -> Result<Project> {
        self.read(move |tx| conversations::project(tx, id)).await
    }

    async fn create_conversation(&self, project: ProjectId, name: &str) -> Result<Conversation> {
        let name = name.to_owned();
        self.write(move |tx| conversations::create_conversation(tx, project, &name))
            .await
    }

    async fn conversation(&self, id: ConversationId) -> Result<Conversation> {
        self.read(move |tx| read::load_conversation(tx, id)).await
    }

    async fn conversations(&self, project: Option<ProjectId>) -> Result<Vec<Conversation>> {
        self.read(move |tx| conversations::conversations(tx, project))
            .await
    }

    async fn conversation_summaries(
        &self,
        project: Option<ProjectId>,
    ) -> Result<Vec<ConversationSummary>> {
        self.read(move |tx| conversations::summaries(tx, project))
            .await
    }

    async fn rename_conversation(&self, id: ConversationId, name: &str) -> Result<Conversation> {
        let name = name.to_owned();
        self.write(move |tx| conversations::rename_conversation(tx, id, &name))
            .await
    }

    async fn delete_conversation(&self, id: ConversationId) -> Result<()> {
        self.write(move |tx| conversations::delete_conversation(tx, id))
            .await
    }

    async fn append(&self, message: &Message) -> Result<Appended> {
        let message = message.clone();
        self.write(move |tx| write::append(tx, &message)).await
    }

    async fn commit(&self, commit: &Commit) -> Result<Thread> {
        // Checked before the writer is taken: a malformed commit never waits for the lock.
        crate::check::commit_shape(commit)?;
        let commit = commit.clone();
        self.write(move |tx| commit::commit_in(tx, &commit)).await
    }

    async fn switch_thread(
        &self,
        conversation: ConversationId,
        to: ThreadId,
        expected: ThreadId,
    ) -> Result<Conversation> {
        self.write(move |tx| write::switch_thread(tx, conversation, to, expected))
            .await
    }

    async fn switch_relative(
        &self,
        conversation: ConversationId,
        direction: Direction,
    ) -> Result<Option<Conversation>> {
        self.write(move |tx| write::switch_relative(tx, conversation, direction))
            .await
    }

    async fn snapshot(&self, thread: ThreadRef) -> Result<ThreadSnapshot> {
        self.read(move |tx| read::thread(tx, thread)).await
    }

    async fn threads(&self, conversation: ConversationId) -> Result<Vec<Thread>> {
        self.read(move |tx| read::threads(tx, conversation)).await
    }

    async fn header(&self, thread: ThreadRef) -> Result<Thread> {
        self.read(move |tx| read::thread_header(tx, thread)).await
    }

    async fn thread_tokens(&self, thread: ThreadId) -> Result<u64> {
        self.read(move |tx| tokens::thread_tokens(tx, thread)).await
    }

    async fn latest_derived_thread(&self, thread: ThreadId) -> Result<Option<Thread>> {
        self.read(move |tx| read::latest_derived_thread(tx, thread))
            .await
    }

    async fn message(&self, id: MessageId) -> Result<Message> {
        self.messages(&[id])
            .await?
            .pop()
            .ok_or_else(|| StoreError::not_found(Entity::Message, id))
    }

    async fn messages(&self, ids: &[MessageId]) -> Result<Vec<Message>> {
        let ids = ids.to_vec();
        self.read(move |tx| read::messages(tx, &ids)).await
    }

    async fn thread_page(&self, request: PageRequest) -> Result<ThreadPage> {
        self.read(move |tx| page::thread_page(tx, &request, page::parsed))
            .await
    }

    async fn thread_page_stored(
        &self,
        request: PageRequest,
    ) -> Result<ConversationPage<StoredMessage>> {
        self.read(move |tx| page::conversation_page(tx, &request, page::stored))
            .await
    }

    async fn thread_range(&self, thread: ThreadId, start: u64, limit: u32) -> Result<MessageRange> {
        self.read(move |tx| page::thread_range(tx, thread, start, limit))
            .await
    }

    async fn thread_positions(
        &self,
        thread: ThreadRef,
        ids: &[MessageId],
    ) -> Result<ThreadPositions> {
        let ids = ids.to_vec();
        self.read(move |tx| page::thread_positions(tx, thread, &ids))
            .await
    }

    async fn thread_messages(&self, thread: ThreadId) -> Result<Vec<Message>> {
        self.read(move |tx| read::thread_messages(tx, thread)).await
    }

    async fn conversation_messages(
        &self,
        conversation: ConversationId,
        after: Option<MessageId>,
        limit: u32,
    ) -> Result<Vec<Message>> {
        self.read(move |tx| read::conversation_messages(tx, conversation, after, limit))
            .await
    }

    async fn message_ids_with_prefix(
        &self,
        conversation: Option<ConversationId>,
        prefix: &str,
    ) -> Result<Vec<MessageId>> {
        let prefix = prefix.to_owned();
        self.read(move |tx| read::message_ids_with_prefix(tx, conversation, &prefix))
            .await
    }

    async fn conversation_ids_with_prefix(&self, prefix: &str) -> Result<Vec<ConversationId>> {
        let prefix = prefix.to_owned();
        self.read(move |tx| read::ids_with_prefix(tx, read::CONVERSATION_IDS, &prefix))
            .await
    }

    async fn tool_refs_closure(
        &self,
        conversation: ConversationId,
        seed: &[MessageId],
    ) -> Result<HashMap<MessageId, ToolRefs>> {
        let seed = seed.to_vec();
        self.read(move |tx| tools::tool_closure(tx, conversation, &seed))
            .await
    }

    /// Both reads in one transaction, one snapshot, on one blocking call — on the writer
    /// connection, whose cache holds the pages the last write touched: a squash, edit or
    /// delete reads this just before its write.
    async fn closure_positions(
        &self,
        conversation: ConversationId,
        seed: &[MessageId],
    ) -> Result<ClosurePositions> {
        let seed = seed.to_vec();
        self.read_on_writer(move |tx| {
            let refs = tools::tool_closure(tx, conversation, &seed)?;
            // The closure holds the seed (a seed it lacks is an error above).
            let asked: Vec<MessageId> = refs.keys().copied().collect();
            let positions = page::thread_positions(tx, ThreadRef::Current(conversation), &asked)?;
            Ok(ClosurePositions { refs, positions })
        })
        .await
    }

    async fn operation(&self, id: SquashOperationId) -> Result<SquashOperation> {
        self.read(move |tx| read::operation(tx, id)).await
    }

    async fn operation_ids_with_prefix(&self, prefix: &str) -> Result<Vec<SquashOperationId>> {
        let prefix = prefix.to_owned();
        self.read(move |tx| read::ids_with_prefix(tx, read::OPERATION_IDS, &prefix))
            .await
    }

    async fn operations(&self, conversation: ConversationId) -> Result<Vec<SquashOperation>> {
        self.read(move |tx| read::operations(tx, conversation))
            .await
    }

    async fn recall_target(
        &self,
        conversation: ConversationId,
        recall: RecallRef,
    ) -> Result<RecallTarget> {
        self.read(move |tx| read::recall_target(tx, conversation, recall))
            .await
    }

    async fn operation_source_ids(
        &self,
        id: SquashOperationId,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<MessageId>> {
        self.read(move |tx| read::operation_source_ids(tx, id, offset, limit))
            .await
    }

    async fn next_recall_ref(&self, conversation: ConversationId) -> Result<RecallRef> {
        self.read(move |tx| read::next_recall_ref(tx, conversation))
            .await
    }

    fn import_chunk_bytes(&self) -> u64 {
        // Smaller chunks cost SQLite nothing measurable (BENCHMARKS.md, "A streamed import's
        // chunks sized by its store"); 2 MB held a 1 GB import at 190 MB, this at 150.
        256 << 10
    }

    async fn stats(&self) -> Result<StoreStats> {
        self.read(read::stats).await
    }

    async fn import_conversation_chunked(
        &self,
        batch: ImportBatch,
        mut more: MessageChunks,
    ) -> Result<ImportOutcome> {
        let check = crate::check::ImportCheck::before(&batch, &more)?;
        self.write(move |tx| import::import_conversation(tx, &batch, check, &mut more))
            .await
    }

    async fn import_conversations(
        &self,
        mut batches: Vec<(ImportBatch, MessageChunks)>,
    ) -> Result<Vec<ImportOutcome>> {
        let checks = batches
            .iter()
            .map(|(batch, more)| crate::check::ImportCheck::before(batch, more))
            .collect::<Result<Vec<_>>>()?;
        self.write(move |tx| {
            batches
                .iter_mut()
                .zip(checks)
                .map(|((batch, more), check)| import::import_conversation(tx, batch, check, more))
                .collect()
        })
        .await
    }

    async fn import_append_chunked(
        &self,
        append: ImportAppend,
        mut more: MessageChunks,
    ) -> Result<Appended> {
        let check = crate::check::ImportCheck::appending(&append)?;
        self.write(move |tx| import::import_append(tx, &append, check, &mut more))
            .await
    }

    async fn import_record(&self, source_key: &str) -> Result<Option<ImportRecord>> {
        let key = source_key.to_owned();
        self.read(move |tx| import::import_record(tx, &key)).await
    }

    async fn import_records_of(&self, conversation: ConversationId) -> Result<Vec<ImportRecord>> {
        self.read(move |tx| import::import_records_of(tx, conversation))
            .await
    }

    async fn import_parts_of(&self, conversation: ConversationId) -> Result<Vec<ImportedPart>> {
        self.read(move |tx| parts::import_parts_of(tx, conversation))
            .await
    }

    async fn search(
        &self,
        query: &SearchQuery,
        conversation: Option<ConversationId>,
        limit: u32,
    ) -> Result<SearchResults> {
        let query = query.clone();
        self.read(move |tx| search::search(tx, &query, conversation, limit))
            .await
    }

    async fn search_history(
        &self,
        query: &SearchQuery,
        conversation: ConversationId,
        limit: u32,
        offset: u32,
    ) -> Result<HistoryResults> {
        let query = query.clone();
        self.read(move |tx| search::search_history(tx, &query, conversation, limit, offset))
            .await
    }
}
