//! Connections: one writer (SQLite allows one at a time; serializing in-process avoids the
//! busy-wait sleeps of SQLite's lock) and a small pool of readers (WAL lets them run beside it).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use squash_core::ConversationId;
use tokio::sync::broadcast;

use crate::error::{Entity, StoreError};
use crate::new_row::IndexedTerms;

/// Applied to every connection. WAL + NORMAL: a crash loses at most the last transactions, never
/// consistency; the benchmarks' floor uses the same pragmas.
pub const PRAGMAS: &str = "PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA foreign_keys = ON;
PRAGMA busy_timeout = 10000;
PRAGMA cache_size = -16000;
PRAGMA temp_store = MEMORY;";

/// A reader's own page cache: 2 MB.
const READER_CACHE: &str = "PRAGMA cache_size = -2000;";

pub struct Pool {
    path: PathBuf,
    // The readers are declared (so dropped) before the writer: the last connection to close
    // checkpoints the write-ahead log into the database and deletes it, which a read-only one
    // cannot do. Left behind, the log is read whole by the next process that opens the file
    // (SQLite's recovery: 0.6 s a `squash` command after importing 100,000 messages).
    readers: Arc<Mutex<Vec<Connection>>>,
    writer: Arc<Mutex<Connection>>,
    /// Where [`write`](Pool::write) publishes the conversations it changed.
    changes: broadcast::Sender<ConversationId>,
}

impl Clone for Pool {
    fn clone(&self) -> Self {
        Pool {
            path: self.path.clone(),
            readers: Arc::clone(&self.readers),
            writer: Arc::clone(&self.writer),
            changes: self.changes.clone(),
        }
    }
}

impl Pool {
    pub fn open(path: &Path, writer: Connection) -> Pool {
        Pool {
            path: path.to_path_buf(),
            readers: Arc::new(Mutex::new(Vec::new())),
            writer: Arc::new(Mutex::new(writer)),
            changes: crate::changes::sender(),
        }
    }

    pub fn changes(&self) -> crate::Changes {
        self.changes.subscribe()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction on the writer; commits on `Ok`, rolls back
    /// on `Err` (and on panic, when the transaction is dropped).
    pub fn write<T>(
        &self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.writer()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(map_err)?;
        // The conversations `f` touches (`write::touch_conversation`) are published once the
        // transaction committed, and only then.
        touched::clear();
        let value = f(&tx)?;
        tx.commit().map_err(map_err)?;
        for id in touched::take() {
            // No reader is not an error.
            let _ = self.changes.send(id);
        }
        Ok(value)
    }

    /// Runs `f` on the writer connection inside one deferred (read) transaction: for the read
    /// a write follows — a squash's, edit's or delete's selection. A reader's page cache is
    /// dropped whenever another connection wrote, so after each write it reads its pages
    /// again (a squash's read at 10,000 messages: 205 µs on average over a run of squashes,
    /// 37 µs repeated with no write between); the writer's cache holds what the last write
    /// touched. It waits for a write in progress, as the write after it would.
    pub fn read_on_writer<T>(
        &self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        in_read_transaction(&mut *self.writer()?, f)
    }

    fn writer(&self) -> Result<std::sync::MutexGuard<'_, Connection>, StoreError> {
        self.writer
            .lock()
            .map_err(|_| StoreError::Backend("writer connection poisoned".into()))
    }

    /// Runs `f` on a reader connection inside one (deferred) transaction, so that it sees one
    /// consistent snapshot.
    pub fn read<T>(
        &self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let popped = self
            .readers
            .lock()
            .map_err(|_| StoreError::Backend("reader pool poisoned".into()))?
            .pop();
        let mut conn = match popped {
            Some(c) => c,
            None => open_connection(&self.path, OpenFlags::SQLITE_OPEN_READ_ONLY)?,
        };
        let result = in_read_transaction(&mut conn, f);
        if let Ok(mut readers) = self.readers.lock() {
            if readers.len() < 8 {
                readers.push(conn);
            }
        }
        result
    }
}

