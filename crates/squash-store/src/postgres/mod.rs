//! The PostgreSQL backend: one server shared by many users and app instances.
//!
//! Writers of a conversation serialize on its row (`SELECT … FOR UPDATE`) under READ
//! COMMITTED, so each statement after the lock sees what earlier writers committed; readers
//! never block. Links are written set-wise (`UNNEST`), one statement per thread whatever its
//! length. See `migrations/0001_init.sql` for the schema.

mod backfill;
mod commit;
mod conversations;
mod error;
mod fetch;
mod import;
mod links;
mod listen;
mod operations;
mod page;
mod parts;
mod read;
mod rows;
mod search;
mod sql;
mod tokens;
mod tools;
mod write;

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{Connection, Executor, PgConnection, PgPool};
use squash_core::search::SearchQuery;
use squash_core::{
    Conversation, ConversationId, Message, MessageId, Project, ProjectId, RecallRef,
    SquashOperation, SquashOperationId, Thread, ThreadId, ToolRefs,
};
use tokio::sync::{broadcast, OnceCell};

use self::error::{connect_error, DbResult};
use crate::types::{ConversationPage, HistoryResults, MessageChunks, MessageRange, RecallTarget};
use crate::{
    Appended, ClosurePositions, Commit, ConversationStore, ConversationSummary, Direction,
    ImportAppend, ImportBatch, ImportOutcome, ImportRecord, ImportedPart, PageRequest, Result,
    SearchResults, StoreError, StoreStats, StoredMessage, ThreadPage, ThreadPositions, ThreadRef,
    ThreadSnapshot,
};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("src/postgres/migrations");

const MAX_CONNECTIONS: u32 = 8;
/// A writer waiting longer than this for a conversation lock gives up with `Busy` rather than
/// hanging a request.
const LOCK_TIMEOUT: &str = "10s";
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(30);

pub struct PostgresStore {
    pool: PgPool,
    /// Set when the store lives in its own schema (tests, multi-tenant setups).
    schema: Option<String>,
    /// Where the listener (started by the first reader of [`changes`]) forwards notifications.
    changes: Arc<broadcast::Sender<ConversationId>>,
    listening: OnceCell<()>,
}

impl PostgresStore {
    /// Connects to `url` and runs pending migrations in the default schema.
    pub async fn connect(url: &str) -> Result<Self> {
        Self::open(url, None).await
    }

    /// Like [`connect`](Self::connect), but keeps every table in `schema` (created if missing),
    /// so that independent stores can share one database.
    pub async fn connect_in_schema(url: &str, schema: &str) -> Result<Self> {
        if !valid_schema_name(schema) {
            return Err(StoreError::Invalid(format!(
                "schema name {schema:?} must be 1-63 ASCII letters, digits or underscores, \
                 not starting with a digit"
            )));
        }
        Self::open(url, Some(schema)).await
    }

    /// Drops the store's schema with everything in it. Only for stores opened with
    /// [`connect_in_schema`](Self::connect_in_schema): the default schema is never dropped.
    pub async fn drop_schema(&self) -> Result<()> {
        let Some(schema) = &self.schema else {
            return Err(StoreError::Invalid(
                "this store uses the default schema, which is never dropped".into(),
            ));
        };
        let statement = format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE");
        sqlx::raw_sql(&statement).execute(&self.pool).await.db()?;
        Ok(())
    }

    async fn open(url: &str, schema: Option<&str>) -> Result<Self> {
        let options = PgConnectOptions::from_str(url).map_err(|e| connect_error(url, e))?;
        // One plain connection first: an unreachable server fails here at once, where the pool
        // would keep retrying until its acquire timeout.
        let mut conn = PgConnection::connect_with(&options)
            .await
            .map_err(|e| connect_error(url, e))?;
        if let Some(schema) = schema {
            let statement = format!("CREATE SCHEMA IF NOT EXISTS \"{schema}\"");
            sqlx::raw_sql(&statement).execute(&mut conn).await.db()?;
        }
        conn.close().await.db()?;
        // No JIT: the store's statements are short index probes, but on a large table the
        // planner's cost estimates (a position probe per message) pass `jit_above_cost`, and
        // compiling then costs 50–300 ms per statement (measured at 100,000 messages).
        //
        // Generic plans: the statements' parameters are keys, ids and positions, whose plans
        // do not depend on their values, and their shapes are written to be probes whatever
        // the estimates (tools.rs). Left to choose, the server re-planned a squash's closure
        // and its write at every call (1–2 ms of a 4 ms squash at 10,000 messages).
        let mut session = format!(
            "SET lock_timeout = '{LOCK_TIMEOUT}'; SET jit = off; \
             SET plan_cache_mode = force_generic_plan;"
        );
        if let Some(schema) = schema {
            session.push_str(&format!(" SET search_path TO \"{schema}\";"));
        }
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .after_connect(move |conn, _meta| {
                let session = session.clone();
                Box::pin(async move {
                    // A query without arguments goes over the simple protocol, which takes
                    // several statements at once.
                    conn.execute(session.as_str()).await?;
                    // The search terms are bound as binary `tsvector`s, a type sqlx looks up
                    // once per connection: looked up here, with the session's settings, rather
                    // than in the round trips of the connection's first write.
                    sqlx::query("SELECT $1::tsvector, $2::tsvector[]")
                        .bind(rows::TsVector::empty())
                        .bind(Vec::<rows::TsVector>::new())
                        .execute(&mut *conn)
                        .await?;
                    Ok(())
                })
            })
            .connect_with(options)
            .await
            .map_err(|e| connect_error(url, e))?;
        MIGRATOR
            .run(&pool)
            .await
            .map_err(|e| StoreError::Migration(e.to_string()))?;
        backfill::fill(&pool).await?;
        Ok(PostgresStore {
            pool,
            schema: schema.map(str::to_string),
            changes: Arc::new(crate::changes::sender()),
            listening: OnceCell::new(),
        })
    }
}

