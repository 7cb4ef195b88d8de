//! Every backend, each fresh (a temp SQLite file; a new PostgreSQL schema), and "on every
//! backend": the same test body against each.
//!
//! PostgreSQL is the one at `SQUASH_TEST_PG` (default `127.0.0.1:5432/test`). When it cannot be
//! reached its part of a test passes with a note, unless `SQUASH_REQUIRE_POSTGRES` or `CI` is
//! set (`scripts/test.sh` sets it): then it fails. The quick tier leaves PostgreSQL out.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use squash_app::import::ImportSummary;
use squash_app::{ConversationService, ImportOptions, NoProgress};
use squash_store::postgres::PostgresStore;
use squash_store::sqlite::SqliteStore;
use squash_store::ConversationStore;

use crate::skip::Need;

pub struct Backend {
    pub name: &'static str,
    pub store: Arc<dyn ConversationStore>,
    pub service: ConversationService,
    pub sqlite_path: Option<PathBuf>,
    pub pg_schema: Option<String>,
    pg: Option<Arc<PostgresStore>>,
    _dir: Option<tempfile::TempDir>,
}

impl Backend {
    pub async fn cleanup(self) {
        if let Some(pg) = self.pg {
            pg.drop_schema().await.expect("drop test schema");
        }
    }

    /// A fresh, empty backend of the same kind (to import an export into).
    pub async fn fresh(&self) -> Backend {
        if self.pg.is_some() {
            postgres().await.expect("PostgreSQL answered a moment ago")
        } else {
            sqlite().await
        }
    }

    /// Wraps an already open SQLite store (the crash test reopens the same file).
    pub fn from_sqlite(store: Arc<SqliteStore>, path: PathBuf) -> Backend {
        let store: Arc<dyn ConversationStore> = store;
        Backend {
            name: "sqlite",
            service: ConversationService::new(store.clone()),
            store,
            sqlite_path: Some(path),
            pg_schema: None,
            pg: None,
            _dir: None,
        }
    }

    /// Runs raw SQL on the database itself, past the store: `sqlite` on a SQLite file,
    /// `postgres` in the backend's schema (to make a database look as an older version left it).
    pub async fn raw_sql(&self, sqlite: &str, postgres: &str) {
        if let Some(path) = &self.sqlite_path {
            let db = rusqlite::Connection::open(path).expect("open sqlite");
            db.execute_batch(sqlite).expect("raw SQL on SQLite");
        }
        if let Some(schema) = &self.pg_schema {
            use sqlx::Connection;
            let mut db = sqlx::PgConnection::connect(&pg_url())
                .await
                .expect("connect to PostgreSQL");
            let sql = format!("SET search_path TO \"{schema}\"; {postgres}");
            sqlx::raw_sql(&sql)
                .execute(&mut db)
                .await
                .expect("raw SQL on PostgreSQL");
            db.close().await.expect("close");
        }
    }

    /// Imports the file or folder at `path` (sessions that name no project go to `project`);
    /// a failed import fails the test.
    pub async fn import(&self, path: &Path, project: &str) -> ImportSummary {
        self.service
            .import_path(path, &import_options(project), Arc::new(NoProgress))
            .await
            .unwrap_or_else(|e| panic!("import of {} failed: {e}", path.display()))
    }

    /// The store again, through a new connection to the same file or schema.
    pub async fn reopen(&self) -> Arc<dyn ConversationStore> {
        match (&self.sqlite_path, &self.pg_schema) {
            (Some(path), _) => Arc::new(SqliteStore::open(path).expect("reopen sqlite")),
            (None, Some(schema)) => Arc::new(
                PostgresStore::connect_in_schema(&pg_url(), schema)
                    .await
                    .expect("reconnect to the test schema"),
            ),
            _ => unreachable!("a backend is SQLite or PostgreSQL"),
        }
    }
}