pub fn open_connection(path: &Path, extra: OpenFlags) -> Result<Connection, StoreError> {
    let flags = if extra.contains(OpenFlags::SQLITE_OPEN_READ_ONLY) {
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI
    };
    let conn = Connection::open_with_flags(path, flags).map_err(|e| {
        StoreError::Backend(format!(
            "cannot open SQLite database {}: {e}",
            path.display()
        ))
    })?;
    conn.execute_batch(PRAGMAS).map_err(map_err)?;
    register_search_terms(&conn)?;
    if extra.contains(OpenFlags::SQLITE_OPEN_READ_ONLY) {
        // Up to 8 readers are kept open; at the writer's 16 MB each, their page caches alone
        // would hold 128 MB of a large database. The OS keeps the file's pages cached for all
        // of them, outside the process.
        conn.execute_batch(READER_CACHE).map_err(map_err)?;
    }
    conn.set_prepared_statement_cache_capacity(64);
    Ok(conn)
}

/// `squash_search_terms(text)`: the document of terms the FTS5 table `message_terms` indexes
/// ([`IndexedTerms`]), for migration 0010 and the fill's trigger. NULL stays
/// NULL.
fn register_search_terms(conn: &Connection) -> Result<(), StoreError> {
    use rusqlite::functions::FunctionFlags;
    conn.create_scalar_function(
        "squash_search_terms",
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            let text = ctx.get_raw(0).as_str_or_null().map_err(|e| {
                rusqlite::Error::UserFunctionError(format!("squash_search_terms: {e}").into())
            })?;
            Ok(text.map(|t| IndexedTerms::of(t).into_document()))
        },
    )
    .map_err(map_err)
}

/// Like [`map_err`], but a unique-key violation becomes [`StoreError::AlreadyExists`]: the caller
/// knows which row it inserted. Read from SQLite's extended result code, not from the message.
pub fn taken(e: rusqlite::Error, entity: Entity, id: impl std::fmt::Display) -> StoreError {
    match &e {
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(
                f.extended_code,
                rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                    | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
            ) =>
        {
            StoreError::already_exists(entity, id)
        }
        _ => map_err(e),
    }
}

pub fn map_err(e: rusqlite::Error) -> StoreError {
    use rusqlite::ErrorCode;
    match &e {
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(f.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) =>
        {
            StoreError::Busy(e.to_string())
        }
        rusqlite::Error::SqliteFailure(f, _) if f.code == ErrorCode::ConstraintViolation => {
            StoreError::Invalid(e.to_string())
        }
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(f.code, ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) =>
        {
            StoreError::Corrupt(e.to_string())
        }
        _ => StoreError::Backend(e.to_string()),
    }
}

/// Runs `f` inside one deferred transaction on `conn`: one consistent snapshot for its reads.
fn in_read_transaction<T>(
    conn: &mut Connection,
    f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let tx = conn.transaction().map_err(map_err)?;
    let value = f(&tx)?;
    tx.commit().map_err(map_err)?;
    Ok(value)
}

/// The conversations the running write transaction touched. Per thread: a write runs start to
/// end on the thread that holds the writer connection.
pub mod touched {
    use std::cell::RefCell;

    use squash_core::ConversationId;

    thread_local! {
        static TOUCHED: RefCell<Vec<ConversationId>> = const { RefCell::new(Vec::new()) };
    }

    pub fn clear() {
        TOUCHED.with(|t| t.borrow_mut().clear());
    }

    pub fn add(id: ConversationId) {
        TOUCHED.with(|t| {
            let mut t = t.borrow_mut();
            if !t.contains(&id) {
                t.push(id);
            }
        });
    }

    pub fn take() -> Vec<ConversationId> {
        TOUCHED.with(|t| std::mem::take(&mut *t.borrow_mut()))
    }
}