/// Restricted so that the name can be quoted into DDL without escaping.
fn valid_schema_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 63
}

#[async_trait]
impl ConversationStore for PostgresStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    async fn changes(&self) -> Result<crate::Changes> {
        // Subscribed before listening: nothing committed after this call is missed.
        let changes = self.changes.subscribe();
        self.listening
            .get_or_try_init(|| async {
                let listener = listen::connect(&self.pool).await?;
                listen::spawn(listener, self.pool.clone(), Arc::downgrade(&self.changes));
                Ok::<(), StoreError>(())
            })
            .await?;
        Ok(changes)
    }

    async fn ensure_project(&self, path: &str) -> Result<Project> {
        conversations::ensure_project(&self.pool, path).await
    }

    async fn projects(&self) -> Result<Vec<Project>> {
        read::projects(&self.pool).await
    }

    async fn project(&self, id: ProjectId) -> Result<Project> {
        read::project(&self.pool, id).await
    }

    async fn create_conversation(&self, project: ProjectId, name: &str) -> Result<Conversation> {
        conversations::create_conversation(&self.pool, project, name).await
    }

    async fn conversation(&self, id: ConversationId) -> Result<Conversation> {
        read::conversation(&self.pool, id).await
    }

    async fn conversations(&self, project: Option<ProjectId>) -> Result<Vec<Conversation>> {
        read::conversations(&self.pool, project).await
    }

    async fn conversation_summaries(
        &self,
        project: Option<ProjectId>,
    ) -> Result<Vec<ConversationSummary>> {
        tokens::summaries(&self.pool, project).await
    }

    async fn rename_conversation(&self, id: ConversationId, name: &str) -> Result<Conversation> {
        conversations::rename_conversation(&self.pool, id, name).await
    }

    async fn delete_conversation(&self, id: ConversationId) -> Result<()> {
        conversations::delete_conversation(&self.pool, id).await
    }

    async fn append(&self, message: &Message) -> Result<Appended> {
        write::append(&self.pool, message).await
    }

    async fn commit(&self, commit: &Commit) -> Result<Thread> {
        commit::commit(&self.pool, commit).await
    }

    async fn switch_thread(
        &self,
        conversation: ConversationId,
        to: ThreadId,
        expected: ThreadId,
    ) -> Result<Conversation> {
        write::switch_thread(&self.pool, conversation, to, expected).await
    }

    async fn switch_relative(
        &self,
        conversation: ConversationId,
        direction: Direction,
    ) -> Result<Option<Conversation>> {
        write::switch_relative(&self.pool, conversation, direction).await
    }

    async fn snapshot(&self, thread: ThreadRef) -> Result<ThreadSnapshot> {
        read::thread(&self.pool, thread).await
    }

    async fn threads(&self, conversation: ConversationId) -> Result<Vec<Thread>> {
        read::threads(&self.pool, conversation).await
    }

    async fn header(&self, thread: ThreadRef) -> Result<Thread> {
        read::thread_header(&self.pool, thread).await
    }

    async fn thread_tokens(&self, thread: ThreadId) -> Result<u64> {
        tokens::thread_tokens(&self.pool, thread).await
    }

    async fn latest_derived_thread(&self, thread: ThreadId) -> Result<Option<Thread>> {
        read::latest_derived_thread(&self.pool, thread).await
    }

    async fn message(&self, id: MessageId) -> Result<Message> {
        read::message(&self.pool, id).await
    }

    async fn messages(&self, ids: &[MessageId]) -> Result<Vec<Message>> {
        read::messages(&self.pool, ids).await
    }

    async fn thread_page(&self, request: PageRequest) -> Result<ThreadPage> {
        page::thread_page(&self.pool, &request, page::parsed).await
    }

    async fn thread_page_stored(
        &self,
        request: PageRequest,
    ) -> Result<ConversationPage<StoredMessage>> {
        page::conversation_page(&self.pool, &request, page::stored).await
    }

    async fn thread_range(&self, thread: ThreadId, start: u64, limit: u32) -> Result<MessageRange> {
        page::thread_range(&self.pool, thread, start, limit).await
    }

    async fn thread_positions(
        &self,
        thread: ThreadRef,
        ids: &[MessageId],
    ) -> Result<ThreadPositions> {
        page::thread_positions(&self.pool, thread, ids).await
    }

    async fn thread_messages(&self, thread: ThreadId) -> Result<Vec<Message>> {
        read::thread_messages(&self.pool, thread).await
    }

    async fn conversation_messages(
        &self,
        conversation: ConversationId,
        after: Option<MessageId>,
        limit: u32,
    ) -> Result<Vec<Message>> {
        read::conversation_messages(&self.pool, conversation, after, limit).await
    }

    async fn message_ids_with_prefix(
        &self,
        conversation: Option<ConversationId>,
        prefix: &str,
    ) -> Result<Vec<MessageId>> {
        read::message_ids_with_prefix(&self.pool, conversation, prefix).await
    }

    async fn conversation_ids_with_prefix(&self, prefix: &str) -> Result<Vec<ConversationId>> {
        read::ids_with_prefix(&self.pool, read::CONVERSATION_IDS, prefix).await
    }

    async fn tool_refs_closure(
        &self,
        conversation: ConversationId,
        seed: &[MessageId],
    ) -> Result<HashMap<MessageId, ToolRefs>> {
        tools::closure(&self.pool, conversation, seed).await
    }

    async fn closure_positions(
        &self,
        conversation: ConversationId,
        seed: &[MessageId],
    ) -> Result<ClosurePositions> {
        tools::closure_positions(&self.pool, conversation, seed).await
    }

    async fn operation(&self, id: SquashOperationId) -> Result<SquashOperation> {
        read::operation(&self.pool, id).await
    }

    async fn operation_ids_with_prefix(&self, prefix: &str) -> Result<Vec<SquashOperationId>> {
        read::ids_with_prefix(&self.pool, read::OPERATION_IDS, prefix).await
    }

    async fn operations(&self, conversation: ConversationId) -> Result<Vec<SquashOperation>> {
        read::operations(&self.pool, conversation).await
    }

    async fn recall_target(
        &self,
        conversation: ConversationId,
        recall: RecallRef,
    ) -> Result<RecallTarget> {
        read::recall_target(&self.pool, conversation, recall).await
    }

    async fn operation_source_ids(
        &self,
        id: SquashOperationId,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<MessageId>> {
        read::operation_source_ids(&self.pool, id, offset, limit).await
    }

    async fn next_recall_ref(&self, conversation: ConversationId) -> Result<RecallRef> {
        read::next_recall_ref(&self.pool, conversation).await
    }

    fn import_chunk_bytes(&self) -> u64 {
        // Each chunk is three statements: below 2 MB a 200 MB import slowed by a fifth
        // (BENCHMARKS.md, "A streamed import's chunks sized by its store").
        2 << 20
    }

    async fn stats(&self) -> Result<StoreStats> {
        read::stats(&self.pool).await
    }

    async fn import_conversation_chunked(
        &self,
        batch: ImportBatch,
        more: crate::MessageChunks,
    ) -> Result<ImportOutcome> {
        import::import_conversation(&self.pool, batch, more).await
    }

    async fn import_conversations(
        &self,
        batches: Vec<(ImportBatch, MessageChunks)>,
    ) -> Result<Vec<ImportOutcome>> {
        import::import_conversations(&self.pool, batches).await
    }

    async fn import_append_chunked(
        &self,
        append: ImportAppend,
        more: MessageChunks,
    ) -> Result<Appended> {
        import::import_append(&self.pool, append, more).await
    }

    async fn import_record(&self, source_key: &str) -> Result<Option<ImportRecord>> {
        import::import_record(&self.pool, source_key).await
    }

    async fn import_records_of(&self, conversation: ConversationId) -> Result<Vec<ImportRecord>> {
        import::import_records_of(&self.pool, conversation).await
    }

    async fn import_parts_of(&self, conversation: ConversationId) -> Result<Vec<ImportedPart>> {
        parts::import_parts_of(&self.pool, conversation).await
    }

    async fn search(
        &self,
        query: &SearchQuery,
        conversation: Option<ConversationId>,
        limit: u32,
    ) -> Result<SearchResults> {
        search::search(&self.pool, query, conversation, limit).await
    }

    async fn search_history(
        &self,
        query: &SearchQuery,
        conversation: ConversationId,
        limit: u32,
        offset: u32,
    ) -> Result<HistoryResults> {
        search::search_history(&self.pool, query, conversation, limit, offset).await
    }
}

#[cfg(test)]
mod tests {
    use super::valid_schema_name;

    #[test]
    fn schema_names_are_plain_identifiers() {
        assert!(valid_schema_name("t_0123abcd"));
        assert!(valid_schema_name("_x"));
        assert!(!valid_schema_name(""));
        assert!(!valid_schema_name("1abc"));
        assert!(!valid_schema_name("a\"; DROP TABLE x; --"));
        assert!(!valid_schema_name(&"a".repeat(64)));
    }
}