/// The test PostgreSQL server's URL.
pub fn pg_url() -> String {
    std::env::var("SQUASH_TEST_PG")
        .or_else(|_| std::env::var("SQUASH_TEST_POSTGRES_URL"))
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

pub async fn sqlite() -> Backend {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("squash.db");
    let store: Arc<dyn ConversationStore> =
        Arc::new(SqliteStore::open(&path).expect("open sqlite"));
    Backend {
        name: "sqlite",
        service: ConversationService::new(store.clone()).with_actor(Some("tester".into())),
        store,
        sqlite_path: Some(path),
        pg_schema: None,
        pg: None,
        _dir: Some(dir),
    }
}

/// A backend in a new schema of the test server; `None` (noted) when there is none here.
pub async fn postgres() -> Option<Backend> {
    let schema = format!("t_{}", uuid_simple());
    let pg = Arc::new(postgres_store_in(&schema).await?);
    let store: Arc<dyn ConversationStore> = pg.clone();
    Some(Backend {
        name: "postgres",
        service: ConversationService::new(store.clone()).with_actor(Some("tester".into())),
        store,
        sqlite_path: None,
        pg_schema: Some(schema),
        pg: Some(pg),
        _dir: None,
    })
}

/// A bare SQLite store in a new temp dir (which lives as long as the returned handle).
pub fn sqlite_store() -> (tempfile::TempDir, SqliteStore) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("open sqlite");
    (dir, store)
}

/// A bare store in a new schema of the test server (drop it with `drop_schema`); `None`
/// (noted) when there is none here.
pub async fn postgres_store() -> Option<PostgresStore> {
    postgres_store_in(&format!("squash_test_{}", uuid_simple())).await
}

/// A connection to the test server; `None` (noted) when there is none here.
pub async fn pg_connection() -> Option<sqlx::PgConnection> {
    use sqlx::Connection;
    if Need::Postgres.left_to_full_tier() {
        return None;
    }
    match sqlx::PgConnection::connect(&pg_url()).await {
        Ok(db) => Some(db),
        Err(e) => {
            Need::Postgres.missing(&format!("PostgreSQL unavailable at {} ({e})", pg_url()));
            None
        }
    }
}

/// A bare store in the schema `schema` of the test server; `None` (noted) when there is none.
pub async fn postgres_store_in(schema: &str) -> Option<PostgresStore> {
    if Need::Postgres.left_to_full_tier() {
        return None;
    }
    match PostgresStore::connect_in_schema(&pg_url(), schema).await {
        Ok(store) => Some(store),
        Err(e) => {
            Need::Postgres.missing(&format!("PostgreSQL unavailable at {} ({e})", pg_url()));
            None
        }
    }
}

/// SQLite, and PostgreSQL where there is one (see the module's note).
pub async fn every_backend() -> Vec<Backend> {
    let mut all = vec![sqlite().await];
    all.extend(postgres().await);
    all
}

/// A fresh name part (a new id, simple form), for schemas and such.
pub fn uuid_simple() -> String {
    squash_core::MessageId::new().as_uuid().simple().to_string()
}

/// Runs the same async test body (`async fn body(b: &Backend)`) against every backend.
#[macro_export]
macro_rules! on_every_backend {
    ($body:ident) => {
        for backend in $crate::every_backend().await {
            let name = backend.name;
            $body(&backend).await;
            eprintln!("{name}: ok");
            backend.cleanup().await;
        }
    };
}

/// Two tests of one store check (`async fn check(store: &impl ConversationStore)`): `$sqlite`
/// on a fresh SQLite file, `$postgres` in a fresh PostgreSQL schema (see the module's note).
#[macro_export]
macro_rules! on_both_stores {
    ($check:ident: $sqlite:ident, $postgres:ident) => {
        #[tokio::test]
        async fn $sqlite() {
            let (_dir, store) = $crate::backend::sqlite_store();
            $check(&store).await;
        }

        #[tokio::test]
        async fn $postgres() {
            let Some(store) = $crate::postgres_store().await else {
                return;
            };
            $check(&store).await;
            store.drop_schema().await.expect("drop the test schema");
        }
    };
}

/// What the tests import with: the defaults, and `project` for sessions that name none.
pub fn import_options(project: &str) -> ImportOptions {
    ImportOptions {
        fallback_project: project.into(),
        ..ImportOptions::default()
    }
}
