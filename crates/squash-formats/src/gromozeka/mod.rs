//! Gromozeka databases (`gromozeka.db`, SQLite): projects, conversations, threads,
//! thread_messages, messages and squash_operations, read through a read-only connection, every
//! row by column name.
//!
//! Each message is a kotlinx-serialization document ([`parse_message_json`]). Every
//! conversation comes with all its threads (its history). Legacy provenance is converted (the
//! spec's phase 5): a message whose `originalIds` lists two or more sources becomes the result
//! of a manual squash operation, one source an edit — unless a `squash_operations` row already
//! records it; those rows are kept.

mod columns;
mod error;
mod message;
mod reader;
pub(crate) mod schema;
mod threads;

#[cfg(test)]
mod tests;

use std::path::Path;

use chrono::{DateTime, Utc};

pub use columns::{column_time, SqlValue};
pub use error::DatabaseError;
pub use message::{content_item, parse_message_json, GromozekaError, GromozekaMessage};

use crate::{FormatError, Parsed};
use reader::ConversationReader;
use schema::{Rows, Tables};

/// The key of the Gromozeka data kept in metadata.
pub const META_KEY: &str = "gromozeka";

/// Reads every conversation of a Gromozeka database. A conversation that cannot be read is
/// skipped with the reason; the others go on.
pub fn read_database(
    path: &Path,
    source_name: &str,
    now: DateTime<Utc>,
) -> Result<Parsed, FormatError> {
    let fail = |error: DatabaseError| FormatError::Database {
        source_name: source_name.to_owned(),
        error,
    };
    let conn = schema::open(path).map_err(|e| fail(e.into()))?;
    let tables = Tables::read(&conn).map_err(fail)?;
    let projects = schema::project_paths(&conn, &tables).map_err(|e| fail(e.into()))?;
    let rows = Rows {
        conn: &conn,
        tables: &tables,
    };
    let conversations = rows.conversations().map_err(|e| fail(e.into()))?;
    let mut parsed = Parsed::default();
    for row in conversations {
        let Some(gid) = columns::sql_text(&row.id) else {
            parsed.skip(source_name, None, "a conversation row without id");
            continue;
        };
        let reader = ConversationReader {
            rows: Rows {
                conn: &conn,
                tables: &tables,
            },
            source_name,
            now,
            gid: gid.clone(),
        };
        match reader.read(&row, &projects, &mut parsed) {
            Ok(conv) => {
                // A record is one message row; every row of a conversation that reads becomes
                // a message (one whose JSON does not parse is kept as unknown content).
                parsed.records.lines += conv.messages.len();
                parsed.records.messages += conv.messages.len();
                parsed.conversations.push(conv);
            }
            Err(e) => skip_conversation(&rows, source_name, &gid, &e, &mut parsed),
        }
    }
    Ok(parsed)
}

/// A conversation that could not be read: each of its message rows is reported as skipped (or
/// the conversation as a whole, when even its rows cannot be listed).
fn skip_conversation(
    rows: &Rows<'_>,
    source_name: &str,
    gid: &str,
    error: &DatabaseError,
    parsed: &mut Parsed,
) {
    match rows.messages(gid) {
        Ok(messages) if !messages.is_empty() => {
            parsed.records.lines += messages.len();
            for m in messages {
                let id = columns::sql_text(&m.id).unwrap_or_else(|| "without id".to_owned());
                parsed.skip_record(
                    source_name,
                    None,
                    format!("message {id}: its conversation {gid} could not be read: {error}"),
                );
            }
        }
        _ => parsed.skip(source_name, None, format!("conversation {gid}: {error}")),
    }
}
