//! The tables of a Gromozeka database and their rows, read by column name. Schema versions
//! differ in their optional columns: a column a version lacks is selected as `NULL` under its
//! name, so one query and one row type fit every version.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rusqlite::{Connection, OpenFlags};
use sha2::{Digest, Sha256};

use super::columns::{sql_text, SqlValue};
use super::DatabaseError;

/// Opens the database read-only.
pub(crate) fn open(path: &Path) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(path, flags)?;
    // A database whose WAL cannot be read without write access (or that another process holds)
    // still opens as an immutable file.
    match conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
        r.get::<_, i64>(0)
    }) {
        Ok(_) => Ok(conn),
        Err(_) => {
            let uri = format!("file:{}?immutable=1", path.display());
            Connection::open_with_flags(uri, flags)
        }
    }
}

/// A table's columns, by name.
pub(super) struct Table {
    columns: HashSet<String>,
}

impl Table {
    fn read(conn: &Connection, name: &str) -> Option<Table> {
        let mut stmt = conn
            .prepare(&format!("PRAGMA table_info(\"{name}\")"))
            .ok()?;
        let columns: HashSet<String> = stmt
            .query_map([], |r| r.get::<_, String>("name"))
            .ok()?
            .filter_map(Result::ok)
            .collect();
        (!columns.is_empty()).then_some(Table { columns })
    }

    pub(super) fn has(&self, column: &str) -> bool {
        self.columns.contains(column)
    }

    /// The select list for `columns`: the first `required` ones as they are (a table without
    /// them is not one this reader knows), each other one the table has by its name, the
    /// others as `NULL` under their name.
    fn select_list(&self, (columns, required): (&[&str], usize)) -> String {
        columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i < required || self.has(c) {
                    format!("\"{c}\"")
                } else {
                    format!("NULL AS \"{c}\"")
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The rows of `SELECT <the row's columns> FROM <from>` (with `key` as `?1`, if any).
    fn rows<R: TableRow>(
        &self,
        conn: &Connection,
        from: &str,
        key: Option<&str>,
    ) -> rusqlite::Result<Vec<R>> {
        let sql = format!("SELECT {} FROM {from}", self.select_list(R::COLUMNS));
        query(conn, &sql, key, R::from_row)
    }
}

/// The tables a reader uses; only `conversations` and `messages` are required.
pub(super) struct Tables {
    pub projects: Option<Table>,
    pub conversations: Table,
    pub threads: Option<Table>,
    pub links: Option<Table>,
    pub messages: Table,
    pub operations: Option<Table>,
}

impl Tables {
    pub(super) fn read(conn: &Connection) -> Result<Tables, DatabaseError> {
        let required =
            |name: &'static str| Table::read(conn, name).ok_or(DatabaseError::MissingTable(name));
        let tables = Tables {
            projects: Table::read(conn, "projects"),
            conversations: required("conversations")?,
            threads: Table::read(conn, "threads"),
            links: Table::read(conn, "thread_messages"),
            messages: required("messages")?,
            operations: Table::read(conn, "squash_operations"),
        };
        for (table, column) in [
            (&tables.messages, "message_json"),
            (&tables.messages, "conversation_id"),
            (&tables.conversations, "id"),
        ] {
            if !table.has(column) {
                return Err(DatabaseError::NotGromozeka(column));
            }
        }
        Ok(tables)
    }
}

/// Every row of `sql` (with `param` as `?1`, if any).
fn query<T>(
    conn: &Connection,
    sql: &str,
    param: Option<&str>,
    map: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Vec<T>> {
    let mut stmt = conn.prepare(sql)?;
    let rows = match param {
        Some(p) => stmt.query_map([p], map)?.collect(),
        None => stmt.query_map([], map)?.collect(),
    };
    rows
}

/// Feeds row values into a content hash: each as text, then a separator.
pub(super) fn feed(hash: &mut Sha256, values: &[&SqlValue]) {
    for v in values {
        hash.update(sql_text(v).unwrap_or_default().as_bytes());
        hash.update([0u8]);
    }
}

/// Project id → path, when the projects table has paths.
pub(super) fn project_paths(
    conn: &Connection,
    tables: &Tables,
) -> rusqlite::Result<HashMap<String, String>> {
    match &tables.projects {
        Some(p) if p.has("path") => {
            let rows = query(conn, "SELECT id, path FROM projects", None, |r| {
                Ok((r.get::<_, SqlValue>("id")?, r.get::<_, SqlValue>("path")?))
            })?;
            Ok(rows
                .into_iter()
                .filter_map(|(id, path)| Some((sql_text(&id)?, sql_text(&path)?)))
                .collect())
        }
        _ => Ok(HashMap::new()),
    }
}

/// A row type read by column name.
trait TableRow: Sized {
    /// Every column, and how many of the first ones are required.
    const COLUMNS: (&'static [&'static str], usize);
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self>;
}

/// Declares a row type read by column name: its fields are the columns (the required ones,
/// `;`, the optional ones), in the order the content hash takes them.
macro_rules! row {
    ($(#[$doc:meta])* $name:ident { $($req:ident),+ ; $($opt:ident),* $(,)? }) => {
        $(#[$doc])*
        pub(super) struct $name {
            $(pub $req: SqlValue,)+
            $(pub $opt: SqlValue,)*
        }

        impl TableRow for $name {
            const COLUMNS: (&'static [&'static str], usize) = (
                &[$(stringify!($req),)+ $(stringify!($opt)),*],
                [$(stringify!($req)),+].len(),
            );

            fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
                Ok($name {
                    $($req: r.get(stringify!($req))?,)+
                    $($opt: r.get(stringify!($opt))?,)*
                })
            }
        }

        impl $name {
            /// The values in column order, for the content hash.
            pub(super) fn values(&self) -> Vec<&SqlValue> {
                vec![$(&self.$req,)+ $(&self.$opt),*]
            }
        }
    };
}

row!(
    /// A `conversations` row.
    ConversationRow {
        id;
        project_id,
        display_name,
        current_thread_id,
        created_at,
        updated_at,
        ai_provider,
        model_name,
    }
);

row!(
    /// A `messages` row.
    MessageRow {
        id,
        message_json;
        created_at,
        original_ids_json,
        role,
    }
);

row!(
    /// A `threads` row.
    ThreadRow {
        id;
        original_thread_id,
        created_at,
        updated_at,
    }
);

row!(
    /// A `thread_messages` row.
    LinkRow { message_id; }
);

row!(
    /// A `squash_operations` row.
    OperationRow {
        id;
        source_message_ids,
        result_message_id,
        prompt,
        model,
        performed_by_agent,
        created_at,
    }
);

/// Reads the rows of one table, by name.
pub(super) struct Rows<'a> {
    pub conn: &'a Connection,
    pub tables: &'a Tables,
}

impl Rows<'_> {
    pub(super) fn conversations(&self) -> rusqlite::Result<Vec<ConversationRow>> {
        let from = "conversations ORDER BY rowid";
        self.tables.conversations.rows(self.conn, from, None)
    }

