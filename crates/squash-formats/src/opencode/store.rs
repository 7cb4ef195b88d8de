//! Reading opencode's SQLite store, read-only: every session with its messages and parts.

use std::path::Path;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Map, Value};

use super::{convert, Source};
use crate::gromozeka::schema::open;
use crate::gromozeka::DatabaseError;
use crate::{sha256_hex, FormatError, Parsed};

/// The tables a store must have.
const TABLES: [&str; 3] = ["session", "message", "part"];

/// Whether the SQLite database at `path` is an opencode store (it has its tables, and the
/// session table its `directory` and `slug` columns).
pub fn is_opencode_database(path: &Path) -> bool {
    let Ok(conn) = open(path) else {
        return false;
    };
    let has = |table: &str| -> bool {
        conn.query_row(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [table],
            |_| Ok(()),
        )
        .optional()
        .ok()
        .flatten()
        .is_some()
    };
    TABLES.iter().all(|t| has(t))
        && columns(&conn, "session").is_ok_and(|c| {
            ["directory", "slug", "title"]
                .iter()
                .all(|k| c.iter().any(|n| n == k))
        })
}

fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("PRAGMA table_info({table})"))?;
    let names = stmt.query_map([], |r| r.get::<_, String>(1))?;
    names.collect()
}

/// Reads every session of the store at `path`.
pub fn read_database(
    path: &Path,
    source_name: &str,
    now: DateTime<Utc>,
) -> Result<Parsed, FormatError> {
    let fail = |error: rusqlite::Error| FormatError::Database {
        source_name: source_name.to_owned(),
        error: DatabaseError::Sqlite(error),
    };
    if !is_opencode_database(path) {
        return Err(FormatError::invalid(
            source_name,
            "not an opencode store (no session, message and part tables)",
        ));
    }
    let conn = open(path).map_err(fail)?;
    let sessions = sessions(&conn).map_err(fail)?;
    let mut parsed = Parsed::default();
    for info in sessions {
        let id = info["id"].as_str().unwrap_or_default().to_owned();
        let messages = messages(&conn, &id).map_err(fail)?;
        parsed.records.lines += 1 + messages.iter().map(|(_, p)| 1 + p.len()).sum::<usize>();
        let hash = sha256_hex(
            &serde_json::to_vec(&json!({"info": info, "messages": messages_json(&messages)}))
                .unwrap_or_default(),
        );
        convert::session(
            source_name,
            Source { info, messages },
            &hash,
            now,
            &mut parsed,
        );
    }
    Ok(parsed)
}

fn messages_json(messages: &[(Value, Vec<Value>)]) -> Value {
    Value::Array(
        messages
            .iter()
            .map(|(info, parts)| json!({"info": info, "parts": parts}))
            .collect(),
    )
}

/// Every session as the info `opencode export` prints, oldest first.
fn sessions(conn: &Connection) -> rusqlite::Result<Vec<Value>> {
    let mut stmt = conn.prepare(
        "SELECT id, parent_id, slug, directory, title, version, project_id, \
         time_created, time_updated FROM session ORDER BY time_created, id",
    )?;
    let rows = stmt.query_map([], |r| {
        let mut info = Map::new();
        let text = |i: usize| -> rusqlite::Result<Option<String>> { r.get(i) };
        for (i, key) in [
            (0, "id"),
            (1, "parentID"),
            (2, "slug"),
            (3, "directory"),
            (4, "title"),
            (5, "version"),
            (6, "projectID"),
        ] {
            if let Some(v) = text(i)? {
                info.insert(key.into(), json!(v));
            }
        }
        let created: Option<i64> = r.get(7)?;
        let updated: Option<i64> = r.get(8)?;
        info.insert(
            "time".into(),
            json!({"created": created, "updated": updated}),
        );
        Ok(Value::Object(info))
    })?;
    rows.collect()
}

/// The messages of a session in order, each with its parts in order; a row whose `data` is no
/// JSON object keeps its text under `unreadable`.
fn messages(conn: &Connection, session: &str) -> rusqlite::Result<Vec<(Value, Vec<Value>)>> {
    let mut stmt = conn.prepare(
        "SELECT id, time_created, data FROM message WHERE session_id = ?1 \
         ORDER BY time_created, id",
    )?;
    let rows = stmt.query_map([session], |r| {
        let id: String = r.get(0)?;
        let created: Option<i64> = r.get(1)?;
        let data: String = r.get(2)?;
        Ok((id, created, data))
    })?;
    let mut parts_stmt =
        conn.prepare("SELECT id, data FROM part WHERE message_id = ?1 ORDER BY id")?;
    let mut out = Vec::new();
    for row in rows {
        let (id, created, data) = row?;
        let mut info = data_object(&data);
        info.insert("id".into(), json!(id));
        info.insert("sessionID".into(), json!(session));
        if !info.contains_key("time") {
            info.insert("time".into(), json!({"created": created}));
        }
        let parts = parts_stmt.query_map([&id], |r| {
            let part_id: String = r.get(0)?;
            let data: String = r.get(1)?;
            Ok((part_id, data))
        })?;
        let mut list = Vec::new();
        for p in parts {
            let (part_id, data) = p?;
            let mut part = data_object(&data);
            part.insert("id".into(), json!(part_id));
            part.insert("messageID".into(), json!(id));
            list.push(Value::Object(part));
        }
        out.push((Value::Object(info), list));
    }
    Ok(out)
}

fn data_object(data: &str) -> Map<String, Value> {
    match serde_json::from_str::<Value>(data) {
        Ok(Value::Object(o)) => o,
        _ => {
            let mut o = Map::new();
            o.insert("unreadable".into(), json!(data));
            o
        }
    }
}

/// The session of the store most recently updated in `directory` (its id, and its update time
/// in milliseconds), or the one named `id`.
pub fn find_session(
    path: &Path,
    directory: Option<&str>,
    id: Option<&str>,
) -> Option<(String, String, i64)> {
    let conn = open(path).ok()?;
    let row = |r: &rusqlite::Row<'_>| -> rusqlite::Result<(String, String, i64)> {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get::<_, Option<i64>>(2)?.unwrap_or(0),
        ))
    };
    let query = "SELECT id, directory, time_updated FROM session";
    match (id, directory) {
        (Some(id), _) => conn
            .query_row(&format!("{query} WHERE id = ?1"), [id], row)
            .ok(),
        (None, Some(dir)) => conn
            .query_row(
                &format!(
                    "{query} WHERE directory = ?1 AND parent_id IS NULL \
                     ORDER BY time_updated DESC LIMIT 1"
                ),
                [dir],
                row,
            )
            .ok(),
        (None, None) => None,
    }
}