    /// The messages of a conversation, in the order they were stored.
    pub(super) fn messages(&self, conversation: &str) -> rusqlite::Result<Vec<MessageRow>> {
        let from = "messages WHERE conversation_id = ?1 ORDER BY rowid";
        self.tables
            .messages
            .rows(self.conn, from, Some(conversation))
    }

    /// The threads of a conversation, in the order they were stored; none without the tables.
    pub(super) fn threads(&self, conversation: &str) -> rusqlite::Result<Vec<ThreadRow>> {
        let (Some(threads), Some(_)) = (&self.tables.threads, &self.tables.links) else {
            return Ok(Vec::new());
        };
        let from = "threads WHERE conversation_id = ?1 ORDER BY rowid";
        threads.rows(self.conn, from, Some(conversation))
    }

    /// A thread's links in order (by `position` where the schema has it).
    pub(super) fn links(&self, thread: &str) -> rusqlite::Result<Vec<LinkRow>> {
        let Some(links) = &self.tables.links else {
            return Ok(Vec::new());
        };
        let order = if links.has("position") {
            "position"
        } else {
            "rowid"
        };
        let from = format!("thread_messages WHERE thread_id = ?1 ORDER BY {order}");
        links.rows(self.conn, &from, Some(thread))
    }

    /// The recorded operations of a conversation; none without the table.
    pub(super) fn operations(&self, conversation: &str) -> rusqlite::Result<Vec<OperationRow>> {
        let Some(operations) = &self.tables.operations else {
            return Ok(Vec::new());
        };
        let from = "squash_operations WHERE conversation_id = ?1 ORDER BY rowid";
        operations.rows(self.conn, from, Some(conversation))
    }
}
